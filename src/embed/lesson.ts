/**
 * A lesson in an embed (a lazy chunk, with the course's data): the lesson's starting scenario
 * becomes the session with the cursor where the learner takes over, as in the app's course, and
 * its goals are checked at every change with the app's own checker (`lessonGoalsAt`). The course
 * is loaded (`loadCourseEngine()`) before a lesson opens.
 */
import { loadCourseEngine } from '../engine';
import { get, subscribe, update } from '../ui/app/state';
import { getEmbed, setEmbed } from './state';

/** Opens a lesson, or its solution's replay; returns a problem when there is no such lesson. */
export function openLesson(id: string, solution: boolean): string | null {
  const { lessonGoalsAt, lessonScenario, loadCourse, scenarioSession } = loadCourseEngine.now();
  const course = loadCourse();
  const lesson = course.lessons.find((l) => l.id === id);
  if (!lesson) {
    const ids = course.lessons.map((l) => l.id).join(', ');
    return `There is no lesson "${id}" (lessons: ${ids}).`;
  }
  const prev = getEmbed().lesson;
  const s = scenarioSession(lessonScenario(lesson, { solution }));
  // The solution's replay starts like the lesson: the learner's part begins at the same step.
  const start = !solution
    ? s.start
    : prev?.lesson.id === id
      ? prev.start
      : scenarioSession(lessonScenario(lesson)).start;
  s.session.seek(start);
  update({ session: s.session, selectedPod: null, selectedFile: null });
  setEmbed({
    lesson: {
      lesson,
      session: s.session,
      start,
      solution,
      goals: lessonGoalsAt(lesson, s.session, start),
    },
  });
  return null;
}

function check(): void {
  const open = getEmbed().lesson;
  const session = get().session;
  if (!open || session !== open.session) return;
  const { lessonGoalsAt } = loadCourseEngine.now();
  setEmbed({
    lesson: { ...open, goals: lessonGoalsAt(open.lesson, session, open.start) },
  });
}

// Every published change (a step, a seek, an action) re-checks the goals once.
subscribe((s, prev) => {
  if (s.version !== prev.version || s.session !== prev.session) check();
});
