/** Structural differences between an expected (recorded) value and the engine's. */
export interface Difference {
  where: string;
  path: string;
  expected: unknown;
  got: unknown;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

export function diffValues(
  expected: unknown,
  got: unknown,
  where: string,
  path = '',
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
      out.push(...diffValues(e, g, where, path ? `${path}.${k}` : k));
    }
    return out;
  }
  if (Array.isArray(expected) && Array.isArray(got)) {
    if (expected.length !== got.length) {
      return [
        { where, path: `${path} (length ${expected.length} vs ${got.length})`, expected, got },
      ];
    }
    return expected.flatMap((e, i) => diffValues(e, got[i], where, `${path}[${i}]`));
  }
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
