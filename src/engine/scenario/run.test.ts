import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeEvents, eventList } from '../apiserver/apiserver';
import { journalLines } from '../node/journal';
import { clusterReport, formatReport, reportJson } from './report';
import { runScenario, setFaultInjector, type ScenarioRun } from './run';
import { tget, tkeys, tvalues } from '../state/table';
import { cniCommand, isKind } from '../trace/trace';

const EXAMPLES = join(__dirname, '../../../scenarios');
const example = (name: string) => readFileSync(join(EXAMPLES, `${name}.json`), 'utf8');

function ok(r: ScenarioRun) {
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r;
}

const ONE = [{ name: 'node-1', podCIDR: '10.244.1.0/24' }];

describe('running a scenario', () => {
  it('does actions at their times and after their conditions, then runs to the end condition', () => {
    const r = ok(
      runScenario({
        version: 1,
        nodes: ONE,
        actions: [
          { do: 'createPod', name: 'web-0' },
          { do: 'createPod', name: 'web-1', at: '5s' },
          { do: 'deletePod', pod: 'web-0', after: 'pod-running:web-1' },
          { do: 'wait', for: '30s' },
        ],
      }),
    );
    const [a0, a1, a2, a3] = r.summary.actions;
    expect(a0).toMatchObject({ status: 'done', text: 'create pod web-0' });
    expect(a1).toMatchObject({ status: 'done', time: 5_000_000 });
    expect(a2!.status).toBe('done');
    expect(a2!.time).toBeGreaterThan(5_000_000);
    expect(a2!.waited).toMatch(/^"pod-running:web-1" held at 5\.\d+s$/);
    expect(a3!.waited).toMatch(/^"time:35\.\d+s" held at 35\.\d+s$/);
    expect(r.summary.stop.reason).toBe('completed');
    // Idle once the kubelet's GC (at 1m) has removed web-0's stopped sandbox.
    expect(r.summary.stop.detail).toMatch(/^end condition "idle" held at 1m0\.\d+s$/);
    expect(tkeys(r.cluster.sim.state.api!.pods)).toEqual(['default/web-1']);
    expect(r.cluster.sched.nextDueAt()).toBe(null);
  });

  it('times in seconds, and a wait that counts from the condition before it', () => {
    const r = ok(
      runScenario({
        version: 1,
        nodes: ONE,
        actions: [
          { do: 'createPod', name: 'web-0', at: 2.5 },
          { do: 'wait', for: '10s', after: 'pod-running:web-0' },
          { do: 'deletePod', pod: 'web-0' },
        ],
      }),
    );
    const [create, wait, del] = r.summary.actions;
    expect(create!.time).toBe(2_500_000);
    expect(wait!.waited).toMatch(
      /^"pod-running:web-0" held at 3\.\d+s; "time:13\.\d+s" held at 13\.\d+s$/,
    );
    expect(del!.time).toBeGreaterThan(13_000_000);
    expect(del!.time).toBeLessThan(14_000_000);
  });

  it('a wait that cannot be met ends the run there, unless the action is optional', () => {
    const stalled = ok(
      runScenario({
        version: 1,
        nodes: ONE,
        actions: [
          { do: 'createPod', name: 'web-0' },
          { do: 'runUntil', until: 'pod-gone:web-0' },
          { do: 'createPod', name: 'web-1' },
        ],
      }),
    );
    expect(stalled.summary.stop.reason).toBe('stalled');
    expect(stalled.summary.stop.detail).toMatch(
      /^actions\[1\] \(run until pod-gone:web-0\): "pod-gone:web-0" cannot hold: nothing is left to happen/,
    );
    expect(stalled.summary.actions.map((a) => a.status)).toEqual([
      'done',
      'not-reached',
      'not-reached',
    ]);

    const timeout = ok(
      runScenario({
        version: 1,
        nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/30' }],
        actions: [
          { do: 'createPod', name: 'web-0' },
          { do: 'createPod', name: 'web-1' },
          { do: 'runUntil', until: 'pod-running:*', timeout: '30s', optional: true },
          { do: 'deletePod', pod: 'web-0' },
        ],
        end: { until: 'pod-running:*', timeout: '1m' },
      }),
    );
    const [, , wait, del] = timeout.summary.actions;
    expect(wait!.waited).toMatch(/^"pod-running:\*" did not hold within 30s/);
    expect(del!.status).toBe('done');
    // A /30 has one address for pods: once web-0 is gone, web-1 gets it at a retry.
    expect(timeout.summary.stop.reason).toBe('completed');
    expect(tget(timeout.cluster.sim.state.api!.pods, 'default/web-1')!.podIP).toBe('10.244.1.2');
  });

  it('reports an action the cluster refuses and goes on', () => {
    const r = ok(
      runScenario({
        version: 1,
        nodes: ONE,
        actions: [
          { do: 'deletePod', pod: 'web-9' },
          { do: 'createPod', name: 'web-0' },
          { do: 'createPod', name: 'web-0' },
          { do: 'cniCheck', pod: 'web-0' },
          { do: 'shell', line: 'jq -r .name /etc/cni/net.d/10-containerd-net.conflist; false' },
          { do: 'injectFault', fault: 'drift', params: { pod: 'web-9' } },
        ],
      }),
    );
    expect(r.summary.actions.map((a) => [a.status, a.error ?? null])).toEqual([
      ['failed', 'no pod matches "web-9"'],
      ['done', null],
      ['failed', 'pods "web-0" already exists'],
      ['failed', 'pod default/web-0 has no sandbox'],
      ['done', null],
      ['failed', 'params.pod: pods "web-9" not found'],
    ]);
    expect(r.summary.operations).toEqual([
      {
        action: 4,
        what: 'node-1# jq -r .name /etc/cni/net.d/10-containerd-net.conflist; false',
        node: 'node-1',
        status: 'failed',
        exitCode: 1,
        output: 'containerd-net\n',
      },
    ]);
    expect(r.summary.stop.reason).toBe('completed');
  });

  it('injects faults through the catalogue wired in, and a fault condition sees them', () => {
    setFaultInjector(
      (c, id, params) => {
        if (id !== 'conf-gone') return { ok: false, error: `fault: no fault "${id}"` };
        if (params['node'] === 'node-9') return { ok: false, error: 'params.node: no node node-9' };
        const at = c.events.length;
        c.removeFile('node-1', '/etc/cni/net.d/10-containerd-net.conflist');
        return { ok: true, at };
      },
      () => ['conf-gone'],
    );
    try {
      const s = {
        version: 1,
        nodes: ONE,
        actions: [
          { do: 'injectFault', fault: 'conf-gone', params: { node: 'node-9' } },
          { do: 'wait', for: '1s' },
          { do: 'injectFault', fault: 'conf-gone', params: { node: 'node-1' } },
          { do: 'createPod', name: 'web-0' },
        ],
        end: { until: 'event:NetworkNotReady', timeout: '1m' },
      };
      const r = ok(runScenario(s, { until: 'fault:conf-gone' }));
      expect(r.summary.actions.map((a) => [a.status, a.error ?? null])).toEqual([
        ['failed', 'params.node: no node node-9'],
        ['done', null],
        ['done', null],
        ['not-reached', null],
      ]);
      expect(r.summary.stop.reason).toBe('until');
      expect(r.cluster.events[r.summary.stop.step]!.summary).toMatch(/^rm \/etc\/cni/);
      const all = ok(runScenario(s));
      expect(all.summary.stop.reason).toBe('completed');
      expect(runScenario({ ...s, actions: [{ do: 'injectFault', fault: 'nope' }] })).toEqual({
        ok: false,
        errors: ['actions[0].fault: unknown fault "nope" (one of conf-gone)'],
      });
    } finally {
      setFaultInjector(null);
    }
  });

  it('stops as soon as the run condition holds', () => {
    const r = ok(
      runScenario(example('silent-ip-leak'), { until: 'log:Failed to destroy network' }),
    );
    expect(r.summary.stop.reason).toBe('until');
    const at = r.cluster.events[r.summary.stop.step]!;
    expect(at.kind).toBe('log');
    expect(at.summary).toMatch(/Failed to destroy network/);
    expect(r.summary.stop.time).toBe(at.time);
    expect(clusterReport(r.cluster, { step: r.summary.stop.step }).trace.events).toBe(
      r.summary.stop.step + 1,
    );
    expect(runScenario(example('happy-path'), { until: 'soon' })).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^until: unknown condition "soon"/)],
    });
  });

  it('respects the event limit and the time limit', () => {
    const ev = ok(runScenario(example('ipam-exhaustion'), { maxEvents: 200 }));
    expect(ev.summary.stop).toMatchObject({ reason: 'event-limit' });
    expect(ev.cluster.events.length).toBeGreaterThanOrEqual(200);
    expect(ev.cluster.events.length).toBeLessThan(260);
    const t = ok(
      runScenario({
        version: 1,
        nodes: ONE,
        actions: [{ do: 'wait', for: '2h' }],
        limits: { time: '10m' },
      }),
    );
    expect(t.summary.stop).toMatchObject({ reason: 'time-limit', time: 600_000_000 });
  });

  it('same scenario, same seed: the same trace; another seed: another one', () => {
    const trace = (seed?: number) =>
      JSON.stringify(
        ok(runScenario(example('node-reboot'), seed === undefined ? {} : { seed })).cluster.events,
      );
    const a = trace();
    expect(trace()).toBe(a);
    expect(trace(99)).not.toBe(a);
  });

  it('cluster settings reach the nodes: CNI configs as objects, libcni, kubelet timeouts', () => {
    const r = ok(
      runScenario({
        version: 1,
        nodes: [
          {
            name: 'node-1',
            podCIDR: '10.244.1.0/24',
            cniConfigs: {
              '10-ptp.conflist': {
                cniVersion: '1.0.0',
                name: 'ptpnet',
                plugins: [{ type: 'ptp', ipam: { type: 'host-local', subnet: '10.244.1.0/24' } }],
              },
            },
            plugins: ['ptp', 'host-local', 'loopback'],
            containerd: { libcni: '1.2' },
            kubelet: { runtimeRequestTimeout: '30s' },
          },
        ],
        actions: [{ do: 'createPod', name: 'web-0' }],
        end: { until: 'pod-running:web-0' },
      }),
    );
    const n = r.cluster.sim.node('node-1');
    expect(n.containerd!.settings.libcni).toBe('1.2');
    expect(n.kubelet!.settings.runtimeRequestTimeoutUs).toBe(30_000_000);
    expect(n.containerd!.cni.networks.map((x) => x.name)).toEqual(['cni-loopback', 'ptpnet']);
    expect(r.summary.stop.reason).toBe('completed');
    expect(r.cluster.events.some((e) => e.kind === 'exec' && e.target === 'ptp')).toBe(true);
  });
});

describe('the example scenarios show what they say', () => {
  it('happy-path: spread, checked, scaled down, nothing left behind', () => {
    const r = ok(runScenario(example('happy-path')));
    expect(r.summary.stop.reason).toBe('completed');
    expect(r.summary.operations.map((o) => o.status)).toEqual(['ok', 'ok', 'ok']);
    const rep = clusterReport(r.cluster);
    expect(rep.pods).toHaveLength(1);
    expect(rep.pods[0]!.status).toBe('Running');
    expect(rep.findings).toEqual([]);
    expect(rep.nodes.map((n) => n.reservations.length).reduce((a, b) => a + b)).toBe(1);
  });

  it('ipam-exhaustion: FailedCreatePodSandBox until addresses are freed', () => {
    const r = ok(runScenario(example('ipam-exhaustion')));
    expect(r.summary.stop.reason).toBe('completed');
    const api = r.cluster.sim.state.api!;
    expect(tvalues(api.pods).every((p) => p.containerRunning)).toBe(true);
    const failed = eventList(api).filter((e) => e.reason === 'FailedCreatePodSandBox');
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(failed[0]!.message).toMatch(
      /^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "[0-9a-f]{64}": plugin type="bridge" failed \(add\): failed to allocate for range 0: no IP addresses available in range set: 10\.244\.1\.1-10\.244\.1\.6$/,
    );
  });

  it('corrupted-cache-delete: stuck Terminating with libcni 1.1, gone with 1.2', () => {
    const r = ok(runScenario(example('corrupted-cache-delete')));
    const api = r.cluster.sim.state.api!;
    expect(tkeys(api.pods)).toEqual(['default/web-0']);
    const out = describeEvents(api, 'pod/web-0', 'default', r.cluster.now).join('\n');
    expect(out).toMatch(
      /Warning\s+FailedKillPod\s+.*\(x\d+ over \d+s\)\s+kubelet, node-1\s+error killing pod: failed to "KillPodSandbox"/,
    );
    expect(out).toContain('failed to get network \\"containerd-net\\" cached result');
    const rep = clusterReport(r.cluster);
    const [n1, n2] = rep.nodes;
    expect(n1!.reservations).toHaveLength(1);
    expect(n1!.hostVeths).toHaveLength(1);
    expect(n2!.reservations).toEqual([]);
    expect(rep.findings.filter((f) => f.kind !== 'stuck-pod')).toEqual([]);
  });

  it('silent-ip-leak: one orphan reservation per retry, then the range is exhausted', () => {
    const r = ok(runScenario(example('silent-ip-leak')));
    const rep = clusterReport(r.cluster);
    expect(rep.findings.filter((f) => f.kind === 'orphan-reservation')).toHaveLength(5);
    const lines = journalLines(r.cluster.events, 'node-1', undefined, ['containerd']);
    expect(
      lines.some((l) => /level=error msg="Failed to destroy network for sandbox/.test(l)),
    ).toBe(true);
    const msgs = eventList(r.cluster.sim.state.api!).map((e) => e.message);
    expect(msgs.some((m) => m.includes('incompatible CNI versions'))).toBe(true);
    expect(msgs.some((m) => m.includes('no IP addresses available'))).toBe(true);
  });

  // kubernetes cri-client remote_runtime.go RunPodSandbox: the deadline is 2 × the request timeout.
  it('hang-timeout: context deadline exceeded after 4m, then Running once the plugin behaves', () => {
    const r = ok(runScenario(example('hang-timeout')));
    expect(r.summary.stop.reason).toBe('completed');
    const ev = eventList(r.cluster.sim.state.api!).find(
      (e) => e.reason === 'FailedCreatePodSandBox',
    )!;
    expect(ev.message).toBe(
      'Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded',
    );
    expect(ev.firstTime).toBeGreaterThanOrEqual(240_000_000);
    expect(r.cluster.events.filter(isKind('exit')).some((e) => e.payload.signal === 'killed')).toBe(
      true,
    );
  });

  it('node-reboot: SandboxChanged, DEL with an empty netns, new sandboxes', () => {
    const r = ok(runScenario(example('node-reboot')));
    expect(r.summary.stop.reason).toBe('completed');
    const pods = r.cluster.sim.state.api!.pods;
    expect(tget(pods, 'default/web-0')!.restarts).toBe(1);
    expect(tget(pods, 'default/db-0')!.restarts).toBe(0);
    const dels = r.cluster.events
      .filter(isKind('exec'))
      .filter((e) => e.target === 'bridge' && cniCommand(e) === 'DEL');
    // Each old sandbox gets two: StopPodSandbox's, then RemovePodSandbox's from the kubelet's
    // GC (containerd v1.7.22 pkg/cri/server/sandbox_remove.go RemovePodSandbox).
    expect(dels.map((e) => e.payload.env['CNI_NETNS'])).toEqual(['', '', '', '']);
    expect(clusterReport(r.cluster).findings).toEqual([]);
  });

  it('the report prints and serialises', () => {
    const r = ok(runScenario(example('silent-ip-leak')));
    const rep = clusterReport(r.cluster, { journal: 3 });
    const text = formatReport(r.summary, rep, r.cluster);
    expect(text).toMatch(/^Scenario silent-ip-leak — containerd 2.x: a failed ADD/);
    expect(text).toContain('Pods (kubectl get pods -o wide):');
    expect(text).toMatch(/web-0\s+0\/1\s+ContainerCreating/);
    expect(text).toContain('orphan-reservation');
    expect(text).toContain('Journal of node-1 (last 3 lines):');
    const json = JSON.parse(JSON.stringify(reportJson(r.summary, rep)));
    expect(Object.keys(json)).toEqual([
      'scenario',
      'title',
      'seed',
      'stop',
      'time',
      'step',
      'trace',
      'actions',
      'operations',
      'pods',
      'nodes',
      'audit',
    ]);
    expect(json.trace.events).toBe(r.cluster.events.length);
    expect(json.trace.byKind.exec).toBeGreaterThan(0);
  });
});
