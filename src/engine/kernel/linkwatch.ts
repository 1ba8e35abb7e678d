/**
 * Carrier and operational state (netif_carrier_ok, linkwatch's rfc2863 policy): what a change to a
 * link does to its own state and its neighbours', announced as NETDEV_CHANGE so that addrconf
 * configures a device that came up.
 */
import { latest } from '../state/draft';
import { tget } from '../state/table';
import type { Touched } from './device';
import { netdevChain } from './notifier';
import type { KernelState, Link, Netns, OperState } from './types';

/** netif_carrier_ok: the carrier the (virtual) driver reports right now, whatever the admin state. */
export function carrierOf(k: KernelState, ns: Netns, l: Link): boolean {
  switch (l.kind) {
    case 'veth':
      return l.adminUp && l.peerUp;
    case 'macvlan': {
      // The lower device's carrier (netif_stacked_transfer_operstate), wherever it is.
      const lns = l.macvlan ? tget(k.netns, l.macvlan.lower.ns) : undefined;
      const lower = l.macvlan ? lns?.links[l.macvlan.lower.ifindex] : undefined;
      return !!(lns && lower) && l.adminUp && lower.adminUp && carrierOf(k, lns, lower);
    }
    case 'bridge': {
      // A bridge has carrier from birth; once it had ports, only while a port forwards.
      if (!l.bridge?.hadPorts) return true;
      if (!l.adminUp) return false;
      // Only reads, through no draft: a bridge has a port per pod (state/draft.ts).
      const links = latest(latest(ns).links);
      for (const i of latest(latest(l.bridge).ports)) {
        const p = latest(links[i]);
        if (p && p.adminUp && portCarrier(p)) return true;
      }
      return false;
    }
    default:
      return true;
  }
}

function portCarrier(p: Link): boolean {
  return p.kind === 'veth' ? p.adminUp && p.peerUp : true;
}

/** A bridge port forwards (STP off) when it and its bridge are up and it has carrier. */
export function portForwarding(k: KernelState, ns: Netns, port: Link, br: Link): boolean {
  return br.adminUp && port.adminUp && carrierOf(k, ns, port);
}

/** How long linkwatch may hold back an event of a non-urgent device (a bridge), in µs of virtual time. */
export const LINKWATCH_DELAY_US = 1000;

/**
 * What linkwatch's rfc2863 policy (default_operstate, Linux 6.12+) computes for a device from its
 * carrier. Without carrier: DOWN when the device is its own iflink; otherwise the device whose
 * ifindex is the iflink *in this device's namespace* is looked up (for a veth the iflink is its
 * peer's ifindex, so this is often an unrelated device such as cni0), and the result is
 * LOWERLAYERDOWN only if that device is not operationally up ("only report LOWERLAYERDOWN if
 * iflink is actually down"). Checked on a 6.18 kernel: a host veth whose pod end goes down
 * shows DOWN while cni0 (ifindex 2) is up, LOWERLAYERDOWN when cni0 is already down.
 */
function operFromCarrier(ns: Netns, l: Link, carrier: boolean): OperState {
  if (carrier) return 'UP';
  const iflink = l.peer ? l.peer.ifindex : (l.macvlan?.lower.ifindex ?? l.ifindex);
  if (iflink === l.ifindex) return 'DOWN';
  const lower = ns.links[iflink];
  if (!lower) return 'DOWN';
  const o = displayedOperstate(lower);
  return o === 'UP' || o === 'UNKNOWN' ? 'DOWN' : 'LOWERLAYERDOWN';
}

/** Non-urgent devices (ifindex == iflink): their events wait for the next linkwatch run. */
function urgent(l: Link): boolean {
  return l.kind !== 'bridge';
}

/**
 * linkwatch: carrier changes become operational state. Events of veths (urgent devices) are
 * processed at once, and that run also handles the events deferred so far; a bridge's event
 * otherwise waits until LINKWATCH_DELAY_US of virtual time has passed (or `settleKernel`), so a
 * snapshot taken right after a bridge lost its carrier can still show the previous operstate, as
 * on a real node. Routes show "linkdown" from the processed carrier.
 */
export function linkwatch(k: KernelState, touched: Touched): void {
  const now = k.now ?? 0;
  const seen = new Set<string>();
  const items: Array<{ ns: Netns; l: Link }> = [];
  for (const [nsId, idx] of touched) {
    const key = `${nsId}/${idx}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const ns = tget(k.netns, nsId);
    const l = ns?.links[idx];
    if (ns && l) items.push({ ns, l });
  }
  let urgentRun = false;
  for (const { ns, l } of items) {
    if (!urgent(l)) continue;
    const c = carrierOf(k, ns, l);
    if (c !== l.lwCarrier) {
      l.lwCarrier = c;
      if (l.kind === 'veth' || l.kind === 'macvlan') {
        l.operstate = operFromCarrier(ns, l, c);
        urgentRun = true;
      }
    }
  }
  for (const { ns, l } of items) {
    if (!urgent(l) && l.lwPendingSince === null && carrierOf(k, ns, l) !== l.lwCarrier) {
      l.lwPendingSince = now;
      k.lwPending.push(`${ns.id}/${l.ifindex}`);
    }
    netdevChain.call('change', { k, ns, link: l });
  }
  if (k.lwPending.length === 0) return;
  const keep: string[] = [];
  for (const key of k.lwPending) {
    const [nsId, idx] = key.split('/') as [string, string];
    const ns = tget(k.netns, nsId);
    const l = ns?.links[Number(idx)];
    if (!ns || !l || l.lwPendingSince === null) continue;
    if (urgentRun || now - l.lwPendingSince >= LINKWATCH_DELAY_US) {
      processEvent(k, ns, l);
      netdevChain.call('change', { k, ns, link: l });
    } else keep.push(key);
  }
  k.lwPending = keep;
}

/**
 * linkwatch_fire_event for a bridge a port joined: br_add_if runs the port state selection,
 * which turns the bridge's carrier off and on again, so linkwatch computes its operstate even
 * when the carrier ends up as it was. Checked on a 6.18 kernel: a new bridge set up shows
 * UNKNOWN (carrier on, never an event); once an up veth with carrier joins it, UP.
 */
export function bridgePortJoined(k: KernelState, ns: Netns, br: Link): void {
  if (!br.adminUp || br.lwPendingSince !== null) return;
  br.lwPendingSince = k.now ?? 0;
  k.lwPending.push(`${ns.id}/${br.ifindex}`);
}

function processEvent(k: KernelState, ns: Netns, l: Link): void {
  const c = carrierOf(k, ns, l);
  l.lwPendingSince = null;
  l.lwCarrier = c;
  l.operstate = operFromCarrier(ns, l, c);
}

/** Time passed: linkwatch has run for every deferred event. */
export function settleKernel(k: KernelState): void {
  for (const key of k.lwPending) {
    const [nsId, idx] = key.split('/') as [string, string];
    const ns = tget(k.netns, nsId);
    const l = ns?.links[Number(idx)];
    if (ns && l && l.lwPendingSince !== null) {
      processEvent(k, ns, l);
      netdevChain.call('change', { k, ns, link: l });
    }
  }
  k.lwPending = [];
}

/**
 * Processes the deferred events whose display would contradict the carrier (operstate UP
 * without carrier, DOWN with it): what an observer who waits for consistency sees.
 */
export function settleInconsistent(k: KernelState): void {
  const keep: string[] = [];
  for (const key of k.lwPending) {
    const [nsId, idx] = key.split('/') as [string, string];
    const ns = tget(k.netns, nsId);
    const l = ns?.links[Number(idx)];
    if (!ns || !l || l.lwPendingSince === null) continue;
    const c = carrierOf(k, ns, l);
    if (l.adminUp && l.operstate !== 'UNKNOWN' && (l.operstate === 'UP') !== c) {
      processEvent(k, ns, l);
      netdevChain.call('change', { k, ns, link: l });
    } else keep.push(key);
  }
  k.lwPending = keep;
}

/** The operational state `ip link` shows. */
export function displayedOperstate(l: Link): OperState {
  return l.adminUp ? l.operstate : 'DOWN';
}

export function operUp(l: Link): boolean {
  return l.adminUp && (l.operstate === 'UP' || l.operstate === 'UNKNOWN');
}
