/**
 * For the shell's tests against recordings of bash 5.2 (golden/*-outputs.jsonl, one case a line:
 * the command line given to `bash -c`, and what bash printed and returned): the cases of a file,
 * and a shell on a fresh node, in /tmp, to run them as `bash -c CMD`.
 */
import { addNode } from '../node/setup';
import { Simulation, newWorld } from '../sim/world';
import { Shell } from './shell';

export interface BashCase {
  cmd: string;
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The cases of a golden file's text. */
export function bashCases(jsonl: string): BashCase[] {
  return jsonl
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as BashCase);
}

/** A shell on a fresh node, in /tmp, as the recorder's `bash -c` ran (`tty`: a prompt's). */
export function bashShell(opts: { tty?: boolean } = {}): Shell {
  const sim = new Simulation(addNode(newWorld(1), { name: 'node', plugins: ['bridge'] }));
  return new Shell(sim, 'node', { cwd: '/tmp', ...(opts.tty ? { tty: true } : {}) });
}

/** Runs a case's line as `bash -c CMD` in `sh`: what it printed and returned. */
export function runBashCase(sh: Shell, c: BashCase): Omit<BashCase, 'cmd'> {
  const r = sh.run(`bash -c '${c.cmd.replace(/'/g, `'\\''`)}'`);
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}
