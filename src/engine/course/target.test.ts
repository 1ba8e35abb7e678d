/**
 * "Show goal": the goal's picture is the solution's end state; the start differs from it where
 * the lesson asks for a change, and the solution's own end shows no difference.
 */
import { describe, expect, it } from 'vitest';
import { lessonById } from './content';
import { runLesson } from './lesson';
import { tget } from '../state/table';
import {
  comparePictures,
  goalPicture,
  goalState,
  picture,
  samePicture,
  topologyMarks,
} from './target';

function startState(id: string) {
  const r = runLesson(lessonById(id)!, { solution: false });
  if ('errors' in r) throw new Error(r.errors.join('; '));
  return r.run.cluster.sim.state;
}

function startPicture(id: string) {
  const r = runLesson(lessonById(id)!, { solution: false });
  if ('errors' in r) throw new Error(r.errors.join('; '));
  return picture(r.run.cluster.sim.state);
}

describe('the goal picture', () => {
  it('shows the pod to create, its veth, eth0, reservation and cache as missing at the start', () => {
    const goal = goalPicture(lessonById('add-step-by-step')!)!;
    const now = startPicture('add-step-by-step');
    const cmp = comparePictures(now, goal);
    const missing = cmp.flatMap((s) =>
      s.goal.filter((i) => i.mark === 'missing').map((i) => i.text),
    );
    expect(missing).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^web-0 on node-1: Running, 10\.244\.1\.2$/),
        expect.stringMatching(/^veth to web-0: veth\S* \(veth\) on cni0 up$/),
        expect.stringMatching(/^web-0: eth0 \(veth\) 10\.244\.1\.2\/24 up$/),
        '/var/lib/cni/networks/containerd-net/10.244.1.2 → web-0',
        expect.stringMatching(/^\/var\/lib\/cni\/results\/containerd-net-‹web-0›-eth0$/),
      ]),
    );
    expect(samePicture(now, goal)).toBe(false);
  });

  it('marks a changed item on both sides and an extra one on the learner side', () => {
    // Lesson 09 starts with cniVersion 1.1.0 and ends with 1.0.0.
    const cmp = comparePictures(
      startPicture('version-mismatch'),
      goalPicture(lessonById('version-mismatch')!)!,
    );
    const files = cmp.find((s) => s.title === 'node-1: files')!;
    const conf = (l: typeof files.now) => l.find((i) => i.key.includes('/etc/cni/net.d/'))!;
    expect(conf(files.now)).toMatchObject({
      mark: 'changed',
      text: expect.stringContaining('cniVersion 1.1.0'),
    });
    expect(conf(files.goal)).toMatchObject({
      mark: 'changed',
      text: expect.stringContaining('cniVersion 1.0.0'),
    });
  });

  it('shows no difference between the solution and its own end, in a second run', () => {
    const l = lessonById('chaining')!;
    const r = runLesson(l);
    if ('errors' in r) throw new Error(r.errors.join('; '));
    expect(samePicture(picture(r.run.cluster.sim.state), goalPicture(l)!)).toBe(true);
  });

  it('keys a leftover as extra: a stale reservation with no sandbox', () => {
    const cmp = comparePictures(startPicture('gc'), goalPicture(lessonById('gc')!)!);
    const extra = cmp.flatMap((s) => s.now.filter((i) => i.mark === 'extra').map((i) => i.text));
    expect(extra).toContain('/var/lib/cni/networks/containerd-net/10.244.1.50 → no sandbox');
  });
});

describe("the goal topology (Show goal draws it beside the learner's)", () => {
  it("marks the pod's namespace, its eth0 and its host veth as not there yet on the goal's drawing", () => {
    const l = lessonById('add-step-by-step')!;
    const goal = goalState(l)!;
    const marks = topologyMarks(startState(l.id), goal);
    const k = goal.nodes['node-1']!.kernel;
    const named = [...marks.goal].map(([key, m]) => {
      const [, nsId, ifindex] = key.split('/') as [string, string, string?];
      const ns = tget(k.netns, nsId)!;
      const what = nsId === k.root ? 'host' : 'pod';
      return `${m} ${what} ${ifindex === undefined ? 'namespace' : ns.links[Number(ifindex)]!.name}`;
    });
    expect(named).toHaveLength(4);
    expect(named).toEqual(
      expect.arrayContaining([
        'missing pod namespace',
        'missing pod eth0',
        // The bridge plugin creates cni0 at the first ADD.
        'missing host cni0',
        expect.stringMatching(/^missing host veth/),
      ]),
    );
    // Nothing on the learner's side is absent from the goal.
    expect([...marks.now.values()]).not.toContain('extra');
  });

  it('marks nothing when the state is the goal', () => {
    const l = lessonById('chaining')!;
    const r = runLesson(l);
    if ('errors' in r) throw new Error(r.errors.join('; '));
    const marks = topologyMarks(r.run.cluster.sim.state, goalState(l)!);
    expect(marks.now.size + marks.goal.size).toBe(0);
  });
});
