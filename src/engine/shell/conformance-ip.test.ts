/**
 * `ip -j addr` and `ip -j route` in the node shell against the conformance recordings: every
 * fixture of conformance/fixtures is replayed step by step (libcni calls, direct plugin runs and
 * the recorder's shell commands, as tools/conformance does), and after each step the shell's
 * `ip -n POD -j addr show` / `ip -j -4|-6 route show` must show what the real `ip -j` showed in
 * the recording of that step: the same devices (index, name, state, flags, MTU, MAC) with the same
 * addresses, and the same routes. Random values (MACs, host veth names) are compared up to a
 * consistent renaming, as the conformance replay does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { produce } from '../sim/world';
import { describe, expect, it } from 'vitest';
import { goMarshal, sortKeysDeep } from '../cni/json';
import { Renaming, diffValues } from '../conformance/diff';
import { SIM_PATHS } from '../conformance/replay';
import { REFERENCE_PACKAGE } from '../plugins/registry';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import type { KernelState } from '../kernel/types';
import { CNIConfig, type RuntimeConf, RUNTIME_PATH_ENV } from '../libcni/api';
import { confListFromBytes } from '../libcni/conf';
import { eui64LinkLocal } from '../net/mac';
import { addNode, netnsAdd, settle } from '../node/setup';
import { execProgram } from '../os/process';
import { runToEnd } from '../os/sys';
import { PROGRAMS } from '../plugins/registry';
import { Simulation, newWorld } from '../sim/world';
import { Shell } from './shell';

type Obj = Record<string, unknown>;

const DIR = new URL('../../../conformance/fixtures/', import.meta.url);
const FIXTURES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

const PLACEHOLDER_PATHS: Array<[string, string]> = [
  ['<cniPath>', SIM_PATHS.cniPath],
  ['<dataDir>', SIM_PATHS.dataDir],
  ['<cacheDir>', SIM_PATHS.cacheDir],
  ['<tuningDir>', SIM_PATHS.tuningDir],
  ['<confDir>', SIM_PATHS.confDir],
  ['<tmp>', SIM_PATHS.tmp],
];

const FIXED_MACS = new Set(['00:00:00:00:00:00', 'ff:ff:ff:ff:ff:ff']);

/** Our random values as placeholders (numbered by first appearance) and the fixture's inputs. */
class Names {
  private macs = new Map<string, string>();
  private veths = new Map<string, string>();
  private ll6 = new Map<string, string>();
  private synthetic = 0;
  readonly ren = new Renaming();

  mac(m: string): string {
    const low = m.toLowerCase();
    if (FIXED_MACS.has(low)) return low;
    let p = this.macs.get(low);
    if (!p) this.macs.set(low, (p = `<mac:${this.macs.size + 1}>`));
    return p;
  }

  veth(name: string): string {
    if (!/^veth[0-9a-f]{8}$/.test(name)) return name;
    let p = this.veths.get(name);
    if (!p) this.veths.set(name, (p = `<veth:${this.veths.size + 1}>`));
    return p;
  }

  /** A link-local address that is not derived from its device's current MAC. */
  linkLocal(addr: string): string {
    let p = this.ll6.get(addr);
    if (!p) this.ll6.set(addr, (p = `<ll6:${this.ll6.size + 1}>`));
    return p;
  }

  /** A recording's input with real values: paths, and MACs / veth names the recorder chose. */
  input(text: string): string {
    let out = text;
    for (const [ph, real] of PLACEHOLDER_PATHS) out = out.split(ph).join(real);
    return out.replace(/<(mac|veth):(\d+)>/g, (ph, kind: string) => {
      for (const [real, ours] of kind === 'mac' ? this.macs : this.veths) {
        if (this.ren.fwd.get(ph) === ours) return real;
      }
      this.synthetic++;
      const n = this.synthetic;
      const real =
        kind === 'mac'
          ? `02:00:00:00:${(n >> 8).toString(16).padStart(2, '0')}:${(n & 255).toString(16).padStart(2, '0')}`
          : `veth${n.toString(16).padStart(8, '0')}`;
      this.ren.bind(ph, kind === 'mac' ? this.mac(real) : this.veth(real));
      return real;
    });
  }

  inputDeep(v: unknown): unknown {
    if (typeof v === 'string') return this.input(v);
    if (Array.isArray(v)) return v.map((x) => this.inputDeep(x));
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.inputDeep(x)]));
    return v;
  }
}

function load(file: string): Obj {
  return JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as Obj;
}

/** A fresh node as tools/conformance builds it: plugins, temp dirs, the pods' namespaces. */
function newNode(pods: string[]): Simulation {
  let world = addNode(newWorld(1), {
    name: 'node',
    plugins: REFERENCE_PACKAGE,
    pluginDir: SIM_PATHS.cniPath,
    loUp: true,
  });
  world = produce(world, (d) => {
    let fs = d.nodes['node']!.fs as vfs.FsState;
    for (const dir of [SIM_PATHS.dataDir, SIM_PATHS.tuningDir, SIM_PATHS.tmp])
      fs = vfs.mkdirAll(fs, dir);
    d.nodes['node']!.fs = fs as never;
  });
  const sim = new Simulation(world);
  for (const pod of pods) netnsAdd(sim, 'node', `/var/run/netns/${pod}`, 'recorder');
  return sim;
}

/** Runs one recorded step against the engine. */
function runStep(sim: Simulation, fx: Obj, step: Obj, names: Names): void {
  const type = step['type'];
  if (type === 'libcni') {
    const lib = new CNIConfig({
      sim,
      node: 'node',
      programs: PROGRAMS,
      path: [SIM_PATHS.cniPath],
      cacheDir: SIM_PATHS.cacheDir,
      version: '1.1',
      env: { PATH: RUNTIME_PATH_ENV },
      caller: 'recorder',
    });
    const op = step['op'];
    if (op === 'VERSION') {
      runToEnd(lib.getVersionInfo(step['plugin'] as string));
      return;
    }
    const files = fx['conflistFiles'] as Record<string, string>;
    let list;
    try {
      list = confListFromBytes(names.input(files[step['conflist'] as string] ?? ''));
    } catch {
      return;
    }
    const rt: RuntimeConf = {
      containerId: (step['containerId'] as string) ?? '',
      netns: (step['netns'] as string) ?? '',
      ifName: (step['ifName'] as string) ?? '',
      args: ((step['cniArgs'] as Array<[string, string]>) ?? []).map(([k, v]) => [
        k,
        names.input(v),
      ]),
      capabilityArgs: (names.inputDeep(step['capabilityArgs'] ?? {}) as Obj) ?? {},
    };
    runToEnd(
      op === 'ADD'
        ? lib.addNetworkList(list, rt)
        : op === 'DEL'
          ? lib.delNetworkList(list, rt)
          : lib.checkNetworkList(list, rt),
    );
  } else if (type === 'invoke') {
    const inv = step['invocation'] as Obj;
    const stdin =
      typeof inv['stdinRaw'] === 'string'
        ? names.input(inv['stdinRaw'] as string)
        : goMarshal(sortKeysDeep(names.inputDeep(inv['stdin'])));
    runToEnd(
      execProgram({
        sim,
        node: 'node',
        programs: PROGRAMS,
        caller: 'recorder',
        path: names.input(inv['path'] as string),
        env: names.inputDeep(inv['env']) as Record<string, string>,
        stdin,
      }),
    );
  } else if (type === 'env') {
    new Shell(sim, 'node', { actor: 'recorder', hostNetnsAliases: ['node'] }).run(
      names.input(step['command'] as string),
    );
  }
}

/** What the recording keeps of a namespace that `ip -j addr` also shows. */
function expectedLinks(ns: Obj): Obj[] {
  return (ns['links'] as Obj[]).map((l) => ({
    ifindex: l['ifindex'],
    name: l['name'],
    operstate: l['operstate'],
    flags: l['flags'],
    mtu: l['mtu'],
    mac: l['mac'],
    addresses: l['addresses'],
  }));
}

/** `ip -j addr show` in the recording's shape, with our random values as placeholders. */
function linksFromIp(json: Obj[], names: Names): Obj[] {
  return json.map((l) => {
    const mac = l['address'] as string;
    return {
      ifindex: l['ifindex'],
      name: names.veth(l['ifname'] as string),
      operstate: l['operstate'],
      flags: [...(l['flags'] as string[])].sort(),
      mtu: l['mtu'],
      mac: names.mac(mac),
      addresses: (l['addr_info'] as Obj[]).map((a) => {
        const local = a['local'] as string;
        const o: Obj = {
          family: a['family'],
          address:
            a['family'] !== 'inet6' || !local.startsWith('fe80:')
              ? local
              : !FIXED_MACS.has(mac) && eui64LinkLocal(mac) === local
                ? `fe80::eui64(${names.mac(mac)})`
                : names.linkLocal(local),
          prefixlen: a['prefixlen'],
          scope: a['scope'],
        };
        if (a['broadcast'] !== undefined) o['broadcast'] = a['broadcast'];
        return o;
      }),
    };
  });
}

function routesFromIp(json: Obj[], names: Names): Obj[] {
  return json.map((r) => ({ ...r, dev: names.veth(r['dev'] as string) }));
}

function ipJson(sh: Shell, cmd: string): { ok: boolean; value: Obj[] } {
  const r = sh.run(cmd);
  if (r.exitCode !== 0) return { ok: false, value: [] };
  expect(r.stderr).toBe('');
  return { ok: true, value: JSON.parse(r.stdout) as Obj[] };
}

describe('ip -j addr / ip -j route equal the conformance recordings, step by step', () => {
  for (const file of FIXTURES) {
    it(file, () => {
      const fx = load(file);
      const pods = fx['pods'] as string[];
      const sim = newNode(pods);
      const names = new Names();
      const sh = new Shell(sim, 'node', { hostNetnsAliases: ['node'] });
      const differences: string[] = [];
      let compared = 0;
      for (const step of fx['steps'] as Obj[]) {
        settle(sim);
        runStep(sim, fx, step, names);
        // The recorder waited until every link's operstate agreed with its carrier.
        sim.state = produce(sim.state, (d) => {
          for (const n of Object.values(d.nodes)) K.settleInconsistent(n.kernel as KernelState);
        });
        const events = sim.events.length;
        const nss = ((step['state'] as Obj)['namespaces'] ?? {}) as Record<string, Obj>;
        for (const [logical, expected] of Object.entries(nss)) {
          const n = logical === 'node' ? '' : `-n ${logical} `;
          const addr = ipJson(sh, `ip ${n}-j addr show`);
          const where = `step ${String(step['index'])} ${logical}`;
          if (!expected['exists']) {
            expect(addr.ok, `${where}: the namespace is gone`).toBe(false);
            continue;
          }
          const v4 = ipJson(sh, `ip ${n}-j -4 route show`);
          const v6 = ipJson(sh, `ip ${n}-j -6 route show`);
          const got = {
            links: linksFromIp(addr.value, names),
            routes: { ipv4: routesFromIp(v4.value, names), ipv6: routesFromIp(v6.value, names) },
          };
          const want = { links: expectedLinks(expected), routes: expected['routes'] };
          for (const d of diffValues(want, got, where, '', names.ren))
            differences.push(
              `${d.where} ${d.path}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.got)}`,
            );
          compared++;
        }
        // Reading adds nothing to the trace.
        expect(sim.events.length).toBe(events);
      }
      expect(differences).toEqual([]);
      expect(compared).toBeGreaterThan(0);
    });
  }
});
