/**
 * What a lesson's solution types in a node's shell works there. A solution line that the shell
 * does not support (it answers with a `cnisim: …` message: a jq filter, an ls option or a kubectl
 * output format it lacks) or that fails is what a learner sees after "Show solution", so every
 * line must exit 0 and print no such message, unless it is listed below as a line meant to fail.
 */
import { describe, expect, it } from 'vitest';
import { loadCourse } from './content';
import { runLesson } from './lesson';

/**
 * Lines meant to fail, by lesson: the failure is what the lesson shows. Patterns, not texts:
 * the sandbox's netns name (cni-<random>) depends on the runtime's naming, not on the lesson.
 */
const FAILS: Readonly<Record<string, readonly RegExp[]>> = {
  // The ping that node-2 drops while it does not forward.
  'across-nodes': [/^ip netns exec cni-[0-9a-f-]+ ping -c 1 -W 1 10\.244\.2\.2$/],
  // The DF ping one byte too large for the pods' MTU.
  'across-nodes-vxlan': [
    /^ip netns exec cni-[0-9a-f-]+ ping -c 1 -W 1 -M do -s 1423 10\.244\.2\.2$/,
  ],
};

const meantToFail = (id: string, line: string) => (FAILS[id] ?? []).some((re) => re.test(line));

const lessons = loadCourse().lessons;

describe('shell lines of lessons’ solutions', () => {
  it('lines meant to fail are listed only for lessons whose solution types them', () => {
    for (const [id, lines] of Object.entries(FAILS)) {
      const l = lessons.find((x) => x.id === id);
      expect(l, id).toBeDefined();
      const typed = l!.solution.actions.map((a) => (a as { line?: string }).line);
      for (const re of lines)
        expect(
          typed.some((t) => t !== undefined && re.test(t)),
          `${id}: ${re}`,
        ).toBe(true);
    }
  });

  it.each(lessons.map((l) => [l.id, l] as const))(
    '%s: every line works in the node’s shell',
    { timeout: 60_000 },
    (id, l) => {
      const r = runLesson(l);
      if ('errors' in r) throw new Error(r.errors.join('; '));
      const shellOps = r.run.summary.operations.filter((op) => op.what.includes('# '));
      const bad = shellOps
        .filter((op) => {
          const line = op.what.slice(op.what.indexOf('# ') + 2);
          const unsupported = /\bcnisim\b/.test(op.output ?? '');
          const failed = op.exitCode !== 0 && !meantToFail(id, line);
          return unsupported || failed;
        })
        .map((op) => `${op.what} (exit ${op.exitCode}): ${(op.output ?? '').slice(0, 200)}`);
      expect(bad).toEqual([]);
    },
  );
});
