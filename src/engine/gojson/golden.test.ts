import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  goCompact,
  goFormatFloat,
  goFormatFloatV,
  goIndent,
  goIsPrint,
  goList,
  goQuote,
  goQuoteBytes,
  goQuoteList,
  ipNetString,
  ipString,
  jsonSyntaxError,
  marshal,
  parseCIDR,
  parseGo,
  parseIP,
  pluginsIPType,
  sortKeysDeep,
  utf8Decode,
} from './index';

function loadLines<T>(name: string): T[] {
  const text = readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);
}

function fromHex(h: string): Uint8Array {
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(b: Uint8Array | null): string | null {
  return b === null ? null : Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

function floatFromBits(bits: string): number {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setBigUint64(0, BigInt('0x' + bits));
  return dv.getFloat64(0);
}

describe('syntax errors and interface{} decoding against Go 1.19', () => {
  const cases = loadLines<{
    in: string;
    syntax: string | null;
    ifaceErr: string | null;
    iface: string | null;
    indent: string | null;
    compact: string;
  }>('syntax.jsonl');

  it('has enough cases', () => {
    expect(cases.length).toBeGreaterThan(1400);
    expect(cases.filter((c) => c.syntax !== null).length).toBeGreaterThan(700);
  });

  it('jsonSyntaxError matches json.Unmarshal / json.Valid', () => {
    for (const c of cases) expect(jsonSyntaxError(c.in), JSON.stringify(c.in)).toBe(c.syntax);
  });

  it('goIndent / goCompact match json.Indent / json.Compact', () => {
    const res = (r: { text: string; error: string | null }) =>
      r.error === null ? r.text : 'ERR:' + r.error;
    for (const c of cases) {
      const label = JSON.stringify(c.in).slice(0, 200);
      if (c.indent !== null) expect(res(goIndent(c.in, '> ', '  ')), label).toBe(c.indent);
      expect(res(goCompact(c.in)), label).toBe(c.compact);
    }
  });

  it('parseGo matches Unmarshal into interface{} (re-marshaled with sorted keys)', () => {
    for (const c of cases) {
      const r = parseGo(c.in);
      const label = JSON.stringify(c.in).slice(0, 200);
      if (c.syntax !== null) {
        expect(r.error, label).toBe(c.syntax);
        continue;
      }
      expect(r.error, label).toBe(c.ifaceErr);
      expect(marshal(sortKeysDeep(r.value), { sortMapKeys: true }).text, label).toBe(c.iface);
    }
  });
});

describe('marshal against Go 1.19', () => {
  type Desc =
    null | boolean | { s: string } | { f: string } | { a: Desc[] } | { m: [string, Desc][] };
  const build = (d: Desc): unknown => {
    if (d === null || typeof d === 'boolean') return d;
    if ('s' in d) return d.s;
    if ('f' in d) return floatFromBits(d.f);
    if ('a' in d) return d.a.map(build);
    const o: Record<string, unknown> = {};
    for (const [k, v] of d.m) {
      if (k === '__proto__')
        Object.defineProperty(o, k, {
          value: build(v),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else o[k] = build(v);
    }
    return o;
  };
  const cases = loadLines<{
    desc: Desc;
    marshal: string;
    indent2: string;
    indentPT: string;
    encNoHTML: string;
    encIndent: string;
  }>('marshal.jsonl');

  it('Marshal, MarshalIndent and Encoder output', () => {
    expect(cases.length).toBeGreaterThan(600);
    for (const c of cases) {
      const v = build(c.desc);
      const label = c.marshal.slice(0, 200);
      expect(marshal(v, { sortMapKeys: true }), label).toEqual({ text: c.marshal, error: null });
      expect(marshal(sortKeysDeep(v)).text, label).toBe(c.marshal);
      expect(marshal(v, { sortMapKeys: true, indent: '  ' }).text, label).toBe(c.indent2);
      expect(marshal(v, { sortMapKeys: true, prefix: '> ', indent: '\t' }).text, label).toBe(
        c.indentPT,
      );
      expect(
        marshal(v, { sortMapKeys: true, escapeHTML: false, trailingNewline: true }).text,
        label,
      ).toBe(c.encNoHTML);
      expect(
        marshal(v, { sortMapKeys: true, indent: '    ', trailingNewline: true }).text,
        label,
      ).toBe(c.encIndent);
      // Go's output decodes back to the same value
      expect(marshal(parseGo(c.marshal).value, { sortMapKeys: true }).text, label).toBe(c.marshal);
    }
  });
});

describe('float formatting against Go 1.19', () => {
  const cases = loadLines<{
    bits: string;
    json: string;
    g: string;
    e: string;
    f: string;
    v: string;
    e3: string;
    f2: string;
    g5: string;
  }>('floats.jsonl');

  it('json.Marshal(float64)', () => {
    for (const c of cases) {
      const f = floatFromBits(c.bits);
      const r = marshal(f);
      if (c.json.startsWith('ERR:'))
        expect(r, c.bits).toEqual({ text: '', error: c.json.slice(4) });
      else expect(r, c.bits).toEqual({ text: c.json, error: null });
    }
  });

  it('strconv.FormatFloat and %v', () => {
    for (const c of cases) {
      const f = floatFromBits(c.bits);
      expect(goFormatFloat(f, 'g'), c.bits).toBe(c.g);
      expect(goFormatFloat(f, 'e'), c.bits).toBe(c.e);
      expect(goFormatFloat(f, 'f'), c.bits).toBe(c.f);
      expect(goFormatFloatV(f), c.bits).toBe(c.v);
      expect(goFormatFloat(f, 'e', 3), c.bits).toBe(c.e3);
      expect(goFormatFloat(f, 'f', 2), c.bits).toBe(c.f2);
      expect(goFormatFloat(f, 'g', 5), c.bits).toBe(c.g5);
    }
  });
});

describe('strconv.Quote and fmt lists against Go 1.19', () => {
  const quotes = loadLines<{ hex: string; quote: string }>('quote.jsonl');
  const lists = loadLines<{ list: string[] | null; q: string; v: string; s: string }>(
    'lists.jsonl',
  );

  it('goQuoteBytes / goQuote', () => {
    expect(quotes.length).toBeGreaterThan(3000);
    for (const c of quotes) {
      const b = fromHex(c.hex);
      expect(goQuoteBytes(b), c.hex).toBe(c.quote);
      const s = utf8Decode(b);
      if (!s.includes('\ufffd')) expect(goQuote(s), c.hex).toBe(c.quote);
    }
  });

  it('%q and %v of []string', () => {
    for (const c of lists) {
      const l = c.list ?? [];
      expect(goQuoteList(l)).toBe(c.q);
      expect(goList(l)).toBe(c.v);
      expect(goList(l)).toBe(c.s);
    }
  });

  it('IsPrint spot checks', () => {
    expect(goIsPrint(0x20)).toBe(true);
    expect(goIsPrint(0x7f)).toBe(false);
    expect(goIsPrint(0xa0)).toBe(false);
    expect(goIsPrint(0xad)).toBe(false);
    expect(goIsPrint(0xe9)).toBe(true);
    expect(goIsPrint(0x1f600)).toBe(true);
    expect(goIsPrint(0x10ffff)).toBe(false);
  });

  it('quotes lone surrogates as U+FFFD', () => {
    expect(goQuote('a\ud800b')).toBe('"a�b"');
    expect(goQuote('\u2028')).toBe('"\\u2028"');
  });
});

describe('net against Go 1.19', () => {
  const cases = loadLines<{
    in: string;
    ip: string | null;
    ipString: string;
    cidrErr: string | null;
    cidrIP: string | null;
    cidrNetIP: string | null;
    cidrMask: string | null;
    cidrString: string;
    typesString: string;
    plugIP: string | null;
  }>('net.jsonl');

  it('ParseIP, ParseCIDR, String', () => {
    for (const c of cases) {
      const ip = parseIP(c.in);
      expect(toHex(ip), c.in).toBe(c.ip);
      expect(ipString(ip), c.in).toBe(c.ipString);
      const p = parseCIDR(c.in);
      expect(p.error, c.in).toBe(c.cidrErr);
      if (p.error === null) {
        expect(toHex(p.ip), c.in).toBe(c.cidrIP);
        expect(toHex(p.net.IP), c.in).toBe(c.cidrNetIP);
        expect(toHex(p.net.Mask), c.in).toBe(c.cidrMask);
        expect(ipNetString(p.net), c.in).toBe(c.cidrString);
        expect(ipNetString({ IP: p.ip, Mask: p.net.Mask }), c.in).toBe(c.typesString);
      }
      const pi = pluginsIPType.unmarshalText?.(c.in, pluginsIPType.zero());
      if (c.plugIP === null) {
        if (c.in !== '') expect(pi?.error, c.in).toBe('invalid IP address ' + c.in);
      } else {
        expect(pi?.error, c.in).toBeUndefined();
        expect(pluginsIPType.marshalText?.(pi?.value ?? pluginsIPType.zero()).value, c.in).toBe(
          c.plugIP,
        );
      }
    }
  });
});
