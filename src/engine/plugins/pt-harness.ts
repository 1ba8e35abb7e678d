/**
 * Test-only helpers for ptp.test.ts, static.test.ts and builds.test.ts: a simulated node with
 * every plugin they need installed in /usr/lib/cni (as Debian installs them), plugin runs exactly
 * as the real binaries were run for the recordings, and compact views of the namespaces in the
 * form the recordings were written down.
 *
 * The real runs: a namespace `cnisim-pt-node` played the node and one namespace per pod was made
 * with `ip netns add cnisim-pt-pod-<x>` (lo left down); each plugin ran as
 * `ip netns exec cnisim-pt-node env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
 * CNI_COMMAND=<cmd> CNI_CONTAINERID=<cid> CNI_NETNS=<netns> CNI_IFNAME=<ifname> CNI_ARGS=<args>
 * CNI_PATH=/usr/lib/cni /usr/lib/cni/<plugin>` with the config on stdin (Debian bookworm
 * containernetworking-plugins 1.1.1+ds1, kernel 6.18), host-local's dataDir being
 * /tmp/cnisim-pt-data; everything was deleted afterwards. State was read with
 * `ip -n <ns> -j -d link`, `ip -n <ns> -j addr`, `ip -n <ns> route`, `ip -n <ns> -6 route`,
 * `iptables-save -t nat` in the node namespace and the dataDir's files.
 */
import * as vfs from '../fs/vfs';
import { iptablesSaveLines } from '../kernel/iptables';
import { routeJson, routesInDumpOrder } from '../kernel/view';
import { installPluginFiles } from '../node/setup';
import type { ExecResult } from '../os/process';
import { Harness, PLUGIN_DIR, cniEnv } from './harness';
import { tget } from '../state/table';

export const NODE_PLUGINS = ['ptp', 'static', 'portmap', 'tuning'];
export const DATA = '/tmp/cnisim-pt-data';
export const POD_A = 'cnisim-pt-pod-a';
export const POD_B = 'cnisim-pt-pod-b';
export const NS_A = `/var/run/netns/${POD_A}`;
export const NS_B = `/var/run/netns/${POD_B}`;
export const NS_NONE = '/var/run/netns/nope';

/** A node with bridge, host-local, loopback (Harness) plus ptp, static, portmap, tuning. */
export function ptNode(
  opts: { build?: string; pods?: string[]; plugins?: string[] } = {},
): Harness {
  const build = opts.build ?? 'v1.1.1';
  const h = new Harness({ build });
  const fs = installPluginFiles(h.fs, PLUGIN_DIR, build, opts.plugins ?? NODE_PLUGINS);
  h.sim.state = {
    ...h.sim.state,
    nodes: { ...h.sim.state.nodes, [h.node]: { ...h.sim.node(h.node), fs } },
  };
  for (const p of opts.pods ?? [POD_A, POD_B]) h.addNetns(p);
  h.mkdir(DATA);
  return h;
}

/** Removes a plugin binary from /usr/lib/cni. */
export function uninstall(h: Harness, plugin: string): void {
  const fs = vfs.remove(h.fs, `${PLUGIN_DIR}/${plugin}`);
  h.sim.state = {
    ...h.sim.state,
    nodes: { ...h.sim.state.nodes, [h.node]: { ...h.sim.node(h.node), fs } },
  };
}

export interface Out {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs /usr/lib/cni/<plugin> as the recordings did. */
export function runPlugin(
  h: Harness,
  plugin: string,
  cmd: string,
  o: { cid?: string; netns?: string; ifname?: string; args?: string },
  stdin: string,
): Out {
  const r: ExecResult = h.run(
    plugin,
    cniEnv(cmd, {
      cid: o.cid ?? 'c1',
      netns: o.netns ?? NS_A,
      ifname: o.ifname ?? 'eth0',
      args: o.args ?? '',
    }),
    stdin,
  );
  return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

/** A types.Error as skel prints it (json.MarshalIndent, 4 spaces, Go's HTML escaping). */
export function goErr(msg: string, code = 999, details?: string): Out {
  const o: Record<string, unknown> = { code, msg };
  if (details !== undefined) o['details'] = details;
  return {
    exitCode: 1,
    stdout: JSON.stringify(o, null, 4)
      .replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)
      // Norm's placeholders stand for MACs / veth names, which Go prints unescaped.
      .replace(/\\u003c((?:mac|veth):\d+)\\u003e/g, '<$1>'),
    stderr: '',
  };
}

export const OK: Out = { exitCode: 0, stdout: '', stderr: '' };

/** The config with `prev` (a result's JSON text) as prevResult, like the recorder's prevconf. */
export function withPrev(conf: string, prev: string): string {
  const c = JSON.parse(conf) as Record<string, unknown>;
  c['prevResult'] = JSON.parse(prev) as unknown;
  return JSON.stringify(c);
}

const MAC_RE = /\b[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}\b/g;
const VETH_RE = /\bveth[0-9a-f]{8}\b/g;

/**
 * Numbers random MACs and veth names in order of first appearance (`<mac:N>`, `<veth:N>`), over
 * everything passed to it; MACs set by the test (02:00:00:00:00:xx) and all-zero are kept.
 */
export class Norm {
  private macs = new Map<string, number>();
  private veths = new Map<string, number>();

  text(s: string): string {
    return s
      .replace(MAC_RE, (m) => {
        const l = m.toLowerCase();
        if (l === '00:00:00:00:00:00' || l.startsWith('02:00:00:00:00:')) return l;
        if (!this.macs.has(l)) this.macs.set(l, this.macs.size + 1);
        return `<mac:${this.macs.get(l)}>`;
      })
      .replace(VETH_RE, (v) => {
        if (!this.veths.has(v)) this.veths.set(v, this.veths.size + 1);
        return `<veth:${this.veths.get(v)}>`;
      });
  }

  out(o: Out): Out {
    return { exitCode: o.exitCode, stdout: this.text(o.stdout), stderr: this.text(o.stderr) };
  }

  lines(ls: string[]): string[] {
    return ls.map((l) => this.text(l));
  }
}

function nsOf(h: Harness, name: string) {
  return h.ns(name === 'node' ? 'node' : name);
}

/**
 * One namespace as the recordings wrote it down: `link <name> <kind> mtu <mtu>`,
 * `addr <dev> <inet|inet6> <addr>/<len> <scope>` and the `ip route` / `ip -6 route` lines;
 * IPv6 link-local addresses and the fe80::/64 routes are left out.
 */
export function nsView(h: Harness, name: string): string[] {
  const ns = nsOf(h, name);
  const out: string[] = [];
  const links = Object.values(ns.links).sort((a, b) => a.ifindex - b.ifindex);
  for (const l of links)
    out.push(`link ${l.name} ${l.kind === 'loopback' ? '-' : l.kind} mtu ${l.mtu}`);
  for (const l of links) {
    for (const a of l.addrs) {
      if (a.family === 6 && a.local.startsWith('fe80:')) continue;
      out.push(
        `addr ${l.name} ${a.family === 4 ? 'inet' : 'inet6'} ${a.local}/${a.prefix} ${a.scope}`,
      );
    }
  }
  for (const fam of [4, 6] as const) {
    for (const r of routesInDumpOrder(ns, fam)) {
      const j = routeJson(ns, r);
      if (fam === 6 && String(j['dst']).startsWith('fe80:')) continue;
      let s = String(j['dst']);
      if (j['gateway']) s += ` via ${String(j['gateway'])}`;
      s += ` dev ${String(j['dev'])}`;
      if (j['protocol']) s += ` proto ${String(j['protocol'])}`;
      if (j['scope']) s += ` scope ${String(j['scope'])}`;
      if (j['prefsrc']) s += ` src ${String(j['prefsrc'])}`;
      if (j['metric'] !== undefined) s += ` metric ${String(j['metric'])}`;
      if (fam === 6) s += ' pref medium';
      out.push(s);
    }
  }
  return out;
}

/** The dataDir's files as `<relative path>: <content>`. */
export function dataFiles(h: Harness): string[] {
  const out: string[] = [];
  for (const p of vfs.walk(h.fs, DATA).sort()) {
    const e = vfs.stat(h.fs, p);
    if (e?.kind === 'file') out.push(`${p.slice(DATA.length + 1)}: ${JSON.stringify(e.data)}`);
  }
  return out;
}

/** The node's nat user chains and rules (`iptables-save -t nat | grep -E '^(-A|:CNI)'`). */
export function natRules(h: Harness): string[] {
  const k = h.kernel;
  return iptablesSaveLines(tget(k.netns, k.root)!.iptables, 'ipv4').filter(
    (l) => l.startsWith('-A') || l.startsWith(':CNI'),
  );
}
