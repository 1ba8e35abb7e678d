/**
 * Presenter mode's narration inside a lesson (a lazy chunk, with the course): the lesson's own
 * sentences for the step at the cursor, matched as the lesson panel matches them, in large type.
 */
import type { Lesson } from '../../engine';
import { useLessonNarration } from './narration';
import { useCourse } from './state';

function LessonText({ lesson }: { lesson: Lesson }) {
  const { now, earlier } = useLessonNarration(lesson);
  if (now.length > 0)
    return (
      <div className="narration-lesson">
        {now.map((t, i) => (
          <p key={i}>{t}</p>
        ))}
      </div>
    );
  return (
    <div className="narration-lesson narration-earlier">
      <p>
        {earlier
          ? `Step ${earlier.step + 1}: ${earlier.text.join(' ')}`
          : 'Step forward (→) to see what happens.'}
      </p>
    </div>
  );
}

export default function PresenterNarration() {
  const open = useCourse((s) => s.open);
  if (open?.kind !== 'lesson') return null;
  return <LessonText lesson={open.lesson} />;
}
