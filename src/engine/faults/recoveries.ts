/**
 * How each recovery action of the catalogue is carried out, as an operator would (a shell on the
 * node, file writes, plugin installs, libcni calls as a runtime makes them, kubectl), with the
 * Cluster's public methods.
 */
import type { Cluster } from '../cluster/cluster';
import * as vfs from '../fs/vfs';
import { runIptables } from '../kernel/iptables';
import { iptablesSaveLines } from '../kernel/iptables/save';
import * as K from '../kernel/kernel';
import * as inspect from '../node/inspect';
import { networkDir, networks } from '../plugins/host-local-disk';
import type { RecoveryActionSpec } from './catalogue';
import { fillPlaceholders } from './injections';
import { binDir, bridgeNames, cacheFile, nodeBuild, originalConfigs, podNetwork, sh } from './node';
import { fail, type Resolved, viewOf } from './params';
import { tget, tkeys, tvalues } from '../state/table';

type Recoveries = {
  [K in RecoveryActionSpec['kind']]: (
    c: Cluster,
    a: Extract<RecoveryActionSpec, { kind: K }>,
    r: Resolved,
    did: string[],
  ) => void;
};

const RECOVERIES: Recoveries = {
  none: () => {},
  shell: (c, a, r, did) => sh(c, r.node, fillPlaceholders(viewOf(c), a.line, r), did),
  'reinstall-plugin'(c, _a, r, did) {
    const node = r.node;
    const build = nodeBuild(viewOf(c), node);
    c.installPlugin(node, r.plugin, build, binDir(viewOf(c), node));
    did.push(`${node}: installed ${r.plugin} ${build} into ${binDir(viewOf(c), node)}`);
  },
  'unhang-plugin'(c, _a, r, did) {
    const node = r.node;
    c.hangPlugin(node, r.plugin, [], binDir(viewOf(c), node));
    did.push(`${node}: ${binDir(viewOf(c), node)}/${r.plugin} answers again`);
  },
  'remove-cache'(c, _a, r, did) {
    const node = r.node;
    const net = podNetwork(viewOf(c), node);
    const fs = c.sim.node(node).fs;
    const stuck = c
      .rt(node)
      .containerd.listPodSandbox()
      .filter((s) => s.pod.uid === r.pod!.spec.uid && s.state !== 'SANDBOX_READY');
    for (const sb of stuck) {
      const file = cacheFile(net.name, sb.id);
      if (vfs.stat(fs, file)) sh(c, node, `rm ${file}`, did);
    }
    if (!did.length) fail(`params.pod: pod ${r.podKey} has no stopped sandbox with a cache file`);
  },
  'cni-gc'(c, _a, r, did) {
    const node = r.node;
    if (c.rt(node).containerd.state.settings.libcni !== '1.2')
      fail(
        `node ${node}: GC needs libcni v1.2, which containerd 2.x vendors (NodeSpec containerd: { version: '2.0.0' }); this node runs containerd ${c.rt(node).containerd.state.settings.version}, with libcni v1.1`,
      );
    const t = c.cniGc(node);
    const limit = c.now + 60_000_000;
    while (!t.done && c.sched.runOne(limit));
    did.push(
      `${node}: GC of ${podNetwork(viewOf(c), node).name} with the live sandboxes as valid attachments (libcni, as a runtime calls it)${t.done && t.value && !t.value.ok ? ` (failed: ${t.value.error.message})` : ''}`,
    );
  },
  'set-cni-version'(c, a, r, did) {
    const node = r.node;
    const net = podNetwork(viewOf(c), node);
    const data = vfs.readFile(c.sim.node(node).fs, net.file);
    const obj = JSON.parse(data) as Record<string, unknown>;
    obj['cniVersion'] = a.cniVersion;
    c.writeFile(node, net.file, `${JSON.stringify(obj, null, 2)}\n`);
    did.push(`${node}: ${net.file}: "cniVersion": "${a.cniVersion}"`);
  },
  'restore-conflist'(c, _a, r, did) {
    const node = r.node;
    const dir = c.rt(node).containerd.state.settings.confDir;
    for (const [name, data] of Object.entries(originalConfigs(viewOf(c), node))) {
      c.writeFile(node, `${dir}/${name}`, data);
      did.push(`${node}: wrote ${dir}/${name} back`);
    }
  },
  'remove-orphans': (c, _a, r, did) => removeOrphans(c, r.node, did),
  'reset-portless-bridge'(c, _a, r, did) {
    const node = r.node;
    const k = c.sim.node(node).kernel;
    const root = tget(k.netns, k.root)!;
    for (const name of bridgeNames(viewOf(c), node)) {
      const br = K.linkByName(root, name);
      if (!br || br.kind !== 'bridge' || br.mac !== K.ZERO_MAC) continue;
      if (K.linksOf(root).some((l) => l.master === br.ifindex)) continue;
      sh(c, node, `ip link del ${name}`, did);
    }
  },
  'recreate-pod'(c, _a, r, did) {
    const p = r.pod!;
    const key = r.podKey!;
    c.deletePod(key);
    did.push(`kubectl delete pod ${p.spec.name}`);
    c.run({ stop: () => !tget(c.sim.state.api!.pods, key), until: c.now + 120_000_000 });
    if (tget(c.sim.state.api!.pods, key)) fail(`params.pod: pod ${key} did not go within 120s`);
    // Its stopped sandboxes stay until the kubelet's garbage collection removes them (each
    // minute): only then is what they leave behind nobody's.
    const node = p.spec.nodeName;
    const hasSandbox = () =>
      tvalues(c.rt(node).containerd.state.sandboxes).some((s) => s.pod.uid === p.spec.uid);
    c.run({ stop: () => !hasSandbox(), until: c.now + 90_000_000 });
    c.createPod({
      name: p.spec.name,
      namespace: p.spec.namespace,
      node: p.spec.nodeName,
      hostPorts: p.spec.hostPorts,
      annotations: p.spec.annotations,
    });
    did.push(`pod ${key} created again (its ReplicaSet)`);
  },
};

/** Carries out one recovery action, telling what it did in `did`. */
export function recoverOne(c: Cluster, a: RecoveryActionSpec, r: Resolved, did: string[]): void {
  (RECOVERIES[a.kind] as (c: Cluster, a: RecoveryActionSpec, r: Resolved, did: string[]) => void)(
    c,
    a,
    r,
    did,
  );
}

/** What an operator's clean-up script removes: everything no sandbox containerd knows owns. */
function removeOrphans(c: Cluster, node: string, did: string[]): void {
  const cd = c.rt(node).containerd.state;
  // Sandboxes being set up or cleaned up right now own their files too (as in the audit).
  const inflight = inspect.inflightSandboxes(c.sim.state.actors).get(node) ?? inspect.NO_INFLIGHT;
  const ids = new Set([...tkeys(cd.sandboxes), ...inflight.ids]);
  const netnsPaths = new Set([...tvalues(cd.sandboxes).map((s) => s.netns), ...inflight.netns]);
  const n = c.sim.node(node);
  for (const path of inspect.orphanNetnsMounts(n.kernel, netnsPaths).sort()) {
    c.deleteNetnsMount(node, path);
    did.push(`${node}# ip netns del ${vfs.basename(path)}`);
  }
  removeOrphanRules(c, node, ids, did);
  const fs = () => c.sim.node(node).fs;
  for (const f of inspect.cacheFiles(fs())) {
    const m = inspect.parseResultCacheName(f);
    if (!m || !ids.has(m.containerId))
      sh(c, node, `rm ${vfs.joinPath(inspect.resultsDir(), f)}`, did);
  }
  for (const net of networks(fs())) {
    const stale = inspect
      .reservationsIn(fs(), networkDir(net))
      .filter((r) => !ids.has(r.containerId))
      .map((r) => r.path);
    // One rm per 32 files keeps the trace short on an exhausted range.
    for (let i = 0; i < stale.length; i += 32)
      sh(c, node, `rm ${stale.slice(i, i + 32).join(' ')}`, did);
  }
}

/**
 * iptables rules the plugins tagged with a sandbox id no sandbox has (bridge's ipMasq chain,
 * portmap's DNAT rules): deleted by rule number, then the per-sandbox chains they jumped to once
 * empty and unreferenced, as an operator's `iptables -t nat -D/-X` would.
 */
function removeOrphanRules(c: Cluster, node: string, ids: Set<string>, did: string[]): void {
  for (const family of ['ipv4', 'ipv6'] as const) {
    const tool = family === 'ipv4' ? 'iptables' : 'ip6tables';
    const rootIpt = () => {
      const k = c.sim.node(node).kernel;
      return tget(k.netns, k.root)!.iptables;
    };
    const run = (argv: string[]) => {
      const line = `${tool} ${argv.join(' ')}`;
      const pre = runIptables(rootIpt(), family, argv);
      if (pre.exitCode !== 0) fail(`${node}: \`${line}\` failed: ${pre.stderr.trim()}`);
      c.env(node, line, ({ kernel }) => {
        const root = tget(kernel.netns, kernel.root)!;
        root.iptables = runIptables(root.iptables, family, argv).state as never;
      });
      did.push(`${node}# ${line}`);
    };
    type Rule = { table: string; chain: string; index: number; target: string };
    const scan = () => {
      const rules: Array<Rule & { orphan: boolean }> = [];
      const count = new Map<string, number>();
      let table = '';
      for (const line of iptablesSaveLines(rootIpt(), family)) {
        if (line.startsWith('*')) table = line.slice(1);
        const m = /^-A (\S+) /.exec(line);
        if (!m) continue;
        const key = `${table} ${m[1]!}`;
        const index = (count.get(key) ?? 0) + 1;
        count.set(key, index);
        const id = inspect.taggedRuleId(line);
        const target = /-j (\S+)/.exec(line)?.[1] ?? '';
        rules.push({ table, chain: m[1]!, index, target, orphan: !!id && !ids.has(id) });
      }
      return rules;
    };
    const orphans = scan().filter((x) => x.orphan);
    const targets = new Set(orphans.map((x) => `${x.table} ${x.target}`));
    // Highest rule number first, so the numbers of the others do not move.
    for (const x of [...orphans].sort((a, b) =>
      a.table !== b.table
        ? a.table.localeCompare(b.table)
        : a.chain !== b.chain
          ? a.chain.localeCompare(b.chain)
          : b.index - a.index,
    ))
      run(['-t', x.table, '-D', x.chain, String(x.index)]);
    const left = scan();
    for (const key of [...targets].sort()) {
      const [table, chain] = key.split(' ') as [string, string];
      if (!chain.startsWith('CNI-')) continue;
      const used = left.some((x) => x.table === table && (x.chain === chain || x.target === chain));
      const exists = iptablesSaveLines(rootIpt(), family).some((l) => l.startsWith(`:${chain} `));
      if (!used && exists) run(['-t', table, '-X', chain]);
    }
  }
}
