/**
 * "Show goal": the goal's picture is the solution's end state; the start differs from it where
 * the lesson asks for a change, and the solution's own end shows no difference.
 */
import { describe, expect, it } from 'vitest';
import { lessonById } from './content';
import { runLesson } from './lesson';
import { comparePictures, goalPicture, picture, samePicture } from './target';

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
