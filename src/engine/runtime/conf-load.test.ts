/**
 * Which networks containerd loads from /etc/cni/net.d (go-cni `opts.go` loadFromConfDir, the same
 * in go-cni v1.1.3 – v1.1.13, so in every containerd 1.6.0 – 2.3.4; containerd's CRI config
 * `max_conf_num`, `service_linux.go` cni.WithPluginMaxConfNum): the files byte-sorted, the first
 * `max_conf_num` of them (0: all) loaded after the built-in loopback network, the n-th as
 * eth<n>; a file that fails to load fails the whole load, but only if it is reached.
 */
import { describe, expect, it } from 'vitest';
import { Cluster, defaultConflist } from '../cluster/cluster';
import {
  cacheFiles,
  journal,
  pod,
  podEvents,
  podStatus,
  reservations,
  sandboxes,
} from '../faults/observe';
import { NODE } from '../faults/testing';
import { clusterSpec } from '../scenario/run';
import { parseScenario } from '../scenario/schema';
import { cniCommand, isKind } from '../trace/trace';

const second = JSON.stringify({
  cniVersion: '1.0.0',
  name: 'net2',
  plugins: [
    {
      type: 'bridge',
      bridge: 'cni1',
      ipam: { type: 'host-local', ranges: [[{ subnet: '10.99.0.0/24' }]] },
    },
  ],
});
const third = second.replace('"net2"', '"net3"').replace('cni1', 'cni2').replace('10.99', '10.98');

/** A one-node cluster from a scenario file, as a user writes it (the schema checks it). */
function node(
  containerd: Record<string, unknown>,
  cniConfigs: Record<string, string>,
  files?: Record<string, string>,
): Cluster {
  const s = parseScenario({
    version: 1,
    nodes: [
      { name: NODE, podCIDR: '10.244.1.0/24', containerd, cniConfigs, ...(files ? { files } : {}) },
    ],
  });
  if (!s.ok) throw new Error(s.errors.join('; '));
  return new Cluster(clusterSpec(s.scenario), { seed: 7 });
}

function loaded(c: Cluster): string[] {
  return c.sim.node(NODE).containerd!.cni.networks.map((n) => `${n.name}/${n.ifName}`);
}

const files = {
  '10-containerd-net.conflist': defaultConflist('10.244.1.0/24'),
  '20-net2.conflist': second,
  '30-net3.conflist': third,
};

describe('max_conf_num (go-cni loadFromConfDir)', () => {
  for (const version of ['1.6.20', '1.7.22', '2.0.1', '2.3.4']) {
    it(`${version}: the default 1 loads the first file only; a broken later file is never read`, () => {
      const c = node({ version }, { ...files, '20-net2.conflist': '{ broken' });
      c.runFor(1_000_000);
      expect(loaded(c)).toEqual(['cni-loopback/lo', 'containerd-net/eth0']);
      c.createPod({ name: 'web-0' });
      c.runFor(3_000_000);
      expect(podStatus(c, 'web-0')).toBe('Running');
    });

    it(`${version}: 2 attaches the second file as eth1: its ADD, its cache file, its DEL`, () => {
      const c = node({ version, maxConfNum: 2 }, files);
      c.runFor(1_000_000);
      expect(loaded(c)).toEqual(['cni-loopback/lo', 'containerd-net/eth0', 'net2/eth1']);
      c.createPod({ name: 'web-0' });
      c.runFor(3_000_000);
      expect(podStatus(c, 'web-0')).toBe('Running');
      // The pod IP is eth0's; eth1's address is not one of the pod's IPs.
      expect(pod(c, 'web-0')!.podIPs).toEqual(['10.244.1.2']);
      const adds = c.events
        .filter(isKind('exec'))
        .filter((e) => cniCommand(e) === 'ADD' && e.source === 'libcni');
      expect(adds.map((e) => `${e.target}/${e.payload.env['CNI_IFNAME']}`)).toEqual([
        'loopback/lo',
        'bridge/eth0',
        'portmap/eth0',
        'bridge/eth1',
      ]);
      expect(cacheFiles(c, NODE).map((f) => f.replace(/[0-9a-f]{64}/, '<id>'))).toEqual([
        'cni-loopback-<id>-lo',
        'containerd-net-<id>-eth0',
        'net2-<id>-eth1',
      ]);
      const from = c.events.length;
      c.deletePod('web-0');
      c.runFor(5_000_000);
      const dels = c.events
        .slice(from)
        .filter(isKind('exec'))
        .filter((e) => cniCommand(e) === 'DEL' && e.source === 'libcni');
      // go-cni Remove: the networks in load order, each list's plugins in reverse.
      expect(dels.map((e) => `${e.target}/${e.payload.env['CNI_IFNAME']}`)).toEqual([
        'loopback/lo',
        'portmap/eth0',
        'bridge/eth0',
        'bridge/eth1',
      ]);
      expect(cacheFiles(c, NODE)).toEqual([]);
    });

    it(`${version}: 2 reaches a broken second file: CNI is not initialized, the node NotReady`, () => {
      const c = node({ version, maxConfNum: 2 }, { ...files, '20-net2.conflist': '{ broken' });
      c.runFor(1_000_000);
      expect(c.sim.node(NODE).containerd!.cni.error).toBe(
        "cni config load failed: failed to load CNI config list file /etc/cni/net.d/20-net2.conflist: error parsing configuration list: invalid character 'b' looking for beginning of object key string: invalid cni config: failed to load cni config",
      );
      expect(c.sim.state.api!.nodes[NODE]!.ready.status).toBe('False');
    });

    it(`${version}: 0 loads every file (no limit)`, () => {
      const c = node({ version, maxConfNum: 0 }, files);
      c.runFor(1_000_000);
      expect(loaded(c)).toEqual([
        'cni-loopback/lo',
        'containerd-net/eth0',
        'net2/eth1',
        'net3/eth2',
      ]);
    });
  }

  it('the files are taken in byte order: "100-x" before "20-x", upper case before lower', () => {
    const c = node(
      { maxConfNum: 0 },
      {
        '20-containerd-net.conflist': defaultConflist('10.244.1.0/24'),
        '100-net2.conflist': second,
        'Z-net3.conf': JSON.stringify({
          ...JSON.parse(third).plugins[0],
          cniVersion: '1.0.0',
          name: 'net3',
        }),
      },
    );
    c.runFor(1_000_000);
    expect(loaded(c)).toEqual(['cni-loopback/lo', 'net2/eth0', 'containerd-net/eth1', 'net3/eth2']);
  });
});

/**
 * libcni v1.3.0 (`libcni/conf.go` NetworkConfFromFile, NetworkPluginConfsFromFiles), vendored from
 * containerd 2.1: go-cni's ConfListFromFile also reads `<conf dir>/<network name>/*.conf` and
 * appends those plugins after the list's own, unless `loadOnlyInlinedPlugins`; a list may then
 * have no `plugins` key at all. Up to 2.0 (libcni v1.1.2, v1.2.3) `plugins` is required and the
 * directory is never read.
 */
describe('plugin configs from the network directory (libcni v1.3: containerd 2.1+)', () => {
  const DIR = '/etc/cni/net.d/containerd-net';
  const full = JSON.parse(defaultConflist('10.244.1.0/24'));
  const bridge = JSON.stringify(full.plugins[0]);
  const portmap = JSON.stringify(full.plugins[1]);
  const noPlugins = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ cniVersion: '1.0.0', name: 'containerd-net', ...extra });
  const tuning = JSON.stringify({ type: 'tuning', sysctl: { 'net.core.somaxconn': '512' } });

  function addChain(c: Cluster): string[] {
    return c.events
      .filter(isKind('exec'))
      .filter((e) => cniCommand(e) === 'ADD' && e.source === 'libcni' && e.target !== 'loopback')
      .map((e) => e.target);
  }

  for (const version of ['2.1.0', '2.3.4']) {
    it(`${version}: a list without "plugins" runs the plugins of its directory, in name order`, () => {
      const c = node(
        { version },
        { '10-containerd-net.conflist': noPlugins() },
        { [`${DIR}/20-portmap.conf`]: portmap, [`${DIR}/10-bridge.conf`]: bridge },
      );
      c.runFor(1_000_000);
      expect(c.sim.node(NODE).containerd!.cni.error).toBeNull();
      c.createPod({ name: 'web-0' });
      c.runFor(3_000_000);
      expect(podStatus(c, 'web-0')).toBe('Running');
      expect(addChain(c)).toEqual(['bridge', 'portmap']);
      c.deletePod('web-0');
      c.runFor(5_000_000);
      expect(cacheFiles(c, NODE)).toEqual([]);
    });

    it(`${version}: a directory's plugins follow the list's own; loadOnlyInlinedPlugins keeps them out`, () => {
      const files = { [`${DIR}/30-tuning.conf`]: tuning };
      const c = node(
        { version },
        { '10-containerd-net.conflist': defaultConflist('10.244.1.0/24') },
        files,
      );
      c.createPod({ name: 'web-0' });
      c.runFor(3_000_000);
      expect(addChain(c)).toEqual(['bridge', 'portmap', 'tuning']);
      const only = node(
        { version },
        {
          '10-containerd-net.conflist': JSON.stringify({ ...full, loadOnlyInlinedPlugins: true }),
        },
        files,
      );
      only.createPod({ name: 'web-0' });
      only.runFor(3_000_000);
      expect(addChain(only)).toEqual(['bridge', 'portmap']);
    });

    it(`${version}: no plugins anywhere: "no plugin configs found"; loadOnlyInlinedPlugins without "plugins" is refused`, () => {
      const c = node({ version }, { '10-containerd-net.conflist': noPlugins() });
      c.runFor(1_000_000);
      expect(c.sim.node(NODE).containerd!.cni.error).toBe(
        'cni config load failed: failed to load CNI config list file /etc/cni/net.d/10-containerd-net.conflist: no plugin configs found: invalid cni config: failed to load cni config',
      );
      const d = node(
        { version },
        { '10-containerd-net.conflist': noPlugins({ loadOnlyInlinedPlugins: true }) },
        { [`${DIR}/10-bridge.conf`]: bridge },
      );
      d.runFor(1_000_000);
      expect(d.sim.node(NODE).containerd!.cni.error).toBe(
        "cni config load failed: failed to load CNI config list file /etc/cni/net.d/10-containerd-net.conflist: error parsing configuration list: `loadOnlyInlinedPlugins` is true, and no 'plugins' key: invalid cni config: failed to load cni config",
      );
    });
  }

  for (const version of ['1.7.22', '2.0.1']) {
    it(`${version}: the directory is not read; a list without "plugins" is refused`, () => {
      const files = { [`${DIR}/10-bridge.conf`]: bridge, [`${DIR}/30-tuning.conf`]: tuning };
      const c = node({ version }, { '10-containerd-net.conflist': noPlugins() }, files);
      c.runFor(1_000_000);
      expect(c.sim.node(NODE).containerd!.cni.error).toBe(
        "cni config load failed: failed to load CNI config list file /etc/cni/net.d/10-containerd-net.conflist: error parsing configuration list: no 'plugins' key: invalid cni config: failed to load cni config",
      );
      const d = node(
        { version },
        { '10-containerd-net.conflist': defaultConflist('10.244.1.0/24') },
        files,
      );
      d.createPod({ name: 'web-0' });
      d.runFor(3_000_000);
      expect(addChain(d)).toEqual(['bridge', 'portmap']);
    });
  }
});

/**
 * A single-plugin `.conf` is up-converted to a list whose plugin keeps its own `name` (libcni
 * `conf.go` ConfListFromConf), so libcni's error names it: `plugin type="bridge" name="mynet"
 * failed (add): …` (`api.go` pluginDescription); the runtime and the kubelet wrap that as ever.
 */
describe('a .conf file (up-converted): its errors name the plugin', () => {
  const conf = JSON.stringify({
    cniVersion: '1.0.0',
    name: 'mynet',
    type: 'bridge',
    bridge: 'cni0',
    ipam: { type: 'whereabouts' },
  });
  for (const version of ['1.6.20', '1.7.22', '2.0.1', '2.3.4']) {
    it(`${version}: FailedCreatePodSandBox and containerd's line carry type="bridge" name="mynet"`, () => {
      const c = node({ version }, { '10-mynet.conf': conf });
      c.createPod({ name: 'web-0' });
      c.runFor(3_000_000);
      const ev = podEvents(c, 'web-0').find((e) => e.reason === 'FailedCreatePodSandBox')!;
      const id = /sandbox "([0-9a-f]{64})"/.exec(ev.message)![1]!;
      const err = `plugin type="bridge" name="mynet" failed (add): failed to find plugin "whereabouts" in path [/opt/cni/bin]`;
      expect(ev.message).toBe(
        `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": ${err}`,
      );
      const esc = (s: string) => s.replace(/"/g, '\\"');
      expect(journal(c, NODE, ['containerd']).join('\n')).toContain(
        `level=error msg="RunPodSandbox for `,
      );
      expect(journal(c, NODE, ['containerd']).join('\n')).toContain(
        `failed, error" error="${esc(`failed to setup network for sandbox "${id}": ${err}`)}"`,
      );
      expect(journal(c, NODE, ['kubelet']).join('\n')).toContain(
        `"RunPodSandbox from runtime service failed" err="${esc(`rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": ${err}`)}"`,
      );
    });
  }
});

/**
 * go-cni `cni.go` Setup → attachNetworks (v1.1.3 – v1.1.13): every network's ADD is started and
 * all are awaited, the first error wins; only then does containerd's deferred clean-up DEL the
 * networks (go-cni Remove, in load order, stopping at the first error that is not "not found").
 */
describe('go-cni attachNetworks: a failed network does not stop the others', () => {
  const adds = (c: Cluster, from = 0) =>
    c.events
      .slice(from)
      .filter(isKind('exec'))
      .filter((e) => cniCommand(e) === 'ADD' && e.source === 'libcni')
      .map((e) => `${e.target}/${e.payload.env['CNI_IFNAME']}`);

  for (const [version, kept] of [
    ['1.7.22', true],
    ['2.0.0', false],
  ] as const) {
    it(`${version}: no loopback binary: eth0's ADD still runs; the clean-up stops at lo's DEL, so its address ${kept ? 'stays with the SANDBOX_UNKNOWN sandbox' : 'leaks'}`, () => {
      const c = node(
        { version },
        { '10-containerd-net.conflist': defaultConflist('10.244.1.0/24') },
      );
      expect(c.shell(NODE, 'rm /opt/cni/bin/loopback').exitCode).toBe(0);
      c.createPod({ name: 'web-0' });
      c.runFor(3_000_000);
      expect(adds(c)).toEqual(['bridge/eth0', 'portmap/eth0']);
      const ev = podEvents(c, 'web-0').find((e) => e.reason === 'FailedCreatePodSandBox')!;
      expect(ev.message).toMatch(
        /failed to setup network for sandbox "[0-9a-f]{64}": plugin type="loopback" failed \(add\): failed to find plugin "loopback" in path \[\/opt\/cni\/bin\]$/,
      );
      const id = /sandbox "([0-9a-f]{64})"/.exec(ev.message)![1]!;
      expect(
        journal(c, NODE, ['containerd']).some((l) =>
          l.includes(
            `msg="Failed to destroy network for sandbox \\"${id}\\"" error="plugin type=\\"loopback\\" failed (delete)`,
          ),
        ),
      ).toBe(true);
      expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.2', owner: id }]);
      expect(sandboxes(c, NODE).map((s) => s.id)).toEqual(kept ? [id] : []);
    });
  }

  it('max_conf_num 2: eth0 fails (its range is full), eth1 is still added, then both are DELeted', () => {
    const c = node(
      { version: '1.7.22', maxConfNum: 2 },
      {
        '10-containerd-net.conflist': defaultConflist('10.244.1.0/30'),
        '20-net2.conflist': second,
      },
    );
    c.createPod({ name: 'web-0' });
    c.runFor(3_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    // 10.244.1.0/30 holds one pod: the next one's eth0 ADD fails.
    const from = c.events.length;
    c.createPod({ name: 'web-1' });
    c.runFor(3_000_000);
    expect(adds(c, from)).toEqual(['loopback/lo', 'bridge/eth0', 'bridge/eth1']);
    expect(
      podEvents(c, 'web-1').find((e) => e.reason === 'FailedCreatePodSandBox')!.message,
    ).toContain(
      'plugin type="bridge" failed (add): failed to allocate for range 0: no IP addresses available in range set: 10.244.1.1-10.244.1.2',
    );
    const dels = c.events
      .slice(from)
      .filter(isKind('exec'))
      .filter((e) => cniCommand(e) === 'DEL' && e.source === 'libcni')
      .map((e) => `${e.target}/${e.payload.env['CNI_IFNAME']}`);
    expect(dels).toEqual(['loopback/lo', 'portmap/eth0', 'bridge/eth0', 'bridge/eth1']);
    // What is left is web-0's: its eth0 and eth1 addresses.
    expect(reservations(c, NODE).map((r) => r.ip)).toEqual(['10.244.1.2']);
    expect(reservations(c, NODE, 'net2').map((r) => r.ip)).toEqual(['10.99.0.2']);
  });
});
