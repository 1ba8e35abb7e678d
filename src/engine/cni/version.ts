/** CNI spec versions: parsing, comparison, and what each plugin build supports. */
import { asCniVersion } from '../brand';
import { q } from '../gofmt';

export const ALL_VERSIONS_V1_0 = ['0.1.0', '0.2.0', '0.3.0', '0.3.1', '0.4.0', '1.0.0'] as const;
export const ALL_VERSIONS_V1_1 = [...ALL_VERSIONS_V1_0, '1.1.0'] as const;

/** The spec version a library implements (types100.ImplementedSpecVersion in libcni v1.1). */
export const IMPLEMENTED_SPEC_VERSION = asCniVersion('1.0.0');

/** version.ParseVersion: "" is 0.1.0. */
export function parseVersion(
  v: string,
): { ok: true; parts: [number, number, number] } | { ok: false; error: string } {
  if (v === '') return { ok: true, parts: [0, 1, 0] };
  const parts = v.split('.');
  if (parts.length >= 4) return { ok: false, error: `invalid version "${v}": too many parts` };
  const names = ['major', 'minor', 'micro'];
  const out: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const n = goAtoi(p);
    if (n === null || n === 'range') {
      return {
        ok: false,
        error: `failed to convert ${names[i]} version part ${q(p)}: strconv.Atoi: parsing ${q(p)}: ${n === 'range' ? 'value out of range' : 'invalid syntax'}`,
      };
    }
    out[i] = n;
  }
  return { ok: true, parts: out };
}

/** strconv.Atoi on a 64-bit platform: null for bad syntax, 'range' beyond int64. */
function goAtoi(s: string): number | null | 'range' {
  if (!/^[+-]?[0-9]+$/.test(s)) return null;
  const v = BigInt(s);
  if (v > 9223372036854775807n || v < -9223372036854775808n) return 'range';
  return Number(v);
}

export function versionGte(
  a: string,
  b: string,
): { ok: true; value: boolean } | { ok: false; error: string } {
  const pa = parseVersion(a);
  if (!pa.ok) return pa;
  const pb = parseVersion(b);
  if (!pb.ok) return pb;
  const [a1, a2, a3] = pa.parts;
  const [b1, b2, b3] = pb.parts;
  const value = a1 > b1 || (a1 === b1 && (a2 > b2 || (a2 === b2 && a3 >= b3)));
  return { ok: true, value };
}

/** version.GreaterThan (cni v1.2+): the first version's parse error comes first. */
export function versionGt(
  a: string,
  b: string,
): { ok: true; value: boolean } | { ok: false; error: string } {
  const pa = parseVersion(a);
  if (!pa.ok) return pa;
  const pb = parseVersion(b);
  if (!pb.ok) return pb;
  const [a1, a2, a3] = pa.parts;
  const [b1, b2, b3] = pb.parts;
  const value = a1 > b1 || (a1 === b1 && (a2 > b2 || (a2 === b2 && a3 > b3)));
  return { ok: true, value };
}

/** Spec versions starting from `min` (version.VersionsStartingFrom). */
export function versionsFrom(all: readonly string[], min: string): string[] {
  const i = all.indexOf(min);
  return i < 0 ? [] : all.slice(i);
}
