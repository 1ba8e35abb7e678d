/**
 * Faults of libcni's result cache and of host-local's reservations: what a real node shows, and
 * that the documented recovery recovers.
 */
import { describe, expect, it } from 'vitest';
import { kubectlGetPods } from '../apiserver/apiserver';
import * as vfs from '../fs/vfs';
import { recoverFault } from './inject';
import {
  cacheFiles,
  hostLinks,
  journal,
  netnsMounts,
  pod,
  podEvents,
  podStatus,
  reservations,
  taggedRules,
} from './observe';
import { NODE, inject, oneNode, recover, runningPod } from './testing';
import { cniCommand, isKind } from '../trace/trace';

const eth0Cache = (id: string) => `containerd-net-${id}-eth0`;

function nothingLeft(c: ReturnType<typeof oneNode>) {
  expect(reservations(c, NODE)).toEqual([]);
  expect(cacheFiles(c, NODE)).toEqual([]);
  expect(netnsMounts(c, NODE)).toEqual([]);
  expect(taggedRules(c, NODE)).toEqual([]);
  expect(hostLinks(c, NODE)).toEqual(['lo', 'cni0']);
  expect(c.audit()[0]!.findings).toEqual([]);
}

describe('cache-corrupted', () => {
  it('blocks every DEL with libcni v1.1: Terminating, FailedKillPod, IP and wiring kept', () => {
    const c = oneNode();
    const id = runningPod(c);
    const uid = pod(c, 'web-0')!.spec.uid;
    const r = inject(c, 'cache-corrupted', { pod: 'web-0' });
    expect(r.did[1]).toBe('kubectl delete pod web-0');
    c.runFor(30_000_000);

    expect(podStatus(c, 'web-0')).toBe('Terminating');
    expect(kubectlGetPods(c.sim.state.api!, c.now)).toMatch(
      /web-0\s+0\/1\s+Terminating\s+0\s+33s\s+10\.244\.1\.2\s+node-1/,
    );
    const cause = `failed to destroy network for sandbox \\"${id}\\": failed to get network \\"containerd-net\\" cached result: decoding version from network config: unexpected end of JSON input`;
    const evs = podEvents(c, 'web-0');
    expect(evs.map((e) => e.reason)).toEqual([
      'Scheduled',
      'Pulled',
      'Created',
      'Started',
      'Killing',
      'FailedKillPod',
    ]);
    const failed = evs.find((e) => e.reason === 'FailedKillPod')!;
    expect(failed.type).toBe('Warning');
    expect(failed.message).toBe(
      `error killing pod: failed to "KillPodSandbox" for "${uid}" with KillPodSandboxError: "rpc error: code = Unknown desc = ${cause}"`,
    );
    expect(failed.count).toBeGreaterThanOrEqual(3);

    const ctrd = journal(c, NODE, ['containerd']);
    expect(
      ctrd.filter((l) => l.includes(`msg="StopPodSandbox for \\"${id}\\" failed"`)),
    ).toHaveLength(failed.count);
    expect(ctrd.at(-1)).toContain(
      `level=error msg="StopPodSandbox for \\"${id}\\" failed" error="failed to destroy network for sandbox \\"${id}\\": failed to get network \\"containerd-net\\" cached result: decoding version from network config: unexpected end of JSON input"`,
    );
    expect(
      journal(c, NODE, ['kubelet']).some((l) =>
        l.includes('"StopPodSandbox from runtime service failed"'),
      ),
    ).toBe(true);

    // libcni failed before running any plugin of the pod network.
    const dels = c.events.filter(isKind('exec')).filter((e) => cniCommand(e) === 'DEL');
    expect(dels.map((e) => e.target)).not.toContain('bridge');
    expect(dels.map((e) => e.target)).not.toContain('portmap');

    expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.2', owner: id }]);
    expect(cacheFiles(c, NODE)).toEqual([eth0Cache(id)]);
    expect(netnsMounts(c, NODE)).toHaveLength(1);
    expect(hostLinks(c, NODE)).toHaveLength(3);
    expect(taggedRules(c, NODE, id)).toHaveLength(3);
    expect(c.audit()[0]!.findings.map((f) => f.kind)).toEqual([]);
  });

  it('with then: nothing, shows only when the pod is deleted', () => {
    const c = oneNode();
    runningPod(c);
    const r = inject(c, 'cache-corrupted', { pod: 'web-0', then: 'nothing' });
    expect(r.did).toHaveLength(1);
    c.runFor(20_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    c.deletePod('web-0');
    c.runFor(20_000_000);
    expect(podStatus(c, 'web-0')).toBe('Terminating');
    expect(podEvents(c, 'web-0').map((e) => e.reason)).toContain('FailedKillPod');
  });

  it('heals itself with libcni v1.2: the unreadable cache is discarded and DEL runs', () => {
    const c = oneNode({ containerd: { libcni: '1.2' } });
    runningPod(c);
    inject(c, 'cache-corrupted', { pod: 'web-0' });
    c.runFor(5_000_000);
    expect(podStatus(c, 'web-0')).toBe('<gone>');
    expect(podEvents(c, 'web-0').some((e) => e.reason === 'FailedKillPod')).toBe(false);
    nothingLeft(c);
  });

  it('recovers once the cache file is removed: the next retry deletes the pod', () => {
    const c = oneNode();
    const id = runningPod(c);
    inject(c, 'cache-corrupted', { pod: 'web-0' });
    c.runFor(20_000_000);
    const r = recover(c, 'cache-corrupted', { pod: 'web-0' });
    expect(r.did).toEqual([`${NODE}# rm /var/lib/cni/results/${eth0Cache(id)}`]);
    c.runFor(20_000_000);
    expect(podStatus(c, 'web-0')).toBe('<gone>');
    nothingLeft(c);
  });
});

describe('cache-deleted', () => {
  it('changes nothing for the pod; CHECK fails with "Required prevResult missing"', () => {
    const c = oneNode();
    const id = runningPod(c);
    inject(c, 'cache-deleted', { pod: 'web-0' });
    c.runFor(10_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(podEvents(c, 'web-0').filter((e) => e.type === 'Warning')).toEqual([]);
    expect(cacheFiles(c, NODE)).toEqual([`cni-loopback-${id}-lo`]);
    expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.2', owner: id }]);
    const t = c.cniCheck('web-0');
    c.runFor(1_000_000);
    expect(t.value).toMatchObject({
      ok: false,
      error: { code: 999, message: 'Required prevResult missing' },
    });
  });

  it('still deletes cleanly: DEL runs without prevResult', () => {
    const c = oneNode();
    runningPod(c);
    inject(c, 'cache-deleted', { pod: 'web-0' });
    const from = c.events.length;
    c.deletePod('web-0');
    c.runFor(5_000_000);
    expect(podStatus(c, 'web-0')).toBe('<gone>');
    const bridgeDel = c.events
      .slice(from)
      .filter(isKind('exec'))
      .find((e) => e.target === 'bridge' && e.source === 'libcni')!;
    expect(JSON.parse(bridgeDel.payload.stdin)).not.toHaveProperty('prevResult');
    expect(
      journal(c, NODE, ['containerd']).some((l) => l.includes('TearDown network for sandbox')),
    ).toBe(true);
    nothingLeft(c);
  });

  it('recovers when the pod is recreated: CHECK passes for the new sandbox', () => {
    const c = oneNode();
    runningPod(c);
    inject(c, 'cache-deleted', { pod: 'web-0' });
    recover(c, 'cache-deleted', { pod: 'web-0' });
    c.runFor(3_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    const t = c.cniCheck('web-0');
    c.runFor(1_000_000);
    expect(t.value?.ok).toBe(true);
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('stale-attachment', () => {
  it('holds an address no sandbox has, with a cache file: the next pod skips it', () => {
    const c = oneNode({ containerd: { libcni: '1.2' } });
    const r = inject(c, 'stale-attachment');
    const [stale] = reservations(c, NODE);
    expect(stale!.ip).toBe('10.244.1.2');
    expect(cacheFiles(c, NODE)).toEqual([eth0Cache(stale!.owner)]);
    const cache = JSON.parse(
      vfs.readFile(c.sim.node(NODE).fs, `/var/lib/cni/results/${eth0Cache(stale!.owner)}`),
    );
    expect(Object.keys(cache)).toEqual([
      'kind',
      'containerId',
      'config',
      'ifName',
      'networkName',
      'netns',
      'cniArgs',
      'result',
    ]);
    expect(cache.result.ips).toEqual([
      { address: '10.244.1.2/24', gateway: '10.244.1.1', interface: 2 },
    ]);
    expect(r.did).toHaveLength(2);
    const id = runningPod(c);
    expect(pod(c, 'web-0')!.podIP).toBe('10.244.1.3');
    expect(reservations(c, NODE)).toEqual([stale, { ip: '10.244.1.3', owner: id }]);
    expect(
      c
        .audit()[0]!
        .findings.map((f) => f.kind)
        .sort(),
    ).toEqual(['orphan-cache', 'orphan-reservation']);
  });

  it('recovers with libcni v1.2 GC: a full DEL of the stale attachment', () => {
    const c = oneNode({ containerd: { libcni: '1.2' } });
    inject(c, 'stale-attachment');
    const [stale] = reservations(c, NODE);
    const id = runningPod(c);
    const from = c.events.length;
    recover(c, 'stale-attachment');
    const del = c.events
      .slice(from)
      .filter(isKind('exec'))
      .find((e) => e.target === 'bridge' && e.source === 'libcni')!;
    const env = del.payload.env;
    expect(env['CNI_COMMAND']).toBe('DEL');
    expect(env['CNI_CONTAINERID']).toBe(stale!.owner);
    expect(env['CNI_NETNS']).toMatch(/^\/var\/run\/netns\/cni-/);
    expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.3', owner: id }]);
    expect(cacheFiles(c, NODE)).toEqual([`cni-loopback-${id}-lo`, eth0Cache(id)]);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(c.audit()[0]!.findings).toEqual([]);
  });

  it('cannot be collected by a containerd on libcni v1.1', () => {
    const c = oneNode();
    inject(c, 'stale-attachment');
    const r = recoverFault(c, 'stale-attachment');
    expect(r).toEqual({
      ok: false,
      error: `node ${NODE}: GC needs libcni v1.2, which containerd 2.x vendors (NodeSpec containerd: { version: '2.0.0' }); this node runs containerd 1.7.22, with libcni v1.1`,
    });
  });
});

describe('stale-reservation', () => {
  it('survives GC: without a cache file libcni does not know it, host-local does not GC', () => {
    const c = oneNode({ containerd: { libcni: '1.2' } });
    inject(c, 'stale-reservation');
    const [stale] = reservations(c, NODE);
    expect(cacheFiles(c, NODE)).toEqual([]);
    runningPod(c);
    expect(pod(c, 'web-0')!.podIP).toBe('10.244.1.3');
    const t = c.cniGc(NODE);
    c.runFor(1_000_000);
    expect(t.value?.ok).toBe(true);
    expect(reservations(c, NODE)[0]).toEqual(stale);
    expect(c.audit()[0]!.findings.map((f) => f.kind)).toEqual(['orphan-reservation']);
  });

  it('recovers when the file is removed by hand', () => {
    const c = oneNode({ containerd: { libcni: '1.2' } });
    inject(c, 'stale-reservation');
    const [stale] = reservations(c, NODE);
    const id = runningPod(c);
    const r = recover(c, 'stale-reservation');
    expect(r.did).toEqual([`${NODE}# rm /var/lib/cni/networks/containerd-net/${stale!.ip}`]);
    expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.3', owner: id }]);
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});
