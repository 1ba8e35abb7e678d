import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocatorNetType,
  bridgeNetConfType,
  decode,
  goFormatFloat,
  goIndent,
  goQuote,
  jsonSyntaxError,
  marshal,
  marshalTyped,
  parseGo,
  sortKeysDeep,
} from './index';

/** Any UTF-16 code unit, including lone surrogates and control characters. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const jsonish = fc.constantFrom(
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"',
  '\\',
  ' ',
  '\n',
  'null',
  'true',
  'false',
  '-',
  '0',
  '1.5e3',
  '\\u',
  'a',
  'é',
  '😀',
  '\ud800',
  '\u2028',
);
const anyText = fc.oneof(
  fc.string({ unit: codeUnit }),
  fc.string({ unit: jsonish }),
  fc.json(),
  fc
    .json()
    .chain((j) =>
      fc
        .tuple(fc.nat(j.length), fc.string({ unit: jsonish, maxLength: 3 }))
        .map(([i, ins]) => j.slice(0, i) + ins + j.slice(i)),
    ),
);

function jsParseOk(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch (_e) {
    return false;
  }
}

describe('properties', () => {
  it('jsonSyntaxError never throws and agrees with JSON.parse on validity', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const err = jsonSyntaxError(s);
        expect(err === null).toBe(jsParseOk(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('parseGo and typed decode never throw', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const r = parseGo(s);
        expect(r.error === null || typeof r.error === 'string').toBe(true);
        const b = decode(s, bridgeNetConfType);
        expect(b.error === null || typeof b.error === 'string').toBe(true);
        const h = decode(s, allocatorNetType);
        expect(h.error === null || typeof h.error === 'string').toBe(true);
        expect(marshalTyped(b.value, bridgeNetConfType).error).toBeNull();
        expect(marshalTyped(h.value, allocatorNetType).error).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('parseGo agrees with JSON.parse on well-formed values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        const r = parseGo(text);
        expect(r.error).toBeNull();
        expect(r.value).toEqual(JSON.parse(text));
      }),
      { numRuns: 1000 },
    );
  });

  // (Lone surrogates are excluded: like invalid UTF-8 in Go they come back as a literal U+FFFD.)
  it('marshal(parseGo(marshal(x))) round-trips', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (v) => {
        const m = marshal(v, { sortMapKeys: true });
        expect(m.error).toBeNull();
        const back = parseGo(m.text);
        expect(back.error).toBeNull();
        expect(marshal(back.value, { sortMapKeys: true }).text).toBe(m.text);
        expect(marshal(sortKeysDeep(back.value)).text).toBe(m.text);
        // indented output is the same document
        const ind = marshal(v, { sortMapKeys: true, indent: '  ' }).text;
        expect(goIndent(m.text, '', '  ').text).toBe(ind);
      }),
      { numRuns: 1000 },
    );
  });

  it('marshal never throws on arbitrary values', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withTypedArray: true }), (v) => {
        const m = marshal(v);
        expect(typeof m.text).toBe('string');
        if (m.error === null) expect(jsonSyntaxError(m.text)).toBeNull();
      }),
      { numRuns: 1000 },
    );
  });

  it('goQuote never throws and re-reads as the same string (valid UTF-16)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const q = goQuote(s);
        expect(q.startsWith('"') && q.endsWith('"')).toBe(true);
      }),
    );
  });

  it('shortest float formatting round-trips', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (f) => {
        expect(Number(goFormatFloat(f, 'g'))).toBe(f);
        expect(Number(goFormatFloat(f, 'e'))).toBe(f);
        expect(Number(marshal(f).text)).toBe(f);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('edge cases', () => {
  it('handles lone surrogates as U+FFFD', () => {
    expect(jsonSyntaxError('\ud800')).toBe("invalid character 'ï' looking for beginning of value");
    expect(jsonSyntaxError('"\ud800"')).toBeNull();
    expect(parseGo('"a\ud800b"').value).toBe('a\ufffdb');
    expect(parseGo('"\\ud800\\u0041"').value).toBe('\ufffdA');
    expect(marshal('a\udc00b').text).toBe('"a\\ufffdb"');
    expect(jsonSyntaxError('😀')).toBe("invalid character 'ð' looking for beginning of value");
  });

  it('reports NaN / Inf and cycles like Go', () => {
    expect(marshal(NaN).error).toBe('json: unsupported value: NaN');
    expect(marshal([Infinity]).error).toBe('json: unsupported value: +Inf');
    expect(marshal({ a: -Infinity }).error).toBe('json: unsupported value: -Inf');
    const o: Record<string, unknown> = {};
    o.self = o;
    expect(marshal(o).error).toBe(
      'json: unsupported value: encountered a cycle via map[string]interface {}',
    );
  });

  it('marshals plain objects in insertion order and Maps sorted', () => {
    expect(marshal({ b: 1, a: [], c: {} }).text).toBe('{"b":1,"a":[],"c":{}}');
    expect(
      marshal(
        new Map([
          ['b', 1],
          ['a', 2],
        ]),
      ).text,
    ).toBe('{"a":2,"b":1}');
    expect(marshal({ b: 1, a: 2 }, { indent: '  ' }).text).toBe('{\n  "b": 1,\n  "a": 2\n}');
    expect(marshal(-0).text).toBe('-0');
    expect(marshal(1e21).text).toBe('1e+21');
    expect(marshal(1e-7).text).toBe('1e-7');
    expect(marshal(12345678901234567890n).text).toBe('12345678901234567890');
    expect(marshal('<a&b>').text).toBe('"\\u003ca\\u0026b\\u003e"');
    expect(marshal('<a&b>', { escapeHTML: false }).text).toBe('"<a&b>"');
    expect(marshal('\u2028\u2029', { escapeHTML: false }).text).toBe('"\\u2028\\u2029"');
  });

  it('decodes nesting up to Go\u2019s limit', () => {
    const deep = '['.repeat(10000) + ']'.repeat(10000);
    expect(parseGo(deep).error).toBeNull();
    expect(marshal(parseGo(deep).value).text).toBe(deep);
    expect(jsonSyntaxError('[' + deep + ']')).toBe("invalid character '[' exceeded max depth");
  });
});
