/**
 * The `read` builtin against bash 5.2: golden/read-builtin-outputs.jsonl holds what `bash -c`
 * printed, with /dev/null as its input, for hand-picked lines (names and REPLY, IFS splitting,
 * backslashes with and without -r, line continuation, a last line without its newline, every
 * option and its errors, `while read` over pipes, here-strings and files, a loop's input shared
 * with the commands in its body and with a child bash) and for 200 lines and IFS values
 * generated from a fixed seed (tools/record/shell/record-read-builtin.py).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bashCases, bashShell, runBashCase } from './bash-golden';

const cases = bashCases(
  readFileSync(new URL('./golden/read-builtin-outputs.jsonl', import.meta.url), 'utf8'),
);

describe('read prints and sets what bash 5.2 does', () => {
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
    expect(cases.length).toBeGreaterThan(270);
    expect(cases.filter((c) => c.stderr !== '').length).toBeGreaterThan(8);
  });
});

describe('read at the prompt', () => {
  it('takes a line per turn from a loop redirected from a node file, and the loop sees each', () => {
    const sh = bashShell();
    sh.run("printf '10.22.0.2 web-0\\n10.22.0.3 web-1\\n' > /tmp/pods");
    const r = sh.run('while read ip pod; do echo "$pod=$ip"; done < /tmp/pods');
    expect(r.stdout).toBe('web-0=10.22.0.2\nweb-1=10.22.0.3\n');
    expect(r.exitCode).toBe(0);
  });

  it('reads the end of the terminal: it shows its prompt and returns 1, the variable empty', () => {
    const sh = bashShell({ tty: true });
    sh.run('name=old');
    const r = sh.run('read -p "Pod name: " name');
    expect(r.stderr).toBe('Pod name: ');
    expect(r.exitCode).toBe(1);
    expect(sh.run('echo "[$name]"').stdout).toBe('[]\n');
  });

  it('shows no prompt when its input is not the terminal', () => {
    const sh = bashShell({ tty: true });
    const r = sh.run('read -p "Pod name: " name <<< web-0; echo $name');
    expect(r.output).toBe('web-0\n');
  });

  it('says plainly that it has no arrays', () => {
    const r = bashShell().run('read -a ips <<< "1 2"');
    expect(r.stderr).toBe('bash: read: -a: arrays are not supported by this shell\n');
    expect(r.exitCode).toBe(2);
  });
});
