/**
 * The course's tracks on its home page: each an ordered list of short levels (a workshop core of
 * about an hour, an operator track, an interview track), with the learner's progress.
 */
import type { CourseEngine } from '../../engine';
import { routeHash } from '../route';
import { useCourse } from './state';

type Course = ReturnType<CourseEngine['loadCourse']>;

export function Tracks({ course }: { course: Course }) {
  const progress = useCourse((s) => s.progress);
  const byId = new Map(course.lessons.map((l) => [l.id, l]));
  return (
    <div className="course-tracks">
      <h3>Tracks</h3>
      {course.tracks.map((t) => {
        const lessons = t.lessons.flatMap((id) => byId.get(id) ?? []);
        const minutes = lessons.reduce((n, l) => n + l.minutes, 0);
        const done = lessons.filter((l) => progress.lessons[l.id]?.done).length;
        return (
          <details key={t.id} className="course-track">
            <summary>
              {t.title}{' '}
              <span className="muted">
                · {lessons.length} levels, about {minutes} min · {done} done
              </span>
            </summary>
            <p className="muted">{t.summary}</p>
            <ol aria-label={`${t.title} track`}>
              {lessons.map((l) => (
                <li key={l.id}>
                  <a href={routeHash({ kind: 'lesson', id: l.id })}>{l.title}</a>{' '}
                  <span className="muted">· {l.minutes} min</span>
                  {progress.lessons[l.id]?.done && <span className="badge badge-done">Done</span>}
                </li>
              ))}
            </ol>
          </details>
        );
      })}
    </div>
  );
}
