/**
 * The app's routes, all in the URL hash (a static site has no server to route paths):
 *
 *   #/s/<payload>                 a shared sandbox (share/link.ts)
 *   #/course                      the course: lessons, challenges, progress
 *   #/lesson/<id>[?step=<n>]      a lesson (at a step)
 *   #/challenge/<id>?seed=<n>     a challenge: only its id and seed, never its fault
 *   #/scenario/<name>[?step=<n>]  a scenario file of the build, scenarios/<name>.json (at a step)
 *   (anything else)               the user's own sandbox
 *
 * Steps are numbered as on screen ("Step 12 of 40"; 0 is the start). A shared sandbox's link
 * carries its step inside its payload.
 *
 * One small module that every feature reads, so that two features never fight over the hash.
 * It only parses and builds hashes; what a route opens is up to its feature.
 */

export type Route =
  | { kind: 'sandbox' }
  | { kind: 'link'; payload: string }
  | { kind: 'course' }
  | { kind: 'lesson'; id: string; step?: number }
  | { kind: 'challenge'; id: string; seed: number | null }
  | { kind: 'scenario'; name: string; step?: number };

const ID_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;
/**
 * The highest step a link may ask for: a session's own limit, LIMITS.cursor (a literal here, so
 * that the first screen's route module imports nothing; link.test.ts checks the two agree).
 */
export const MAX_STEP = 2_000_000;

/** `{ step }` from a route's query `step=<n>`; nothing when absent or not a step number. */
function stepParam(query: string | undefined): { step?: number } {
  const v = new URLSearchParams(query ?? '').get('step');
  return v !== null && /^\d{1,7}$/.test(v) && Number(v) <= MAX_STEP ? { step: Number(v) } : {};
}

export function parseRoute(hash: string): Route {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (h.startsWith('/s/')) return { kind: 'link', payload: h.slice(3) };
  if (h === '/course') return { kind: 'course' };
  const lesson = /^\/lesson\/([^/?]+)(?:\?(.*))?$/.exec(h);
  if (lesson && ID_RE.test(lesson[1]!))
    return { kind: 'lesson', id: lesson[1]!, ...stepParam(lesson[2]) };
  const scenario = /^\/scenario\/([^/?]+)(?:\?(.*))?$/.exec(h);
  if (scenario && ID_RE.test(scenario[1]!))
    return { kind: 'scenario', name: scenario[1]!, ...stepParam(scenario[2]) };
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
      return `#/lesson/${r.id}${r.step === undefined ? '' : `?step=${r.step}`}`;
    case 'scenario':
      return `#/scenario/${r.name}${r.step === undefined ? '' : `?step=${r.step}`}`;
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
