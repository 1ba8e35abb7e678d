/**
 * `case` against bash 5.2: golden/heredoc-outputs.jsonl holds what `bash -c` printed for
 * hand-picked lines (glob patterns, quoting, expanded words and patterns, `;;` `;&` `;;&`,
 * newlines, status, redirections, syntax errors) and for 150 words and patterns generated from a
 * fixed seed (tools/record/shell/record-case.py).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bashCases, bashShell, runBashCase } from './bash-golden';

const cases = bashCases(
  readFileSync(new URL('./golden/heredoc-outputs.jsonl', import.meta.url), 'utf8'),
);

/** Lines cnisim runs differently, and why; each must still differ (`it.fails`). */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'cat <<EOF\nunterminated $(\nEOF':
    'the error of a broken substitution in a body names the shell\'s line, not "command substitution: line N"',
};

describe('here-documents run as bash 5.2 runs them', () => {
  const sh = bashShell();
  const check = (c: (typeof cases)[number]) =>
    expect(runBashCase(sh, c)).toEqual({
      stdout: c.stdout,
      stderr: c.stderr,
      exitCode: c.exitCode,
    });
  for (const c of cases) {
    const known = KNOWN_DIFFERENCES[c.cmd];
    if (known) it.fails(`${c.cmd} (known difference: ${known})`, () => check(c));
    else it(c.cmd, () => check(c));
  }
  it('holds the hand-picked lines and the generated ones', () => {
    expect(cases.length).toBeGreaterThan(170);
    expect(cases.filter((c) => c.stderr !== '').length).toBeGreaterThanOrEqual(5);
  });
});
