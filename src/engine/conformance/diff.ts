/**
 * Structural differences between an expected (recorded) value and the engine's, both normalised.
 * Placeholders (`<mac:N>`, `<veth:N>`, `<ll6:N>`) are matched up to a consistent renaming: two
 * recordings may number the same values differently (one recorder counts a MAC written in its
 * notes first), so `<mac:2>` in one may be `<mac:1>` in the other, as long as it always is.
 *
 * A Go heap address a plugin prints (tuning 1.1.1 formats the *bool of allmulti with %v:
 * "... all-multicast mode of eth0 is 0xc0000a6bd0 ...") differs from run to run: any two match.
 *
 * A libcni cache file's `config` is the conflist as base64, so placeholders inside it are
 * compared decoded, with the same renaming.
 */
import { base64Decode } from '../base64';

export interface Difference {
  where: string;
  path: string;
  expected: unknown;
  got: unknown;
}

const PH = /<(mac|veth|ll6):(\d+)>/g;

/** A Go heap address on amd64 (the heap arenas start at 0xc000000000). */
const GO_HEAP_PTR = /\b0xc000[0-9a-f]{6}\b/g;

function withoutGoPointers(s: string): string {
  return s.replace(GO_HEAP_PTR, '0xc000<ptr>');
}

/** A bijection between the expected recording's placeholders and the engine's. */
export class Renaming {
  readonly fwd = new Map<string, string>();
  readonly back = new Map<string, string>();

  /** Whether `e` and `g` may stand for the same value; binds them if both are new. */
  bind(e: string, g: string): boolean {
    const f = this.fwd.get(e);
    const b = this.back.get(g);
    if (f === undefined && b === undefined) {
      this.fwd.set(e, g);
      this.back.set(g, e);
      return true;
    }
    return f === g && b === e;
  }

  /** Strings equal up to the renaming (binding new pairs only if everything else matches). */
  stringsMatch(e: string, g: string): boolean {
    if (e === g && !PH.test(e)) return true;
    const es = e.split(PH);
    const gs = g.split(PH);
    // split with two groups: [lit, kind, n, lit, kind, n, ..., lit]
    if (es.length !== gs.length) return false;
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i < es.length; i += 3) {
      if (es[i] !== gs[i]) return false;
      if (i + 2 < es.length) {
        if (es[i + 1] !== gs[i + 1]) return false;
        pairs.push([`<${es[i + 1]}:${es[i + 2]}>`, `<${gs[i + 1]}:${gs[i + 2]}>`]);
      }
    }
    // Check without binding first, then bind.
    const tentative = new Map<string, string>();
    const tentativeBack = new Map<string, string>();
    for (const [a, b] of pairs) {
      const f = this.fwd.get(a) ?? tentative.get(a);
      const r = this.back.get(b) ?? tentativeBack.get(b);
      if (f === undefined && r === undefined) {
        tentative.set(a, b);
        tentativeBack.set(b, a);
      } else if (f !== b || r !== a) return false;
    }
    for (const [a, b] of tentative) this.bind(a, b);
    return true;
  }
}

function isObj(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** A cache file's object, as the normaliser recognises one (normalize.ts isCacheFile). */
function isCacheFile(o: Record<string, unknown>): boolean {
  return o['kind'] !== undefined && 'containerId' in o;
}

export function diffValues(
  expected: unknown,
  got: unknown,
  where: string,
  path = '',
  ren = new Renaming(),
): Difference[] {
  if (isObj(expected) && isObj(got)) {
    const out: Difference[] = [];
    const keys = new Set([...Object.keys(expected), ...Object.keys(got)]);
    for (const k of [...keys].sort()) {
      // Provenance notes ("derived from libcni source" / "observed") are not behaviour.
      if (k === 'derived' || k === 'observed') continue;
      const e = expected[k];
      const g = got[k];
      // A plugin that delegated nothing: the recorder writes [] or leaves the key out.
      if (
        k === 'delegated' &&
        (e === undefined || (Array.isArray(e) && e.length === 0)) &&
        (g === undefined || (Array.isArray(g) && g.length === 0))
      ) {
        continue;
      }
      if (k === 'config' && isCacheFile(expected) && isCacheFile(got)) {
        const et = typeof e === 'string' ? base64Decode(e) : null;
        const gt = typeof g === 'string' ? base64Decode(g) : null;
        if (et !== null && gt !== null && ren.stringsMatch(et, gt)) continue;
      }
      out.push(...diffValues(e, g, where, path ? `${path}.${k}` : k, ren));
    }
    return out;
  }
  if (Array.isArray(expected) && Array.isArray(got)) {
    if (expected.length !== got.length) {
      return [
        { where, path: `${path} (length ${expected.length} vs ${got.length})`, expected, got },
      ];
    }
    return expected.flatMap((e, i) => diffValues(e, got[i], where, `${path}[${i}]`, ren));
  }
  if (
    typeof expected === 'string' &&
    typeof got === 'string' &&
    ren.stringsMatch(withoutGoPointers(expected), withoutGoPointers(got))
  )
    return [];
  if (expected === got) return [];
  return [{ where, path, expected, got }];
}

function short(v: unknown): string {
  const s = v === undefined ? '(absent)' : JSON.stringify(v);
  return s.length > 300 ? s.slice(0, 300) + '…' : s;
}

export function formatDifference(d: Difference): string {
  return `  ${d.where} ${d.path}\n    expected: ${short(d.expected)}\n    got:      ${short(d.got)}`;
}
