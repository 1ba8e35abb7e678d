/**
 * The virtual kernel's operations, as the rest of the engine calls them. Each function mutates a
 * draft KernelState (callers wrap it in immer's produce, so the previous state stays untouched)
 * and throws a KernelError with the errno text a real kernel returns.
 *
 * The parts, bottom up (each imports only those before it; cross-calls that would run upwards go
 * through the notifier chains of notifier.ts, as Linux's netdevice notifiers do):
 * - errors.ts, notifier.ts: errnos; the netdev and device sysctl chains;
 * - device.ts: lookups of namespaces and links, ifindex allocation;
 * - linkwatch.ts: carrier and operational state (announces NETDEV_CHANGE);
 * - sysctl.ts: /proc/sys/net, global and per device;
 * - routes.ts: the FIB (on the chain: a device going down or away takes its routes);
 * - addresses.ts: IPv4/IPv6 addresses and addrconf (on the chain: up, down, change, disable_ipv6);
 * - tc-device.ts: what traffic control does when a device comes up or goes away (on the chain);
 * - links.ts: creating, changing, moving and deleting links (calls the chain);
 * - namespaces.ts: the initial kernel, namespaces and their mounts.
 * This file imports them all, so every handler is registered, and then seals the chains.
 */
import { sealChains } from './notifier';
import './routes';
import './addresses';
import './tc-device';

export { eui64LinkLocal } from '../net/mac';
export { ipToBytes } from '../net/ip';
export {
  KERRNO_TEXT,
  KernelError,
  KernelErrorAfterChange,
  LinkNotFoundError,
  type KErrno,
} from './errors';
export {
  IFNAMSIZ_MAX,
  isTentative,
  linkByIndex,
  linkByName,
  linksOf,
  macBytes,
  nsById,
  scopeOfV6,
  ZERO_MAC,
  type RandomSource,
} from './device';
export {
  carrierOf,
  displayedOperstate,
  LINKWATCH_DELAY_US,
  linkwatch,
  portForwarding,
  settleInconsistent,
  settleKernel,
} from './linkwatch';
export {
  interfaceSysctl,
  MODULES,
  moduleLoaded,
  moduleSet,
  sysctlGet,
  sysctlKeys,
  sysctlSet,
} from './sysctl';
export {
  routeAdd,
  routeDel,
  routeLookup,
  routeMatches,
  routeNew,
  routeReplace,
  type RouteFlags,
  type RouteMatch,
  type RouteSpec,
} from './routes';
export { addrAdd, addrDel } from './addresses';
export {
  linkAdd,
  linkDel,
  linkSetAllmulti,
  linkSetDown,
  linkSetHairpin,
  linkSetMac,
  linkSetMaster,
  linkSetMtu,
  linkSetName,
  linkSetNs,
  linkSetPromisc,
  linkSetTxqlen,
  linkSetUp,
  type LinkSpec,
} from './links';
export { createNetns, destroyNetns, emptyKernel, mountNetns, unmountNetns } from './namespaces';

sealChains();
