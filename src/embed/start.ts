import { loadCourseEngine, type EngineModule, type LandingEngine } from '../engine';
import { notify, pause, publish, runJob, seekTo, seekToAsked, cmd } from '../ui/store';
import { get, update } from '../ui/app/state';
import { landingSandbox } from '../ui/landing';
import { takePending } from '../ui/app/preview';
import { parseScenario, type EmbedParams } from './protocol';
import { setEmbed } from './state';

/** A sandbox: the default one, or a share link's (null when it opened, else the problem). */
async function openSandbox(engine: EngineModule, payload: string | null): Promise<string | null> {
  const session = engine.newSandbox();
  update({ session, selectedPod: null, selectedFile: null });
  if (payload === null) return null;
  const { decodeLink } = await import('../ui/share/link');
  const r = decodeLink(payload);
  if (!r.ok) return r.error;
  const job = runJob('Opening the scenario', engine.loadJob(session, r.state.saved));
  if (job) await job;
  return null;
}

/**
 * Replaces the session with a scenario (protocol.ts: `sandbox`, `lesson:<id>`, `scenario:<name>`
 * or a share payload), at a step or its own. An unknown lesson or file, or a bad link, shows the
 * default sandbox with the problem in the embed; the problem is returned for the host, and so is
 * a `step` past the trace's end (the last step is shown, with a warning that `stepWhat` starts).
 */
export async function loadScenario(
  engine: EngineModule,
  scenario: string,
  step: number | null,
  stepWhat = STEP_PARAM,
): Promise<{ problem: string | null; pastEnd: string | null }> {
  pause();
  const ref = parseScenario(scenario) ?? { kind: 'sandbox' };
  let problem: string | null;
  try {
    if (ref.kind === 'lesson') {
      const [{ openLesson }] = await Promise.all([import('./lesson'), loadCourseEngine()]);
      problem = openLesson(ref.id, false);
    } else if (ref.kind === 'challenge') {
      const [{ openChallenge }] = await Promise.all([import('./challenge'), loadCourseEngine()]);
      problem = openChallenge(ref.id, ref.seed);
    } else if (ref.kind === 'file') {
      const r = await (await import('../ui/scenarios')).scenarioFileSession(ref.name);
      if (typeof r === 'string') problem = r;
      else {
        update({ session: r.session, selectedPod: null, selectedFile: null });
        if (r.warning) notify('warning', r.warning);
        problem = null;
      }
    } else problem = await openSandbox(engine, ref.kind === 'link' ? ref.payload : null);
  } catch (e) {
    problem = `The scenario could not be opened: ${e instanceof Error ? e.message : String(e)}`;
  }
  const opened = problem === null;
  if (!opened) {
    notify('error', `${problem} The default sandbox is shown instead.`);
    update({ session: engine.newSandbox(), selectedPod: null, selectedFile: null });
  }
  setEmbed({
    scenario: opened ? scenario : 'sandbox',
    ...(opened && ref.kind === 'lesson' ? {} : { lesson: null }),
    ...(opened && ref.kind === 'challenge' ? {} : { challenge: null }),
  });
  const pastEnd = step !== null ? await seekToAsked(step, stepWhat) : null;
  publish();
  return { problem, pastEnd };
}

/** How a warning about the `step` attribute starts, as those about the other parameters do. */
export const STEP_PARAM = 'Embed parameter step:';

export { seekTo };

/**
 * The default sandbox made by the landing's engine (`loadLanding()`), so that "Step forward"
 * works while the whole engine loads; `startEmbed` keeps it (main.tsx).
 */
export async function startEmbedLanding(engine: LandingEngine, params: EmbedParams): Promise<void> {
  // At the step and level the landing's precomputed trace was stepped to (ui/app/preview.ts).
  const session = await landingSandbox(engine, (s) => {
    if (params.level) s.setLevel(params.level);
  });
  if (!session) return;
  update({ session, selectedPod: null, selectedFile: null, phase: 'ready' });
  publish();
  takePending(cmd.stepForward);
}

/** Opens the embed's scenario; resolves with the problems to report to the host. */
export async function startEmbed(
  engine: EngineModule,
  params: EmbedParams,
  problems: string[],
): Promise<string[]> {
  update({ engine, source: 'embed' });
  for (const p of problems.slice(0, 3)) notify('warning', `Embed parameter ${p}`);
  // The landing's sandbox (startEmbedLanding), already open and maybe stepped, is kept.
  const landing = get().phase === 'ready' && params.scenario === 'sandbox';
  let problem: string | null = null;
  if (!landing) ({ problem } = await loadScenario(engine, params.scenario, params.step));
  else if (params.step !== null) await seekToAsked(params.step, STEP_PARAM);
  if (params.level && !landing) get().session?.setLevel(params.level);
  update({ phase: 'ready' });
  publish();
  if (params.autoplay) cmd.togglePlay();
  return problem === null ? [] : [problem];
}
