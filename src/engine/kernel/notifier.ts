/**
 * The kernel's notifier chains (include/linux/notifier.h). A subsystem that must react to another
 * one's change registers a handler on a chain, instead of being called by it: the device core
 * announces that a device came up, went down, changed its carrier or went away, and routing,
 * addresses and traffic control each do their part. So the files form a stack (device core at the
 * bottom) with no import cycle, as Linux's netdevice notifiers keep net/core free of net/ipv4.
 *
 * Handlers run in order of priority (higher first, then by name), whatever the import order.
 * The chains are sealed by kernel.ts once every subsystem has registered; calling a chain before
 * that throws, so that code which imports a part of the kernel without the whole cannot run with
 * a subsystem missing.
 */
import type { KernelState, Link, Netns } from './types';

interface Handler<E extends string, I> {
  event: E;
  priority: number;
  name: string;
  fn: (info: I) => void;
}

let sealed = false;

export class NotifierChain<E extends string, I> {
  private handlers: Array<Handler<E, I>> = [];

  constructor(readonly name: string) {}

  /** Registers (or, under the same name, replaces) a handler for `event`. */
  register(event: E, priority: number, name: string, fn: (info: I) => void): void {
    this.handlers = this.handlers.filter((h) => !(h.event === event && h.name === name));
    this.handlers.push({ event, priority, name, fn });
    this.handlers.sort((a, b) => b.priority - a.priority || (a.name < b.name ? -1 : 1));
  }

  /** Runs every handler of `event`, in order. */
  call(event: E, info: I): void {
    if (!sealed) throw new Error(`kernel: ${this.name} called before kernel.ts set it up`);
    for (const h of this.handlers) if (h.event === event) h.fn(info);
  }
}

/** Marks the chains complete (kernel.ts, after importing every subsystem). */
export function sealChains(): void {
  sealed = true;
}

/**
 * NETDEV_UP (the device was set up), NETDEV_DOWN (set down), NETDEV_CHANGE (linkwatch processed
 * a carrier or operstate change, or the device may need addrconf), NETDEV_UNREGISTER (the device
 * left the namespace: deleted, or moved to another one; it is no longer in `ns.links`).
 */
export type NetdevEvent = 'up' | 'down' | 'change' | 'unregister';
export interface NetdevInfo {
  k: KernelState;
  ns: Netns;
  link: Link;
}
export const netdevChain = new NotifierChain<NetdevEvent, NetdevInfo>('netdev chain');

/** A per-device sysctl was written (`key` as `ipv6.conf.disable_ipv6`): its owner applies it. */
export interface DevSysctlInfo extends NetdevInfo {
  key: string;
  value: string;
}
export const devSysctlChain = new NotifierChain<'write', DevSysctlInfo>('device sysctl chain');
