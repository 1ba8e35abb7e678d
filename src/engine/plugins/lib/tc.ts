/**
 * The traffic-control netlink calls the bandwidth plugin makes (vishvananda/netlink QdiscAdd,
 * FilterAdd, QdiscList, LinkAdd of an ifb), each one a kernel step summarised as the `tc` / `ip`
 * command that would make the same change. Errors are the kernel's errno texts.
 */
import * as K from '../../kernel/kernel';
import * as TC from '../../kernel/tc';
import type { Link, Qdisc } from '../../kernel/types';
import type { Gen, Sys } from '../../os/sys';
import type { NsId } from './netlink';

function tcCmd(sys: Sys, ns: NsId, rest: string): string {
  return ns === sys.hostNs ? `tc ${rest}` : `tc -n ${sys.nsLabel(ns)} ${rest}`;
}

/** QdiscAdd of a root tbf qdisc with the raw netlink parameters (rate bytes/s, limit bytes, buffer ticks). */
export function* qdiscAddTbf(
  sys: Sys,
  ns: NsId,
  l: Link,
  handle: number,
  p: TC.TbfParams,
): Gen<void> {
  const burst = TC.printSize(TC.xmitSize(p.rate, p.buffer));
  yield* sys.kernelOp(
    'qdisc.add',
    tcCmd(
      sys,
      ns,
      `qdisc add dev ${l.name} root handle ${handle.toString(16)}: tbf rate ${TC.printRate(p.rate)} burst ${burst} limit ${p.limit}`,
    ),
    { ns: sys.nsLabel(ns), name: l.name, kind: 'tbf', ...p },
    (k) => TC.qdiscAdd(k, ns, l.ifindex, { kind: 'tbf', handle, ...p }),
  );
}

/** QdiscAdd of the ingress qdisc (handle ffff:, parent ffff:fff1). */
export function* qdiscAddIngress(sys: Sys, ns: NsId, l: Link): Gen<void> {
  yield* sys.kernelOp(
    'qdisc.add',
    tcCmd(sys, ns, `qdisc add dev ${l.name} handle ffff: ingress`),
    { ns: sys.nsLabel(ns), name: l.name, kind: 'ingress' },
    (k) => TC.qdiscAdd(k, ns, l.ifindex, { kind: 'ingress' }),
  );
}

/**
 * FilterAdd of a netlink.U32 on the ingress qdisc with RedirIndex and one MirredAction (egress
 * redirect): the library sends two mirred actions, the first "stolen", the second "pass".
 */
export function* filterAddU32Redirect(
  sys: Sys,
  ns: NsId,
  l: Link,
  target: Link,
  classid: [number, number],
): Gen<void> {
  yield* sys.kernelOp(
    'filter.add',
    tcCmd(
      sys,
      ns,
      `filter add dev ${l.name} parent ffff: protocol all prio 1 u32 match u32 0 0 flowid ${classid[0]}:${classid[1]} action mirred egress redirect dev ${target.name}`,
    ),
    { ns: sys.nsLabel(ns), name: l.name, kind: 'u32', redirect: target.name },
    (k) =>
      TC.filterAddU32(k, ns, l.ifindex, {
        parent: TC.HANDLE_INGRESS,
        pref: 1,
        classid,
        redirects: [
          { ifindex: target.ifindex, verdict: 'stolen' },
          { ifindex: target.ifindex, verdict: 'pass' },
        ],
      }),
  );
}

/** QdiscList: a read. */
export function qdiscList(l: Link): Qdisc[] {
  return TC.qdiscList(l);
}

/**
 * LinkAdd of a netlink.Ifb{Name, Flags: up, MTU} (a struct literal: TxQLen 0 is sent too), in one
 * message: the device is created up, with no queue.
 */
export function* linkAddIfbUp(sys: Sys, ns: NsId, name: string, mtu: number): Gen<number> {
  const prefix = ns === sys.hostNs ? 'ip ' : `ip -n ${sys.nsLabel(ns)} `;
  return yield* sys.kernelOp(
    'link.add',
    `${prefix}link add ${name}${mtu ? ` mtu ${mtu}` : ''} txqueuelen 0 up type ifb`,
    { ns: sys.nsLabel(ns), name, kind: 'ifb', mtu, up: true },
    (k, rnd) => {
      const idx = K.linkAdd(k, ns, { kind: 'ifb', name, mtu, txqlen: 0 }, rnd);
      K.linkSetUp(k, ns, idx);
      return idx;
    },
  );
}
