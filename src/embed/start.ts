import type { EngineModule } from '../ui/engine';
import { notify, pause, publish, runJob, useApp, cmd } from '../ui/store';
import type { EmbedParams } from './protocol';

/** Replaces the session with a scenario ('sandbox' or a share payload), at a step (or its own). */
export async function loadScenario(
  engine: EngineModule,
  scenario: string,
  step: number | null,
): Promise<void> {
  pause();
  const session = engine.newSandbox();
  useApp.setState({ session, selectedPod: null, selectedFile: null });
  if (scenario !== 'sandbox') {
    const { decodeLink } = await import('../ui/share/link');
    const r = decodeLink(scenario);
    if (!r.ok) notify('error', `${r.error} The default sandbox is shown instead.`);
    else {
      const job = runJob('Opening the scenario', engine.loadJob(session, r.state.saved));
      if (job) await job.catch((e: unknown) => notify('error', (e as Error).message));
    }
  }
  if (step !== null) await seekTo(step);
  publish();
}

/** Goes to a step as numbered on screen (0: the start). */
export async function seekTo(step: number): Promise<void> {
  const s = useApp.getState().session;
  if (!s) return;
  const job = runJob('Computing steps', s.seekJob(Math.max(-1, step - 1)));
  if (job) await job.catch((e: unknown) => notify('error', (e as Error).message));
}

export async function startEmbed(
  engine: EngineModule,
  params: EmbedParams,
  problems: string[],
): Promise<void> {
  useApp.setState({ engine, source: 'embed' });
  for (const p of problems.slice(0, 3)) notify('warning', `Embed parameter ${p}`);
  await loadScenario(engine, params.scenario, params.step);
  if (params.level) useApp.getState().session?.setLevel(params.level);
  useApp.setState({ phase: 'ready' });
  publish();
  if (params.autoplay) cmd.togglePlay();
}
