/**
 * What a lesson tells the learner to type works in cnisim's shell. A lesson's intro and hints
 * write commands as "In a shell on node-1: LINE" (up to the end of the sentence, or to "then" or
 * a dash that goes on in prose); each such line is typed on that node where the lesson starts,
 * and the shell must know every command and option in it: no `command not found` and no
 * `cnisim: …` message (the shell's answer to a feature it lacks). Whether the line succeeds
 * depends on when the learner types it, so its exit status is not checked here
 * (solution-commands.test.ts checks the solution's lines where the solution types them).
 * Lines with a <placeholder> are left out: the learner fills them in.
 */
import { describe, expect, it } from 'vitest';
import { loadCourse } from './content';
import { runLesson } from './lesson';
import type { Lesson } from './schema';

const COMMAND = /[Ii]n a shell on (node-\d+): (.+?)(?:\.(?:\s|$)| then | — |$)/g;

function hintCommands(l: Lesson): Array<readonly [string, string]> {
  const texts: string[] = [l.intro];
  for (const g of l.goals)
    if (g.hint) for (const t of Object.values(g.hint)) if (typeof t === 'string') texts.push(t);
  const out: Array<readonly [string, string]> = [];
  for (const t of texts)
    for (const m of t.matchAll(COMMAND)) {
      const line = m[2]!.replace(/[,;]$/, '');
      if (!/<[a-z][a-z ]*>/i.test(line)) out.push([m[1]!, line] as const);
    }
  return out;
}

const lessons = loadCourse().lessons.filter((l) => hintCommands(l).length > 0);

describe('commands a lesson tells the learner to type', () => {
  it('are found in enough lessons to matter', () => {
    expect(lessons.length).toBeGreaterThanOrEqual(15);
  });

  it.each(lessons.map((l) => [l.id, l] as const))(
    '%s: the shell knows every command and option',
    { timeout: 60_000 },
    (_, l) => {
      const r = runLesson(l, { solution: false });
      if ('errors' in r) throw new Error(r.errors.join('; '));
      const bad = hintCommands(l)
        .map(([node, line]) => ({ node, line, out: r.run.cluster.shell(node, line) }))
        .filter(({ out }) => /\bcnisim\b|command not found/.test(out.stdout + out.stderr))
        .map(({ node, line, out }) => `${node}: ${line}: ${(out.stderr || out.stdout).trim()}`);
      expect(bad).toEqual([]);
    },
  );
});
