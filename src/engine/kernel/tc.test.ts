/**
 * Traffic control in the virtual kernel against a real one (Linux 6.18, iproute2 6.1, 2 CPUs):
 * which root qdisc a device shows and when, what adding and deleting qdiscs and u32 filters does,
 * mirred action indexes, a redirect whose target went away, and `tc` text for tbf parameters
 * exactly as the real bandwidth plugin sets them (the expected lines are what `tc qdisc show`
 * printed after running /usr/lib/cni/bandwidth with those limits).
 */
import { describe, expect, it } from 'vitest';
import { tbfParams } from '../plugins/bandwidth';
import * as K from './kernel';
import {
  filterAddU32,
  formatG3,
  printRate,
  printSize,
  printTime,
  qdiscAdd,
  qdiscDel,
  qdiscShowLines,
  tbfMaxSize,
  tcShowLines,
} from './tc';
import type { KernelState, Link } from './types';
import { tget } from '../state/table';

let macs = 0;
const rnd: K.RandomSource = {
  mac: () => `02:00:00:00:01:${(++macs).toString(16).padStart(2, '0')}`,
};

function setup(): { k: KernelState; ns: string } {
  const k = K.emptyKernel();
  K.linkSetUp(k, k.root, 1);
  return { k, ns: k.root };
}

function link(k: KernelState, ns: string, name: string): Link {
  return K.linkByName(tget(k.netns, ns)!, name)!;
}

function show(k: KernelState, ns: string): string[] {
  return tcShowLines(tget(k.netns, ns)!);
}

const PFIFO = 'bands 3 priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1';

describe('default qdiscs', () => {
  it('lists nothing for a device that was never up, noqueue once it was, and keeps it when down', () => {
    const { k, ns } = setup();
    const pod = K.createNetns(k);
    expect(show(k, pod)).toEqual([]);
    K.linkSetUp(k, pod, 1);
    K.linkSetDown(k, pod, 1);
    // ip link set lo up; ip link set lo down; tc qdisc show
    expect(show(k, pod)).toEqual(['qdisc noqueue 0: dev lo root refcnt 2']);
    K.linkAdd(k, ns, { kind: 'veth', name: 'v1', peerName: 'v2' }, rnd);
    K.linkAdd(k, ns, { kind: 'bridge', name: 'br9' }, rnd);
    expect(show(k, ns)).toEqual(['qdisc noqueue 0: dev lo root refcnt 2']);
    K.linkSetUp(k, ns, link(k, ns, 'v1').ifindex);
    K.linkSetUp(k, ns, link(k, ns, 'br9').ifindex);
    expect(show(k, ns)).toEqual([
      'qdisc noqueue 0: dev lo root refcnt 2',
      'qdisc noqueue 0: dev v1 root refcnt 2',
      'qdisc noqueue 0: dev br9 root refcnt 2',
    ]);
  });

  it('gives an ifb with a queue pfifo_fast, one created with txqueuelen 0 noqueue', () => {
    const { k, ns } = setup();
    const a = K.linkAdd(k, ns, { kind: 'ifb', name: 'ifbx' }, rnd);
    const b = K.linkAdd(k, ns, { kind: 'ifb', name: 'ifbq', txqlen: 0 }, rnd);
    expect(show(k, ns)).toEqual(['qdisc noqueue 0: dev lo root refcnt 2']);
    K.linkSetUp(k, ns, a);
    K.linkSetUp(k, ns, b);
    expect(show(k, ns)).toEqual([
      'qdisc noqueue 0: dev lo root refcnt 2',
      `qdisc pfifo_fast 0: dev ifbx root refcnt 2 ${PFIFO}`,
      'qdisc noqueue 0: dev ifbq root refcnt 2',
    ]);
  });
});

describe('qdiscs and filters', () => {
  function withVethAndIfb() {
    const { k, ns } = setup();
    K.linkAdd(k, ns, { kind: 'veth', name: 'veth0', peerName: 'peer0' }, rnd);
    const veth = link(k, ns, 'veth0').ifindex;
    K.linkSetUp(k, ns, veth);
    const ifb = K.linkAdd(k, ns, { kind: 'ifb', name: 'bwp0', txqlen: 0 }, rnd);
    K.linkSetUp(k, ns, ifb);
    return { k, ns, veth, ifb };
  }

  it('replaces the default root qdisc by a tbf, refuses a second one, and falls back on delete', () => {
    const { k, ns, veth } = withVethAndIfb();
    qdiscAdd(k, ns, veth, { kind: 'tbf', handle: 1, ...tbfParams(1000000, 100000) });
    expect(qdiscShowLines(link(k, ns, 'veth0'))).toEqual([
      'qdisc tbf 1: dev veth0 root refcnt 3 rate 1Mbit burst 12500b lat 25ms',
    ]);
    expect(() =>
      qdiscAdd(k, ns, veth, { kind: 'tbf', handle: 1, ...tbfParams(1000000, 100000) }),
    ).toThrow('file exists');
    // tc qdisc del dev veth0 root: the device is up, so noqueue comes back.
    qdiscDel(k, ns, veth, 'root');
    expect(qdiscShowLines(link(k, ns, 'veth0'))).toEqual([
      'qdisc noqueue 0: dev veth0 root refcnt 2',
    ]);
    expect(() => qdiscDel(k, ns, veth, 'root')).toThrow('no such file or directory');
  });

  it('refuses a tbf whose buffer lets no byte through', () => {
    const { k, ns, veth } = withVethAndIfb();
    for (const [rate, burst] of [
      [7, 54321],
      [1000000000, 8],
      [1000000000, 7],
      [999999, 1],
      [1000000000, 800],
    ] as const) {
      const p = tbfParams(rate, burst);
      expect(tbfMaxSize(p)).toBe(0n);
      expect(() => qdiscAdd(k, ns, veth, { kind: 'tbf', handle: 1, ...p })).toThrow(
        'invalid argument',
      );
    }
  });

  it('adds an ingress qdisc once and u32 redirect filters with the lowest free action indexes', () => {
    const { k, ns, veth, ifb } = withVethAndIfb();
    expect(() =>
      filterAddU32(k, ns, veth, {
        parent: 0xffff,
        pref: 1,
        classid: [1, 1],
        redirects: [{ ifindex: ifb, verdict: 'stolen' }],
      }),
    ).toThrow('invalid argument');
    qdiscAdd(k, ns, veth, { kind: 'ingress' });
    expect(() => qdiscAdd(k, ns, veth, { kind: 'ingress' })).toThrow('file exists');
    const redirect = (dev: number, to: number) =>
      filterAddU32(k, ns, dev, {
        parent: 0xffff,
        pref: 1,
        classid: [1, 1],
        redirects: [
          { ifindex: to, verdict: 'stolen' },
          { ifindex: to, verdict: 'pass' },
        ],
      });
    redirect(veth, ifb);
    // A second pod: its actions get 3 and 4.
    K.linkAdd(k, ns, { kind: 'veth', name: 'veth1', peerName: 'peer1' }, rnd);
    const veth1 = link(k, ns, 'veth1').ifindex;
    K.linkSetUp(k, ns, veth1);
    const ifb1 = K.linkAdd(k, ns, { kind: 'ifb', name: 'bwp1', txqlen: 0 }, rnd);
    qdiscAdd(k, ns, veth1, { kind: 'ingress' });
    redirect(veth1, ifb1);
    expect(show(k, ns).filter((l) => l.includes('index'))).toEqual([
      '\tindex 1 ref 1 bind 1',
      '\tindex 2 ref 1 bind 1',
      '\tindex 3 ref 1 bind 1',
      '\tindex 4 ref 1 bind 1',
    ]);
    // The first pod goes (its veth with it); a new one takes 1 and 2 again.
    K.linkDel(k, ns, veth);
    K.linkAdd(k, ns, { kind: 'veth', name: 'veth2', peerName: 'peer2' }, rnd);
    const veth2 = link(k, ns, 'veth2').ifindex;
    qdiscAdd(k, ns, veth2, { kind: 'ingress' });
    redirect(veth2, ifb);
    expect(show(k, ns).filter((l) => l.startsWith('#') || l.includes('index'))).toEqual([
      '# tc filter show dev veth1 ingress',
      '\tindex 3 ref 1 bind 1',
      '\tindex 4 ref 1 bind 1',
      '# tc filter show dev veth2 ingress',
      '\tindex 1 ref 1 bind 1',
      '\tindex 2 ref 1 bind 1',
    ]);
    // Deleting the ingress qdisc takes its filter along.
    qdiscDel(k, ns, veth2, 'ingress');
    expect(link(k, ns, 'veth2').tc?.filters).toEqual([]);
  });

  it('prints the filter as tc does, and "*" once the redirect target is gone', () => {
    const { k, ns, veth, ifb } = withVethAndIfb();
    qdiscAdd(k, ns, veth, { kind: 'tbf', handle: 1, ...tbfParams(1000000, 100000) });
    qdiscAdd(k, ns, veth, { kind: 'ingress' });
    filterAddU32(k, ns, veth, {
      parent: 0xffff,
      pref: 1,
      classid: [1, 1],
      redirects: [
        { ifindex: ifb, verdict: 'stolen' },
        { ifindex: ifb, verdict: 'pass' },
      ],
    });
    qdiscAdd(k, ns, ifb, { kind: 'tbf', handle: 1, ...tbfParams(2000000, 200000) });
    const filter = (dev: string) => [
      'filter parent ffff: protocol all pref 1 u32 chain 0',
      'filter parent ffff: protocol all pref 1 u32 chain 0 fh 800: ht divisor 1',
      'filter parent ffff: protocol all pref 1 u32 chain 0 fh 800::800 order 2048 key ht 800 bkt 0 *flowid 1:1 not_in_hw',
      '  match 00000000/00000000 at 0',
      `\taction order 1: mirred (Egress Redirect to device ${dev}) stolen`,
      '\tindex 1 ref 1 bind 1',
      `\taction order 2: mirred (Egress Redirect to device ${dev}) pass`,
      '\tindex 2 ref 1 bind 1',
    ];
    expect(show(k, ns)).toEqual([
      'qdisc noqueue 0: dev lo root refcnt 2',
      'qdisc tbf 1: dev veth0 root refcnt 3 rate 1Mbit burst 12500b lat 25ms',
      'qdisc ingress ffff: dev veth0 parent ffff:fff1 ----------------',
      'qdisc tbf 1: dev bwp0 root refcnt 2 rate 2Mbit burst 25000b lat 25ms',
      '# tc filter show dev veth0 ingress',
      ...filter('bwp0'),
    ]);
    // bandwidth DEL deletes the ifb only: the veth keeps its qdiscs and a filter to nowhere.
    K.linkDel(k, ns, ifb);
    expect(show(k, ns)).toEqual([
      'qdisc noqueue 0: dev lo root refcnt 2',
      'qdisc tbf 1: dev veth0 root refcnt 3 rate 1Mbit burst 12500b lat 25ms',
      'qdisc ingress ffff: dev veth0 parent ffff:fff1 ----------------',
      '# tc filter show dev veth0 ingress',
      ...filter('*'),
    ]);
    // A device that later gets the same ifindex does not revive the redirect.
    const pod = K.createNetns(k);
    let d = 0;
    while (d < ifb) d = K.linkAdd(k, pod, { kind: 'dummy', name: `d${d + 1}` }, rnd);
    K.linkSetNs(k, pod, d, ns);
    expect(K.linkByIndex(tget(k.netns, ns)!, ifb)?.kind).toBe('dummy');
    expect(show(k, ns)).toContain('\taction order 1: mirred (Egress Redirect to device *) stolen');
  });

  it('drops the qdiscs of a device moved to another namespace', () => {
    const { k, ns, veth } = withVethAndIfb();
    qdiscAdd(k, ns, veth, { kind: 'ingress' });
    const pod = K.createNetns(k);
    K.linkSetNs(k, ns, veth, pod);
    expect(show(k, pod)).toEqual([]);
    K.linkSetUp(k, pod, link(k, pod, 'veth0').ifindex);
    expect(show(k, pod)).toEqual(['qdisc noqueue 0: dev veth0 root refcnt 2']);
  });
});

describe('tbf as tc shows it (limits set by the real bandwidth plugin)', () => {
  const cases: Array<[number, number, string]> = [
    [1000000, 100000, 'rate 1Mbit burst 12500b lat 25ms'],
    [2000000, 200000, 'rate 2Mbit burst 25000b lat 25ms'],
    [800000, 80000, 'rate 800Kbit burst 10000b lat 25ms'],
    [1600000, 160000, 'rate 1600Kbit burst 20000b lat 25ms'],
    [1234567, 54321, 'rate 1234Kbit burst 6789b lat 25ms'],
    [8, 800000, 'rate 8bit burst 116b lat 1.1e+03s'],
    [100000000000, 80000000, 'rate 100Gbit burst 10000000b lat 25ms'],
    [40000000000, 8000000000, 'rate 40Gbit burst 1000000000b lat 25ms'],
    [8192000, 8388608, 'rate 8192Kbit burst 1Mb lat 25ms'],
    [1024, 8192, 'rate 1024bit burst 1Kb lat 23.4ms'],
    [3000, 100000000, 'rate 3Kbit burst 91839b lat 3.02e+03s'],
  ];
  it.each(cases)('rate %d bit/s, burst %d bit: %s', (rate, burst, text) => {
    const { k, ns } = setup();
    K.linkAdd(k, ns, { kind: 'veth', name: 'veth0', peerName: 'peer0' }, rnd);
    const veth = link(k, ns, 'veth0').ifindex;
    qdiscAdd(k, ns, veth, { kind: 'tbf', handle: 1, ...tbfParams(rate, burst) });
    expect(qdiscShowLines(link(k, ns, 'veth0'))).toEqual([
      `qdisc tbf 1: dev veth0 root refcnt 3 ${text}`,
    ]);
  });

  it('computes the netlink parameters with Go float and uint32 conversions', () => {
    expect(tbfParams(1000000, 100000)).toEqual({ rate: 125000, limit: 15625, buffer: 1562500 });
    // 8 bit/s: a buffer of 1e11 µs wraps around in uint32 before it becomes ticks.
    expect(tbfParams(8, 800000)).toEqual({ rate: 1, limit: 100000, buffer: 1816258816 });
  });

  it('formats like iproute2', () => {
    expect(printRate(125000)).toBe('1Mbit');
    expect(printRate(154320)).toBe('1234Kbit');
    expect(printRate(128)).toBe('1024bit');
    expect(printRate(12500000000)).toBe('100Gbit');
    expect(printSize(12500)).toBe('12500b');
    expect(printSize(1024)).toBe('1Kb');
    expect(printSize(1048576)).toBe('1Mb');
    expect(printSize(1000000000)).toBe('1000000000b');
    expect(printTime(25000)).toBe('25ms');
    expect(printTime(23437.5)).toBe('23.4ms');
    expect(printTime(800)).toBe('800us');
    expect(printTime(1099511628)).toBe('1.1e+03s');
    expect(formatG3(0.000012345)).toBe('1.23e-05');
    expect(formatG3(100)).toBe('100');
  });
});
