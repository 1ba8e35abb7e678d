/**
 * `case` against bash 5.2: golden/case-outputs.jsonl holds what `bash -c` printed for
 * hand-picked lines (glob patterns, quoting, expanded words and patterns, `;;` `;&` `;;&`,
 * newlines, status, redirections, syntax errors) and for 150 words and patterns generated from a
 * fixed seed (tools/record/shell/record-case.py).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bashCases, bashShell, runBashCase } from './bash-golden';

const cases = bashCases(
  readFileSync(new URL('./golden/case-outputs.jsonl', import.meta.url), 'utf8'),
);

describe('case runs what bash 5.2 runs', () => {
  const sh = bashShell();
  for (const c of cases) {
    it(c.cmd, () => {
      expect(runBashCase(sh, c)).toEqual({
        stdout: c.stdout,
        stderr: c.stderr,
        exitCode: c.exitCode,
      });
    });
  }
  it('holds the hand-picked lines and the generated ones', () => {
    expect(cases.length).toBeGreaterThan(200);
    expect(cases.filter((c) => c.stderr !== '').length).toBeGreaterThanOrEqual(8);
  });
});
