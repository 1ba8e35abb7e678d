import { describe, expect, it } from 'vitest';
import { FAULTS } from '../engine/faults';
import { notOffered, recoverySteps } from './recovery';

const steps = (id: string) => FAULTS.find((f) => f.id === id)!.recovery.steps;

describe("a fault's recovery in the app", () => {
  it("is the catalogue's steps, word for word, for every fault", () => {
    for (const f of FAULTS) {
      const r = recoverySteps(f.recovery.steps, { pod: 'default/web-0' });
      expect(r.map((s) => s.text)).toEqual(f.recovery.steps);
    }
  });

  it("offers the commands that read, and the pod's deletion, with the pod filled in", () => {
    const ipam = recoverySteps(steps('ipam-exhausted'), {});
    expect(ipam.flatMap((s) => s.commands.map((c) => c.line))).toEqual([
      'crictl pods -q --no-trunc',
    ]);
    const cache = recoverySteps(steps('cache-deleted'), { pod: 'default/web-0' });
    expect(cache.flatMap((s) => s.commands.map((c) => c.line))).toEqual([
      'kubectl delete pod web-0',
    ]);
    const other = recoverySteps(steps('cache-deleted'), { pod: 'team/api-1' });
    expect(other.flatMap((s) => s.commands.map((c) => c.line))).toEqual([
      'kubectl delete pod -n team api-1',
    ]);
    // Without a pod to name, nothing is offered.
    expect(recoverySteps(steps('cache-deleted'), {}).flatMap((s) => s.commands)).toEqual([]);
  });

  it('never offers a command that can hurt a node: cnitool gc, rm of CNI state, ip link del', () => {
    for (const f of FAULTS) {
      for (const s of recoverySteps(f.recovery.steps, { pod: 'default/web-0' })) {
        for (const c of s.commands) {
          expect(c.line).not.toMatch(/\bgc\b|\brm\b|\bdel\b(?!ete pod)|iptables|netns/);
        }
      }
    }
    expect(notOffered(steps('stale-attachment').join(' '))[0]).toMatch(
      /cnitool gc without GC args/,
    );
    expect(notOffered(steps('cache-corrupted').join(' '))[0]).toMatch(/removing a cache file/);
    expect(notOffered(steps('add-fails-midway').join(' '))[0]).toMatch(/deleting the bridge/);
  });
});
