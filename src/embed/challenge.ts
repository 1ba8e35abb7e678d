/**
 * A challenge in an embed (a lazy chunk, with the course's data): the cluster with its hidden
 * fault, drawn from the seed, as the app's challenge opens it, with the cursor where the candidate
 * arrives. The answer form, hints and the debrief stay in the app ("Open in cnisim" opens the
 * same seed there). The course is loaded (`loadCourseEngine()`) before a challenge opens.
 */
import { loadCourseEngine } from '../engine';
import { update } from '../ui/app/state';
import { setEmbed } from './state';

/** Opens a challenge with a seed; returns a problem when there is no such challenge. */
export function openChallenge(id: string, seed: number): string | null {
  const { openChallenge: open, loadCourse } = loadCourseEngine.now();
  const course = loadCourse();
  const ch = course.challenges.find((c) => c.id === id);
  if (!ch) {
    const ids = course.challenges.map((c) => c.id).join(', ');
    return `There is no challenge "${id}" (challenges: ${ids}).`;
  }
  const run = open(ch, seed);
  run.session.seek(run.start);
  update({ session: run.session, selectedPod: null, selectedFile: null });
  setEmbed({
    challenge: { id, title: ch.title, difficulty: ch.difficulty, seed, ticket: run.ticket },
  });
  return null;
}
