/**
 * Commands: what the user does, as functions components call. `cmd` moves through the session
 * and acts on it (the long ones as jobs, ./jobs.ts); `ui` changes what is shown. Components
 * never write the store themselves (./state.ts).
 */
import type { Level, PerformResult, Session, SessionAction, StopCondition } from '../../engine';
import { faultFailsNewPods } from '../faults';
import { Cancelled, jobRunning, quietly, runJob } from './jobs';
import { notify, notifyRunEnd } from './notices';
import { previewCmd } from './preview';
import {
  get,
  publish,
  update,
  type AppState,
  type LeftTab,
  type RightTab,
  type Theme,
} from './state';

/**
 * What Step forward says at the end of a trace where nothing is left to happen: how to go on.
 * An embed has no actions (docs/embedding.md): the app, which it links to, has.
 */
export function nothingLeftText(): string {
  return get().source === 'embed'
    ? 'This is the last step: nothing is left to happen. To act on the cluster, open it in cnisim.'
    : 'Nothing is left to happen: act on the cluster to go on.';
}

/** The user's computations on the session shown: stopped when they leave for another address. */
const LEAVE = { stopOnLeave: true };

export const SPEEDS = [1, 2, 5, 10, 25] as const;

export const cmd = {
  stepForward(): void {
    if (previewCmd.stepForward()) return;
    const s = get().session;
    if (!s) return;
    quietly(
      runJob('Computing the next step', s.stepForwardJob(), LEAVE)?.then((moved) => {
        if (moved) return;
        const played = get().playing;
        if (played) pause();
        // An embed playing to its end (autoplay in a documentation page) just stops: a notice
        // there would grow the host's iframe for nothing the reader asked.
        if (!(played && get().source === 'embed')) notifyRunEnd('info', nothingLeftText(), s);
      }) ?? null,
    );
  },

  stepBack(): void {
    if (previewCmd.stepBack()) return;
    const s = get().session;
    if (!s || jobRunning()) return;
    s.stepBack();
    publish();
  },

  seek(i: number): void {
    if (previewCmd.seek(i)) return;
    const s = get().session;
    if (!s) return;
    quietly(runJob('Computing steps', s.seekJob(i), LEAVE));
  },

  home(): void {
    cmd.seek(-1);
  },

  end(): void {
    if (previewCmd.end()) return;
    const s = get().session;
    if (!s) return;
    cmd.seek(s.events.length - 1);
  },

  /** Back to where the sandbox starts; the actions and the trace are kept. */
  reset(): void {
    if (previewCmd.reset()) return;
    const s = get().session;
    if (!s || jobRunning()) return;
    pause();
    s.reset();
    publish();
  },

  runUntil(cond: StopCondition, label: string): void {
    const s = get().session;
    if (!s) return;
    pause();
    quietly(
      runJob(`Running until ${label}`, s.runUntilJob(cond), LEAVE)?.then(
        (found) => {
          const end = s.lastRun;
          if (found !== null || !end) return;
          // A node-scoped fault (injected with its node) that makes new pods fail shows only in
          // that node's new pods. Others (a restart, a reboot, a stale reservation, a network
          // fault) let them run: creating one there would not bring the error.
          let faultNode: string | null = null;
          for (const a of s.actions)
            if (a.first !== null && a.first <= s.cursor && a.action.do === 'injectFault')
              faultNode =
                typeof a.action.params?.['node'] === 'string' && faultFailsNewPods(a.action.fault)
                  ? (a.output?.faultNode ?? null)
                  : null;
          const text = get().engine?.runEndText(end, label, faultNode);
          if (text) notifyRunEnd(end.kind === 'repeating' ? 'warning' : 'info', text, s);
        },
        (e: unknown) => {
          // Stop: the run keeps the steps it computed, the cursor stays where the run began.
          if (e instanceof Cancelled && !e.left) notifyRunEnd('info', runStoppedText(label, s), s);
          throw e;
        },
      ) ?? null,
    );
  },

  setLevel(level: Level): void {
    const s = get().session;
    if (!s) {
      update({ level });
      return;
    }
    s.setLevel(level);
    publish();
  },

  /** Performs an action at the cursor; resolves with its result, or null when refused. */
  async perform(action: SessionAction): Promise<PerformResult | null> {
    const st = get();
    const s = st.session;
    const engine = st.engine;
    if (!s || !engine) return null;
    pause();
    const problems = engine.actionProblems(action);
    if (problems.length) {
      notify('error', problems.join('; '));
      return null;
    }
    const p = runJob(
      `Replaying to apply: ${engine.describeAction(action)}`,
      s.performJob(action),
      LEAVE,
    );
    if (!p) {
      notify('warning', 'Wait for the current computation to finish, or stop it.');
      return null;
    }
    try {
      const r = await p;
      if (r.error) notify('warning', `${engine.describeAction(action)}: ${r.error}`);
      return r;
    } catch (e) {
      if (!(e instanceof Cancelled)) notify('error', (e as Error).message);
      return null;
    }
  },

  /**
   * Discards everything: the default sandbox again, or a cluster preset's (`presetId`, engine
   * cluster/presets.ts: two nodes with a cluster network and the agent's masquerade rule).
   */
  newSandbox(presetId?: string): void {
    const { session: s, engine } = get();
    if (!s || !engine) return;
    const preset = presetId ? engine.clusterPreset(presetId) : undefined;
    pause();
    update({ selectedPod: null, selectedFile: null });
    quietly(
      runJob(
        preset ? `Opening a new sandbox: ${preset.title}` : 'Opening a new sandbox',
        s.replaceJob(
          preset?.spec ?? engine.DEFAULT_CLUSTER,
          1,
          [{ step: 0, action: { do: 'createPod', name: engine.SANDBOX_POD } }],
          -2,
        ),
      )?.then(() => {
        s.reset();
        publish();
      }) ?? null,
    );
  },

  togglePlay(): void {
    if (get().playing) pause();
    else play();
  },

  setSpeed(speed: number): void {
    update({ speed });
    if (get().playing) {
      pause();
      play();
    }
  },
};

/**
 * What Stop during "Run until" says: that the run stopped, how long the trace has grown, where the
 * user still is (the cursor does not move), and how to go on. Steps as numbered on screen.
 */
export function runStoppedText(label: string, s: Pick<Session, 'cursor' | 'events'>): string {
  return `Stopped running until ${label}: the trace now has ${s.events.length} steps, and you are still at step ${s.cursor + 1}. Press Run to go on from here, or End to see the last step.`;
}

/**
 * Goes to a step as numbered on screen (0: the start), computing the steps on the way. Resolves
 * with the step shown then (less than `step` when the trace ends before it), or null when the
 * seek was stopped or failed (a failure is reported as a notice).
 */
export async function seekTo(step: number): Promise<number | null> {
  const s = get().session;
  if (!s) return null;
  const job = runJob('Computing steps', s.seekJob(Math.max(-1, step - 1)));
  if (!job) return null;
  try {
    return (await job) + 1;
  } catch (e) {
    if (!(e instanceof Cancelled)) notify('error', (e as Error).message);
    return null;
  }
}

/** How the warning about an address's `?step=` starts (see `pastEndText`). */
export const ADDRESS_STEP = "The address's step";

/**
 * What is said when a step asked for (by an address, an embed, a host's message: `what`) is past
 * the trace's end, and the last step is shown instead.
 */
export function pastEndText(what: string, step: number, last: number): string {
  return `${what} ${step} is past the end of the trace, which ends at step ${last}; step ${last} is shown.`;
}

/**
 * Goes to a step that an address or an embed's attribute asked for (`what` names it), and says
 * so when the trace ends before it (the last step is shown). Resolves with the problem, if any.
 */
export async function seekToAsked(step: number, what: string): Promise<string | null> {
  const at = await seekTo(step);
  if (at === null || at >= step) return null;
  const problem = pastEndText(what, step, at);
  notify('warning', problem);
  return problem;
}

let timer: ReturnType<typeof setInterval> | null = null;

function play(): void {
  if (!get().session || timer) return;
  update({ playing: true });
  timer = setInterval(() => {
    if (!jobRunning()) cmd.stepForward();
  }, 1000 / get().speed);
}

export function pause(): void {
  if (timer) clearInterval(timer);
  timer = null;
  if (get().playing) update({ playing: false });
}

let shellLineId = 0;

/** What is shown: tabs, dialogs, selections, the theme. */
export const ui = {
  setTheme(theme: Theme): void {
    update({ theme });
  },
  leftTab(leftTab: LeftTab): void {
    if (get().leftTab !== leftTab) update({ leftTab });
  },
  rightTab(rightTab: RightTab): void {
    if (get().rightTab !== rightTab) update({ rightTab });
  },
  share(shareOpen: boolean): void {
    update({ shareOpen });
  },
  shortcuts(shortcutsOpen: boolean): void {
    update({ shortcutsOpen });
  },
  selectPod(selectedPod: string | null): void {
    update({ selectedPod });
  },
  selectFile(selectedFile: AppState['selectedFile']): void {
    update({ selectedFile });
  },
  /** Presenter mode on or off (the topology replaces the Steps view when it starts). */
  presenter(on: boolean): void {
    update((s) => ({
      presenter: on,
      ...(on && s.leftTab === 'trace' ? { leftTab: 'topology' as const } : {}),
    }));
  },
  /** Opens the Shell on `node` and runs `line` there, as if typed (see AppState.shellLine). */
  runInShell(node: string, line: string): void {
    update({ rightTab: 'shell', shellLine: { node, line, id: ++shellLineId } });
  },
  /** The Shell view took the line. */
  shellLineTaken(): void {
    update({ shellLine: null });
  },
};

/** Kept for the callers of the old names. */
export const setTheme = ui.setTheme;
export const runInShell = ui.runInShell;
