/**
 * Durations in scenario files, in Go's time.ParseDuration shape ("1m30s", "250ms", "2h") or a
 * number of seconds; virtual time inside the engine is microseconds.
 */

const UNIT_US: Record<string, number> = {
  us: 1,
  µs: 1,
  ms: 1_000,
  s: 1_000_000,
  m: 60_000_000,
  h: 3_600_000_000,
};

const DURATION_RE = /^(?:\d+(?:\.\d+)?(?:us|µs|ms|s|m|h))+$/;

/** Microseconds of a duration ("1m30s", "1.5s", "500ms", or seconds as a number), or null. */
export function parseDuration(v: string | number): number | null {
  if (typeof v === 'number') {
    return Number.isFinite(v) && v >= 0 ? Math.round(v * 1_000_000) : null;
  }
  const s = v.trim();
  if (s === '0') return 0;
  if (!DURATION_RE.test(s)) return null;
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(us|µs|ms|s|m|h)/g)) {
    total += Number(m[1]) * UNIT_US[m[2]!]!;
  }
  return Math.round(total);
}

/** A readable duration: 0s, 850ms, 12.5s, 2m10s, 1h5m. */
export function formatDuration(us: number): string {
  if (us < 1_000_000) {
    if (us % 1000 === 0 || us >= 10_000) return `${Math.round(us / 1000)}ms`;
    return `${(us / 1000).toFixed(3).replace(/\.?0+$/, '')}ms`;
  }
  const totalS = us / 1_000_000;
  if (totalS < 60) return `${Number(totalS.toFixed(3))}s`;
  const h = Math.floor(totalS / 3600);
  const m = Math.floor((totalS % 3600) / 60);
  const s = Number((totalS % 60).toFixed(3));
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}` || '0s';
}
