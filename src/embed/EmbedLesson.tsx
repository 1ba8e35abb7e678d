/**
 * A lesson in an embed, compact (a lazy chunk): its title, the narration of the step at the
 * cursor, its goals met or not, and the solution's replay. Hints, the quiz and progress stay in
 * the app ("Open in cnisim").
 */
import { NarrationText, useLessonNarration } from '../ui/course/narration';
import { pause, publish, useApp } from '../ui/store';
import './embed-lesson.css';
import { openLesson } from './lesson';
import { useEmbed } from './state';

export default function EmbedLesson() {
  const open = useEmbed((s) => s.lesson);
  const busy = useApp((s) => s.busy !== null);
  const narration = useLessonNarration(open?.lesson ?? null);
  if (!open) return null;
  const met = open.goals.filter((g) => g.met).length;
  const solved = open.goals.length > 0 && met === open.goals.length;
  const toggle = () => {
    pause();
    const problem = openLesson(open.lesson.id, !open.solution);
    if (problem === null) publish();
  };
  return (
    <section className="embed-lesson" aria-labelledby="embed-lesson-title">
      <div className="embed-lesson-head">
        <h2 id="embed-lesson-title">Lesson: {open.lesson.title}</h2>
        <span className="muted">
          {met} of {open.goals.length} goals met
          {open.solution ? ' · replaying the solution' : ''}
        </span>
        <button type="button" onClick={toggle} disabled={busy}>
          {open.solution ? 'Back to the start' : 'Replay the solution'}
        </button>
      </div>
      <NarrationText narration={narration} fallback={open.lesson.intro} />
      {solved && (
        <p className="done" role="status">
          Every goal is met: lesson solved.
        </p>
      )}
      <ul className="embed-goals" aria-label="Goals">
        {open.goals.map((g) => (
          <li key={g.id} className={g.met ? 'goal-met' : undefined}>
            <span className="goal-mark" aria-hidden="true">
              {g.met ? '✓' : '○'}
            </span>{' '}
            {g.text} <span className="visually-hidden">{g.met ? '(met)' : '(not met)'}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
