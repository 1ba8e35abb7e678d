/**
 * The embed's postMessage API, version 1 (docs/embedding.md). Shared by the embed page
 * (src/embed) and the `<cni-sim>` element (src/element): no dependencies, so that the
 * element's script stays small.
 *
 * Every message is an object with `cnisim: 1` and a `type`. Steps are numbered as on screen:
 * step 0 is the start, step n is the state after the n-th event.
 *
 * Both sides check origins: the embed takes messages only from its parent window at the origin
 * it was given (`origin` parameter, else the embedding page's origin from the referrer) and
 * posts only to that origin; a host takes messages only from the iframe's window at the
 * simulator's origin.
 */

export const PROTOCOL = 1;

export type Theme = 'light' | 'dark' | 'auto';

export const EMBED_VIEWS = [
  'sequence',
  'topology',
  'steps',
  'inspector',
  'pods',
  'files',
  'journal',
  'machines',
  'metrics',
] as const;
export type EmbedView = (typeof EMBED_VIEWS)[number];

export const LEVELS = ['cluster', 'runtime', 'cni', 'kernel'] as const;
export type DetailLevel = (typeof LEVELS)[number];

/** Host → embed. */
export type HostMessage =
  | { cnisim: 1; type: 'goto'; step: number }
  | { cnisim: 1; type: 'load'; scenario: string; step?: number }
  | { cnisim: 1; type: 'inject'; fault: string; params?: Record<string, unknown> }
  | { cnisim: 1; type: 'views'; views: EmbedView[] }
  | { cnisim: 1; type: 'theme'; theme: Theme }
  | { cnisim: 1; type: 'level'; level: DetailLevel }
  | { cnisim: 1; type: 'play' }
  | { cnisim: 1; type: 'pause' };

/** Embed → host. */
export type EmbedMessage =
  | { cnisim: 1; type: 'ready'; step: number; length: number }
  | { cnisim: 1; type: 'step'; step: number; length: number }
  | { cnisim: 1; type: 'solved'; lesson: string }
  | { cnisim: 1; type: 'height'; height: number }
  | { cnisim: 1; type: 'error'; message: string };

const MAX_STEP = 2_000_000;
const FAULT_RE = /^[a-z0-9][a-z0-9.-]{0,63}$/;
const PAYLOAD_RE = /^[A-Za-z0-9_-]{1,32768}$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isStep(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_STEP;
}

export function isView(v: unknown): v is EmbedView {
  return typeof v === 'string' && (EMBED_VIEWS as readonly string[]).includes(v);
}

export function isTheme(v: unknown): v is Theme {
  return v === 'light' || v === 'dark' || v === 'auto';
}

export function isLevel(v: unknown): v is DetailLevel {
  return typeof v === 'string' && (LEVELS as readonly string[]).includes(v);
}

const ID_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * What an embed shows (the `scenario` parameter, attribute and `load` message):
 *
 *   sandbox             the default sandbox (one pod about to be created)
 *   lesson:<id>         a lesson of the course, where the learner takes over
 *   challenge:<id>      a challenge of the course with seed 1, where the candidate arrives
 *   challenge:<id>:<n>  the same with seed n (1 – 999999)
 *   scenario:<name>     a scenario file of the build (scenarios/<name>.json), at its start
 *   <payload>           the payload of a share link (what "Share → Embed" writes)
 *
 * Only the form is checked here; whether the lesson or file exists is known once the embed has
 * loaded its list (an unknown one is reported inside the embed and to the host).
 */
export type ScenarioRef =
  | { kind: 'sandbox' }
  | { kind: 'lesson'; id: string }
  | { kind: 'challenge'; id: string; seed: number }
  | { kind: 'file'; name: string }
  | { kind: 'link'; payload: string };

export function parseScenario(v: unknown): ScenarioRef | null {
  if (typeof v !== 'string') return null;
  if (v === 'sandbox') return { kind: 'sandbox' };
  const colon = v.indexOf(':');
  if (colon < 0) return PAYLOAD_RE.test(v) ? { kind: 'link', payload: v } : null;
  const prefix = v.slice(0, colon);
  const id = v.slice(colon + 1);
  if (prefix === 'challenge') {
    const m = /^([a-z0-9][a-z0-9-]{0,63})(?::([1-9][0-9]{0,5}))?$/.exec(id);
    return m ? { kind: 'challenge', id: m[1]!, seed: m[2] ? Number(m[2]) : 1 } : null;
  }
  if (!ID_RE.test(id)) return null;
  if (prefix === 'lesson') return { kind: 'lesson', id };
  if (prefix === 'scenario') return { kind: 'file', name: id };
  return null;
}

export function isScenario(v: unknown): v is string {
  return parseScenario(v) !== null;
}

export function isLessonId(v: unknown): v is string {
  return typeof v === 'string' && ID_RE.test(v);
}

/** Validates a message from a host; null when it is not one (it is then ignored). */
export function parseHostMessage(data: unknown): HostMessage | null {
  if (!isRecord(data) || data['cnisim'] !== PROTOCOL) return null;
  switch (data['type']) {
    case 'goto':
      return isStep(data['step']) ? { cnisim: 1, type: 'goto', step: data['step'] } : null;
    case 'load': {
      const scenario = data['scenario'];
      const step = data['step'];
      if (!isScenario(scenario) || (step !== undefined && !isStep(step))) return null;
      return step === undefined
        ? { cnisim: 1, type: 'load', scenario }
        : { cnisim: 1, type: 'load', scenario, step };
    }
    case 'inject': {
      const fault = data['fault'];
      const params = data['params'];
      if (typeof fault !== 'string' || !FAULT_RE.test(fault)) return null;
      if (params !== undefined && !isRecord(params)) return null;
      return params === undefined
        ? { cnisim: 1, type: 'inject', fault }
        : { cnisim: 1, type: 'inject', fault, params };
    }
    case 'views': {
      const views = data['views'];
      if (!Array.isArray(views) || views.length === 0 || views.length > 4) return null;
      return views.every(isView) ? { cnisim: 1, type: 'views', views: [...views] } : null;
    }
    case 'theme':
      return isTheme(data['theme']) ? { cnisim: 1, type: 'theme', theme: data['theme'] } : null;
    case 'level':
      return isLevel(data['level']) ? { cnisim: 1, type: 'level', level: data['level'] } : null;
    case 'play':
    case 'pause':
      return { cnisim: 1, type: data['type'] };
    default:
      return null;
  }
}

/** Validates a message from an embed (for hosts). */
export function parseEmbedMessage(data: unknown): EmbedMessage | null {
  if (!isRecord(data) || data['cnisim'] !== PROTOCOL) return null;
  const n = (k: string) => typeof data[k] === 'number' && Number.isFinite(data[k]);
  switch (data['type']) {
    case 'ready':
    case 'step':
      return n('step') && n('length') ? (data as EmbedMessage) : null;
    case 'height':
      return n('height') ? (data as EmbedMessage) : null;
    case 'solved':
      return isLessonId(data['lesson']) ? (data as EmbedMessage) : null;
    case 'error':
      return typeof data['message'] === 'string' ? (data as EmbedMessage) : null;
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Parameters of embed.html (and attributes of <cni-sim>)

export interface EmbedParams {
  scenario: string;
  /** Step to open at (as on screen), or null for the scenario's own. */
  step: number | null;
  views: EmbedView[];
  theme: Theme;
  level: DetailLevel | null;
  autoplay: boolean;
  /** The host's origin, for postMessage; null: the referrer's. */
  origin: string | null;
}

export const DEFAULT_VIEWS: EmbedView[] = ['sequence', 'inspector'];

function originOf(v: string | null): string | null {
  if (!v) return null;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** Reads embed.html's query string; bad values fall back to defaults, with a problem each. */
export function parseParams(search: string): { params: EmbedParams; problems: string[] } {
  const q = new URLSearchParams(search);
  const problems: string[] = [];
  const scenario = q.get('scenario') ?? 'sandbox';
  const stepText = q.get('step');
  const step = stepText !== null && /^\d{1,7}$/.test(stepText) ? Number(stepText) : null;
  if (stepText !== null && step === null)
    problems.push(`step: expected a number, got "${stepText}"`);
  const viewNames = (q.get('views') ?? '').split(',').filter((v) => v !== '');
  const views = viewNames.filter(isView).slice(0, 4);
  for (const v of viewNames.filter((v) => !isView(v))) problems.push(`views: unknown view "${v}"`);
  const theme = q.get('theme') ?? 'auto';
  const level = q.get('level');
  if (!isScenario(scenario))
    problems.push(
      "scenario: expected sandbox, lesson:<id>, challenge:<id>, scenario:<name> or a share link's payload",
    );
  if (!isTheme(theme)) problems.push(`theme: expected light, dark or auto`);
  if (level !== null && !isLevel(level)) problems.push(`level: expected ${LEVELS.join(', ')}`);
  const originText = q.get('origin');
  const origin = originOf(originText);
  if (originText !== null && origin === null) problems.push('origin: expected an http(s) origin');
  return {
    params: {
      scenario: isScenario(scenario) ? scenario : 'sandbox',
      step,
      views: views.length ? views : DEFAULT_VIEWS,
      theme: isTheme(theme) ? theme : 'auto',
      level: isLevel(level) ? level : null,
      autoplay: q.get('autoplay') === '1' || q.get('autoplay') === 'true',
      origin,
    },
    problems,
  };
}

/**
 * Whether embed.html's build-time first screen (src/embed/prerender.tsx: the default sandbox at
 * its own step and level, the default views, no message) is what these parameters show. The
 * theme and `autoplay` do not change it (gate.ts applies the theme before the first paint).
 */
export function prerenderFits(params: EmbedParams, problems: readonly string[]): boolean {
  return (
    problems.length === 0 &&
    params.scenario === 'sandbox' &&
    params.step === null &&
    params.level === null &&
    params.views.join(',') === DEFAULT_VIEWS.join(',')
  );
}

/** The query string of embed.html for these parameters (defaults left out). */
export function paramsQuery(p: Partial<EmbedParams>): string {
  const q = new URLSearchParams();
  if (p.scenario && p.scenario !== 'sandbox') q.set('scenario', p.scenario);
  if (p.step !== undefined && p.step !== null) q.set('step', String(p.step));
  if (p.views && p.views.join(',') !== DEFAULT_VIEWS.join(',')) q.set('views', p.views.join(','));
  if (p.theme && p.theme !== 'auto') q.set('theme', p.theme);
  if (p.level) q.set('level', p.level);
  if (p.autoplay) q.set('autoplay', '1');
  if (p.origin) q.set('origin', p.origin);
  const s = q.toString();
  return s ? `?${s}` : '';
}

// ---------------------------------------------------------------------------------------------
// Where <cni-sim> loads embed.html from

/** The element's `src` as shown in a message: at most 80 characters, controls made visible. */
function quoted(v: string): string {
  // eslint-disable-next-line no-control-regex -- controls are what is replaced
  const s = v.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 79)}…` : s);
}

/**
 * embed.html's address for `<cni-sim>`: its `src` attribute resolved against the script's
 * address, when that is an http(s) URL; otherwise (javascript:, data:, blob:, not a URL at all)
 * embed.html next to the script, with the problem to show. An iframe's src is a URL the host
 * page navigates to: anything but http(s) could run script in the host page or show a page
 * the host did not mean to frame.
 */
export function embedSrc(attr: string | null, base: string): { url: URL; problem: string | null } {
  const fallback = new URL('embed.html', base);
  if (attr === null) return { url: fallback, problem: null };
  let url: URL | null;
  try {
    url = new URL(attr, base);
  } catch {
    url = null;
  }
  if (url && (url.protocol === 'http:' || url.protocol === 'https:')) return { url, problem: null };
  return {
    url: fallback,
    problem: `src ${quoted(attr)} is not an http(s) address: the simulator is loaded from ${fallback.href} instead.`,
  };
}
