/**
 * "Show goal": the state the lesson's solution ends in, beside the learner's state at the cursor
 * (pods, each node's links and CNI files), with what differs marked, as Learn Git Branching shows
 * its goal tree. The goal is the solution's headless replay, computed once per lesson when asked.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ComparedItem, Lesson } from '../../engine';
import { useApp } from '../store';
import { useCourse } from './state';

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

function GoalPicture({ lesson }: { lesson: Lesson }) {
  const engine = useCourse((s) => s.engine)!;
  const session = useApp((s) => s.session);
  const cursor = useApp((s) => s.cursor);
  const version = useApp((s) => s.version);
  const [goal, setGoal] = useState<ReturnType<typeof engine.goalPicture> | undefined>(undefined);
  useEffect(() => {
    // Let "Computing" be drawn before the replay runs.
    const t = setTimeout(() => setGoal(engine.goalPicture(lesson)), 0);
    return () => clearTimeout(t);
  }, [engine, lesson]);
  const sections = useMemo(() => {
    void version;
    if (!goal || !session) return null;
    return engine.comparePictures(engine.picture(session.stateAt(cursor)), goal);
  }, [engine, goal, session, cursor, version]);
  if (goal === undefined) return <p className="muted">Computing the goal…</p>;
  if (!sections) return <p className="muted">The goal could not be computed.</p>;
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
