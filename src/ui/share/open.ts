/**
 * Opening and making share links (the codec is link.ts, loaded only when a link is opened or
 * made). A link's sandbox opens on its own: the store's `source` becomes 'link', which stops the
 * store from saving it, so the user's saved sandbox stays as it was until they choose "Keep as
 * my sandbox"; "Back to my sandbox" restores it.
 */
import { loadEngine, type SavedSession, type Session } from '../../engine';
import { pageUrl, routeHash } from '../route';
import { pause } from '../app/commands';
import { runJob, yieldToPage } from '../app/jobs';
import { notify } from '../app/notices';
import { restoreOwn, saveNow } from '../app/persistence';
import { get, publish, update, type LeftTab, type RightTab } from '../app/state';
import type { LinkViews } from './link';

/** link.ts, with the engine whose saved form it decodes and encodes. */
const importLink = () => Promise.all([import('./link'), loadEngine()]).then(([m]) => m);

const LEFT: readonly LeftTab[] = ['trace', 'sequence', 'topology', 'machines', 'metrics'];
const RIGHT: readonly RightTab[] = ['pods', 'files', 'journal', 'actions', 'config', 'packets'];

function isLeft(v: string | undefined): v is LeftTab {
  return (LEFT as readonly string[]).includes(v ?? '');
}
function isRight(v: string | undefined): v is RightTab {
  return (RIGHT as readonly string[]).includes(v ?? '');
}

/**
 * The default sandboxes opened in place of a link (or a trace) that could not be opened: there
 * is nothing of the link's to keep as the user's own.
 */
const notOpened = new WeakSet<Session>();

/** Whether `session` is the default sandbox shown because a link could not be opened. */
export function linkNotOpened(session: Session | null): boolean {
  return session !== null && notOpened.has(session);
}

/** Opens a link's sandbox in place of the current session (the default one if it is bad). */
export async function openLink(payload: string): Promise<void> {
  const engine = get().engine;
  if (!engine) return;
  // The current session stays until the link is decoded; then the link's sandbox (openShared)
  // or the default one takes its place, and the user's last changes, not saved yet (a save waits
  // for an idle moment), are saved first, as before a lesson or a scenario file. (A placeholder
  // sandbox made here meanwhile cost a task of ~100 ms on a cold page, and was thrown away.)
  const { decodeLink } = await importLink();
  const r = decodeLink(payload);
  if (!r.ok) {
    if (get().source === 'own') saveNow();
    const fallback = engine.newSandbox();
    notOpened.add(fallback);
    update({ session: fallback, source: 'link' });
    notify(
      'error',
      `${r.error} The default sandbox is open instead; your own sandbox is kept ("Back to my sandbox").`,
    );
    return;
  }
  await openShared(r.state.saved, r.state.views, 'Opening the shared sandbox');
}

/**
 * Replays a shared sandbox (a link's, a trace file's) in place of the current session, not
 * saved over the user's own. Returns the session, or null when it could not be replayed.
 */
export async function openShared(
  saved: SavedSession,
  views: LinkViews,
  label: string,
): Promise<Session | null> {
  const engine = get().engine;
  if (!engine) return null;
  pause();
  if (get().source === 'own') saveNow();
  // The link was decoded (or the trace file read) in this task; the sandbox is made in the next.
  await yieldToPage();
  const session = engine.newSandbox();
  await yieldToPage();
  update({
    session,
    source: 'link',
    selectedPod: null,
    selectedFile: null,
    ...(isLeft(views.left) ? { leftTab: views.left } : {}),
    ...(isRight(views.right) ? { rightTab: views.right } : {}),
  });
  // The new sandbox is rendered (in this task's microtasks); the replay starts in the next task.
  await yieldToPage();
  try {
    const job = runJob(label, engine.loadJob(session, saved));
    const report = job ? await job : { warnings: [] };
    for (const w of report.warnings.slice(0, 3))
      notify('warning', `Shared sandbox: ${w}`, undefined, session);
    return session;
  } catch (e) {
    notify(
      'error',
      `This sandbox could not be replayed (${(e as Error).message}). The default sandbox is open instead.`,
    );
    const fallback = engine.newSandbox();
    notOpened.add(fallback);
    update({ session: fallback });
    publish();
    return null;
  }
}

function dropHash(): void {
  history.replaceState(history.state, '', pageUrl(location));
}

/** Leaves the link's sandbox for the user's saved one. */
export async function backToMine(): Promise<void> {
  dropHash();
  await restoreOwn();
  publish();
}

/** Makes the link's sandbox the user's own (saved from now on, replacing the saved one). */
export function keepAsMine(): void {
  dropHash();
  update({ source: 'own' });
  saveNow();
}

/** The link to the current sandbox and views, or an error text. */
export async function makeShareUrl(): Promise<{ url: string } | { error: string }> {
  const { session, engine, leftTab, rightTab } = get();
  if (!session || !engine) return { error: 'The simulation is still loading.' };
  const { encodeLink } = await importLink();
  const payload = encodeLink({
    saved: engine.saveSession(session),
    views: { left: leftTab, right: rightTab },
  });
  if (payload === null) {
    return {
      error:
        'This sandbox is too large for a link. Export its trace as JSON instead (Share → Export).',
    };
  }
  return { url: pageUrl(location) + routeHash({ kind: 'link', payload }) };
}

const EMBED_VIEW: Record<LeftTab, string> = {
  trace: 'steps',
  sequence: 'sequence',
  topology: 'topology',
  machines: 'machines',
  metrics: 'metrics',
};

/** The <cni-sim> element and, as an alternative, an iframe of embed.html, for these parameters. */
function embedSnippet(attrs: Record<string, string>): string {
  const base = new URL('./', pageUrl(location)).href;
  const q = new URLSearchParams(attrs);
  const element = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('');
  return [
    `<script src="${base}cni-sim.js" defer></script>`,
    `<cni-sim${element} theme="host"></cni-sim>`,
    '',
    '<!-- or, without a script: -->',
    `<iframe src="${base}embed.html?${q.toString().replace(/&/g, '&amp;')}" title="cnisim" style="width:100%;height:480px;border:0"></iframe>`,
  ].join('\n');
}

/** HTML that embeds the current sandbox at this step: the <cni-sim> element, or an iframe. */
export async function makeEmbedSnippet(): Promise<{ html: string } | { error: string }> {
  const { session, engine, leftTab, level } = get();
  if (!session || !engine) return { error: 'The simulation is still loading.' };
  const { encodeLink } = await importLink();
  const payload = encodeLink({ saved: engine.saveSession(session), views: {} });
  if (payload === null) return { error: 'This sandbox is too large to embed.' };
  const views = `${EMBED_VIEW[leftTab]},inspector`;
  const step = String(session.cursor + 1);
  return { html: embedSnippet({ scenario: payload, step, views, level }) };
}

/**
 * HTML that embeds a lesson where the learner takes over (docs/embedding.md: its narration and
 * goals, and `solved` for the host). Lesson ids are [a-z0-9-]: nothing to escape.
 */
export function lessonEmbedSnippet(id: string): string {
  return embedSnippet({ scenario: `lesson:${id}`, views: 'sequence,inspector' });
}

/**
 * HTML that embeds a challenge with its seed, where the candidate arrives (docs/embedding.md: the
 * ticket above the views; the answer stays in the app). Challenge ids are [a-z0-9-].
 */
export function challengeEmbedSnippet(id: string, seed: number): string {
  return embedSnippet({ scenario: `challenge:${id}:${seed}`, views: 'pods,journal' });
}
