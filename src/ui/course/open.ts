/**
 * Opening a course route: the course home, a lesson (its starting scenario as the app's session,
 * with the cursor where the learner takes over), or a challenge (the cluster with its hidden
 * fault, drawn from the link's seed; a link without a seed gets a new one, and a fresh attempt;
 * the seed of the attempt saved in this browser resumes that attempt). The session's
 * `source` becomes 'course', so it is never saved over the user's own sandbox.
 */
import { loadCourseEngine, type ChallengeRun, type CourseEngine, type Lesson } from '../../engine';
import { routeHash, type Route } from '../route';
import { ADDRESS_STEP, seekToAsked } from '../app/commands';
import { Cancelled, runJob } from '../app/jobs';
import { notify } from '../app/notices';
import { saveNow } from '../app/persistence';
import { get, publish, update } from '../app/state';
import { loadProgress } from './progress';
import { keepChallengeAttempt, setCourse, storage, useCourse } from './state';
import { forgetWork, savedWorkText, setRestoring } from './work';

type CourseRoute = Extract<Route, { kind: 'course' | 'lesson' | 'challenge' }>;

let progressLoaded = false;

async function engine() {
  const e = useCourse.getState().engine ?? (await loadCourseEngine());
  if (!useCourse.getState().engine) setCourse({ engine: e });
  if (!progressLoaded) {
    progressLoaded = true;
    const { progress, problem, damaged } = loadProgress(storage());
    // A new learner gets a seed for the quiz's order; it is saved with the first progress.
    setCourse({
      progress: { ...progress, learner: progress.learner ?? e.learnerSeed(cryptoRandom) },
    });
    if (problem)
      notify(
        'warning',
        problem,
        damaged === undefined
          ? undefined
          : {
              label: 'Download the damaged copy',
              name: 'cnisim-course-progress-damaged.json',
              text: damaged,
            },
      );
  }
  return e;
}

/** A number in [0, 1) from the browser's cryptographic random source. */
function cryptoRandom(): number {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return a[0]! / 2 ** 32;
}

/** A fresh seed for a challenge attempt. */
function newSeed(): number {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return (a[0]! % 999_999) + 1;
}

export async function openCourseRoute(route: CourseRoute): Promise<void> {
  const ce = await engine();
  // Whatever the user had in their own sandbox is saved before a course session replaces it.
  if (get().source === 'own') saveNow();
  const course = ce.loadCourse();
  if (route.kind === 'course') {
    update({ course: route });
    setCourse({ open: null });
    return;
  }
  if (route.kind === 'lesson') {
    const lesson = course.lessons.find((l) => l.id === route.id);
    if (!lesson) {
      notify('error', `There is no lesson "${route.id}". Here is the list of lessons.`);
      history.replaceState(null, '', routeHash({ kind: 'course' }));
      update({ course: { kind: 'course' } });
      setCourse({ open: null });
      return;
    }
    openLesson(lesson, false);
    update({ course: route });
    // A step in the address (#/lesson/<id>?step=12) opens the lesson there.
    if (route.step !== undefined) await seekToAsked(route.step, ADDRESS_STEP);
    return;
  }
  const ch = course.challenges.find((c) => c.id === route.id);
  if (!ch) {
    notify('error', `There is no challenge "${route.id}". Here is the list of challenges.`);
    history.replaceState(null, '', routeHash({ kind: 'course' }));
    update({ course: { kind: 'course' } });
    setCourse({ open: null });
    return;
  }
  let seed = route.seed;
  if (seed === null || seed < 1) {
    seed = newSeed();
    history.replaceState(null, '', routeHash({ kind: 'challenge', id: ch.id, seed }));
  }
  const run = ce.openChallenge(ch, seed);
  // The attempt saved for this seed goes on (hints, refused answers, steps, clock); another seed,
  // or none saved, starts a fresh one. Read before the session changes: moving the cursor is a
  // step of the attempt open until now, which saves it.
  const saved = useCourse.getState().progress.challenges[ch.id]?.attempt;
  // So does the work on its cluster (./work.ts): replayed before the attempt reads the cursor.
  if (saved?.seed === seed) await resumeWork(ce, run);
  const hintCount = ch.hints.length * 3;
  const now = Date.now();
  const attempt =
    saved?.seed === seed
      ? ce.resumeAttempt(saved, { now, cursor: run.session.cursor, hintCount })
      : ce.openAttempt('challenge', { now, cursor: run.session.cursor, hintCount });
  update({
    session: run.session,
    source: 'course',
    course: { kind: 'challenge', id: ch.id, seed },
    selectedPod: null,
    selectedFile: null,
  });
  setCourse({ open: { kind: 'challenge', run, attempt } });
  keepChallengeAttempt(run, attempt);
  publish();
}

/**
 * Replays the learner's saved work on a challenge's fresh run (./work.ts keeps it), or says why
 * it could not be and leaves the challenge as it opens.
 */
async function resumeWork(ce: CourseEngine, run: ChallengeRun): Promise<void> {
  const work = ce.readChallengeWork(savedWorkText(), run);
  if (work === null) return;
  const lost = (why: string) =>
    notify(
      'warning',
      `Your work on this challenge could not be restored (${why}): the cluster is as the ticket found it. Your hints and answers are kept.`,
    );
  if ('problem' in work) {
    forgetWork();
    lost(work.problem);
    return;
  }
  setRestoring(true);
  try {
    const job = runJob('Restoring your work on this challenge', ce.replayChallengeWork(run, work));
    if (job && !(await job))
      notify(
        'warning',
        `Your saved step ${work.cursor + 1} no longer exists: the trace now ends at step ${run.session.cursor + 1}.`,
      );
  } catch (e) {
    // Stopped: the challenge as it opens; the saved work stays for the next opening.
    if (!(e instanceof Cancelled)) lost((e as Error).message);
  } finally {
    setRestoring(false);
  }
}

/** Opens a lesson's start, or its solution's replay (from where the learner takes over). */
export function openLesson(lesson: Lesson, solution: boolean): void {
  const ce = useCourse.getState().engine;
  if (!ce) return;
  const s = ce.scenarioSession(ce.lessonScenario(lesson, { solution }));
  const prev = useCourse.getState().open;
  const same = prev?.kind === 'lesson' && prev.lesson.id === lesson.id;
  // The solution's session starts like the lesson's: the learner's part begins at the same step.
  const start = !solution
    ? s.start
    : same
      ? prev.start
      : ce.scenarioSession(ce.lessonScenario(lesson)).start;
  s.session.seek(start);
  // The learner's attempt is kept while the solution replays (a replay of a replay keeps the
  // attempt it was started from).
  const current = get().session;
  const ownSession =
    solution && same
      ? prev.solution
        ? (prev.ownSession ?? null)
        : current
          ? { session: current, cursor: current.cursor }
          : null
      : null;
  update({ session: s.session, source: 'course', selectedPod: null, selectedFile: null });
  setCourse({
    open: {
      kind: 'lesson',
      lesson,
      start,
      solution,
      attempt: same
        ? { ...prev.attempt, cursor: start }
        : ce.openAttempt('lesson', { now: Date.now(), cursor: start }),
      quiz: same ? prev.quiz : {},
      ownSession,
    },
  });
  publish();
}

/**
 * Back from the solution's replay to the learner's own attempt, as it was (its actions, trace
 * and step); without a kept attempt, the lesson's start.
 */
export function backToAttempt(lesson: Lesson): void {
  const prev = useCourse.getState().open;
  const kept = prev?.kind === 'lesson' && prev.lesson.id === lesson.id ? prev.ownSession : null;
  if (!kept || prev?.kind !== 'lesson') {
    openLesson(lesson, false);
    return;
  }
  kept.session.seek(kept.cursor);
  update({
    session: kept.session,
    source: 'course',
    selectedPod: null,
    selectedFile: null,
  });
  setCourse({ open: { ...prev, solution: false, ownSession: null } });
  publish();
}
