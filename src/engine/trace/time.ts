/**
 * Virtual time as the logs print it. Virtual time 0 is a fixed wall-clock instant, so the same
 * run always prints the same timestamps.
 */

/** 2025-03-03T10:15:00Z, the moment every simulation starts. */
export const BASE_TIME_MS = Date.UTC(2025, 2, 3, 10, 15, 0);

/** English day and month abbreviations, as C's and Go's time formats print them. */
export const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

function parts(us: number) {
  const ms = BASE_TIME_MS + Math.floor(us / 1000);
  const d = new Date(ms);
  const micro = ((Math.floor(us) % 1_000_000) + 1_000_000) % 1_000_000;
  return {
    y: d.getUTCFullYear(),
    mo: d.getUTCMonth(),
    day: d.getUTCDate(),
    h: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
    micro,
  };
}

const p2 = (n: number) => String(n).padStart(2, '0');

/** logrus / RFC 3339 with nanoseconds: 2025-03-03T10:15:02.120481000Z. */
export function rfc3339Nano(us: number): string {
  const t = parts(us);
  return `${t.y}-${p2(t.mo + 1)}-${p2(t.day)}T${p2(t.h)}:${p2(t.mi)}:${p2(t.s)}.${String(t.micro).padStart(6, '0')}000Z`;
}

/** klog's header time: 0303 10:15:02.131004. */
export function klogTime(us: number): string {
  const t = parts(us);
  return `${p2(t.mo + 1)}${p2(t.day)} ${p2(t.h)}:${p2(t.mi)}:${p2(t.s)}.${String(t.micro).padStart(6, '0')}`;
}

/** journalctl's short format: Mar 03 10:15:02. */
export function journalTime(us: number): string {
  const t = parts(us);
  return `${MONTHS[t.mo]} ${p2(t.day)} ${p2(t.h)}:${p2(t.mi)}:${p2(t.s)}`;
}

/** kubectl's age column: 5s, 2m10s, 3h. */
export function age(us: number): string {
  const s = Math.max(0, Math.floor(us / 1_000_000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${s % 60 ? `${s % 60}s` : ''}`;
  if (m < 180) return `${m}m`;
  return `${Math.floor(m / 60)}h`;
}
