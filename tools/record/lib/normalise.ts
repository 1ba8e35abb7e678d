/**
 * Normalisation (fixtures/README.md, "Placeholders"): random values become stable placeholders,
 * numbered in order of first appearance in the document (the document is written with sorted
 * keys, so "document order" is a depth-first walk in sorted-key order; inside a step its
 * invocations come before its state).
 *
 *  - temp paths -> <cniPath> <dataDir> <cacheDir> <tuningDir> <confDir> <tmp>
 *  - the netns prefix is removed everywhere (/var/run/netns/<prefix>pod-a -> /var/run/netns/pod-a)
 *  - MACs -> <mac:N> (00:00:00:00:00:00 and ff:ff:ff:ff:ff:ff stay literal)
 *  - host veth names vethXXXXXXXX -> <veth:N>
 *  - an interface's fe80:: address equal to the EUI-64 of its current MAC -> fe80::eui64(<mac:N>),
 *    any other fe80:: address -> <ll6:N>
 *  - the base64 `config` of a cache file is decoded, normalised and re-encoded.
 */
import { isObject, sortKeys, type Json, type JsonObject } from './util';

const MAC_RE = /(?<![0-9A-Fa-f:])[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}(?![0-9A-Fa-f:])/g;
const VETH_RE = /\bveth[0-9a-f]{8}\b/g;
const GO_PTR_RE = /\((\*[\w.]+)\)\(0x[0-9a-f]+\)/g;
const LL6_RE = /^fe80:[0-9a-f:]*$/i;

/** 16 bytes of an IPv6 address, or undefined. */
export function ipv6Bytes(addr: string): number[] | undefined {
  if (!/^[0-9a-f:]+$/i.test(addr)) return undefined;
  const halves = addr.split('::');
  if (halves.length > 2) return undefined;
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const head = parse(halves[0] ?? '');
  const tail = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return undefined;
  const groups = [...head, ...new Array<number>(fill).fill(0), ...tail];
  if (groups.some((g) => Number.isNaN(g) || g > 0xffff)) return undefined;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

export function isEui64LinkLocal(addr: string, mac: string): boolean {
  const b = ipv6Bytes(addr);
  const m = mac.split(':').map((x) => parseInt(x, 16));
  if (!b || m.length !== 6 || m.some((x) => Number.isNaN(x))) return false;
  const want = [0xfe, 0x80, 0, 0, 0, 0, 0, 0];
  want.push((m[0] ?? 0) ^ 0x02, m[1] ?? 0, m[2] ?? 0, 0xff, 0xfe, m[3] ?? 0, m[4] ?? 0, m[5] ?? 0);
  return want.every((v, i) => b[i] === v);
}

function mapStrings(v: Json, f: (s: string) => string): Json {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f));
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) out[f(k)] = mapStrings(x, f);
    return out;
  }
  return v;
}

/** Marks EUI-64 link-local addresses (needs the real MACs, so it runs first). */
function markEui64(doc: JsonObject): void {
  const steps = Array.isArray(doc.steps) ? doc.steps : [];
  for (const step of steps) {
    if (!isObject(step) || !isObject(step.state) || !isObject(step.state.namespaces)) continue;
    for (const ns of Object.values(step.state.namespaces)) {
      if (!isObject(ns) || !Array.isArray(ns.links)) continue;
      for (const link of ns.links) {
        if (!isObject(link) || typeof link.mac !== 'string' || !Array.isArray(link.addresses)) {
          continue;
        }
        for (const a of link.addresses) {
          if (isObject(a) && typeof a.address === 'string' && a.family === 'inet6') {
            if (isEui64LinkLocal(a.address, link.mac)) {
              a.address = `fe80::eui64(${link.mac.toLowerCase()})`;
            }
          }
        }
      }
    }
  }
}

export class Normaliser {
  private readonly macs = new Map<string, string>();
  private readonly veths = new Map<string, string>();
  private readonly ll6 = new Map<string, string>();

  /** @param paths [placeholder, real path] pairs; @param prefix the real netns prefix */
  constructor(
    private readonly paths: [string, string][],
    private readonly prefix: string,
  ) {}

  /** Non-numbered replacements: temp paths and the netns prefix. */
  plain(s: string): string {
    let out = s;
    const byLength = [...this.paths].sort((a, b) => b[1].length - a[1].length);
    for (const [ph, real] of byLength) out = out.split(real).join(ph);
    // a Go pointer printed with %#v (flannel logs its delegate config: "mtu":(*uint)(0xc0000…))
    out = out.replace(GO_PTR_RE, '($1)(<ptr>)');
    return out.split(this.prefix).join('');
  }

  /** Numbered replacements, in call order. */
  numbered(s: string): string {
    let out = s;
    if (LL6_RE.test(out)) {
      const key = out.toLowerCase();
      if (!this.ll6.has(key)) this.ll6.set(key, `<ll6:${this.ll6.size + 1}>`);
      return this.ll6.get(key) ?? out;
    }
    out = out.replace(MAC_RE, (m) => {
      const key = m.toLowerCase();
      if (key === '00:00:00:00:00:00' || key === 'ff:ff:ff:ff:ff:ff') return m;
      if (!this.macs.has(key)) this.macs.set(key, `<mac:${this.macs.size + 1}>`);
      return this.macs.get(key) ?? m;
    });
    out = out.replace(VETH_RE, (m) => {
      if (!this.veths.has(m)) this.veths.set(m, `<veth:${this.veths.size + 1}>`);
      return this.veths.get(m) ?? m;
    });
    return out;
  }

  private text(s: string): string {
    return this.numbered(this.plain(s));
  }

  /** Walks in document (sorted-key) order; cache file `config` is decoded and re-encoded. */
  private walk(v: Json, key: string | undefined, parent: JsonObject | undefined): Json {
    if (typeof v === 'string') {
      if (
        key === 'config' &&
        parent !== undefined &&
        parent.kind !== undefined &&
        'containerId' in parent
      ) {
        const decoded = Buffer.from(v, 'base64').toString('utf8');
        return Buffer.from(this.text(decoded), 'utf8').toString('base64');
      }
      return this.text(v);
    }
    if (Array.isArray(v)) return v.map((x) => this.walk(x, undefined, undefined));
    if (isObject(v)) {
      const out: JsonObject = {};
      for (const k of Object.keys(v)) out[this.text(k)] = this.walk(v[k] as Json, k, v);
      return out;
    }
    return v;
  }

  /** placeholder -> real value, for every MAC / veth / ll6 numbered so far. */
  reverse(): Map<string, string> {
    const out = new Map<string, string>();
    for (const m of [this.macs, this.veths, this.ll6])
      for (const [real, ph] of m) out.set(ph, real);
    return out;
  }

  document(doc: JsonObject): JsonObject {
    const plainDoc = mapStrings(doc, (s) => this.plain(s)) as JsonObject;
    markEui64(plainDoc);
    return this.walk(sortKeys(plainDoc), undefined, undefined) as JsonObject;
  }
}
