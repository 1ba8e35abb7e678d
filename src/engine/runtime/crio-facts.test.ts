/**
 * CRI-O facts of reference runtime-versions.md ("CRI-O (ocicni)") that crio.test.ts does not
 * drive: a CHECK that hangs inside RunPodSandbox (sandbox_network.go networkStart →
 * ocicni GetPodNetworkStatusWithContext), the watcher loading a conflist renamed in (ocicni
 * monitorConfDir: Create reloads, unlike containerd's cni_conf_syncer.go), and a network renamed
 * on disk still deleted through the result cache (ocicni TearDownPodWithContext,
 * loadNetworkFromCache).
 */
import { describe, expect, it } from 'vitest';
import { defaultConflist, type Cluster } from '../cluster/cluster';
import * as vfs from '../fs/vfs';
import { journal, podStatus } from '../faults/observe';
import { NODE, oneNode } from '../faults/testing';
import { cniCommand, isKind } from '../trace/trace';

const S = 1_000_000;
const CONF = '/etc/cni/net.d/10-containerd-net.conflist';
const crio = (version = '1.31.13', extra: Record<string, unknown> = {}): Cluster =>
  oneNode({ runtime: { name: 'cri-o', version }, ...extra });
const execs = (c: Cluster, cmd: string, from = 0) =>
  c.events
    .slice(from)
    .filter(isKind('exec'))
    .filter((e) => cniCommand(e) === cmd && e.payload.path === '/opt/cni/bin/bridge');

describe('CRI-O: a CHECK that hangs', () => {
  it('keeps the pod ContainerCreating: CHECK runs inside RunPodSandbox', () => {
    const c = crio();
    c.runFor(2 * S);
    c.hangPlugin(NODE, 'bridge', ['CHECK']);
    c.createPod({ name: 'web-0' });
    c.runFor(60 * S);
    expect(execs(c, 'ADD')).toHaveLength(1);
    expect(execs(c, 'CHECK')).toHaveLength(1);
    expect(podStatus(c, 'web-0')).toBe('ContainerCreating');
    // containerd runs no CHECK: the same hang changes nothing there.
    const d = oneNode();
    d.runFor(2 * S);
    d.hangPlugin(NODE, 'bridge', ['CHECK']);
    d.createPod({ name: 'web-0' });
    d.runFor(10 * S);
    expect(execs(d, 'CHECK')).toEqual([]);
    expect(podStatus(d, 'web-0')).toBe('Running');
  });
});

describe('CRI-O: the conf-dir watcher', () => {
  it('loads a conflist mv’d in from another directory (containerd skips that Create)', () => {
    for (const runtime of ['cri-o', 'containerd'] as const) {
      const c = runtime === 'cri-o' ? crio() : oneNode();
      c.runFor(2 * S);
      c.shell(NODE, `mv ${CONF} /root/net.conflist`);
      c.runFor(5 * S);
      c.shell(NODE, `mv /root/net.conflist ${CONF}`);
      c.runFor(5 * S);
      c.createPod({ name: 'web-0' });
      c.runFor(10 * S);
      expect([runtime, podStatus(c, 'web-0')]).toEqual([
        runtime,
        runtime === 'cri-o' ? 'Running' : 'ContainerCreating',
      ]);
    }
  });
});

describe('CRI-O: a network renamed on disk', () => {
  it('a running pod is still deleted with its cached config: one DEL, the address released', () => {
    const c = crio();
    c.runFor(2 * S);
    c.createPod({ name: 'web-0' });
    c.runFor(10 * S);
    expect(podStatus(c, 'web-0')).toBe('Running');
    c.writeFile(
      NODE,
      CONF,
      defaultConflist('10.244.1.0/24').replace('"containerd-net"', '"renamed"'),
    );
    c.runFor(5 * S);
    const n = c.events.length;
    c.deletePod('web-0');
    c.runFor(90 * S);
    expect(podStatus(c, 'web-0')).toBe('<gone>');
    const del = execs(c, 'DEL', n);
    expect(del).toHaveLength(1);
    expect(JSON.parse(del[0]!.payload.stdin as string)).toMatchObject({ name: 'containerd-net' });
    const fs = c.sim.node(NODE).fs;
    expect(vfs.readDir(fs, '/var/lib/cni/results')).toEqual([]);
    expect(
      vfs.readDir(fs, '/var/lib/cni/networks/containerd-net').filter((f) => f.startsWith('10.')),
    ).toEqual([]);
    expect(journal(c, NODE, ['crio']).join('\n')).not.toContain('Falling back to loading');
  });
});
