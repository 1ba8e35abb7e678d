/**
 * The app's routes, all in the URL hash (a static site has no server to route paths):
 *
 *   #/s/<payload>                 a shared sandbox (share/link.ts)
 *   #/course                      the course: lessons, challenges, progress
 *   #/lesson/<id>                 a lesson
 *   #/challenge/<id>?seed=<n>     a challenge: only its id and seed, never its fault
 *   (anything else)               the user's own sandbox
 *
 * One small module that every feature reads, so that two features never fight over the hash.
 * It only parses and builds hashes; what a route opens is up to its feature.
 */

export type Route =
  | { kind: 'sandbox' }
  | { kind: 'link'; payload: string }
  | { kind: 'course' }
  | { kind: 'lesson'; id: string }
  | { kind: 'challenge'; id: string; seed: number | null };

const ID_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function parseRoute(hash: string): Route {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (h.startsWith('/s/')) return { kind: 'link', payload: h.slice(3) };
  if (h === '/course') return { kind: 'course' };
  const lesson = /^\/lesson\/([^/?]+)$/.exec(h);
  if (lesson && ID_RE.test(lesson[1]!)) return { kind: 'lesson', id: lesson[1]! };
  const challenge = /^\/challenge\/([^/?]+)(?:\?(.*))?$/.exec(h);
  if (challenge && ID_RE.test(challenge[1]!)) {
    const seed = new URLSearchParams(challenge[2] ?? '').get('seed');
    const n = seed !== null && /^\d{1,10}$/.test(seed) ? Number(seed) : NaN;
    return {
      kind: 'challenge',
      id: challenge[1]!,
      seed: Number.isSafeInteger(n) && n <= 0xffffffff ? n : null,
    };
  }
  return { kind: 'sandbox' };
}

export function routeHash(r: Route): string {
  switch (r.kind) {
    case 'sandbox':
      return '';
    case 'link':
      return `#/s/${r.payload}`;
    case 'course':
      return '#/course';
    case 'lesson':
      return `#/lesson/${r.id}`;
    case 'challenge':
      return `#/challenge/${r.id}${r.seed === null ? '' : `?seed=${r.seed}`}`;
  }
}

/** The page's address without its hash (works from any sub-path). */
export function pageUrl(loc: { href: string; hash: string }): string {
  return loc.hash
    ? loc.href.slice(0, loc.href.length - loc.hash.length)
    : loc.href.replace(/#$/, '');
}
