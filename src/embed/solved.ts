/**
 * When an embed tells its host that a lesson is solved: the first time every goal of the lesson
 * is met, once per lesson for the life of the page (stepping back and forth, or loading the
 * lesson again, does not repeat it).
 */
export function solvedReporter(
  send: (lesson: string) => void,
): (lesson: string, goals: readonly { met: boolean }[]) => boolean {
  const sent = new Set<string>();
  return (lesson, goals) => {
    if (sent.has(lesson) || goals.length === 0 || !goals.every((g) => g.met)) return false;
    sent.add(lesson);
    send(lesson);
    return true;
  };
}
