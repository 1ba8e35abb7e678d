/**
 * CRI-O (with ocicni) beside containerd: each behaviour that differs, with the CRI-O release and
 * the source (file and function) that has it. Sources at the tags of github.com/cri-o/cri-o and
 * github.com/cri-o/ocicni; facts in ../shared/reference/runtime-versions.md ("CRI-O (ocicni)").
 */
import { describe, expect, it } from 'vitest';
import { Cluster, defaultConflist } from '../cluster/cluster';
import * as vfs from '../fs/vfs';
import { journal } from '../faults/observe';
import { NODE, oneNode } from '../faults/testing';
import { crioLine } from '../node/journal';
import { tget, tkeys, tvalues } from '../state/table';
import { cniCommand, isKind } from '../trace/trace';
import { parseCrioRelease } from './crio-releases';

const crio = (version: string, extra: Record<string, unknown> = {}, seed = 7): Cluster =>
  oneNode({ runtime: { name: 'cri-o', version }, ...extra }, seed);

const execs = (c: Cluster, cmd: string, from = 0) =>
  c.events
    .slice(from)
    .filter(isKind('exec'))
    .filter((e) => cniCommand(e) === cmd);

const crioLog = (c: Cluster) => journal(c, NODE, ['crio']).join('\n');
const nodeReady = (c: Cluster) => c.sim.state.api!.nodes[NODE]!.ready.status;
const podPhase = (c: Cluster, name: string) =>
  tget(c.sim.state.api!.pods, `default/${name}`)?.phase;
const events = (c: Cluster, reason: string) =>
  tvalues(c.sim.state.api!.events).filter((e) => e.reason === reason);
const v110 = defaultConflist('10.244.1.0/24').replace(
  '"cniVersion": "1.0.0"',
  '"cniVersion": "1.1.0"',
);

describe('crio-releases.ts parseCrioRelease (go.mod at the tags)', () => {
  it('maps a release, or "<minor>.x", to its behaviour range, ocicni and libcni', () => {
    const r = parseCrioRelease('1.31.x');
    expect(r.ok && r.release).toMatchObject({
      version: '1.31.13',
      range: '1.31',
      libcni: '1.2',
      statusAndGc: false,
      vendors: 'ocicni v0.4.2, libcni v1.2.3',
      gitCommit: '15789b8b6e1b644cb32c077e29407407e7481216',
    });
    const r30 = parseCrioRelease('v1.30.2');
    expect(r30.ok && r30.release).toMatchObject({ range: '1.28–1.30', libcni: '1.1' });
    const r32 = parseCrioRelease('1.32.0');
    expect(r32.ok && r32.release).toMatchObject({
      range: '1.32–1.35',
      statusAndGc: true,
      continuousStatus: false,
    });
    const r36 = parseCrioRelease('1.36.x');
    expect(r36.ok && r36.release).toMatchObject({
      version: '1.36.3',
      range: '1.36',
      libcni: '1.2',
      statusAndGc: true,
      continuousStatus: true,
      vendors: 'ocicni v0.5.0, libcni v1.3.0',
      gitCommit: 'b24632ab44955fa84685640d4177f3c554e9f69c',
    });
    const r360 = parseCrioRelease('v1.36.0');
    expect(r360.ok && r360.release.gitCommit).toBe('d1e7bdc854ed4846a7f15c5e0c17e0140a1d817b');
  });

  it('refuses what is not a release, naming the releases and the ranges', () => {
    for (const bad of ['1.36.4', '1.37.0', '1.31.14', '1.27.0', 'latest', '1.31.01']) {
      const r = parseCrioRelease(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error).toContain('1.36.0–1.36.3');
        expect(r.error).toContain('behaviour ranges 1.28–1.30, 1.31, 1.32–1.35, 1.36');
      }
    }
  });
});

describe('node/journal.ts crioLine (cmd/crio/main.go TextFormatter, internal/log fields)', () => {
  it('prints logrus text with CRI-O timestamp layout and sorted request fields', () => {
    expect(
      crioLine(1_500_000, 'info', 'Running pod sandbox: default/web-0/POD', {
        name: '/runtime.v1.RuntimeService/RunPodSandbox',
        id: 'abc',
      }),
    ).toBe(
      'time="2025-03-03 10:15:01.500000000Z" level=info msg="Running pod sandbox: default/web-0/POD" id=abc name=/runtime.v1.RuntimeService/RunPodSandbox',
    );
  });
});

describe('ocicni.go loadNetworks (ValidateNetworkList) and cnimgr.go pollFunc', () => {
  it('1.32: a 1.1.0 list with v1.1.1 plugins is rejected at load; the node is NotReady with no CNI configuration', () => {
    const c = crio('1.32.0', {
      pluginBuild: 'v1.1.1',
      cniConfigs: { '10-containerd-net.conflist': v110 },
    });
    c.runFor(6_000_000);
    // VERSION of each plugin of the list (libcni validatePlugin).
    expect(execs(c, 'VERSION').map((e) => e.payload.path)).toEqual([
      '/opt/cni/bin/bridge',
      '/opt/cni/bin/portmap',
    ]);
    expect(crioLog(c)).toContain(
      'level=warning msg="Error validating CNI config file /etc/cni/net.d/10-containerd-net.conflist: [plugin bridge does not support config version \\"1.1.0\\" plugin portmap does not support config version \\"1.1.0\\"]"',
    );
    expect(c.sim.node(NODE).kubelet!.networkMessage).toBe(
      'Network plugin returns error: no CNI configuration file in /etc/cni/net.d/. Has your network provider started?',
    );
    expect(nodeReady(c)).toBe('False');
  });

  it('containerd 1.7.22 (go-cni) loads the same list without asking the plugins: Ready', () => {
    const c = oneNode({
      containerd: { version: '1.7.22' },
      cniConfigs: { '10-containerd-net.conflist': v110 },
    });
    c.runFor(6_000_000);
    expect(execs(c, 'VERSION')).toEqual([]);
    expect(nodeReady(c)).toBe('True');
  });

  it('a file that does not parse is skipped, and the next one is the default network', () => {
    const files = {
      '05-broken.conflist': '{"cniVersion": "1.0.0", "name": ',
      '10-containerd-net.conflist': defaultConflist('10.244.1.0/24'),
    };
    const c = crio('1.31.0', { cniConfigs: files });
    c.runFor(6_000_000);
    expect(crioLog(c)).toContain(
      'level=error msg="Error loading CNI config list file /etc/cni/net.d/05-broken.conflist: ',
    );
    expect(crioLog(c)).toContain('msg="Updated default CNI network name to containerd-net"');
    expect(nodeReady(c)).toBe('True');
    // go-cni stops at the first file that fails: containerd is NotReady.
    const d = oneNode({ containerd: { version: '1.7.22' }, cniConfigs: files });
    d.runFor(6_000_000);
    expect(nodeReady(d)).toBe('False');
  });
});

describe('sandbox_run_linux.go runPodSandbox, sandbox_network.go networkStart (ocicni SetUpPod, GetPodNetworkStatus)', () => {
  it('pins the netns at /var/run/netns/<uuid>, brings lo up itself, ADDs then CHECKs inside RunPodSandbox', () => {
    const c = crio('1.31.13');
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(10_000_000);
    expect(podPhase(c, 'web-0')).toBe('Running');
    const sb = tvalues(c.sim.node(NODE).containerd!.sandboxes)[0]!;
    expect(sb.netns).toMatch(
      /^\/var\/run\/netns\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    // No loopback plugin and no cache file for it (containerd runs "cni-loopback").
    const all = c.events.filter(isKind('exec')).map((e) => `${cniCommand(e)} ${e.payload.path}`);
    expect(all.filter((x) => x.includes('loopback'))).toEqual([]);
    expect(vfs.readDir(c.sim.node(NODE).fs, '/var/lib/cni/results')).toEqual([
      `containerd-net-${sb.id}-eth0`,
    ]);
    // CHECK follows ADD before the sandbox is answered.
    const order = c.events
      .filter(
        (e) => (isKind('exec')(e) && e.payload.path === '/opt/cni/bin/bridge') || isKind('cri')(e),
      )
      .map((e) => (isKind('exec')(e) ? cniCommand(e) : e.summary.split(':')[0]));
    const i = order.indexOf('ADD');
    expect(order.slice(i, i + 3)).toEqual(['ADD', 'CHECK', 'RunPodSandbox ok']);
    expect(crioLog(c)).toContain(
      `msg="Checking CNI network containerd-net (config version=1.0.0)"`,
    );
    expect(crioLog(c)).toContain(
      `msg="Ran pod sandbox ${sb.id} with infra container: default/web-0/POD"`,
    );
  });

  it('a failed ADD: DEL from the config on disk (not in the cache); a failed DEL is only logged, the sandbox forgotten', () => {
    // An IPAM plugin that is not installed: validation checks only the list's plugins, ADD fails.
    const conf = defaultConflist('10.244.1.0/24').replace(
      '"type": "host-local"',
      '"type": "whereabouts"',
    );
    const c = crio('1.31.13', { cniConfigs: { '10-containerd-net.conflist': conf } });
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(8_000_000);
    const log = crioLog(c);
    expect(log).toContain(
      'level=error msg="Error loading cached network config: network \\"containerd-net\\" not found in CNI cache"',
    );
    expect(log).toContain(
      'level=warning msg="Falling back to loading from existing plugins on disk"',
    );
    expect(log).toMatch(
      /level=error msg="Error stopping network on cleanup: failed to destroy network for pod sandbox k8s_web-0_default_[0-9a-f-]+_0\([0-9a-f]{64}\): error removing pod default_web-0 from CNI network \\"containerd-net\\": plugin type=\\"bridge\\" failed \(delete\)/,
    );
    expect(log).toContain('msg="runSandbox: releasing pod sandbox name: k8s_web-0_default_');
    const ev = events(c, 'FailedCreatePodSandBox')[0]!;
    expect(ev.message).toMatch(
      /^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox k8s_web-0_default_[0-9a-f-]+_0\([0-9a-f]{64}\): error adding pod default_web-0 to CNI network "containerd-net": plugin type="bridge" failed \(add\): /,
    );
    // Forgotten: no sandbox, no pinned netns, the name free for the retry (no "name is reserved").
    const cd = c.sim.node(NODE).containerd!;
    expect(tkeys(cd.sandboxes)).toEqual([]);
    expect(tkeys(c.sim.node(NODE).kernel.mounts)).toEqual([]);
    expect(log).not.toContain('name is reserved');
    // containerd 1.7.22 keeps the same failure as SANDBOX_UNKNOWN.
    const d = oneNode({
      containerd: { version: '1.7.22' },
      cniConfigs: { '10-containerd-net.conflist': conf },
    });
    d.createPod({ name: 'web-0' });
    d.runFor(3_000_000);
    expect(tvalues(d.sim.node(NODE).containerd!.sandboxes).some((s) => s.unknown)).toBe(true);
  });

  it('a RunPodSandbox that outlives the kubelet keeps its plugin running (5 min + the deadline); the retry waits for it', () => {
    const c = crio('1.31.13');
    c.runFor(2_000_000);
    c.hangPlugin(NODE, 'bridge', ['ADD']);
    c.runFor(1_000_000);
    const n = c.events.length;
    c.createPod({ name: 'web-0' });
    c.runFor(4 * 60_000_000 + 10_000_000);
    const kubelet = journal(c, NODE, ['kubelet']).join('\n');
    expect(kubelet).toContain('desc = context deadline exceeded');
    // The plugin is not killed with the kubelet's context (containerd's is).
    const bridgeExits = () =>
      c.events
        .slice(n)
        .filter(isKind('exit'))
        .filter((e) => e.source === 'bridge');
    expect(bridgeExits()).toEqual([]);
    c.runFor(30_000_000);
    expect(crioLog(c)).toMatch(
      /msg="Creation of sandbox k8s_web-0_default_[0-9a-f-]+_0 not yet finished\. Currently at stage sandbox network creation\. Waiting up to 8m0s for it to finish"/,
    );
    // networkStart's own deadline: 5 minutes + the kubelet's 4 (started at ~3 s).
    c.runFor(5 * 60_000_000);
    const killed = bridgeExits().filter((e) => e.summary.includes('killed'));
    expect(killed.length).toBe(1);
    expect(killed[0]!.time).toBeGreaterThan(9 * 60_000_000);
    expect(killed[0]!.summary).toBe('bridge killed (signal: killed)');
    // Then networkStart's deferred stop: a DEL from the config on disk, and the clean-up.
    expect(crioLog(c)).toContain('msg="Falling back to loading from existing plugins on disk"');
    expect(crioLog(c)).toContain('msg="runSandbox: releasing pod sandbox name: k8s_web-0_default_');
  });
});

describe('cnimgr.go pollUntilReady (1.28 – 1.35), ocicni.go TearDownPod (loadNetworkFromCache), sandbox_network.go networkStop', () => {
  it('the conflist removed: NetworkReady stays true; a new sandbox fails with "no CNI configuration file"; a running pod is still deleted from the cache, with one DEL', () => {
    const c = crio('1.31.13');
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    expect(podPhase(c, 'web-0')).toBe('Running');
    c.shell(NODE, 'rm /etc/cni/net.d/10-containerd-net.conflist');
    c.runFor(12_000_000);
    expect(nodeReady(c)).toBe('True');
    expect(c.sim.node(NODE).kubelet!.networkReady).toBe(true);
    c.createPod({ name: 'web-1' });
    c.runFor(5_000_000);
    expect(events(c, 'FailedCreatePodSandBox')[0]!.message).toMatch(
      /^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox k8s_web-1_default_[0-9a-f-]+_0\([0-9a-f]{64}\): no CNI configuration file in \/etc\/cni\/net\.d\/\. Has your network provider started\?$/,
    );
    const n = c.events.length;
    c.deletePod('web-0');
    c.runFor(90_000_000);
    expect(podPhase(c, 'web-0')).toBeUndefined();
    // StopPodSandbox's DEL, from the cached config; the GC's RemovePodSandbox runs none.
    expect(execs(c, 'DEL', n).filter((e) => e.payload.path === '/opt/cni/bin/bridge').length).toBe(
      1,
    );
    expect(crioLog(c)).toContain('msg="Removed pod sandbox: ');
    expect(
      vfs
        .readDir(c.sim.node(NODE).fs, '/var/lib/cni/networks/containerd-net')
        .filter((f) => f.startsWith('10.')),
    ).toEqual([]);
  });
});

describe('cnimgr.go pollContinuously (1.36): STATUS polled every 5 s, with a grace period', () => {
  const NOT_READY =
    'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: ';
  const nodeMessage = (c: Cluster) => c.sim.state.api!.nodes[NODE]!.ready.message;

  /**
   * A 1.1.0 list (STATUS runs on its plugins) with a plugin build that answers it; host-local,
   * which bridge's STATUS asks (ipam.ExecStatus), moved away at 15 s. The list still validates
   * (only bridge and portmap are VERSIONed), so its STATUS is what fails.
   */
  function ipamGone(version: string): { c: Cluster; polled: number } {
    const c = crio(version, {
      pluginBuild: 'v1.6.2',
      cniConfigs: { '10-containerd-net.conflist': v110 },
    });
    c.runFor(3_000_000);
    const ready = c.events.length;
    c.runFor(12_000_000);
    expect(nodeReady(c)).toBe('True');
    // STATUS of bridge after start-up (none when polled only until ready).
    const polled = execs(c, 'STATUS', ready).filter(
      (e) => e.payload.path === '/opt/cni/bin/bridge',
    ).length;
    expect(c.shell(NODE, 'mv /opt/cni/bin/host-local /root/host-local').exitCode).toBe(0);
    return { c, polled };
  }

  it('1.36: a plugin whose STATUS fails after start-up turns the node NotReady only after the 1-minute grace period, and Ready again when it passes', () => {
    const { c, polled } = ipamGone('1.36.3');
    expect(polled).toBeGreaterThanOrEqual(2);
    const from = c.events.length;
    c.runFor(55_000_000);
    // Failing every 5 s, within the grace period: still Ready.
    expect(nodeReady(c)).toBe('True');
    expect(crioLog(c)).toContain(
      'level=warning msg="CNI plugin status check failed, will report unhealthy after grace period (1m0s): failed to find plugin \\"host-local\\" in path [/opt/cni/bin/]"',
    );
    expect(crioLog(c)).not.toContain('unhealthy beyond grace period');
    c.runFor(15_000_000);
    expect(crioLog(c)).toContain(
      'level=error msg="CNI plugin unhealthy beyond grace period (1m0s): failed to find plugin \\"host-local\\" in path [/opt/cni/bin/]"',
    );
    expect(nodeReady(c)).toBe('False');
    expect(nodeMessage(c)).toBe(
      `${NOT_READY}failed to find plugin "host-local" in path [/opt/cni/bin/]`,
    );
    expect(c.sim.node(NODE).kubelet!.networkReady).toBe(false);
    // Back in place: the next poll passes and the node is Ready again.
    expect(c.shell(NODE, 'mv /root/host-local /opt/cni/bin/host-local').exitCode).toBe(0);
    c.runFor(7_000_000);
    expect(crioLog(c)).toContain(
      'level=info msg="CNI plugin is now healthy (was: failed to find plugin \\"host-local\\" in path [/opt/cni/bin/])"',
    );
    expect(nodeReady(c)).toBe('True');
    expect(c.sim.node(NODE).kubelet!.networkReady).toBe(true);
    // GC ran once, at start-up: the recovery runs none.
    expect(execs(c, 'GC', from)).toEqual([]);
  });

  it('1.36: a failure shorter than the grace period never shows; the period starts again after a good poll', () => {
    const { c } = ipamGone('1.36.0');
    c.runFor(40_000_000);
    c.shell(NODE, 'mv /root/host-local /opt/cni/bin/host-local');
    c.runFor(10_000_000);
    c.shell(NODE, 'mv /opt/cni/bin/host-local /root/host-local');
    c.runFor(40_000_000);
    expect(nodeReady(c)).toBe('True');
    c.runFor(30_000_000);
    expect(nodeReady(c)).toBe('False');
  });

  it('1.36: a restart starts the poll over once: one STATUS every 5 s, not two', () => {
    const c = crio('1.36.3', {
      pluginBuild: 'v1.6.2',
      cniConfigs: { '10-containerd-net.conflist': v110 },
    });
    c.runFor(12_000_000);
    c.restartContainerd(NODE);
    c.runFor(3_000_000);
    const from = c.events.length;
    c.runFor(30_000_000);
    const bridge = execs(c, 'STATUS', from).filter((e) => e.payload.path === '/opt/cni/bin/bridge');
    expect(bridge.length).toBe(6);
    expect(crioLog(c).match(/Continuous CNI STATUS monitoring enabled/g)?.length).toBe(2);
    expect(nodeReady(c)).toBe('True');
  });

  it('1.35: the same STATUS failure leaves the node Ready (STATUS is polled only until ready)', () => {
    const { c, polled } = ipamGone('1.35.6');
    expect(polled).toBe(0);
    c.runFor(120_000_000);
    expect(nodeReady(c)).toBe('True');
    expect(crioLog(c)).not.toContain('grace period');
  });

  it('1.36: the conflist removed turns the node NotReady after the grace period ("no CNI configuration file"); 1.35 stays Ready', () => {
    for (const [version, after] of [
      ['1.36.3', 'False'],
      ['1.35.6', 'True'],
    ] as const) {
      const c = crio(version);
      c.runFor(3_000_000);
      c.shell(NODE, 'mv /etc/cni/net.d/10-containerd-net.conflist /root/');
      c.runFor(50_000_000);
      expect(nodeReady(c)).toBe('True');
      c.runFor(20_000_000);
      expect(nodeReady(c)).toBe(after);
      if (after === 'False')
        expect(nodeMessage(c)).toBe(
          `${NOT_READY}no CNI configuration file in /etc/cni/net.d/. Has your network provider started?`,
        );
      c.shell(NODE, 'mv /root/10-containerd-net.conflist /etc/cni/net.d/');
      c.runFor(7_000_000);
      expect(nodeReady(c)).toBe('True');
    }
  });
});

describe('cnimgr.go doGC → ocicni.go GC (1.32+, once at start)', () => {
  function staleFiles(): Record<string, string> {
    // A pod's cache file and reservation, from a node where it ran.
    const a = crio('1.31.13');
    a.runFor(2_000_000);
    a.createPod({ name: 'old' });
    a.runFor(5_000_000);
    const fs = a.sim.node(NODE).fs;
    const out: Record<string, string> = {};
    for (const dir of ['/var/lib/cni/results', '/var/lib/cni/networks/containerd-net'])
      for (const f of vfs.readDir(fs, dir)) out[`${dir}/${f}`] = vfs.readFile(fs, `${dir}/${f}`);
    return out;
  }

  it('1.32: the stale attachment in the cache is DELeted when CRI-O starts; 1.31 leaves it', () => {
    const files = staleFiles();
    const reservation = Object.keys(files).find((f) => f.endsWith('/10.244.1.2'))!;
    const c = crio('1.32.0', { files });
    c.runFor(3_000_000);
    expect(execs(c, 'DEL').map((e) => e.payload.path)).toContain('/opt/cni/bin/bridge');
    expect(vfs.stat(c.sim.node(NODE).fs, reservation)).toBeUndefined();
    const d = crio('1.31.13', { files });
    d.runFor(3_000_000);
    expect(execs(d, 'DEL')).toEqual([]);
    expect(vfs.stat(d.sim.node(NODE).fs, reservation)).toBeDefined();
  });
});

describe('crio.ts crash: a restart during ADD (the sandbox is not stored until RunPodSandbox ends)', () => {
  it('loses the sandbox being created: its pinned netns and what the plugin did stay behind', () => {
    const c = crio('1.31.13');
    c.runFor(2_000_000);
    c.hangPlugin(NODE, 'portmap', ['ADD']);
    c.runFor(1_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    c.restartContainerd(NODE);
    c.runFor(5_000_000);
    const kinds = c.audit()[0]!.findings.map((f) => f.kind);
    expect(kinds).toContain('orphan-netns');
    expect(kinds).toContain('orphan-reservation');
    expect(crioLog(c).match(/Starting CRI-O/g)?.length).toBe(2);
  });
});

describe('the shell: crictl version (server/version.go), crio --version (internal/version), systemctl', () => {
  it('answers as CRI-O does on a CRI-O node', () => {
    const c = crio('1.31.x');
    c.runFor(1_000_000);
    expect(c.shell(NODE, 'crictl version').stdout).toBe(
      'Version:  0.1.0\nRuntimeName:  cri-o\nRuntimeVersion:  1.31.13\nRuntimeApiVersion:  v1\n',
    );
    expect(c.shell(NODE, 'crio --version').stdout).toBe(
      'crio version 1.31.13\n   GitCommit:        15789b8b6e1b644cb32c077e29407407e7481216\n   GitTreeState:     clean\n',
    );
    expect(c.shell(NODE, 'containerd --version').exitCode).toBe(127);
    expect(c.shell(NODE, 'systemctl is-active crio').stdout).toBe('active\n');
    expect(c.shell(NODE, 'systemctl is-active containerd').stdout).toBe('inactive\n');
    expect(oneNode().shell(NODE, 'crio --version').exitCode).toBe(127);
  });
});

describe('ocicni.go TearDownPodWithContext (forEachNetwork, loadNetworkFromCache): no cache, the disk', () => {
  for (const version of ['1.28.11', '1.31.13', '1.36.3']) {
    it(`${version}: a running pod whose cache file is gone is deleted with the config on disk, without prevResult`, () => {
      const c = crio(version);
      c.runFor(2_000_000);
      c.createPod({ name: 'web-0' });
      c.runFor(5_000_000);
      expect(podPhase(c, 'web-0')).toBe('Running');
      expect(c.shell(NODE, 'rm -f /var/lib/cni/results/containerd-net-*').exitCode).toBe(0);
      const n = c.events.length;
      c.deletePod('web-0');
      c.runFor(90_000_000);
      expect(podPhase(c, 'web-0')).toBeUndefined();
      const log = journal(c, NODE, ['crio']);
      const err = log.findIndex((l) =>
        l.includes(
          'level=error msg="Error loading cached network config: network \\"containerd-net\\" not found in CNI cache"',
        ),
      );
      expect(err).toBeGreaterThanOrEqual(0);
      expect(log[err + 1]).toContain(
        'level=warning msg="Falling back to loading from existing plugins on disk"',
      );
      expect(log[err]).toContain('name=/runtime.v1.RuntimeService/StopPodSandbox');
      const del = execs(c, 'DEL', n).filter((e) => e.payload.path === '/opt/cni/bin/bridge');
      expect(del).toHaveLength(1);
      expect(JSON.parse(del[0]!.payload.stdin)).not.toHaveProperty('prevResult');
      expect(
        vfs
          .readDir(c.sim.node(NODE).fs, '/var/lib/cni/networks/containerd-net')
          .filter((f) => f.startsWith('10.')),
      ).toEqual([]);
    });
  }
});

describe('ocicni.go checkNetwork below 0.4.0, sandbox_network.go networkStart (cnicurrent.GetResult)', () => {
  const noVersion = JSON.parse(defaultConflist('10.244.1.0/24')) as Record<string, unknown>;
  delete noVersion['cniVersion'];
  for (const version of ['1.28.11', '1.31.13', '1.36.3']) {
    it(`${version}: a list without cniVersion (0.1.0) runs no CHECK; the pod gets the ip4 of the cached result`, () => {
      const c = crio(version, {
        cniConfigs: { '10-containerd-net.conflist': JSON.stringify(noVersion) },
      });
      c.runFor(2_000_000);
      c.createPod({ name: 'web-0' });
      c.runFor(8_000_000);
      expect(podPhase(c, 'web-0')).toBe('Running');
      expect(tget(c.sim.state.api!.pods, 'default/web-0')!.podIPs).toEqual(['10.244.1.2']);
      expect(execs(c, 'CHECK')).toEqual([]);
      expect(crioLog(c)).toContain(
        'msg="Checking pod default_web-0 for CNI network containerd-net',
      );
      expect(crioLog(c)).not.toContain('msg="Checking CNI network containerd-net (config version=');
      expect(crioLog(c)).not.toContain('does not support the CHECK command');
    });
  }
});

describe('sandbox_network.go networkStop: a DEL that fails in StopPodSandbox, by patch release', () => {
  /** A running pod whose DEL then fails (bridge cannot find its IPAM plugin), deleted. */
  function failingDel(version: string) {
    const c = crio(version);
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    expect(podPhase(c, 'web-0')).toBe('Running');
    const [sb] = tvalues(c.sim.node(NODE).containerd!.sandboxes);
    expect(c.shell(NODE, 'mv /opt/cni/bin/host-local /root/').exitCode).toBe(0);
    c.deletePod('web-0');
    c.runFor(60_000_000);
    const label = `k8s_web-0_default_${sb!.pod.uid}_0(${sb!.id})`;
    const del = `error removing pod default_web-0 from CNI network "containerd-net": plugin type="bridge" failed (delete): failed to find plugin "host-local" in path [/opt/cni/bin/]`;
    const kills = events(c, 'FailedKillPod');
    const reserved = () =>
      vfs
        .readDir(c.sim.node(NODE).fs, '/var/lib/cni/networks/containerd-net')
        .filter((f) => f.startsWith('10.'));
    const cacheFile = `/var/lib/cni/results/containerd-net-${sb!.id}-eth0`;
    return { c, sb: sb!, label, del, kills, reserved, cacheFile };
  }
  const stopErr = (m: string) => `error killing pod: failed to "KillPodSandbox" for "${m}`;

  // cri-o v1.31.3 server/sandbox_network.go networkStop: the error, the network not stopped.
  it('1.31.3: the error is returned and the DEL retried: the pod stays Terminating', () => {
    const { c, sb, label, del, kills, cacheFile } = failingDel('1.31.3');
    expect(podPhase(c, 'web-0')).toBe('Running');
    expect(kills[0]!.message).toBe(
      `${stopErr(sb.pod.uid)}" with KillPodSandboxError: "rpc error: code = Unknown desc = failed to destroy network for pod sandbox ${label}: ${del.replace(/"/g, '\\"')}"`,
    );
    expect(kills[0]!.count).toBeGreaterThan(1);
    expect(vfs.stat(c.sim.node(NODE).fs, cacheFile)).toBeDefined();
  });

  // cri-o v1.31.13 server/sandbox_network.go networkStop (commit 7c3290d): os.Stat, then
  // os.RemoveAll of the pinned netns, a mount point: EBUSY, and the error says so.
  it('1.31.13: the error says the pinned netns path could not be removed; the pod stays Terminating', () => {
    const { c, sb, label, del, kills } = failingDel('1.31.13');
    expect(podPhase(c, 'web-0')).toBe('Running');
    expect(kills[0]!.message).toContain(
      `desc = failed to destroy network for pod sandbox ${label}: ${del.replace(/"/g, '\\"')}: failed to remove netns path: unlinkat ${sb.netns}: device or resource busy"`,
    );
    expect(kills[0]!.count).toBeGreaterThan(1);
  });

  // cri-o v1.34.5 / v1.35.0 server/sandbox_network.go networkStop: the network is marked stopped
  // anyway and cleanupCNIResultFiles removes the cache: one FailedKillPod, then the retry's stop
  // succeeds and the pod goes, its address left reserved.
  for (const version of ['1.34.5', '1.35.0', '1.32.8']) {
    it(`${version}: one FailedKillPod ("network teardown failed"), then the pod is gone; the address leaks`, () => {
      const { c, sb, label, del, kills, reserved, cacheFile } = failingDel(version);
      expect(kills).toHaveLength(1);
      expect(kills[0]!.count).toBe(1);
      expect(kills[0]!.message).toContain(
        `desc = network teardown failed for pod sandbox ${label}: ${del.replace(/"/g, '\\"')}"`,
      );
      expect(podPhase(c, 'web-0')).toBeUndefined();
      expect(reserved()).toEqual(['10.244.1.2']);
      expect(vfs.stat(c.sim.node(NODE).fs, cacheFile)).toBeUndefined();
      const log = crioLog(c);
      expect(log).toContain(
        `level=warning msg="Failed to destroy network for pod sandbox ${label}: ${del.replace(/"/g, '\\"')}"`,
      );
      expect(log).toContain(
        `level=warning msg="Failed to remove netns path ${sb.netns}: unlinkat ${sb.netns}: device or resource busy"`,
      );
      expect(log).toContain(
        `level=info msg="Cleaned up CNI result file containerd-net-${sb.id}-eth0 for container ${sb.id}"`,
      );
      expect(log).toContain(`msg="Stopped pod sandbox: ${sb.id}"`);
      expect(tkeys(c.sim.node(NODE).kernel.mounts)).toEqual([]);
    });
  }

  // cri-o v1.33.3 server/sandbox_network.go networkStop (commit d17990a): the error, not stopped.
  it('1.33.3: "network teardown failed", the network not marked stopped: the pod stays Terminating', () => {
    const { c, label, kills, cacheFile } = failingDel('1.33.3');
    expect(podPhase(c, 'web-0')).toBe('Running');
    expect(kills[0]!.message).toContain(
      `desc = network teardown failed for pod sandbox ${label}: `,
    );
    expect(kills[0]!.count).toBeGreaterThan(1);
    expect(vfs.stat(c.sim.node(NODE).fs, cacheFile)).toBeDefined();
  });
});

describe('sandbox_network.go networkStop after a reboot (the pinned netns gone), by patch release', () => {
  function rebootThenDelete(version: string) {
    const c = crio(version);
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    const [sb] = tvalues(c.sim.node(NODE).containerd!.sandboxes);
    c.reboot(NODE);
    c.runFor(60_000_000);
    return { c, sb: sb! };
  }
  const bridgeDels = (c: Cluster) =>
    execs(c, 'DEL').filter((e) => e.payload.path === '/opt/cni/bin/bridge');

  // cri-o v1.33.3 networkStop skips the DEL only for a netns path that is given and missing; the
  // restore's clean-up passes an empty one (the closed namespace's Path()), so the DEL runs.
  it('1.33.3: the restore clean-up runs the DEL with an empty netns and releases the address', () => {
    const { c, sb } = rebootThenDelete('1.33.3');
    expect(podPhase(c, 'web-0')).toBe('Running');
    const log = crioLog(c);
    expect(log).toContain(`msg="Successfully cleaned up network for pod ${sb.id}"`);
    expect(log).toContain('msg="Deleting pod default_web-0 from CNI network');
    expect(bridgeDels(c)).toHaveLength(1);
    expect(
      vfs
        .readDir(c.sim.node(NODE).fs, '/var/lib/cni/networks/containerd-net')
        .filter((f) => f.startsWith('10.')),
    ).toHaveLength(1);
  });

  // cri-o v1.35.0 networkStop: "Always attempt CNI teardown to prevent IP leaks".
  it('1.35.0: the DEL runs with the missing path and releases the address', () => {
    const { c } = rebootThenDelete('1.35.0');
    expect(podPhase(c, 'web-0')).toBe('Running');
    expect(crioLog(c)).toContain('msg="Deleting pod default_web-0 from CNI network');
    expect(bridgeDels(c).length).toBeGreaterThan(0);
    expect(
      vfs
        .readDir(c.sim.node(NODE).fs, '/var/lib/cni/networks/containerd-net')
        .filter((f) => f.startsWith('10.')),
    ).toHaveLength(1);
  });
});

/**
 * CRI-O 1.33+ vendors libcni v1.3.0 (go.mod): ocicni v0.4.3 `loadNetworks` reads a conflist with
 * ConfListFromFile, which appends `<conf dir>/<network name>/*.conf` (libcni `conf.go`
 * NetworkConfFromFile) and accepts a list without `plugins`. The result cache keeps the file's
 * own bytes (`api.go` AddNetworkList: cacheAdd(result, list.Bytes, …)), and ocicni runs CHECK and
 * DEL from the cache (loadNetworkFromCache), so those see the inline plugins only.
 */
describe('libcni v1.3 plugin directories (CRI-O 1.33+, ocicni loadNetworks, loadNetworkFromCache)', () => {
  const DIR = '/etc/cni/net.d/containerd-net';
  const full = JSON.parse(defaultConflist('10.244.1.0/24')) as { plugins: unknown[] };
  const tuning = JSON.stringify({ type: 'tuning', sysctl: { 'net.core.somaxconn': '512' } });
  const withDir = (version: string) =>
    crio(version, {
      cniConfigs: {
        '10-containerd-net.conflist': JSON.stringify({ ...full, plugins: [full.plugins[0]] }),
      },
      files: { [`${DIR}/20-tuning.conf`]: tuning },
    });
  const chain = (c: Cluster, cmd: string) =>
    execs(c, cmd)
      .filter((e) => e.source === 'libcni')
      .map((e) => e.target);

  it("1.33.0: ADD runs the directory's plugin after the list's own; CHECK and DEL, from the cache, do not", () => {
    const c = withDir('1.33.0');
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    expect(podPhase(c, 'web-0')).toBe('Running');
    expect(chain(c, 'ADD')).toEqual(['bridge', 'tuning']);
    expect(chain(c, 'CHECK')).toEqual(['bridge']);
    c.deletePod('web-0');
    c.runFor(90_000_000);
    expect(podPhase(c, 'web-0')).toBeUndefined();
    expect(chain(c, 'DEL')).toEqual(['bridge']);
  });

  it('1.33.0: a list with no "plugins" key is loaded from its directory; 1.32.13 rejects it', () => {
    const bridge = JSON.stringify(full.plugins[0]);
    const spec = {
      cniConfigs: {
        '10-containerd-net.conflist': JSON.stringify({
          cniVersion: '1.0.0',
          name: 'containerd-net',
        }),
      },
      files: { [`${DIR}/10-bridge.conf`]: bridge },
    };
    const c = crio('1.33.0', spec);
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    expect(podPhase(c, 'web-0')).toBe('Running');
    expect(chain(c, 'ADD')).toEqual(['bridge']);
    // The cached list has no plugins: CHECK and DEL run none, and the address stays.
    expect(chain(c, 'CHECK')).toEqual([]);
    c.deletePod('web-0');
    c.runFor(90_000_000);
    expect(podPhase(c, 'web-0')).toBeUndefined();
    expect(chain(c, 'DEL')).toEqual([]);
    expect(
      vfs
        .readDir(c.sim.node(NODE).fs, '/var/lib/cni/networks/containerd-net')
        .filter((f) => f.startsWith('10.')),
    ).toEqual(['10.244.1.2']);
    const old = crio('1.32.13', spec);
    old.runFor(2_000_000);
    expect(crioLog(old)).toContain(
      'level=error msg="Error loading CNI config list file /etc/cni/net.d/10-containerd-net.conflist: error parsing configuration list: no \'plugins\' key"',
    );
    expect(nodeReady(old)).toBe('False');
  });

  it('1.32.13: the directory is not read', () => {
    const c = withDir('1.32.13');
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    expect(chain(c, 'ADD')).toEqual(['bridge']);
  });
});

/**
 * cri-o v1.31.13 server/server.go restore → internal/lib/container_server.go LoadSandbox: a
 * sandbox that was running must join its pinned netns again (NetNsJoin, ns.GetNS); after a
 * reboot the pin is gone, so the sandbox is deleted from storage and only its network is stopped,
 * in the background (wipeResourceCleaner). The kubelet finds no sandbox: Attempt 0, no
 * SandboxChanged (kuberuntime_manager.go SyncPod records it only when a sandbox is replaced).
 */
describe('server.go restore after a reboot: sandboxes whose netns is gone are not restored', () => {
  it('1.31.13: "Could not restore sandbox", a DEL from CRI-O itself, then a new sandbox with Attempt 0', () => {
    const c = crio('1.31.13');
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    const [old] = tvalues(c.sim.node(NODE).containerd!.sandboxes);
    const n = c.events.length;
    c.reboot(NODE);
    c.runFor(60_000_000);
    const log = crioLog(c);
    expect(log).toContain(
      `level=warning msg="Could not restore sandbox ${old!.id}: failed to Statfs \\"${old!.netns}\\": no such file or directory"`,
    );
    expect(log).toContain(
      `level=warning msg="Deleting all containers under sandbox ${old!.id} since it could not be restored"`,
    );
    expect(log).toContain(`level=info msg="Successfully cleaned up network for pod ${old!.id}"`);
    // No StopPodSandbox for it: CRI-O no longer knows the sandbox.
    expect(log).not.toContain(`msg="Stopping pod sandbox: ${old!.id}"`);
    const bridgeDels = execs(c, 'DEL', n).filter((e) => e.payload.path === '/opt/cni/bin/bridge');
    expect(bridgeDels).toHaveLength(1);
    expect(JSON.parse(bridgeDels[0]!.payload.stdin)).toHaveProperty('prevResult');
    // The namespace it could not join is closed: its Path() is "" (nsmgr types_linux.go).
    expect(bridgeDels[0]!.payload.env.CNI_NETNS).toBe('');
    expect(events(c, 'SandboxChanged')).toEqual([]);
    expect(podPhase(c, 'web-0')).toBe('Running');
    const sbs = tvalues(c.sim.node(NODE).containerd!.sandboxes);
    expect(sbs.map((s) => s.pod.attempt)).toEqual([0]);
    expect(sbs[0]!.id).not.toBe(old!.id);
    expect(
      vfs
        .readDir(c.sim.node(NODE).fs, '/var/lib/cni/networks/containerd-net')
        .filter((f) => f.startsWith('10.')),
    ).toHaveLength(1);
  });

  it('1.31.13: a restart without a reboot restores the sandbox (its pin is still there)', () => {
    const c = crio('1.31.13');
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    const [old] = tvalues(c.sim.node(NODE).containerd!.sandboxes);
    c.shell(NODE, 'systemctl restart crio');
    c.runFor(30_000_000);
    expect(crioLog(c)).not.toContain('Could not restore sandbox');
    expect(tvalues(c.sim.node(NODE).containerd!.sandboxes).map((s) => s.id)).toEqual([old!.id]);
  });
});

// ocicni v0.5.0 pkg/ocicni/ocicni.go monitorConfDir (commit e129e48) and syncNetworkConfig
// (commit e4a886b), vendored from cri-o v1.35.0; v0.4.3 in 1.32 - 1.34.
describe('ocicni v0.5.0 (CRI-O 1.35+): fewer monitoring lines', () => {
  for (const [version, quiet] of [
    ['1.34.11', false],
    ['1.35.0', true],
  ] as const) {
    it(`${version}: a plugin binary's event is ${quiet ? 'not ' : ''}logged; no default network is ${quiet ? 'not ' : ''}announced`, () => {
      const c = crio(version);
      c.runFor(2_000_000);
      c.shell(NODE, 'mv /opt/cni/bin/tuning /root/');
      c.shell(NODE, 'rm /etc/cni/net.d/10-containerd-net.conflist');
      c.runFor(2_000_000);
      const log = crioLog(c);
      expect(
        log.includes('msg="CNI monitoring event RENAME        \\"/opt/cni/bin/tuning\\""'),
      ).toBe(!quiet);
      expect(log).toContain(
        'msg="CNI monitoring event REMOVE        \\"/etc/cni/net.d/10-containerd-net.conflist\\""',
      );
      expect(log.includes('msg="Updated default CNI network name to "')).toBe(!quiet);
    });
  }
});

// cri-o v1.31.13 pkg/config/config_unix.go: cniBinDir = "/opt/cni/bin/", the default plugin_dirs;
// ocicni hands it to libcni.NewCNIConfig, which passes it on as CNI_PATH as it is.
describe('config_unix.go cniBinDir: the default plugin_dirs keeps its trailing slash', () => {
  it('1.31.13: CNI_PATH is "/opt/cni/bin/" (the DEL tests above show it in "in path [/opt/cni/bin/]")', () => {
    const c = crio('1.31.13');
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    const add = execs(c, 'ADD')[0]!;
    expect(add.payload.path).toBe('/opt/cni/bin/bridge');
    expect(add.payload.env.CNI_PATH).toBe('/opt/cni/bin/');
  });
});

/**
 * cri-o v1.31.13 server/server.go wipeIfAppropriate (internal_wipe = true by default) and
 * cmd/crio/main.go (WriteVersionFile after server.New): /var/run/crio/version is on tmpfs, so a
 * boot finds it missing, logs so and removes the sandboxes it restored; a restart finds it.
 */
describe('server.go wipeIfAppropriate: the version file on tmpfs', () => {
  it('1.31.13: the first start and a boot log the missing file; a restart does not', () => {
    const c = crio('1.31.13');
    c.runFor(2_000_000);
    const line =
      'level=warning msg="Error encountered when checking whether cri-o should wipe containers: open /var/run/crio/version: no such file or directory"';
    const count = () => crioLog(c).split(line).length - 1;
    expect(count()).toBe(1);
    expect(c.shell(NODE, 'cat /var/run/crio/version').stdout).toBe(
      '"1.31.13+15789b8b6e1b644cb32c077e29407407e7481216"',
    );
    c.shell(NODE, 'systemctl restart crio');
    c.runFor(5_000_000);
    expect(count()).toBe(1);
    c.reboot(NODE);
    c.runFor(40_000_000);
    expect(count()).toBe(2);
  });

  it('1.31.13: a sandbox stopped before the reboot is removed by CRI-O when it starts', () => {
    const c = crio('1.31.13');
    c.runFor(2_000_000);
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    const [sb] = tvalues(c.sim.node(NODE).containerd!.sandboxes);
    c.deletePod('web-0');
    c.runFor(5_000_000);
    // Stopped, not yet removed (the kubelet's GC runs every minute).
    expect(tvalues(c.sim.node(NODE).containerd!.sandboxes).map((s) => s.id)).toEqual([sb!.id]);
    c.reboot(NODE);
    c.runFor(40_000_000);
    expect(tvalues(c.sim.node(NODE).containerd!.sandboxes)).toEqual([]);
    expect(crioLog(c)).toContain(`level=info msg="Removed pod sandbox: ${sb!.id}"`);
    expect(crioLog(c)).not.toContain(`Could not restore sandbox ${sb!.id}`);
  });
});
