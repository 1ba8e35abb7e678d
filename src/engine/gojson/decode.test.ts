import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  allocatorNetType,
  basic,
  bridgeNetConfType,
  cniIPNetType,
  cniNetConfType,
  cniRouteType,
  decode,
  embed,
  field,
  goAny,
  goBool,
  goFloat64,
  goInt,
  goString,
  map,
  marshalTyped,
  netIPType,
  pluginsIPType,
  propOf,
  ptr,
  slice,
  struct,
  typeString,
  type GoField,
  type GoStructType,
  type GoType,
} from './index';
import { isBoxedPtr, structFieldsOf } from './types';

function loadLines<T>(name: string): T[] {
  const text = readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);
}

// ---- mirrors of tools/record/gojson/gen/schemas.go ----

const Mode = basic('string', 'main.Mode');
const Port = basic('uint16', 'main.Port');
const Named: GoType = { kind: 'interface', name: 'main.Named' };

const Inner: GoStructType = struct('main.Inner', () => [
  field('A', goInt, 'a'),
  field('B', goString, 'b'),
  field('C', slice(goInt), 'c'),
  field('P', ptr(Inner), 'p'),
]);

const Kinds = struct('main.Kinds', [
  field('I', goInt, 'i'),
  field('I8', basic('int8'), 'i8'),
  field('I16', basic('int16'), 'i16'),
  field('I32', basic('int32'), 'i32'),
  field('I64', basic('int64'), 'i64'),
  field('U', basic('uint'), 'u'),
  field('U8', basic('uint8'), 'u8'),
  field('U16', basic('uint16'), 'u16'),
  field('U32', basic('uint32'), 'u32'),
  field('U64', basic('uint64'), 'u64'),
  field('F32', basic('float32'), 'f32'),
  field('F64', goFloat64, 'f64'),
  field('Str', goString, 'str'),
  field('B', goBool, 'b'),
  field('Any', goAny),
  field('NE', Named, 'ne'),
  field('Mode', Mode, 'mode'),
  field('Port', Port, 'port'),
  field('PI', ptr(goInt), 'pi'),
  field('PS', ptr(goString), 'ps'),
  field('PPI', ptr(ptr(goInt)), 'ppi'),
  field('PInner', ptr(Inner), 'pinner'),
  field('SS', slice(goString), 'ss'),
  field('SI', slice(goInt), 'si'),
  field('SInner', slice(Inner), 'sinner'),
  field('SPInner', slice(ptr(Inner)), 'spinner'),
  field('SAny', slice(goAny), 'sany'),
  field('SSS', slice(slice(goString)), 'sss'),
  field('MSS', map(goString), 'mss'),
  field('MSI', map(goInt), 'msi'),
  field('MSAny', map(goAny), 'msany'),
  field('MSInner', map(Inner), 'msinner'),
  field('MSPInner', map(ptr(Inner)), 'mspinner'),
  field('MSSS', map(slice(goString)), 'msss'),
  field('MMode', map(Port, undefined, Mode), 'mmode'),
  field('QI', goInt, 'qi,string'),
  field('QB', goBool, ',string'),
  field('QS', goString, 'qs,string'),
  field('QF', goFloat64, 'qf,string'),
  field('QP', ptr(goInt), 'qp,string'),
  field('QSS', slice(goInt), 'qss,string'),
  field('Kelvin', goString, 'k'),
  field('LongS', goString, 's'),
  field('Mixed', goString, 'MiXeD'),
  field('Under', goString, 'a_b'),
  field('Dash', goString, 'x-y'),
  field('Uni', goString, 'Ünï'),
  field('Skip', goString, '-'),
  field('Dash2', goString, '-,'),
  field('Bad', goString, 'bad name!'),
  field('Empty', goString, ',omitempty'),
  field('Emb', Inner, 'emb'),
  field(
    'Anon',
    struct(undefined, [
      field('Q', goInt, 'q'),
      field('R', struct(undefined, [field('T', goString, 't')]), 'r'),
    ]),
    'anon',
  ),
  field('IP', netIPType, 'ip'),
  field('Net', cniIPNetType, 'net'),
  field('PNet', ptr(cniIPNetType), 'pnet'),
  field('Routes', slice(ptr(cniRouteType)), 'routes'),
  field('IPs', slice(ptr(pluginsIPType)), 'ips'),
  field('PIP', ptr(netIPType), 'pip'),
]);

const DC = struct('main.DC', [field('Deep', goString, 'deep'), field('W', goInt, 'w')]);
const DA = struct('main.DA', [
  field('X', goInt, 'x'),
  field('S', goString),
  field('T', goString, 'tt'),
  field('U', goString),
  field('Kk', goString, 'kk'),
  field('Name', goString),
  embed(DC),
]);
const DB = struct('main.DB', [
  field('X', goInt, 'x'),
  field('S', goString),
  field('T2', goString, 'T'),
  field('W', goString, 'w'),
  field('Nm', goString, 'Name'),
]);
const DE = struct('main.DE', [field('E', goString, 'e')]);
const Dom = struct('main.Dom', [
  embed(DA),
  embed(ptr(DB)),
  embed(DE, { tag: 'de' }),
  field('U', goInt, 'U'),
  field('V', goString),
]);

const schemas: Record<string, GoType> = {
  bridge: bridgeNetConfType,
  typesNetConf: cniNetConfType,
  hostlocal: allocatorNetType,
  kinds: Kinds,
  dom: Dom,
  int: goInt,
  uint8: basic('uint8'),
  float64: goFloat64,
  string: goString,
  bool: goBool,
  any: goAny,
  ptrint: ptr(goInt),
  strings: slice(goString),
  mapint: map(goInt),
  inner: Inner,
  inners: slice(Inner),
  mapinner: map(Inner),
  anon: struct(undefined, [
    field('A', goInt, 'a'),
    field('B', struct(undefined, [field('C', goString, 'c,omitempty')]), 'b'),
  ]),
  ipnet: cniIPNetType,
  route: cniRouteType,
  routes: slice(ptr(cniRouteType)),
  netip: netIPType,
  ipip: pluginsIPType,
  named: Named,
};

function initValue(schema: string, init: string | undefined): unknown {
  if (schema === 'bridge' && init === 'default') {
    const v = decode('{}', bridgeNetConfType).value as Record<string, unknown>;
    v.bridge = 'cni0';
    return v;
  }
  if (schema === 'kinds' && init === 'prefilled') {
    const v = decode('{}', Kinds).value as Record<string, unknown>;
    v.str = 'old';
    v.i = 42;
    v.ss = ['o1', 'o2', 'o3'];
    v.sinner = [
      { a: 1, b: 'x', c: null, p: null },
      { a: 2, b: 'y', c: null, p: null },
    ];
    v.mss = { keep: 'v' };
    v.pinner = { a: 7, b: 'old', c: [1, 2], p: null };
    v.pi = 7;
    v.Any = { old: true };
    v.msinner = { m: { a: 5, b: 'five', c: null, p: null } };
    return v;
  }
  return undefined;
}

// ---- dump: the same shape as tools/record/gojson/gen/dump.go ----

function hex(b: Uint8Array | null): string | null {
  if (b === null) return null;
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

function dumpIPNet(n: unknown): unknown {
  const v = n as { IP: Uint8Array | null; Mask: Uint8Array | null };
  return { IP: hex(v.IP), Mask: hex(v.Mask) };
}

function dump(t: GoType, v: unknown): unknown {
  switch (t.kind) {
    case 'ptr':
      if (v === null) return null;
      return dump(t.elem, isBoxedPtr(t) ? (v as { elem: unknown }).elem : v);
    case 'slice':
      return v === null ? null : (v as unknown[]).map((x) => dump(t.elem, x));
    case 'map': {
      if (v === null) return null;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = dump(t.elem, x);
      return out;
    }
    case 'struct': {
      const out: Record<string, unknown> = {};
      const o = v as Record<string, unknown>;
      for (const f of structFieldsOf(t) as GoField[]) {
        if (f.unexported) continue;
        out[f.goName] = dump(f.type, o[propOf(f)]);
      }
      return out;
    }
    case 'custom':
      switch (t.name) {
        case 'net.IP':
          return hex(v as Uint8Array | null);
        case 'types.IPNet':
          return dumpIPNet(v);
        case 'types.Route': {
          const r = v as { Dst: unknown; GW: Uint8Array | null };
          return { Dst: dumpIPNet(r.Dst), GW: hex(r.GW) };
        }
        case 'ip.IP':
          return { IPNet: dumpIPNet((v as { IPNet: unknown }).IPNet) };
      }
      throw new Error('no dumper for ' + t.name);
    default:
      return typeof v === 'bigint' ? Number(v) : v;
  }
}

interface DecodeCase {
  schema: string;
  init?: string;
  input: string;
  error: string | null;
  value: unknown;
  marshal: string;
}

const cases = loadLines<DecodeCase>('decode.jsonl');

describe('decode: typed json.Unmarshal against Go 1.19', () => {
  it('has a schema for every golden case', () => {
    expect(cases.length).toBeGreaterThan(900);
    for (const c of cases) expect(schemas[c.schema], c.schema).toBeDefined();
  });

  for (const schema of Object.keys(schemas)) {
    const mine = cases.filter((c) => c.schema === schema);
    if (mine.length === 0) continue;
    it(`${schema}: error strings and decoded values (${mine.length} cases)`, () => {
      const t = schemas[schema] as GoType;
      for (const c of mine) {
        const r = decode(c.input, t, initValue(c.schema, c.init));
        const label = `${c.schema}${c.init ? '/' + c.init : ''} ${c.input}`;
        expect(r.error, label).toBe(c.error);
        // Also after an error: Go's partially filled value is reproduced.
        expect(dump(t, r.value), label).toEqual(c.value);
        // json.Marshal of the decoded value
        expect(marshalTyped(r.value, t).text, label).toBe(c.marshal);
      }
    });
  }
});

describe('decode: API details', () => {
  it('reports Go type strings', () => {
    expect(typeString(map(goAny))).toBe('map[string]interface {}');
    expect(typeString(slice(ptr(cniRouteType)))).toBe('[]*types.Route');
    expect(typeString(struct(undefined, []))).toBe('struct {}');
  });

  it('tells a nil slice from an empty one', () => {
    const t = struct('main.T', [field('S', slice(goString), 's')]);
    expect(decode('{}', t).value).toEqual({ s: null });
    expect(decode('{"s":[]}', t).value).toEqual({ s: [] });
    expect(decode('{"s":null}', t).value).toEqual({ s: null });
  });

  it('exposes the structured *UnmarshalTypeError', () => {
    const r = decode('{"mtu":"x"}', bridgeNetConfType);
    expect(r.typeError).toEqual({ value: 'string', type: 'int', struct: 'NetConf', field: 'mtu' });
  });

  it('makes TextUnmarshaler map keys after their value; a key error stops decoding', () => {
    const keys: string[] = [];
    const upper = {
      kind: 'custom' as const,
      name: 'main.key',
      zero: () => '',
      unmarshalText: (k: string) =>
        k === 'bad' ? { error: 'bad key' } : (keys.push(k), { value: k.toUpperCase() }),
    };
    const t = map(goInt, undefined, upper);
    expect(typeString(t)).toBe('map[main.key]int');
    expect(decode('{"a":1,"b":2}', t)).toMatchObject({ value: { A: 1, B: 2 }, error: null });
    // The type error of "a" is saved, the key error after it wins and nothing after it is read.
    const r = decode('{"a":"x","bad":2,"c":3}', t);
    expect(r.error).toBe('bad key');
    expect(r.value).toEqual({ A: 0 });
    expect(keys).toEqual(['a', 'b', 'a']);
  });

  it('keeps decoding after a type error (first error wins)', () => {
    const r = decode<Record<string, unknown>>(
      '{"mtu":"x","vlan":"y","bridge":"br0"}',
      bridgeNetConfType,
    );
    expect(r.error).toBe(
      'json: cannot unmarshal string into Go struct field NetConf.mtu of type int',
    );
    expect(r.value.bridge).toBe('br0');
  });

  it('handles __proto__ keys as data', () => {
    const r = decode<Record<string, unknown>>('{"__proto__":{"x":1}}', map(goAny));
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(Object.keys(r.value)).toEqual(['__proto__']);
  });

  it('gives every caller its own value when the same text is decoded again', () => {
    const t = struct('main.T', [
      field('Name', goString, 'name', { prop: 'name' }),
      field('Routes', slice(map(goAny)), 'routes', { prop: 'routes' }),
      field('Extra', map(goAny), 'extra', { prop: 'extra' }),
    ]);
    const text = '{"name":"a","routes":[{"dst":"0.0.0.0/0"}],"extra":{"__proto__":{"x":1}}}';
    const first = decode<{ name: string; routes: Record<string, unknown>[]; extra: object }>(
      text,
      t,
    );
    // Callers change what they decoded (Go code fills in defaults): later decodes (the third
    // comes from the memo) are unaffected.
    const second = decode<typeof first.value>(text, t);
    for (const r of [first, second]) {
      r.value.name = 'changed';
      r.value.routes[0]!['dst'] = 'changed';
      r.value.routes.push({});
    }
    const again = decode<typeof first.value>(text, t);
    expect(again.value).toEqual({
      name: 'a',
      routes: [{ dst: '0.0.0.0/0' }],
      extra: JSON.parse('{"__proto__":{"x":1}}'),
    });
    expect(again.value).not.toBe(first.value);
    expect(again.value).not.toBe(second.value);
    expect(Object.keys(again.value.extra)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(again.value.extra)).toBe(Object.prototype);
    // The same error, again.
    expect(decode('{"name":1}', t).error).toBe(decode('{"name":1}', t).error);
    expect(decode('{"name":1}', t).error).toBe(
      'json: cannot unmarshal number into Go struct field T.name of type string',
    );
  });

  it('decodes into an initial value every time (not from the memo)', () => {
    const t = struct('main.T', [
      field('A', goString, 'a', { prop: 'a' }),
      field('B', goString, 'b', { prop: 'b' }),
    ]);
    expect(decode('{"a":"x"}', t).value).toEqual({ a: 'x', b: '' });
    expect(decode('{"a":"x"}', t, { a: '', b: 'kept' }).value).toEqual({ a: 'x', b: 'kept' });
  });

  it('never throws from a throwing custom callback', () => {
    const bad: GoType = {
      kind: 'custom',
      name: 'main.Bad',
      zero: () => null,
      unmarshalJSON: () => {
        throw new Error('boom');
      },
    };
    expect(decode('1', bad).error).toBe('boom');
  });
});
