/**
 * "Show goal": the state the lesson's solution ends in, beside the learner's state at the cursor
 * (pods, each node's links and CNI files), with what differs marked, as Learn Git Branching shows
 * its goal tree. The goal is the solution's headless replay, computed once per lesson when asked.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ComparedItem, Lesson, WorldState } from '../../engine';
import { useApp } from '../store';
import { GOAL_WORDS, TopologyDrawing, type DrawMark } from '../views/topology/Drawing';
import { layout, structureOf, type Layout } from '../views/topology/model';
import { useCourse } from './state';

/** Beyond this many pod namespaces the two drawings are left out (the lists say it all). */
const DRAW_MAX_PODS = 60;

const MARK_TEXT: Record<ComparedItem['mark'], string> = {
  same: '',
  changed: 'differs',
  extra: 'not in the goal',
  missing: 'not there yet',
};

const MARK_SIGN: Record<ComparedItem['mark'], string> = {
  same: '=',
  changed: '≠',
  extra: '−',
  missing: '+',
};

function Items({ items, label }: { items: ComparedItem[]; label: string }) {
  if (!items.length) return <p className="muted">(none)</p>;
  return (
    <ul className="goal-picture-items" aria-label={label}>
      {items.map((i) => (
        <li key={i.key} className={`goal-item goal-item-${i.mark}`}>
          <span aria-hidden="true" className="goal-item-sign">
            {MARK_SIGN[i.mark]}
          </span>{' '}
          {i.text}
          {i.mark !== 'same' && <span className="goal-item-why"> ({MARK_TEXT[i.mark]})</span>}
        </li>
      ))}
    </ul>
  );
}

/** One side's topology, drawn whole (no zoom) with its marks; the lists are its text. */
function SideTopology({
  state,
  lay,
  marks,
  title,
}: {
  state: WorldState;
  lay: Layout;
  marks: ReadonlyMap<string, DrawMark>;
  title: string;
}) {
  const titleId = useId();
  const w = Math.max(lay.width, 1);
  const h = Math.max(lay.height, 1);
  return (
    <svg
      className="topo-svg goal-topo-svg"
      role="group"
      aria-labelledby={titleId}
      viewBox={`-4 -4 ${w + 8} ${h + 8}`}
    >
      <title id={titleId}>{title}</title>
      <TopologyDrawing state={state} lay={lay} marks={marks} words={GOAL_WORDS} />
    </svg>
  );
}

/**
 * The learner's topology beside the goal's, with what differs marked on both: on the goal's, what
 * is not there yet; on the learner's, what is not in the goal; on both, what differs.
 */
function GoalTopology({ now, goal, step }: { now: WorldState; goal: WorldState; step: number }) {
  const engine = useCourse((s) => s.engine)!;
  const nowLay = useMemo(() => layout(structureOf(now)), [now]);
  const goalLay = useMemo(() => layout(structureOf(goal)), [goal]);
  const marks = useMemo(() => engine.topologyMarks(now, goal), [engine, now, goal]);
  const pods = (l: Layout) => l.nodes.reduce((n, x) => n + x.cells.length, 0);
  if (pods(nowLay) + pods(goalLay) > DRAW_MAX_PODS)
    return (
      <p className="muted">
        Too many pods to draw side by side: the lists below show every difference.
      </p>
    );
  const count = (m: ReadonlyMap<string, string>, which: string) =>
    [...m.values()].filter((x) => x === which).length;
  const missing = count(marks.goal, 'missing');
  const extra = count(marks.now, 'extra');
  const differs = count(marks.goal, 'differs');
  return (
    <section className="goal-picture-section goal-topology">
      <h4>Topology</h4>
      <p className="goal-topo-summary">
        {missing + extra + differs === 0
          ? 'The namespaces and links are as in the goal.'
          : [
              missing ? `${missing} not there yet (dashed green, on the goal)` : '',
              extra ? `${extra} not in the goal (red, on yours)` : '',
              differs ? `${differs} differ (blue, on both)` : '',
            ]
              .filter(Boolean)
              .join(', ')}
      </p>
      <div className="goal-picture-columns">
        <div>
          <h5>Now (step {step + 1})</h5>
          <SideTopology
            state={now}
            lay={nowLay}
            marks={marks.now}
            title={`Your topology at step ${step + 1}: namespaces and links not in the goal or different from it are marked`}
          />
        </div>
        <div>
          <h5>Goal</h5>
          <SideTopology
            state={goal}
            lay={goalLay}
            marks={marks.goal}
            title="The goal's topology: namespaces and links not there yet or different are marked"
          />
        </div>
      </div>
    </section>
  );
}

function GoalPicture({ lesson }: { lesson: Lesson }) {
  const engine = useCourse((s) => s.engine)!;
  const session = useApp((s) => s.session);
  const cursor = useApp((s) => s.cursor);
  const version = useApp((s) => s.version);
  const [goal, setGoal] = useState<ReturnType<typeof engine.goalPicture> | undefined>(undefined);
  const [goalWorld, setGoalWorld] = useState<WorldState | null>(null);
  useEffect(() => {
    // Let "Computing" be drawn before the replay runs.
    const t = setTimeout(() => {
      setGoal(engine.goalPicture(lesson));
      setGoalWorld(engine.goalState(lesson));
    }, 0);
    return () => clearTimeout(t);
  }, [engine, lesson]);
  const sections = useMemo(() => {
    void version;
    if (!goal || !session) return null;
    return engine.comparePictures(engine.picture(session.stateAt(cursor)), goal);
  }, [engine, goal, session, cursor, version]);
  if (goal === undefined) return <p className="muted">Computing the goal…</p>;
  if (!sections) return <p className="muted">The goal could not be computed.</p>;
  const nowWorld = session?.stateAt(cursor);
  const differences = sections.reduce(
    (n, s) =>
      n +
      s.now.filter((i) => i.mark !== 'same').length +
      s.goal.filter((i) => i.mark === 'missing').length,
    0,
  );
  return (
    <div className="goal-picture">
      <p role="status">
        {differences === 0
          ? 'Your state matches the goal.'
          : `${differences} difference${differences === 1 ? '' : 's'} from the goal (+ not there yet, − not in the goal, ≠ differs).`}
      </p>
      {goalWorld && nowWorld && <GoalTopology now={nowWorld} goal={goalWorld} step={cursor} />}
      {sections.map((s) => (
        <section key={s.title} className="goal-picture-section">
          <h4>{s.title}</h4>
          <div className="goal-picture-columns">
            <div>
              <h5>Now (step {cursor + 1})</h5>
              <Items items={s.now} label={`${s.title}, now`} />
            </div>
            <div>
              <h5>Goal</h5>
              <Items items={s.goal} label={`${s.title}, goal`} />
            </div>
          </div>
        </section>
      ))}
    </div>
  );
}

export function ShowGoal({ lesson }: { lesson: Lesson }) {
  // Shown for one lesson: another lesson opens with its goal hidden.
  const [shownFor, setShownFor] = useState<string | null>(null);
  const shown = shownFor === lesson.id;
  const ref = useRef<HTMLDivElement>(null);
  return (
    <>
      <button
        type="button"
        aria-expanded={shown}
        aria-controls="lesson-goal-picture"
        onClick={() => {
          setShownFor(shown ? null : lesson.id);
          if (!shown) setTimeout(() => ref.current?.focus(), 0);
        }}
      >
        {shown ? 'Hide goal' : 'Show goal'}
      </button>
      <div
        id="lesson-goal-picture"
        ref={ref}
        tabIndex={-1}
        role="region"
        aria-label="The goal beside your state"
      >
        {shown && <GoalPicture key={lesson.id} lesson={lesson} />}
      </div>
    </>
  );
}
