/**
 * The read commands against the real tools: every line of golden/read-outputs.jsonl is a command
 * run by the real coreutils 9.1 / grep 3.8 / findutils 4.9 / iproute2 6.1 / iptables-nft 1.8.9 of
 * a Debian bookworm machine (kernel 6.18) in a throw-away network namespace set up by the
 * recording's `setup` lines, in a fresh copy of its fixture files. See golden/README.md.
 *
 * Two things cannot be equal and are compared modulo them: file times (`ls -l`'s date column) and
 * the order in which find and grep -r visit a directory (the real ones follow the filesystem's
 * order, the simulation byte order).
 */
import { readFileSync } from 'node:fs';
import { produce } from '../sim/world';
import { describe, expect, it } from 'vitest';
import * as vfs from '../fs/vfs';
import { addNode, netnsAdd } from '../node/setup';
import { Simulation, newWorld } from '../sim/world';
import { Shell } from './shell';

interface Header {
  header: true;
  work: string;
  files: Record<string, string>;
  setup: string[];
  namespaces: string[];
}

interface Case {
  group: string;
  cmd: string;
  stdout: string;
  stderr: string;
  exitCode: number;
}

const lines = readFileSync(new URL('./golden/read-outputs.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as Header | Case);
const header = lines[0] as Header;
const cases = lines.slice(1) as Case[];

/** Where the simulation knowingly differs from the real tools, and why. */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'ls -la': "`..` is the recording machine's /tmp (mode 1777, 43 links)",
  'ls -R d': 'ls -R is not supported',
  'ip -6 route':
    'kernel model: the real kernel lists the link-local route of the veth before the bridge one',
  'ip -j -6 route': 'kernel model: link-local route order (see ip -6 route)',
};

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The node of the recording: its namespaces set up, time for DAD and linkwatch, the files. */
function newShell(): { sim: Simulation; sh: Shell } {
  const sim = new Simulation(addNode(newWorld(1), { name: 'node', plugins: ['bridge'] }));
  for (const n of header.namespaces) netnsAdd(sim, 'node', `/var/run/netns/${n}`);
  const sh = new Shell(sim, 'node', { cwd: '/' });
  for (const s of header.setup) {
    const r = sh.run(`ip netns exec ${header.namespaces[0]} bash -c ${quote(s)}`);
    if (r.exitCode !== 0) throw new Error(`setup failed: ${s}: ${r.output}`);
  }
  sh.run('sleep 3');
  sim.state = produce(sim.state, (d) => {
    let fs = vfs.mkdirAll(d.nodes['node']!.fs as vfs.FsState, header.work);
    for (const [p, data] of Object.entries(header.files)) {
      const abs = `${header.work}/${p}`;
      fs = vfs.writeFile(vfs.mkdirAll(fs, vfs.dirname(abs)), abs, data);
    }
    d.nodes['node']!.fs = fs as never;
  });
  return { sim, sh: new Shell(sim, 'node', { cwd: header.work }) };
}

const DATE = / [A-Z][a-z]{2} [ 0-9][0-9] (?:[0-9]{2}:[0-9]{2}| [0-9]{4}) /g;

function normalize(c: Case, text: string): string {
  let t = text.replace(DATE, ' <date> ');
  if (/^find |grep -r/.test(c.cmd)) {
    const ls = t.split('\n');
    const last = ls.pop();
    t = [...ls.sort(), last].join('\n');
  }
  return t;
}

function check(c: Case): void {
  const { sim, sh } = newShell();
  const events = sim.events.length;
  const r = sh.run(`ip netns exec ${header.namespaces[0]} bash -c ${quote(c.cmd)}`);
  expect({
    stdout: normalize(c, r.stdout),
    stderr: normalize(c, r.stderr),
    exitCode: r.exitCode,
  }).toEqual({
    stdout: normalize(c, c.stdout),
    stderr: normalize(c, c.stderr),
    exitCode: c.exitCode,
  });
  // Reading changes nothing (the cases that write: uniq's output file, /proc/sys, sysctl -w).
  if (!/uniq u v|>|sysctl -q -w/.test(c.cmd)) expect(sim.events.length).toBe(events);
}

describe('golden: the read commands print what the real tools print', () => {
  for (const c of cases) {
    const known = KNOWN_DIFFERENCES[c.cmd];
    if (known) it.fails(`${c.group}: ${c.cmd} (known difference: ${known})`, () => check(c));
    else it(`${c.group}: ${c.cmd}`, () => check(c));
  }
});
