/**
 * The embed's side of the postMessage API (protocol.ts): messages from the parent window at
 * the host's origin only, answers to that origin only, never '*'.
 */
import { loadFaults } from '../engine';
import { cmd, notify, pastEndText, pause } from '../ui/store';
import { get, subscribe } from '../ui/app/state';
import {
  parseHostMessage,
  PROTOCOL,
  type EmbedMessage,
  type HostMessage,
  type Theme,
} from './protocol';
import { solvedReporter } from './solved';
import { loadScenario, seekTo } from './start';
import { getEmbed, setEmbed, subscribeEmbed } from './state';

function referrerOrigin(): string | null {
  try {
    return document.referrer ? new URL(document.referrer).origin : null;
  } catch {
    return null;
  }
}

type Body<M> = M extends unknown ? Omit<M, 'cnisim'> : never;

export interface HostLink {
  ready(): void;
  error(message: string): void;
}

export function connectHost(origin: string | null, applyTheme: (t: Theme) => void): HostLink {
  const parent = window.parent !== window ? window.parent : null;
  const target = origin ?? referrerOrigin();
  const post = (m: Body<EmbedMessage>) => {
    if (parent && target) parent.postMessage({ cnisim: PROTOCOL, ...m }, target);
  };
  let started = false;
  const early: HostMessage[] = [];
  let queue: Promise<void> = Promise.resolve();

  async function handle(m: HostMessage): Promise<void> {
    const { engine, session } = get();
    if (!engine || !session) return;
    switch (m.type) {
      case 'goto': {
        pause();
        const at = await seekTo(m.step);
        if (at !== null && at < m.step)
          post({ type: 'error', message: pastEndText('goto: step', m.step, at) });
        return;
      }
      case 'load': {
        const { problem, pastEnd } = await loadScenario(
          engine,
          m.scenario,
          m.step ?? null,
          'load: step',
        );
        if (problem !== null) post({ type: 'error', message: problem });
        if (pastEnd !== null) post({ type: 'error', message: pastEnd });
        return;
      }
      case 'inject': {
        const [{ uiFaults }] = await Promise.all([import('../ui/faults'), loadFaults()]);
        const all = uiFaults();
        const f = all.find((x) => x.id === m.fault);
        // docs/embedding.md: an unknown id is refused with the ids there are.
        const action: Parameters<typeof cmd.perform>[0] | string = !f
          ? `unknown fault "${m.fault}" (one of ${all.map((x) => x.id).join(', ')})`
          : m.params
            ? { do: 'injectFault', fault: m.fault, params: m.params }
            : f.action(session, session.cursor);
        if (typeof action === 'string') {
          notify('warning', `Fault ${m.fault}: ${action}`);
          post({ type: 'error', message: `fault ${m.fault}: ${action}` });
          return;
        }
        const r = await cmd.perform(action);
        if (r === null) post({ type: 'error', message: `fault ${m.fault} was refused` });
        return;
      }
      case 'views':
        setEmbed({ views: m.views });
        return;
      case 'theme':
        applyTheme(m.theme);
        return;
      case 'level':
        cmd.setLevel(m.level);
        return;
      case 'play':
        if (!get().playing) cmd.togglePlay();
        return;
      case 'pause':
        pause();
        return;
    }
  }

  const run = (m: HostMessage) => {
    queue = queue
      .then(() => handle(m))
      .catch((e: unknown) => {
        post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
      });
  };

  window.addEventListener('message', (e: MessageEvent) => {
    if (!parent || e.source !== parent || e.origin !== target) return;
    const m = parseHostMessage(e.data);
    if (!m) return;
    if (started) run(m);
    else early.push(m);
  });

  let lastHeight = -1;
  const reportHeight = () => {
    // The content's own height: the document's scrollHeight is never less than the viewport,
    // which is the iframe the host sizes from this number, so the iframe could never shrink to
    // fit (and any viewport-sized content made it grow at every report).
    const h = Math.ceil(document.body.getBoundingClientRect().height);
    if (h !== lastHeight) {
      lastHeight = h;
      post({ type: 'height', height: h });
    }
  };

  // While the views draw (the landing's engine, then the whole one, the topology) the
  // height moves in small steps: report at most one every 200 ms, the latest, so the host page's
  // iframe moves a few times instead of with every step.
  let pending: ReturnType<typeof setTimeout> | null = null;
  const heightChanged = () => {
    if (pending !== null) return;
    pending = setTimeout(() => {
      pending = null;
      reportHeight();
    }, 200);
  };

  return {
    ready() {
      const st = get();
      post({ type: 'ready', step: st.cursor + 1, length: st.length });
      let last = { cursor: st.cursor, length: st.length, session: st.session };
      subscribe((s) => {
        if (s.busy !== null) return;
        if (s.cursor === last.cursor && s.length === last.length && s.session === last.session)
          return;
        last = { cursor: s.cursor, length: s.length, session: s.session };
        post({ type: 'step', step: s.cursor + 1, length: s.length });
      });
      // A lesson: `solved` once, the first time every goal is met (src/embed/lesson.ts checks).
      const solved = solvedReporter((lesson) => post({ type: 'solved', lesson }));
      const checkSolved = () => {
        const open = getEmbed().lesson;
        if (open) solved(open.lesson.id, open.goals);
      };
      subscribeEmbed(checkSolved);
      checkSolved();
      new ResizeObserver(heightChanged).observe(document.body);
      reportHeight();
      started = true;
      for (const m of early.splice(0)) run(m);
    },
    error(message) {
      post({ type: 'error', message });
    },
  };
}
