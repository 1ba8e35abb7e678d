/**
 * Property: any sequence of ADD and DEL for up to 50 pods on one bridge network keeps IPs unique
 * among live pods, DEL is idempotent, and once every pod is gone nothing per-pod is left while
 * what the real plugins keep (cni0 and its address, last_reserved_ip.0, lock, ip_forward) stays.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as vfs from '../fs/vfs';
import { linkByName, linksOf, sysctlGet } from '../kernel/kernel';
import { TestNode } from '../testkit';
import { fcParams, FC_SEED } from './config';
import { tget, tkeys } from '../state/table';

const DATA_DIR = '/var/lib/cni/networks/podnet';

function podIp(n: TestNode, pod: string): string {
  const k = n.sim.node(n.node).kernel;
  const ns = tget(k.netns, tget(k.mounts, n.netnsPath(pod))!)!;
  const eth0 = linkByName(ns, 'eth0')!;
  return eth0.addrs.find((a) => a.family === 4)!.local;
}

describe('bridge + host-local lifecycle', () => {
  it(
    `keeps invariants for random ADD/DEL sequences (fast-check seed ${FC_SEED})`,
    { timeout: 180_000 },
    () => {
      const op = fc.record({
        add: fc.boolean(),
        pod: fc.integer({ min: 0, max: 49 }),
        twice: fc.boolean(),
      });
      fc.assert(
        fc.property(
          fc.array(op, { maxLength: 80 }),
          fc.integer({ min: 1, max: 1000 }),
          (ops, seed) => {
            const n = new TestNode({ seed });
            const live = new Map<string, string>();
            const del = (pod: string, twice: boolean) => {
              expect(n.del(pod).ok).toBe(true);
              if (twice) expect(n.del(pod).ok).toBe(true); // DEL is idempotent
              n.deleteNetns(pod);
              live.delete(pod);
            };
            for (const { add, pod: i, twice } of ops) {
              const pod = `pod-${i}`;
              if (add && !live.has(pod)) {
                const r = n.add(pod);
                expect(r.ok, r.error?.message).toBe(true);
                const ip = podIp(n, pod);
                expect([...live.values()]).not.toContain(ip);
                live.set(pod, ip);
              } else if (!add && live.has(pod)) {
                del(pod, twice);
              }
            }
            for (const pod of [...live.keys()]) del(pod, true);
            n.settle();

            const node = n.sim.node(n.node);
            const host = tget(node.kernel.netns, node.kernel.root)!;
            expect(linksOf(host).filter((l) => l.kind === 'veth')).toEqual([]);
            const cni0 = linkByName(host, 'cni0');
            if (ops.some((o) => o.add)) {
              expect(cni0?.addrs.map((a) => `${a.local}/${a.prefix}`)).toContain('10.22.0.1/24');
              expect(sysctlGet(node.kernel, host.id, 'net.ipv4.ip_forward')).toBe('1');
              const left = vfs.readDir(node.fs, DATA_DIR);
              expect(left).toEqual(['last_reserved_ip.0', 'lock']);
              expect(host.iptables).toBeDefined();
            }
            const results = vfs.stat(node.fs, '/var/lib/cni/results')
              ? vfs.readDir(node.fs, '/var/lib/cni/results')
              : [];
            expect(results).toEqual([]);
            // Only the pods' own namespaces were created and all were deleted.
            expect(tkeys(node.kernel.mounts)).toEqual([]);
          },
        ),
        fcParams(40),
      );
    },
  );
});
