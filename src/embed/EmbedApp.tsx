/**
 * embed.html: the chosen views and the step controls, nothing else. State lives in the app's
 * store (src/ui/store.ts) with `source: 'embed'`: nothing is read from or saved to the user's
 * sandbox.
 */
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { previewing, previewShows } from '../ui/app/preview';
import { ErrorBoundary } from '../ui/components/ErrorBoundary';
import { isLandingView, LandingPane } from '../ui/LandingPane';
import type { PanelProps } from '../ui/panels/types';
import { routeHash } from '../ui/route';
import { useNoticeExpiry } from '../ui/components/Notices';
import { cmd, useApp, type Notice } from '../ui/store';
import { withEngine } from '../ui/views/withEngine';
import { parseScenario, type EmbedView } from './protocol';
import { useEmbed } from './state';

const EmbedLesson = lazy(() => import('./EmbedLesson'));
const EmbedChallenge = lazy(() => import('./EmbedChallenge'));

/**
 * The app at what the embed shows: a lesson, a challenge (same seed) or a share link's sandbox
 * (else the app's home).
 */
function appUrl(scenario: string): string {
  const ref = parseScenario(scenario);
  const hash =
    ref?.kind === 'lesson'
      ? routeHash({ kind: 'lesson', id: ref.id })
      : ref?.kind === 'challenge'
        ? routeHash({ kind: 'challenge', id: ref.id, seed: ref.seed })
        : ref?.kind === 'link'
          ? routeHash({ kind: 'link', payload: ref.payload })
          : '';
  // At build time (prerender.tsx) there is no location: the same address, relative.
  return typeof location === 'undefined' ? `./${hash}` : new URL(`./${hash}`, location.href).href;
}

const panels = () => import('../ui/panels').then(async (m) => (await m.panelsReady(), m));
function panel(name: keyof Awaited<ReturnType<typeof panels>>): ComponentType<PanelProps> {
  return lazy(() => panels().then((m) => ({ default: m[name] as ComponentType<PanelProps> })));
}

const VIEWS: Record<EmbedView, { title: string; component: ComponentType<PanelProps> }> = {
  sequence: {
    title: 'Sequence',
    component: lazy(withEngine(() => import('../ui/views/sequence/SequenceView'))),
  },
  topology: {
    title: 'Topology',
    component: lazy(withEngine(() => import('../ui/views/topology/TopologyView'))),
  },
  steps: { title: 'Steps', component: panel('TraceView') },
  inspector: { title: 'Inspector', component: panel('Inspector') },
  pods: { title: 'Pods', component: panel('PodsView') },
  files: { title: 'Files', component: panel('FilesView') },
  journal: { title: 'Journal', component: panel('JournalView') },
  machines: {
    title: 'Machines',
    component: lazy(withEngine(() => import('../ui/views/machines/MachinesView'))),
  },
  metrics: {
    title: 'Metrics',
    component: lazy(withEngine(() => import('../ui/views/metrics/MetricsView'))),
  },
};

function Loading() {
  return <p className="muted loading">Loading the simulation…</p>;
}

function View({ name }: { name: EmbedView }) {
  const session = useApp((s) => s.session);
  const phase = useApp((s) => s.phase);
  const revision = useApp((s) => s.revision);
  useApp((s) => s.version);
  const cursor = useApp((s) => s.cursor);
  // The landing's views, from its precomputed trace while it covers the step (app/preview.ts),
  // until the panels (and the whole engine they read) are in.
  const preview = useApp(previewShows);
  const waiting =
    preview && isLandingView(name) ? <LandingPane name={name} trace={preview} /> : <Loading />;
  const { title, component: C } = VIEWS[name];
  return (
    <div className={`embed-view embed-view-${name}`}>
      <h2 className="embed-view-title">{title}</h2>
      {!session || phase !== 'ready' ? (
        waiting
      ) : (
        <ErrorBoundary what={`The ${title} view`} key={`${name}-${revision}`}>
          <Suspense fallback={waiting}>
            <C session={session} step={cursor} onSelectStep={cmd.seek} slot={name} />
          </Suspense>
        </ErrorBoundary>
      )}
    </div>
  );
}

function useKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const t = e.target as HTMLElement | null;
      if (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)) return;
      if (e.key === 'ArrowRight') cmd.stepForward();
      else if (e.key === 'ArrowLeft') cmd.stepBack();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/**
 * A notice over the embed (a parameter or a message it could not carry out, Step forward at the
 * end): it goes by itself after a while, as the app's notices do (noticeLife.ts); an error stays.
 */
function EmbedNotice({ n }: { n: Notice }) {
  useNoticeExpiry(n);
  return (
    <p role={n.kind === 'info' ? 'status' : 'alert'} className={`notice notice-${n.kind}`}>
      {n.text}
    </p>
  );
}

export function EmbedApp() {
  useKeys();
  const ready = useApp((s) => s.phase === 'ready');
  // Before the engine: the landing's precomputed steps (app/preview.ts).
  const steps = useApp((s) => s.phase === 'ready' || previewing(s) !== null);
  const busy = useApp((s) => s.busy);
  const playing = useApp((s) => s.playing);
  const cursor = useApp((s) => s.cursor);
  const length = useApp((s) => s.length);
  const views = useEmbed((s) => s.views);
  const scenario = useEmbed((s) => s.scenario);
  const lesson = useEmbed((s) => s.lesson !== null);
  const challenge = useEmbed((s) => s.challenge !== null);
  const loadError = useApp((s) => s.loadError);
  const notices = useApp((s) => s.notices);
  // The position shows from the first screen on, the build's too (prerender.tsx), whose
  // precomputed trace is there but not live.
  const position = useApp((s) => s.phase === 'ready' || s.preview !== null);
  const canStep = steps && busy === null;
  return (
    <div className="embed">
      <div className="embed-controls" role="group" aria-label="Playback">
        <button type="button" onClick={cmd.stepBack} disabled={!canStep || cursor < 0}>
          <span aria-hidden="true">◀ </span>Step back
        </button>
        <button type="button" className="primary" onClick={cmd.togglePlay} disabled={!ready}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" className="primary" onClick={cmd.stepForward} disabled={!canStep}>
          Step forward<span aria-hidden="true"> ▶</span>
        </button>
        <p className="position" aria-live="polite">
          {position ? (
            <>
              Step <strong>{cursor + 1}</strong> of {length}
            </>
          ) : (
            'Loading…'
          )}
        </p>
        <a className="embed-open" href={appUrl(scenario)} target="_blank" rel="noopener">
          Open in cnisim<span aria-hidden="true"> ↗</span>
        </a>
      </div>
      {loadError !== null && (
        <p role="alert" className="notice notice-error">
          The simulation could not be loaded: {loadError}
        </p>
      )}
      {notices.map((n) => (
        <EmbedNotice key={n.id} n={n} />
      ))}
      {lesson && (
        <ErrorBoundary what="The lesson">
          <Suspense fallback={<Loading />}>
            <EmbedLesson />
          </Suspense>
        </ErrorBoundary>
      )}
      {challenge && (
        <ErrorBoundary what="The challenge">
          <Suspense fallback={<Loading />}>
            <EmbedChallenge />
          </Suspense>
        </ErrorBoundary>
      )}
      <div className="embed-views">
        {views.map((v) => (
          <View key={v} name={v} />
        ))}
      </div>
    </div>
  );
}
