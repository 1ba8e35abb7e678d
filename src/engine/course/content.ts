/**
 * The course's content: the lesson and challenge files of `src/course/`, validated when loaded.
 * A file that does not validate is left out and reported (`loadCourse().errors`), so the app can
 * say which lesson is broken instead of showing a blank page; the tests require no errors.
 *
 * To add a lesson or a challenge: write its JSON file (docs/authoring.md) and list it here.
 */
import l01 from '../../course/lessons/01-add-step-by-step.json';
import l02 from '../../course/lessons/02-pod-ip-origin.json';
import l03 from '../../course/lessons/03-del-idempotence.json';
import l04 from '../../course/lessons/04-check-and-drift.json';
import l05 from '../../course/lessons/05-chaining.json';
import l06 from '../../course/lessons/06-result-cache.json';
import l07 from '../../course/lessons/07-errors-and-retry.json';
import l08 from '../../course/lessons/08-partial-failure.json';
import l09 from '../../course/lessons/09-version-mismatch.json';
import l10 from '../../course/lessons/10-restarts.json';
import l11 from '../../course/lessons/11-operating-a-node.json';
import l12 from '../../course/lessons/12-failures-are-per-node.json';
import l13 from '../../course/lessons/13-gc-and-status.json';
import l14 from '../../course/lessons/14-corrupted-cache.json';
import l15 from '../../course/lessons/15-what-real-nodes-do.json';
import l16 from '../../course/lessons/16-plain-del.json';
import l17 from '../../course/lessons/17-disable-check.json';
import l18 from '../../course/lessons/18-version-by-hand.json';
import l19 from '../../course/lessons/19-staging-drill.json';
import l20 from '../../course/lessons/20-add-timeout.json';
import l21 from '../../course/lessons/21-orphans.json';
import l22 from '../../course/lessons/22-conflist-rollout.json';
import l35 from '../../course/lessons/35-reboot.json';
import l36 from '../../course/lessons/36-leak-cleanup.json';
import l37 from '../../course/lessons/37-gc.json';
import l38 from '../../course/lessons/38-cache-repair.json';
import l39 from '../../course/lessons/39-crio-node.json';
import l50 from '../../course/lessons/50-follow-a-packet.json';
import l51 from '../../course/lessons/51-across-nodes.json';
import l52 from '../../course/lessons/52-hostport-and-masquerade.json';
import l53 from '../../course/lessons/53-across-nodes-vxlan.json';
import l23 from '../../course/lessons/23-del-retried.json';
import l24 from '../../course/lessons/24-nobody-checks.json';
import l25 from '../../course/lessons/25-free-an-address.json';
import l26 from '../../course/lessons/26-failed-cleanup.json';
import l27 from '../../course/lessons/27-fix-the-cause.json';
import l28 from '../../course/lessons/28-same-fault-two-runtimes.json';
import l29 from '../../course/lessons/29-version-check-at-load.json';
import c01 from '../../course/challenges/audit-finding.json';
import c02 from '../../course/challenges/config-rollout.json';
import c03 from '../../course/challenges/ip-leak.json';
import c04 from '../../course/challenges/ipam-exhausted.json';
import c05 from '../../course/challenges/new-node.json';
import c06 from '../../course/challenges/node-notready.json';
import c07 from '../../course/challenges/stuck-containercreating.json';
import c08 from '../../course/challenges/which-node.json';
import c09 from '../../course/challenges/stuck-terminating.json';
import c10 from '../../course/challenges/hung-add.json';
import c11 from '../../course/challenges/garbage-stdout.json';
import c12 from '../../course/challenges/pod-unreachable.json';
import c13 from '../../course/challenges/skipped-address.json';
import c14 from '../../course/challenges/terminating-everywhere.json';
import c15 from '../../course/challenges/restart-leftovers.json';
import c16 from '../../course/challenges/slow-delete.json';
import c17 from '../../course/challenges/running-unreachable.json';
import tracksData from '../../course/tracks.json';
import { issueLines, tracksSchema, type Challenge, type Lesson, type Track } from './schema';
import { validateChallenge, validateLesson } from './validate';

/** Lesson files in course order. */
export const LESSON_FILES: ReadonlyArray<readonly [string, unknown]> = [
  ['01-add-step-by-step.json', l01],
  ['02-pod-ip-origin.json', l02],
  ['03-del-idempotence.json', l03],
  ['04-check-and-drift.json', l04],
  ['05-chaining.json', l05],
  ['06-result-cache.json', l06],
  ['07-errors-and-retry.json', l07],
  ['08-partial-failure.json', l08],
  ['09-version-mismatch.json', l09],
  ['10-restarts.json', l10],
  ['11-operating-a-node.json', l11],
  ['12-failures-are-per-node.json', l12],
  ['13-gc-and-status.json', l13],
  ['14-corrupted-cache.json', l14],
  ['15-what-real-nodes-do.json', l15],
  ['16-plain-del.json', l16],
  ['17-disable-check.json', l17],
  ['18-version-by-hand.json', l18],
  ['19-staging-drill.json', l19],
  ['20-add-timeout.json', l20],
  ['21-orphans.json', l21],
  ['22-conflist-rollout.json', l22],
  ['35-reboot.json', l35],
  ['36-leak-cleanup.json', l36],
  ['37-gc.json', l37],
  ['38-cache-repair.json', l38],
  ['39-crio-node.json', l39],
  ['50-follow-a-packet.json', l50],
  ['51-across-nodes.json', l51],
  ['52-hostport-and-masquerade.json', l52],
  ['53-across-nodes-vxlan.json', l53],
  ['23-del-retried.json', l23],
  ['24-nobody-checks.json', l24],
  ['25-free-an-address.json', l25],
  ['26-failed-cleanup.json', l26],
  ['27-fix-the-cause.json', l27],
  ['28-same-fault-two-runtimes.json', l28],
  ['29-version-check-at-load.json', l29],
];

/** Challenge files, in the order the app lists them. */
export const CHALLENGE_FILES: ReadonlyArray<readonly [string, unknown]> = [
  ['audit-finding.json', c01],
  ['config-rollout.json', c02],
  ['ip-leak.json', c03],
  ['ipam-exhausted.json', c04],
  ['new-node.json', c05],
  ['node-notready.json', c06],
  ['stuck-containercreating.json', c07],
  ['which-node.json', c08],
  ['stuck-terminating.json', c09],
  ['hung-add.json', c10],
  ['garbage-stdout.json', c11],
  ['pod-unreachable.json', c12],
  ['skipped-address.json', c13],
  ['terminating-everywhere.json', c14],
  ['restart-leftovers.json', c15],
  ['slow-delete.json', c16],
  ['running-unreachable.json', c17],
];

export interface Course {
  lessons: Lesson[];
  challenges: Challenge[];
  /** The tracks of tracks.json whose lessons all exist. */
  tracks: Track[];
  /** `file: field: problem`, one per problem, for files left out. */
  errors: string[];
}

let cached: Course | null = null;

/** The validated course (computed once). */
export function loadCourse(): Course {
  if (cached) return cached;
  const errors: string[] = [];
  const lessons: Lesson[] = [];
  const challenges: Challenge[] = [];
  for (const [file, data] of LESSON_FILES) {
    const r = validateLesson(data);
    if (r.ok) lessons.push(r.value);
    else errors.push(...r.errors.map((e) => `lessons/${file}: ${e}`));
  }
  for (const [file, data] of CHALLENGE_FILES) {
    const r = validateChallenge(data);
    if (r.ok) challenges.push(r.value);
    else errors.push(...r.errors.map((e) => `challenges/${file}: ${e}`));
  }
  const ids = new Set<string>();
  for (const x of [...lessons, ...challenges]) {
    if (ids.has(x.id))
      errors.push(`duplicate id "${x.id}" (lesson and challenge ids share one space)`);
    ids.add(x.id);
  }
  const tracks: Track[] = [];
  const t = tracksSchema.safeParse(tracksData, { reportInput: true });
  if (!t.success) errors.push(...issueLines(t.error.issues).map((e) => `tracks.json: ${e}`));
  else
    t.data.forEach((track, i) => {
      const missing = track.lessons.filter((l) => !lessons.some((x) => x.id === l));
      if (missing.length)
        errors.push(
          `tracks.json: [${i}].lessons: no lesson ${missing.map((m) => `"${m}"`).join(', ')}`,
        );
      else tracks.push(track);
    });
  cached = { lessons, challenges, tracks, errors };
  return cached;
}

export function lessonById(id: string): Lesson | undefined {
  return loadCourse().lessons.find((l) => l.id === id);
}

export function challengeById(id: string): Challenge | undefined {
  return loadCourse().challenges.find((c) => c.id === id);
}
