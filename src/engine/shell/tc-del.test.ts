/**
 * `tc qdisc del dev DEV root|ingress`: what iproute2 6.1 answers on a 6.18 kernel (checked in a
 * throw-away namespace), as a user removes the bandwidth plugin's qdiscs by hand.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import '../cluster/with-shell';
import { linkByName } from '../kernel/kernel';
import { qdiscAdd } from '../kernel/tc';
import { tbfParams } from '../plugins/bandwidth';
import { noteEvent } from '../trace/trace';
import { hostNetns } from '../node/inspect';

function node() {
  const c = new Cluster({ nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] }, { seed: 2 });
  const sh = (line: string) => c.shell('node-1', line);
  expect(
    sh('ip link add va type veth peer name vb && ip link set va up && ip link set vb up').exitCode,
  ).toBe(0);
  const nsId = hostNetns(c.sim.node('node-1').kernel).id;
  const va = () => linkByName(hostNetns(c.sim.node('node-1').kernel), 'va')!;
  const ifindex = va().ifindex;
  const add = (kind: 'tbf' | 'ingress') =>
    c.sim.apply(
      noteEvent({
        node: 'node-1',
        source: 'test',
        target: 'node-1',
        level: 'cni',
        summary: `a ${kind} qdisc on va`,
        payload: {},
      }),
      (d) =>
        qdiscAdd(
          d.nodes['node-1']!.kernel,
          nsId,
          ifindex,
          kind === 'tbf'
            ? { kind: 'tbf', handle: 1, ...tbfParams(1000000, 100000) }
            : { kind: 'ingress' },
        ),
    );
  return { sh, add };
}

describe('tc qdisc del', () => {
  it('removes a tbf root qdisc (the default noqueue comes back) and the ingress qdisc', () => {
    const { sh, add } = node();
    add('tbf');
    add('ingress');
    expect(sh('tc qdisc show dev va').stdout).toMatch(/^qdisc tbf 1: root /);
    expect(sh('tc qdisc del dev va root')).toMatchObject({ exitCode: 0, output: '' });
    expect(sh('tc qdisc show dev va').stdout).toBe(
      'qdisc noqueue 0: root refcnt 2 \nqdisc ingress ffff: parent ffff:fff1 ---------------- \n',
    );
    expect(sh('tc qdisc delete ingress dev va')).toMatchObject({ exitCode: 0, output: '' });
    expect(sh('tc qdisc show dev va').stdout).toBe('qdisc noqueue 0: root refcnt 2 \n');
  });

  it('answers as the kernel does when there is nothing to delete', () => {
    const { sh } = node();
    expect(sh('tc qdisc del dev va root')).toMatchObject({
      exitCode: 2,
      stderr: 'Error: Cannot delete qdisc with handle of zero.\n',
    });
    expect(sh('tc qdisc del dev va ingress')).toMatchObject({
      exitCode: 2,
      stderr: 'Error: Cannot find specified qdisc on specified device.\n',
    });
    expect(sh('tc qdisc del dev va')).toMatchObject({
      exitCode: 2,
      stderr: 'Error: Failed to find qdisc with specified handle.\n',
    });
    expect(sh('tc qdisc del dev nosuch root')).toMatchObject({
      exitCode: 1,
      stderr: 'Cannot find device "nosuch"\n',
    });
  });
});
