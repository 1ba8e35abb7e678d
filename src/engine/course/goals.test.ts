/**
 * The goal checker on wrong states: when a goal is not met, its explanation says what it
 * expected and names what is there instead (the pod's status, the address it has, the routes the
 * namespace has, the file found, the event that did happen), so it can never silently disagree
 * with the goal the learner reads.
 */
import { describe, expect, it } from 'vitest';
import { podKey } from '../apiserver/apiserver';
import { Cluster } from '../cluster/cluster';
import '../cluster/with-shell';
import { lessonById } from './content';
import { checkGoal, sandboxOf } from './goals';
import { clusterContext, runLesson, type LessonRun } from './lesson';
import type { Goal } from './schema';
import { tget } from '../state/table';

function solvedAddLesson(): LessonRun {
  const l = lessonById('add-step-by-step');
  if (!l) throw new Error('no lesson add-step-by-step');
  const r = runLesson(l);
  if ('errors' in r) throw new Error(r.errors.join('; '));
  return r;
}

function check(r: LessonRun, goal: Goal) {
  return checkGoal(goal, clusterContext(r.run.cluster, r.setupEnd));
}

const base = { id: 'g', text: 'a goal' };

describe('goal explanations on wrong states', () => {
  it('a met goal has no explanation', () => {
    const r = solvedAddLesson();
    const res = check(r, { ...base, type: 'pod', pod: 'web-0', status: 'Running', wired: true });
    expect(res).toEqual({ id: 'g', text: 'a goal', met: true, explanation: '' });
  });

  it('pod: names the status and the IP the pod really has', () => {
    const r = solvedAddLesson();
    const ip = tget(r.run.cluster.sim.state.api!.pods, podKey('default', 'web-0'))!.podIP!;
    const wrongStatus = check(r, { ...base, type: 'pod', pod: 'web-0', status: 'Terminating' });
    expect(wrongStatus.met).toBe(false);
    expect(wrongStatus.explanation).toBe('expected pod web-0 Terminating; web-0 is Running');
    const wrongIp = check(r, { ...base, type: 'pod', pod: 'web-0', ipIn: '10.99.0.0/16' });
    expect(wrongIp.explanation).toContain(`has IP ${ip}, outside 10.99.0.0/16`);
    const missing = check(r, { ...base, type: 'pod', pod: 'db-0', status: 'Running' });
    expect(missing.explanation).toBe('expected pod db-0 Running; there is no pod db-0');
  });

  it('pod wired: names the missing host-local reservation and the missing cache file', () => {
    const r = solvedAddLesson();
    const c = r.run.cluster;
    const pod = tget(c.sim.state.api!.pods, podKey('default', 'web-0'))!;
    const ip = pod.podIP!;
    const sb = sandboxOf(c.sim.state, pod)!;
    c.removeFile('node-1', `/var/lib/cni/networks/containerd-net/${ip}`);
    c.removeFile('node-1', `/var/lib/cni/results/containerd-net-${sb.id}-eth0`);
    const res = check(r, { ...base, type: 'pod', pod: 'web-0', status: 'Running', wired: true });
    expect(res.met).toBe(false);
    expect(res.explanation).toContain(`host-local holds no reservation of ${ip}`);
    expect(res.explanation).toContain('libcni has no cached result /var/lib/cni/results/');
    // The sandbox id is shortened, never 64 hex characters in a sentence.
    expect(res.explanation).not.toMatch(/[0-9a-f]{64}/);
  });

  it('route: lists the routes the namespace has instead', () => {
    const r = solvedAddLesson();
    const c = r.run.cluster;
    const sb = sandboxOf(c.sim.state, tget(c.sim.state.api!.pods, podKey('default', 'web-0'))!)!;
    const ns = sb.netns.split('/').pop()!;
    c.shell('node-1', `ip -n ${ns} route del default`);
    const res = check(r, {
      ...base,
      type: 'route',
      node: 'node-1',
      netns: 'pod:web-0',
      dst: 'default',
      via: '10.244.1.1',
    });
    expect(res.met).toBe(false);
    expect(res.explanation).toMatch(/^expected a default route via 10\.244\.1\.1 /);
    expect(res.explanation).toContain('its IPv4 routes are: 10.244.1.0/24 dev eth0');
    expect(res.explanation.split('; ')[1]).not.toContain('default');
  });

  it("route: a pod with no sandbox yet is said to have none on its node's runtime", () => {
    for (const [runtime, name] of [
      [undefined, 'containerd'],
      [{ name: 'cri-o' as const }, 'CRI-O'],
    ] as const) {
      const c = new Cluster({
        nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24', ...(runtime ? { runtime } : {}) }],
      });
      c.createPod({ name: 'web-0' });
      const res = checkGoal(
        { ...base, type: 'route', node: 'node-1', netns: 'pod:web-0', dst: 'default' },
        clusterContext(c, 0),
      );
      expect(res.explanation).toContain(`${name} has no sandbox for pod web-0`);
    }
  });

  it('address: names the addresses the device carries instead', () => {
    const r = solvedAddLesson();
    const res = check(r, {
      ...base,
      type: 'address',
      node: 'node-1',
      netns: 'pod:web-0',
      dev: 'eth0',
      address: '10.244.1.77/24',
    });
    expect(res.met).toBe(false);
    expect(res.explanation).toContain('10.244.1.77/24');
    expect(res.explanation).toMatch(/10\.244\.1\.\d+\/24/);
    const ip = tget(r.run.cluster.sim.state.api!.pods, podKey('default', 'web-0'))!.podIP!;
    expect(res.explanation).toContain(ip);
  });

  it('link: describes the links found with their master and state', () => {
    const r = solvedAddLesson();
    const res = check(r, {
      ...base,
      type: 'link',
      node: 'node-1',
      netns: 'host',
      name: 'veth*',
      master: 'br0',
    });
    expect(res.met).toBe(false);
    expect(res.explanation).toMatch(/found veth[0-9a-f]{8} \(veth, master cni0, up\)/);
  });

  it('files: counts what is there and names the files', () => {
    const r = solvedAddLesson();
    const res = check(r, {
      ...base,
      type: 'files',
      node: 'node-1',
      path: '/var/lib/cni/networks/containerd-net/*',
      count: 0,
    });
    expect(res.met).toBe(false);
    expect(res.explanation).toMatch(/^expected no file matching .* on node-1; found \d+ files?: /);
    expect(res.explanation).toContain('10.244.1.2');
  });

  it('sequence: says which step happened and which did not follow', () => {
    const r = solvedAddLesson();
    const res = check(r, {
      ...base,
      type: 'sequence',
      steps: [
        { kind: 'exec', target: 'portmap', command: 'ADD' },
        { kind: 'exec', target: 'bridge', command: 'ADD' },
      ],
    });
    expect(res.met).toBe(false);
    expect(res.explanation).toBe(
      'expected portmap ADD run, then bridge ADD run; portmap ADD run happened, but no bridge ADD run after it',
    );
  });

  it('k8s-event, journal, trace: say how many there are or that there is none', () => {
    const r = solvedAddLesson();
    const ev = check(r, { ...base, type: 'k8s-event', reason: 'FailedCreatePodSandBox', min: 1 });
    expect(ev.explanation).toBe('expected a FailedCreatePodSandBox event; there is none');
    const j = check(r, {
      ...base,
      type: 'journal',
      unit: 'containerd',
      contains: 'RunPodSandbox',
      present: false,
    });
    expect(j.met).toBe(false);
    expect(j.explanation).toMatch(
      /^expected no containerd journal line containing "RunPodSandbox"; found: .*RunPodSandbox/,
    );
    const t = check(r, {
      ...base,
      type: 'trace',
      match: { kind: 'exec', target: 'bridge' },
      count: 5,
    });
    expect(t.explanation).toBe(
      'expected exactly 5 bridge runs; there is 1 (the first: "exec /opt/cni/bin/bridge (ADD)")',
    );
  });

  it('counts put the plural on the noun, not on what qualifies it', () => {
    const r = solvedAddLesson();
    const f = check(r, {
      ...base,
      type: 'files',
      node: 'node-1',
      path: '/var/lib/cni/networks/containerd-net/10.244.1.*',
      count: 2,
    });
    expect(f.explanation).toBe(
      'expected exactly 2 files matching /var/lib/cni/networks/containerd-net/10.244.1.* on node-1; found 1 file: 10.244.1.2',
    );
    const l = check(r, {
      ...base,
      type: 'link',
      node: 'node-1',
      netns: 'host',
      kind: 'veth',
      name: 'veth*',
      master: 'cni0',
      count: 2,
    });
    expect(l.explanation).toMatch(
      /^expected exactly 2 veths named veth\* with master cni0 in the host namespace/,
    );
    const t = check(r, {
      ...base,
      type: 'trace',
      match: { kind: 'exec', target: 'bridge', node: 'node-1' },
      count: 3,
    });
    expect(t.explanation).toMatch(/^expected exactly 3 bridge runs on node-1; there is 1/);
  });

  it('node and sandboxes: name the state found', () => {
    const r = solvedAddLesson();
    const n = check(r, { ...base, type: 'node', node: 'node-1', networkReady: false });
    expect(n.explanation).toBe(
      'expected node node-1 with NetworkReady=false; the runtime reports NetworkReady=true',
    );
    const s = check(r, { ...base, type: 'sandboxes', node: 'node-1', state: 'SANDBOX_NOTREADY' });
    expect(s.explanation).toMatch(
      /^expected a SANDBOX_NOTREADY sandbox on node-1; containerd has [0-9a-f]{12}… \(web-0, SANDBOX_READY\)$/,
    );
    const none = check(r, { ...base, type: 'node', node: 'node-9', ready: true });
    expect(none.explanation).toBe('expected node node-9 Ready; there is no node node-9');
  });

  it('audit: lists the findings', () => {
    const r = solvedAddLesson();
    const c = r.run.cluster;
    c.writeFile('node-1', '/var/lib/cni/networks/containerd-net/10.244.1.200', 'abc\neth0');
    const res = check(r, { ...base, type: 'audit', node: 'node-1' });
    expect(res.met).toBe(false);
    expect(res.explanation).toMatch(
      /^expected no audit finding on node-1; the audit finds .*10\.244\.1\.200/,
    );
  });
});

describe('reach', () => {
  function twoNodes() {
    const c = new Cluster(
      {
        nodes: [
          { name: 'node-1', podCIDR: '10.244.1.0/24' },
          { name: 'node-2', podCIDR: '10.244.2.0/24' },
        ],
        network: { mode: 'host-gw' },
      },
      { seed: 4 },
    );
    c.createPod({ name: 'web-0', node: 'node-1' });
    c.createPod({ name: 'db-0', node: 'node-2' });
    c.runFor(5_000_000);
    return c;
  }
  const goal = (o: Partial<Extract<Goal, { type: 'reach' }>> = {}): Goal => ({
    ...base,
    type: 'reach',
    from: 'pod:web-0',
    to: 'pod:db-0',
    ...o,
  });

  it('walks the packet on the state without sending it, and says where it is dropped', () => {
    const c = twoNodes();
    const events = c.sim.events.length;
    expect(checkGoal(goal(), clusterContext(c, 0)).met).toBe(true);
    expect(checkGoal(goal({ to: '172.18.0.3' }), clusterContext(c, 0)).met).toBe(true);
    expect(c.sim.events.length).toBe(events);
    c.shell('node-2', 'sysctl -w net.ipv4.ip_forward=0');
    const res = checkGoal(goal(), clusterContext(c, 0));
    expect(res.met).toBe(false);
    expect(res.explanation).toMatch(
      /^expected a ping from web-0 to db-0 \(10\.244\.2\.\d+\) answered; the packet is dropped on node-2: .*ip_forward=0/,
    );
    expect(checkGoal(goal({ reachable: false }), clusterContext(c, 0)).met).toBe(true);
    // A TCP connect to a port nobody listens on is answered (RST): reachable.
    expect(checkGoal(goal({ to: '172.18.0.2', port: 9 }), clusterContext(c, 0)).met).toBe(true);
  });

  it('names a pod that is not there', () => {
    const c = twoNodes();
    expect(checkGoal(goal({ to: 'pod:cache-0' }), clusterContext(c, 0)).explanation).toBe(
      'expected a ping from web-0 to cache-0 answered; there is no pod cache-0',
    );
  });
});
