/**
 * Normalisation of random values, as the conformance fixtures' recorder does it: MACs, host veth
 * names and link-local addresses become numbered placeholders in order of first appearance
 * (steps in order; in a step, its invocations before the rest, its state last; object keys in
 * sorted order), and temp paths become `<cniPath>`, `<dataDir>`, ...
 */
import { base64Decode, base64Encode } from '../base64';
import { eui64LinkLocal } from '../net/mac';

/**
 * Six hex pairs not inside a longer run of hex digits and colons (tools/record/lib/normalise.ts):
 * a 7-byte MAC in an error message, or a MAC-like run inside an IPv6 address, stays literal.
 */
export const MAC_RE = /(?<![0-9A-Fa-f:])[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}(?![0-9A-Fa-f:])/g;
const VETH_RE = /\bveth[0-9a-f]{8}\b/g;
/** A Go pointer printed with %#v (flannel logs its delegate config: `"mtu":(*uint)(0xc0000…)`). */
const GO_PTR_RE = /\((\*[\w.]+)\)\(0x[0-9a-f]+\)/g;
/** MACs that are not random: kept as they are. */
export const FIXED_MACS = new Set(['00:00:00:00:00:00', 'ff:ff:ff:ff:ff:ff']);

export interface NormalizeOptions {
  /** Real path -> placeholder, e.g. ["/opt/cni/bin", "<cniPath>"]. */
  paths: Array<[string, string]>;
}

type Json = unknown;

function sortedKeys(o: Record<string, Json>): string[] {
  return Object.keys(o).sort();
}

function stepOrder(step: Record<string, Json>): string[] {
  const keys = sortedKeys(step).filter(
    (k) => k !== 'invocations' && k !== 'invocation' && k !== 'state',
  );
  const first = ['invocations', 'invocation'].filter((k) => k in step);
  return [...first, ...keys, ...('state' in step ? ['state'] : [])];
}

export class Normalizer {
  private macs = new Map<string, number>();
  private veths = new Map<string, number>();
  private ll6 = new Map<string, number>();
  private readonly paths: Array<[string, string]>;

  constructor(opts: NormalizeOptions) {
    this.paths = [...opts.paths].sort((a, b) => b[0].length - a[0].length);
  }

  /** First pass over a value: number the MACs and veth names in traversal order. */
  private scan(v: Json): void {
    if (typeof v === 'string') {
      for (const m of v.matchAll(MAC_RE)) this.mac(m[0]);
      for (const m of v.matchAll(VETH_RE)) this.veth(m[0]);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) this.scan(x);
      return;
    }
    if (v && typeof v === 'object') {
      const o = v as Record<string, Json>;
      if (typeof o['config'] === 'string' && isCacheFile(o)) {
        const text = base64Decode(o['config'] as string);
        for (const k of sortedKeys(o)) {
          if (k === 'config' && text !== null) this.scan(text);
          else this.scan(o[k]);
        }
        return;
      }
      for (const k of sortedKeys(o)) this.scan(o[k]);
    }
  }

  private mac(m: string): number | null {
    const low = m.toLowerCase();
    if (FIXED_MACS.has(low)) return null;
    let n = this.macs.get(low);
    if (n === undefined) {
      n = this.macs.size + 1;
      this.macs.set(low, n);
    }
    return n;
  }

  private veth(v: string): number {
    let n = this.veths.get(v);
    if (n === undefined) {
      n = this.veths.size + 1;
      this.veths.set(v, n);
    }
    return n;
  }

  private text(s: string): string {
    let out = s;
    for (const [real, ph] of this.paths) out = out.split(real).join(ph);
    out = out.replace(GO_PTR_RE, '($1)(<ptr>)');
    out = out.replace(MAC_RE, (m) => {
      const n = this.mac(m);
      return n === null ? m : `<mac:${n}>`;
    });
    out = out.replace(VETH_RE, (m) => `<veth:${this.veth(m)}>`);
    return out;
  }

  private rewrite(v: Json, linkMac: string | null = null): Json {
    if (typeof v === 'string') return this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.rewrite(x, linkMac));
    if (v && typeof v === 'object') {
      const o = v as Record<string, Json>;
      const out: Record<string, Json> = {};
      // A link object: its link-local addresses refer to its current MAC.
      const mac =
        typeof o['mac'] === 'string' && Array.isArray(o['addresses'])
          ? (o['mac'] as string)
          : linkMac;
      for (const k of sortedKeys(o)) {
        const x = o[k];
        if (k === 'config' && isCacheFile(o) && typeof x === 'string') {
          const text = base64Decode(x);
          out[k] = text === null ? x : base64Encode(this.text(text));
        } else if (
          k === 'address' &&
          typeof x === 'string' &&
          /^fe80:/i.test(x) &&
          o['family'] === 'inet6'
        ) {
          out[k] = this.linkLocal(x, linkMac);
        } else {
          out[k] = this.rewrite(x, mac);
        }
      }
      return out;
    }
    return v;
  }

  private linkLocal(addr: string, linkMac: string | null): string {
    if (linkMac && !FIXED_MACS.has(linkMac.toLowerCase()) && eui64LinkLocal(linkMac) === addr) {
      return `fe80::eui64(<mac:${this.mac(linkMac)}>)`;
    }
    let n = this.ll6.get(addr);
    if (n === undefined) {
      n = this.ll6.size + 1;
      this.ll6.set(addr, n);
    }
    return `<ll6:${n}>`;
  }

  /** Normalises one step (numbering continues across calls). */
  step(step: Record<string, Json>): Record<string, Json> {
    for (const k of stepOrder(step)) this.scan(step[k]);
    const out: Record<string, Json> = {};
    for (const k of stepOrder(step)) out[k] = this.rewrite(step[k]);
    return out;
  }

  /** The real value an engine placeholder (e.g. `<mac:3>`) stands for. */
  realOf(placeholder: string): string | undefined {
    const m = /^<(mac|veth):(\d+)>$/.exec(placeholder);
    if (!m) return undefined;
    const n = Number(m[2]);
    for (const [v, i] of m[1] === 'mac' ? this.macs : this.veths) if (i === n) return v;
    return undefined;
  }

  /** Numbers a value first seen in an input (e.g. a MAC the recording chose); returns its placeholder. */
  adopt(kind: 'mac' | 'veth', value: string): string {
    return kind === 'mac' ? `<mac:${this.mac(value)}>` : `<veth:${this.veth(value)}>`;
  }

  value(v: Json): Json {
    this.scan(v);
    return this.rewrite(v);
  }
}

/**
 * A cache file's object, as the recorder's normaliser recognises one (a `kind`, whatever its
 * value, and a `containerId`): its base64 `config` is decoded and normalised too.
 */
function isCacheFile(o: Record<string, Json>): boolean {
  return o['kind'] !== undefined && 'containerId' in o;
}
