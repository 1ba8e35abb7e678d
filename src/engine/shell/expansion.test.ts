/**
 * Arithmetic and brace expansion against bash 5.2: golden/expansion-outputs.jsonl holds what
 * `bash -c` printed for hand-picked lines (every operator, constant form and error message, how
 * an expansion error ends a script but only a subshell inside it, `let`, `(( ))`, `for (( ))`
 * with `break` and `continue`, brace lists and sequences and what stays literal) and for 300
 * expressions and 150 brace words generated from a fixed seed
 * (tools/record/shell/record-expansion.py).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bashCases, bashShell, runBashCase } from './bash-golden';

const cases = bashCases(
  readFileSync(new URL('./golden/expansion-outputs.jsonl', import.meta.url), 'utf8'),
);

describe('arithmetic and brace expansion print what bash 5.2 prints', () => {
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
    expect(cases.length).toBeGreaterThan(600);
    expect(cases.filter((c) => c.cmd.includes('for w in')).length).toBe(150);
    expect(cases.filter((c) => c.exitCode !== 0).length).toBeGreaterThan(50);
  });
});

describe('an expansion error at the prompt', () => {
  it('abandons the rest of the line, sets $? to 1, and the next line runs', () => {
    const sh = bashShell();
    const r = sh.run('echo $((5/0)) after; echo next');
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('bash: 5/0: division by 0 (error token is "0")\n');
    expect(sh.run('echo $?').stdout).toBe('1\n');
    expect(sh.run('x=$((2**3)); echo $x').stdout).toBe('8\n');
  });
  it('ends only the line it is on when several are pasted', () => {
    const sh = bashShell();
    const r = sh.run('echo ${u?unset} more; echo same line\necho next line');
    expect(r.stdout).toBe('next line\n');
    expect(r.stderr).toBe('bash: u: unset\n');
  });
});
