/**
 * What the device core asks of traffic control (net/sched/sch_generic.c's dev_activate and the
 * NETDEV_UNREGISTER clean-up of mirred actions), registered on the netdev notifier chain: a
 * device that comes up gets its default qdisc; one that goes away is no longer a mirred target.
 */
import { linksOf } from './device';
import { netdevChain } from './notifier';
import type { Link, Qdisc } from './types';

/** IFF_NO_QUEUE (veth, bridge, vxlan, dummy, macvlan set it in their setup): the default qdisc is noqueue. */
function noQueue(l: Link): boolean {
  return (
    l.kind === 'veth' ||
    l.kind === 'macvlan' ||
    l.kind === 'bridge' ||
    l.kind === 'vxlan' ||
    l.kind === 'dummy' ||
    l.kind === 'loopback' ||
    l.txqlen === 0
  );
}

/** The root qdisc dev_activate attaches (default_qdisc is pfifo_fast on the recordings' machine). */
export function defaultQdisc(l: Link): Qdisc {
  return { kind: noQueue(l) ? 'noqueue' : 'pfifo_fast', handle: 0, builtin: true };
}

export function tcOf(l: Link): NonNullable<Link['tc']> {
  l.tc ??= { root: null, ingress: null, filters: [] };
  return l.tc;
}

/** dev_activate (the device comes up): a default root qdisc unless it already has one. */
export function tcActivate(l: Link): void {
  const tc = tcOf(l);
  if (!tc.root) tc.root = defaultQdisc(l);
}

/**
 * NETDEV_UNREGISTER of `ifindex` in a namespace (`links`: its links): mirred actions redirecting
 * to it lose their target.
 */
export function tcLinkGone(links: Iterable<Link>, ifindex: number): void {
  for (const l of links) {
    for (const f of l.tc?.filters ?? []) {
      for (const a of f.actions) if (a.ifindex === ifindex) a.ifindex = 0;
    }
  }
}

netdevChain.register('up', 10, 'dev_activate', ({ link }) => tcActivate(link));
netdevChain.register('unregister', 0, 'mirred', ({ ns, link }) =>
  tcLinkGone(linksOf(ns), link.ifindex),
);
