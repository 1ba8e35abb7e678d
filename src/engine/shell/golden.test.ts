/**
 * The shell against the real tools: every line of golden/real-outputs.jsonl is a command line run
 * by the real bash 5.2 / iproute2 6.1 / coreutils 9.1 / sed 4.9 / jq 1.6 / procps-ng sysctl of a
 * Debian bookworm machine (kernel 6.18), inside a throw-away network namespace, with its stdout,
 * stderr, exit status, the files it changed and (for `ip`) the namespaces' links, addresses and
 * routes afterwards. See golden/README.md.
 */
import { readFileSync } from 'node:fs';
import { produce } from '../sim/world';
import { describe, expect, it } from 'vitest';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import { routeJson, routesInDumpOrder } from '../kernel/view';
import { addNode, netnsAdd } from '../node/setup';
import { Simulation, newWorld } from '../sim/world';
import { Shell } from './shell';
import { FIXED_MACS, MAC_RE } from '../conformance/normalize';
import { tget } from '../state/table';

interface Header {
  header: true;
  work: string;
  files: Record<string, string>;
  ipSetup: string[];
  ipState: Record<string, string[]>;
}

interface Case {
  group: 'shell' | 'files' | 'ip';
  cmd: string;
  stdout: string;
  stderr: string;
  exitCode: number;
  filesChanged?: Record<string, string | null>;
  filesRemoved?: string[];
  stateChanged?: Record<string, { add: string[]; del: string[] }>;
}

const lines = readFileSync(new URL('./golden/real-outputs.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as Header | Case);
const header = lines[0] as Header;
const cases = lines.slice(1) as Case[];
const NAMESPACES = ['cnisim-sh-t', 'cnisim-sh-u'];

/** The routes the recorder adds before each `ip route flush` case (tools/record/shell/record.py). */
const FLUSH =
  'ip route add 10.50.0.0/16 via 10.1.0.99; ip route add 192.168.0.0/16 via 10.1.0.99; ip route add default via 10.1.0.1; ';

/** Where the shell knowingly differs from the real tools, and why. */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'x=(a b)': 'arrays are not supported',
  'f() { echo; }': 'shell functions are not supported',
  "jq '.foo bar' j":
    'jq: only path filters; other programs get a cnisim message, not jq 1.6 syntax errors',
  "jq 'keys' j": 'jq: only path filters',
  'ip addr add 10.7.3.1/24 dev br0 label foo': 'address labels are not modelled',
  'ip route add blackhole 10.82.0.0/16': 'route types other than unicast are not modelled',
  [`${FLUSH}ip route flush table local`]: 'the local routing table is not modelled',
  [`${FLUSH}ip route flush table all`]: 'the local routing table is not modelled',
};

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function newShell(): { sim: Simulation; sh: Shell } {
  const sim = new Simulation(addNode(newWorld(1), { name: 'node', plugins: ['bridge'] }));
  for (const n of NAMESPACES) netnsAdd(sim, 'node', `/var/run/netns/${n}`);
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

/** What the recorder listed (`ip -j` link / address / route), from the kernel model. */
function stateLines(sim: Simulation, name: string): string[] {
  const k = sim.node('node').kernel;
  const id = tget(k.mounts, `/var/run/netns/${name}`);
  const ns = id ? tget(k.netns, id) : undefined;
  const out: string[] = [];
  if (!ns) return out;
  for (const l of K.linksOf(ns)) {
    const master = l.master !== null ? (K.linkByIndex(ns, l.master)?.name ?? '-') : '-';
    out.push(
      `L ${l.name} ${l.adminUp ? 'up' : 'down'} mtu=${l.mtu} master=${master} kind=${l.kind === 'loopback' ? '-' : l.kind} qlen=${l.txqlen} promisc=${l.promisc}`,
    );
    for (const a of l.addrs) {
      if (!a.local.startsWith('fe80:'))
        out.push(
          `A ${l.name} ${a.family === 4 ? 'inet' : 'inet6'} ${a.local}/${a.prefix} ${a.scope} brd=${a.broadcast ?? '-'}`,
        );
    }
  }
  for (const fam of [4, 6] as const) {
    for (const r of routesInDumpOrder(ns, fam)) {
      const o = routeJson(ns, r);
      if (String(o['dst']).startsWith('fe80:')) continue;
      out.push(
        'R ' +
          ['dst', 'gateway', 'dev', 'protocol', 'scope', 'prefsrc', 'metric']
            .map((x) => `${x}=${String(o[x] ?? '-')}`)
            .join(' '),
      );
    }
  }
  return out;
}

/** The state lines in a fixed order (the recording lists them sorted). */
function normalizeState(lines: string[]): string[] {
  return [...lines].sort();
}

function filesOf(sim: Simulation): Record<string, string | null> {
  const fs = sim.node('node').fs;
  const out: Record<string, string | null> = {};
  for (const p of vfs.walk(fs, header.work)) {
    if (p === header.work) continue;
    const e = vfs.stat(fs, p)!;
    out[p.slice(header.work.length + 1) + (e.kind === 'dir' ? '/' : '')] =
      e.kind === 'dir' ? null : e.data;
  }
  return out;
}

const plainFiles: Record<string, string | null> = (() => {
  const { sim } = newShell();
  return filesOf(sim);
})();

/**
 * The random values of an `ip` output, which the recording and the model cannot share: a device's
 * MAC address (but the all-zero and broadcast ones) and the link-local address made from it.
 */
function unrandom(text: string): string {
  return text
    .replace(/fe80::[0-9a-f]{1,4}(:[0-9a-f]{1,4}){3}\b/g, 'fe80::<eui64>')
    .replace(MAC_RE, (m) => (FIXED_MACS.has(m.toLowerCase()) ? m : '<mac>'));
}

/** Runs one recorded command line and compares output, files and (for ip) the namespaces. */
function check(c: Case): void {
  const { sim, sh } = newShell();
  if (c.group === 'ip')
    for (const s of header.ipSetup) sh.run(`ip netns exec cnisim-sh-t bash -c ${quote(s)}`);
  const r = sh.run(`ip netns exec cnisim-sh-t bash -c ${quote(c.cmd)}`);
  const out = (t: string) => (c.group === 'ip' ? unrandom(t) : t);
  expect({ stdout: out(r.stdout), stderr: r.stderr, exitCode: r.exitCode }).toEqual({
    stdout: out(c.stdout),
    stderr: c.stderr,
    exitCode: c.exitCode,
  });
  const files = filesOf(sim);
  const changed = Object.fromEntries(
    Object.entries(files).filter(([p, v]) => !(p in plainFiles) || plainFiles[p] !== v),
  );
  const removed = Object.keys(plainFiles).filter((p) => !(p in files));
  expect(changed).toEqual(c.filesChanged ?? {});
  expect(removed.sort()).toEqual(c.filesRemoved ?? []);
  if (c.group === 'ip') {
    for (const n of NAMESPACES) {
      const d = c.stateChanged?.[n] ?? { add: [], del: [] };
      const expected = [...header.ipState[n]!.filter((x) => !d.del.includes(x)), ...d.add];
      expect(normalizeState(stateLines(sim, n))).toEqual(normalizeState(expected));
    }
  }
}

describe('golden: the node shell prints what the real tools print', () => {
  it('the ip cases start from the recorded state', () => {
    const { sim, sh } = newShell();
    for (const s of header.ipSetup)
      expect(sh.run(`ip netns exec cnisim-sh-t bash -c ${quote(s)}`).exitCode).toBe(0);
    for (const n of NAMESPACES)
      expect(normalizeState(stateLines(sim, n))).toEqual(normalizeState(header.ipState[n]!));
  });

  for (const c of cases) {
    const known = KNOWN_DIFFERENCES[c.cmd];
    // A known difference must still differ: once it is fixed this fails, and the entry goes.
    if (known) it.fails(`${c.group}: ${c.cmd} (known difference: ${known})`, () => check(c));
    else it(`${c.group}: ${c.cmd}`, () => check(c));
  }
});
