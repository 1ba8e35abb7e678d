import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { LEVELS } from '../engine';
import { Controls } from './components/Controls';
import { ErrorBoundary } from './components/ErrorBoundary';
import { Notices } from './components/Notices';
import { LoadNodeButton } from './components/LoadNodeDialog';
import { ShortcutsDialog } from './components/ShortcutsDialog';
import { Tabs, type TabDef } from './components/Tabs';
import { Timeline } from './components/Timeline';
import { ownsKeys } from './format';
import type { PanelProps } from './panels/types';
import {
  Narration,
  PresenterButton,
  togglePresenter,
  usePresenterClass,
} from './present/Presenter';
import { previewShows } from './app/preview';
import { isLandingView, LandingPane } from './LandingPane';
import { LinkBanner } from './share/LinkBanner';
import { focusTerminal } from './shell/focus';
import { ShareDialog } from './share/ShareDialog';
import { cmd, get, setTheme, ui, useApp, type LeftTab, type RightTab, type Theme } from './store';
import { withEngine } from './views/withEngine';

// The panels read the engine: they arrive in lazy chunks fetched right after the first paint, and
// show once the engine parts they read are loaded (`panelsReady`).
const panels = () => import('./panels').then(async (m) => (await m.panelsReady(), m));
function panel(name: keyof Awaited<ReturnType<typeof panels>>): ComponentType<PanelProps> {
  return lazy(() => panels().then((m) => ({ default: m[name] as ComponentType<PanelProps> })));
}
const TraceView = panel('TraceView');
const Inspector = panel('Inspector');
const PodsView = panel('PodsView');
const FilesView = panel('FilesView');
const JournalView = panel('JournalView');
const ActionsView = panel('ActionsView');
const ConfigView = panel('ConfigView');
const PacketsView = panel('PacketsView');
// The drawn views: one lazy chunk each, so D3 arrives only with the view that uses it.
const SequenceView = lazy(withEngine(() => import('./views/sequence/SequenceView')));
const TopologyView = lazy(withEngine(() => import('./views/topology/TopologyView')));
const MachinesView = lazy(withEngine(() => import('./views/machines/MachinesView')));
const MetricsView = lazy(withEngine(() => import('./views/metrics/MetricsView')));
// The node shell: xterm.js comes in a further chunk when the tab opens (docs/shell.md).
const ShellView = lazy(() => import('./shell/ShellView'));
// The course (lessons, challenges, quiz) and its data arrive when a course route is opened.
const CoursePanel = lazy(() => import('./course/CoursePanel'));

const LEFT_TABS: readonly TabDef<LeftTab>[] = [
  { key: 'trace', label: 'Steps' },
  { key: 'sequence', label: 'Sequence' },
  { key: 'topology', label: 'Topology' },
  { key: 'machines', label: 'Machines' },
  { key: 'metrics', label: 'Metrics' },
];

const RIGHT_TABS: readonly TabDef<RightTab>[] = [
  { key: 'pods', label: 'Pods' },
  { key: 'files', label: 'Files' },
  { key: 'journal', label: 'Journal' },
  { key: 'actions', label: 'Actions' },
  { key: 'config', label: 'Config' },
  { key: 'packets', label: 'Packets' },
  { key: 'shell', label: 'Shell' },
];

const VIEW_NAMES: Record<LeftTab | RightTab | 'inspector', string> = {
  trace: 'The Steps view',
  sequence: 'The Sequence view',
  topology: 'The Topology view',
  machines: 'The Machines view',
  metrics: 'The Metrics view',
  pods: 'The Pods view',
  files: 'The Files view',
  journal: 'The Journal view',
  actions: 'The Actions view',
  config: 'The Config view',
  packets: 'The Packets view',
  shell: 'The Shell',
  inspector: 'The Inspector',
};

/**
 * Views that hold what the person did in them: the Actions view (its fields, and what the last
 * action did) and the Shell (each node's screen). When an action rewrites the trace's future
 * (after stepping back, or at the landing, whose trace runs ahead of its step), the other views
 * start afresh on the new trace, but these keep their state: the person's typing, and what
 * their command printed, are not undone by it.
 */
const KEEPS_STATE: ReadonlySet<string> = new Set(['actions', 'shell']);

/**
 * A part of the first screen that React hydrates after the rest (main.tsx hydrates index.html's
 * prerendered landing): the header, the controls and the timeline are live first, then these
 * in the next tasks (or at once, when one is clicked or its props change). Without hydration, a
 * plain boundary: nothing in it suspends but the views, which have their own.
 */
function HydratesLater({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}

function Loading() {
  return <p className="muted loading">Loading the simulation…</p>;
}

/** A view in its error boundary, once the session exists. */
function View(props: {
  name: LeftTab | RightTab | 'inspector';
  component: ComponentType<PanelProps>;
}) {
  const session = useApp((s) => s.session);
  const phase = useApp((s) => s.phase);
  const revision = useApp((s) => s.revision);
  useApp((s) => s.version);
  const cursor = useApp((s) => s.cursor);
  // The landing's views, from its precomputed trace while it covers the step (app/preview.ts),
  // until the panels (and the whole engine they read) are in.
  const preview = useApp(previewShows);
  const waiting =
    preview && isLandingView(props.name) ? (
      <LandingPane name={props.name} trace={preview} />
    ) : (
      <Loading />
    );
  if (phase === 'failed') return null;
  if (!session || phase !== 'ready') return waiting;
  const C = props.component;
  return (
    <ErrorBoundary
      what={VIEW_NAMES[props.name]}
      key={KEEPS_STATE.has(props.name) ? props.name : `${props.name}-${revision}`}
    >
      <Suspense fallback={waiting}>
        <C session={session} step={cursor} onSelectStep={cmd.seek} slot={props.name} />
      </Suspense>
    </ErrorBoundary>
  );
}

function useKeyboard(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (get().shortcutsOpen || get().shareOpen) return;
      if (ownsKeys(e.target, e.key)) return;
      const level = LEVELS[Number(e.key) - 1];
      if (e.key === 'ArrowRight') cmd.stepForward();
      else if (e.key === 'ArrowLeft') cmd.stepBack();
      else if (e.key === ' ') cmd.togglePlay();
      else if (e.key === 'Home') cmd.home();
      else if (e.key === 'End') cmd.end();
      else if (e.key === '?') ui.shortcuts(true);
      else if (e.key === 'p' || e.key === 'P') togglePresenter();
      else if (level && /^[1-4]$/.test(e.key)) cmd.setLevel(level);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

function useTheme(): Theme {
  const theme = useApp((s) => s.theme);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset['theme'];
    else root.dataset['theme'] = theme;
  }, [theme]);
  return theme;
}

export function App() {
  useKeyboard();
  usePresenterClass();
  const theme = useTheme();
  const leftTab = useApp((s) => s.leftTab);
  const rightTab = useApp((s) => s.rightTab);
  const loadError = useApp((s) => s.loadError);
  const course = useApp((s) => s.course);
  const source = useApp((s) => s.source);
  // Presenter mode: the steps beside the chosen view (the topology at first), instead of the
  // inspector, whose JSON no one reads on a projector. With the Steps view chosen, the inspector.
  const sideSteps = useApp((s) => s.presenter) && leftTab !== 'trace';
  const left: Record<LeftTab, ComponentType<PanelProps>> = {
    trace: TraceView,
    sequence: SequenceView,
    topology: TopologyView,
    machines: MachinesView,
    metrics: MetricsView,
  };
  const right: Record<RightTab, ComponentType<PanelProps>> = {
    pods: PodsView,
    files: FilesView,
    journal: JournalView,
    actions: ActionsView,
    config: ConfigView,
    packets: PacketsView,
    shell: ShellView,
  };

  return (
    <>
      <header className="site-header">
        <h1>cnisim</h1>
        <p className="tagline">
          Step through what the kubelet, containerd and the CNI plugins do for a pod: two nodes,
          bridge + host-local + portmap.
        </p>
        <div className="header-tools">
          <label className="inline">
            Theme{' '}
            <select value={theme} onChange={(e) => setTheme(e.target.value as Theme)}>
              <option value="system">System</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </label>
          <PresenterButton />
          <LoadNodeButton />
          <a href="#/course">Course</a>
          {/* A course session is never shared: a challenge's link carries only its id and seed. */}
          {source !== 'course' && (
            <button type="button" onClick={() => ui.share(true)}>
              Share
            </button>
          )}
          <button
            type="button"
            onClick={() => ui.shortcuts(true)}
            aria-label="Keyboard shortcuts"
            title="Keyboard shortcuts (?)"
          >
            ?
          </button>
        </div>
      </header>
      <LinkBanner />
      <Notices />
      {loadError !== null && (
        <div className="view-error" role="alert">
          <p>
            <strong>The simulation could not be loaded.</strong> Reload the page to try again.
          </p>
          <p className="mono">{loadError}</p>
        </div>
      )}
      {course && (
        <ErrorBoundary what="The course">
          <Suspense fallback={<Loading />}>
            <CoursePanel />
          </Suspense>
        </ErrorBoundary>
      )}
      <Controls />
      <Timeline />
      <Narration />
      <HydratesLater>
        <main className={rightTab === 'shell' ? 'workbench workbench-shell' : 'workbench'}>
          <section className="pane pane-views" aria-label="Views">
            <Tabs label="Views" tabs={LEFT_TABS} selected={leftTab} onSelect={(k) => ui.leftTab(k)}>
              <View name={leftTab} component={left[leftTab]} />
            </Tabs>
          </section>
          {sideSteps ? (
            <section className="pane pane-side-steps" aria-labelledby="side-steps-heading">
              <h2 id="side-steps-heading" className="pane-title">
                Steps
              </h2>
              <div className="tabpanel side-steps-body">
                <View name="trace" component={TraceView} />
              </div>
            </section>
          ) : (
            // Focusable: when the course panel takes height, the inspector scrolls (keyboard too).
            <section
              className="pane pane-inspector"
              aria-labelledby="inspector-heading"
              tabIndex={0}
            >
              <h2 id="inspector-heading" className="pane-title">
                Inspector
              </h2>
              <View name="inspector" component={Inspector} />
            </section>
          )}
          <section className="pane pane-cluster" aria-label="Cluster">
            <Tabs
              label="Cluster"
              tabs={RIGHT_TABS}
              selected={rightTab}
              onSelect={(k, how) => {
                // Clicked, the Shell hands the keys to its terminal: left on the tab, what the
                // user types next would reach the app's shortcuts (P, Space, 1–4).
                if (k === 'shell' && how === 'click') focusTerminal();
                ui.rightTab(k);
              }}
            >
              <View name={rightTab} component={right[rightTab]} />
            </Tabs>
          </section>
        </main>
      </HydratesLater>
      <HydratesLater>
        <ShortcutsDialog />
        <ShareDialog />
      </HydratesLater>
    </>
  );
}
