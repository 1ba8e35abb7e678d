/**
 * A lesson's printed handout (a lazy chunk): title, introduction, objectives, goals, and every
 * narrated step of the solution's headless run with the lesson's sentences and the sequence
 * diagram of the messages around it, its own message in bold. It lives in a container of its own
 * under <body>: printing a page that has it prints only it (handout.css), whether the print
 * comes from "Print handout", Ctrl-P or the browser's menu.
 *
 * The lesson's run is computed in slices; the diagrams are drawn by the app's own SVG drawing
 * (views/sequence/SequenceDrawing.tsx: a few ms each, no Mermaid), one per task, when the browser
 * is idle or at once when a print waits for them.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { loadCourseEngine, type Handout as HandoutData } from '../../../engine';
import { visibleSeqs } from '../../views/sequence/model';
import { SequenceDrawing } from '../../views/sequence/SequenceDrawing';
import { pageUrl, routeHash } from '../../route';
import type { Lesson } from '../../../engine';
import { stepDiagram, type StepDiagram } from './diagram';
import { closePreview, printed, setHandoutReady, useHandout } from './state';
import './handout.css';

/** The next task: a print waiting for the diagrams still gets one task per diagram. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function idle(): Promise<void> {
  return new Promise((resolve) => {
    if ('requestIdleCallback' in window)
      window.requestIdleCallback(() => resolve(), { timeout: 2000 });
    else setTimeout(resolve, 50);
  });
}

const Diagram = memo(function Diagram({
  drawn,
  diagram,
}: {
  drawn: boolean;
  diagram: StepDiagram;
}) {
  if (!drawn) return <p className="handout-pending">Drawing the diagram…</p>;
  return (
    <div className="handout-diagram">
      <SequenceDrawing win={diagram.window} current={diagram.current} />
    </div>
  );
});

function Steps({
  data,
  steps,
  diagrams,
  drawn,
}: {
  data: HandoutData;
  steps: HandoutData['steps'];
  diagrams: StepDiagram[];
  /** Diagrams drawn so far (in the order of data.steps). */
  drawn: number;
}) {
  return (
    <ol className="handout-steps">
      {steps.map((s) => {
        const i = data.steps.indexOf(s);
        const d = diagrams[i]!;
        const first = d.window.messages[0]?.seq;
        const last = d.window.messages[d.window.messages.length - 1]?.seq;
        return (
          <li key={s.step} className="handout-step">
            <h3>
              Step {s.step + 1}{' '}
              <span className="handout-who">
                {s.event.source} → {s.event.target}
                {s.event.node ? ` (${s.event.node})` : ''}
              </span>
            </h3>
            <p className="handout-what">
              {s.event.summary}
              {s.event.error ? ` — failed: ${s.event.error}` : ''}
            </p>
            {s.text.map((t, k) => (
              <p key={k}>{t}</p>
            ))}
            {first !== undefined && (
              <figure>
                <Diagram drawn={i < drawn} diagram={d} />
                <figcaption>
                  Steps {first + 1} to {last! + 1}
                  {d.current !== null ? `; step ${d.current + 1} in bold` : ''}.
                </figcaption>
              </figure>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** Time the lesson's run may take in one task (a print waiting: as long as a frame allows). */
const SLICE_MS = 12;

/**
 * The lesson's handout data (its solution run headless), computed in slices of SLICE_MS so that
 * no task blocks the page for long; null until it is done.
 */
function useHandoutData(lesson: Lesson): HandoutData | { errors: string[] } | null {
  const [data, setData] = useState<{
    lesson: Lesson;
    value: HandoutData | { errors: string[] };
  } | null>(null);
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const job = loadCourseEngine.now().lessonHandoutJob(lesson);
    const slice = () => {
      timer = null;
      const start = performance.now();
      try {
        for (;;) {
          const r = job.next();
          if (r.done) {
            if (!cancelled) setData({ lesson, value: r.value });
            return;
          }
          if (cancelled) return;
          if (performance.now() - start >= SLICE_MS) break;
        }
      } catch (e) {
        if (!cancelled) setData({ lesson, value: { errors: [(e as Error).message] } });
        return;
      }
      timer = setTimeout(slice, 0);
    };
    slice();
    return () => {
      cancelled = true;
      if (timer !== null) clearTimeout(timer);
    };
  }, [lesson]);
  return data !== null && data.lesson === lesson ? data.value : null;
}

function HandoutPage({ lesson }: { lesson: Lesson }) {
  const preview = useHandout((s) => s.preview);
  const printWhenReady = useHandout((s) => s.printWhenReady);
  const ready = useHandout((s) => s.ready);
  const data = useHandoutData(lesson);
  const diagrams = useMemo(() => {
    if (data === null) return null;
    if ('errors' in data) return [];
    const visible = visibleSeqs(data.events, 'kernel');
    return data.steps.map((s) => stepDiagram(data.events, s.step, visible));
  }, [data]);
  // Diagrams drawn so far, for the diagrams they belong to.
  const [progress, setProgress] = useState<{ of: StepDiagram[] | null; drawn: number }>({
    of: null,
    drawn: 0,
  });
  const drawn = progress.of === diagrams ? progress.drawn : 0;
  const hurry = useRef(printWhenReady);
  useEffect(() => {
    hurry.current = printWhenReady;
  }, [printWhenReady]);

  // The page prints only the handout while it is mounted.
  useEffect(() => {
    const root = document.documentElement;
    root.classList.add('has-handout');
    return () => root.classList.remove('has-handout');
  }, []);
  useEffect(() => {
    document.documentElement.classList.toggle('handout-preview', preview);
    return () => document.documentElement.classList.remove('handout-preview');
  }, [preview]);

  // Draw the diagrams, one per task (a few ms each), then say the handout is ready.
  useEffect(() => {
    if (diagrams === null) {
      setHandoutReady(false);
      return;
    }
    if (drawn >= diagrams.length) {
      setHandoutReady(true);
      return;
    }
    setHandoutReady(false);
    let cancelled = false;
    void (hurry.current ? nextTask() : idle()).then(() => {
      if (!cancelled) setProgress({ of: diagrams, drawn: drawn + 1 });
    });
    return () => {
      cancelled = true;
    };
  }, [diagrams, drawn]);

  // A print that waited for the diagrams, once they are on the page.
  useEffect(() => {
    if (!ready || !printWhenReady) return;
    printed();
    // After the frame with the last diagram is painted.
    setTimeout(() => window.print(), 50);
  }, [ready, printWhenReady]);

  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!preview) return;
    headingRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') closePreview();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [preview]);

  const link = `${pageUrl(location)}${routeHash({ kind: 'lesson', id: lesson.id })}`;
  const total = diagrams?.length ?? 0;

  return (
    <>
      <article className="handout" aria-labelledby="handout-title">
        {preview && (
          <div className="handout-toolbar">
            <p role="status">
              {ready
                ? 'The handout is ready to print.'
                : data === null
                  ? 'Preparing the handout: running the lesson…'
                  : `Drawing the diagrams: ${drawn} of ${total}…`}
            </p>
            <button type="button" onClick={() => window.print()} disabled={!ready}>
              Print
            </button>
            <button type="button" onClick={closePreview}>
              Back to the lesson
            </button>
          </div>
        )}
        <header>
          <h1 id="handout-title" ref={headingRef} tabIndex={-1}>
            {lesson.title}
          </h1>
          <p className="handout-summary">{lesson.summary}</p>
          <p className="handout-meta">
            A cnisim lesson, about {lesson.minutes} minutes. Open it at <span>{link}</span>
          </p>
        </header>
        {data === null || diagrams === null ? (
          <p className="handout-pending">Running the lesson&apos;s solution…</p>
        ) : 'errors' in data ? (
          <p role="alert">The lesson&apos;s run failed: {data.errors.join('; ')}</p>
        ) : (
          <>
            <section aria-labelledby="handout-intro">
              <h2 id="handout-intro">Introduction</h2>
              <p>{lesson.intro}</p>
              <h3>Objectives</h3>
              <ul>
                {lesson.objectives.map((o, i) => (
                  <li key={i}>{o}</li>
                ))}
              </ul>
              <h3>Goals</h3>
              <ul>
                {data.goals.map((g) => (
                  <li key={g.id}>{g.text}</li>
                ))}
              </ul>
            </section>
            {data.steps.some((s) => !s.learner) && (
              <section aria-labelledby="handout-setup">
                <h2 id="handout-setup">Where the lesson starts</h2>
                <Steps
                  data={data}
                  steps={data.steps.filter((s) => !s.learner)}
                  diagrams={diagrams}
                  drawn={drawn}
                />
              </section>
            )}
            <section aria-labelledby="handout-solution">
              <h2 id="handout-solution">The solution, step by step</h2>
              <p>{lesson.solution.explanation}</p>
              <Steps
                data={data}
                steps={data.steps.filter((s) => s.learner)}
                diagrams={diagrams}
                drawn={drawn}
              />
            </section>
          </>
        )}
      </article>
    </>
  );
}

/**
 * The handout's page, in a container of its own under <body> (its own React root: a portal would
 * pull react-dom's non-client entry into the first screen's chunks).
 */
export default function Handout({ lesson }: { lesson: Lesson }) {
  const root = useRef<Root | null>(null);
  useEffect(() => {
    const host = document.createElement('div');
    host.className = 'handout-root';
    document.body.appendChild(host);
    // Its own ids (useId), apart from the app root's.
    const r = createRoot(host, { identifierPrefix: 'handout-' });
    root.current = r;
    return () => {
      root.current = null;
      // Not while this root is committing.
      setTimeout(() => {
        r.unmount();
        host.remove();
      }, 0);
    };
  }, []);
  useEffect(() => {
    root.current?.render(
      <ErrorBoundary what="The handout">
        <HandoutPage lesson={lesson} />
      </ErrorBoundary>,
    );
  }, [lesson]);
  return null;
}
