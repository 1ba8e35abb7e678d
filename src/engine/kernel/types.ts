/**
 * The virtual Linux kernel of one node, as plain data: network namespaces with their links,
 * addresses, routes (main table), sysctls and iptables. Every change produces a new state (see
 * kernel.ts); a snapshot is just a reference to one of these objects.
 */
import type { Family } from '../net/ip';
import type { IptablesState } from './iptables';
import type { Table } from '../state/table';

export type OperState = 'UP' | 'DOWN' | 'UNKNOWN' | 'LOWERLAYERDOWN';
export type LinkKind = 'loopback' | 'veth' | 'bridge' | 'dummy' | 'ifb';
export type AddrScope = 'global' | 'site' | 'link' | 'host';

/** Where a link is in the life a CNI plugin gives it; views show it. */
export type LinkLife = 'created' | 'moved' | 'up' | 'down';

export interface Addr {
  family: Family;
  /** The address in Go's String() form. */
  local: string;
  prefix: number;
  scope: AddrScope;
  broadcast: string | null;
  /**
   * IPv4 IFA_F_SECONDARY: another address of the device (its primary) has the same prefix length
   * and subnet. Secondaries follow the primaries in the list; absent on primaries and IPv6.
   */
  secondary?: boolean;
}

export interface BridgeInfo {
  stp: boolean;
  vlanFiltering: boolean;
  /** True once a port was ever attached: from then on the bridge's carrier follows its ports. */
  hadPorts: boolean;
  /** ifindexes of the ports, in the order they were attached. */
  ports: number[];
}

export interface BridgePortInfo {
  hairpin: boolean;
  learning: boolean;
  flood: boolean;
  isolated: boolean;
}

export interface Link {
  ifindex: number;
  name: string;
  kind: LinkKind;
  mac: string;
  /** How the MAC was assigned (kernel addr_assign_type): a bridge whose MAC was set keeps it. */
  macAssign: 'random' | 'set' | 'perm';
  adminUp: boolean;
  mtu: number;
  txqlen: number;
  promisc: number;
  allmulti: boolean;
  /** ifindex of the master (a bridge in the same namespace). */
  master: number | null;
  /** The other end of a veth pair. */
  peer: { ns: string; ifindex: number } | null;
  /** Whether the veth peer is administratively up (mirrored here: a veth's carrier needs both ends up). */
  peerUp: boolean;
  addrs: Addr[];
  /** dev->operstate as linkwatch last computed it (UNKNOWN until a carrier event; lags behind for bridges). */
  operstate: OperState;
  /** Carrier as linkwatch last processed it: routes show "linkdown" from this. */
  lwCarrier: boolean;
  /** Virtual time at which a deferred linkwatch event was queued (bridges are not "urgent" devices). */
  lwPendingSince: number | null;
  /** IPv6 addrconf has run for the current up period (link-local address made). */
  ip6Configured: boolean;
  bridge: BridgeInfo | null;
  brport: BridgePortInfo | null;
  /** Per-interface sysctls that differ from the defaults, keyed like `ipv6.conf.accept_ra`. */
  sysctl: Record<string, string>;
  life: LinkLife;
  /** Traffic control (kernel/tc.ts); absent while the device has the builtin noop qdisc only. */
  tc?: LinkTc;
}

/** A qdisc as `tc qdisc show` lists it: a device's root qdisc or its ingress qdisc. */
export interface Qdisc {
  kind: 'noqueue' | 'pfifo_fast' | 'tbf' | 'ingress';
  /** Major handle: 0 for a default qdisc, 1 for `1:`, 0xffff for `ffff:`. */
  handle: number;
  /** Attached by the kernel when the device came up (refcnt 2), not by a user (refcnt 1 + tx queues). */
  builtin: boolean;
  /** tbf: rate in bytes/s, limit in bytes, buffer in psched ticks (as netlink carries them). */
  tbf?: { rate: number; limit: number; buffer: number };
}

/** A tc action (act_mirred is the only one modelled). */
export interface TcAction {
  kind: 'mirred';
  /** TC_ACT_STOLEN or TC_ACT_PIPE/OK as `tc` prints the verdict. */
  verdict: 'stolen' | 'pass';
  /** Index in the namespace's action table (lowest free from 1). */
  index: number;
  /** Egress redirect target; 0 once that device is gone (`to device *`). */
  ifindex: number;
}

/** A u32 filter matching everything (`match 00000000/00000000 at 0`) with a class id and actions. */
export interface TcFilter {
  kind: 'u32';
  /** Major handle of the qdisc it hangs on (0xffff: the ingress qdisc). */
  parent: number;
  pref: number;
  /** flowid major:minor. */
  classid: [number, number];
  actions: TcAction[];
}

export interface LinkTc {
  /** The root qdisc; null: the builtin noop qdisc (the device has not been up since). */
  root: Qdisc | null;
  ingress: Qdisc | null;
  /** Filters on the ingress qdisc, in the order they were added. */
  filters: TcFilter[];
}

export type RouteOrigin = 'connected' | 'addrconf' | 'user';

export interface Route {
  family: Family;
  /** Network address in String() form (0.0.0.0 / :: for default). */
  dst: string;
  prefix: number;
  dev: number;
  gateway: string | null;
  protocol: 'kernel' | 'boot' | 'static';
  scope: 'universe' | 'link' | 'host';
  prefsrc: string | null;
  metric: number;
  origin: RouteOrigin;
}

export interface Netns {
  id: string;
  /** nsfs inode number, as `ls -i` / `ip netns identify` would show. */
  inode: number;
  /** Links by ifindex (integer keys: iteration is in ifindex order). */
  links: Record<number, Link>;
  /** ifindex by name. */
  names: Record<string, number>;
  /** Next ifindex to try (the kernel allocates them cyclically per namespace). */
  nextIfindex: number;
  routes: Route[];
  /** Global sysctls that differ from the defaults. */
  sysctl: Record<string, string>;
  iptables: IptablesState;
  /**
   * Processes inside the namespace (e.g. a pod's pause container): it lives on while one is
   * there, even once no mount refers to it.
   */
  holders?: string[];
}

export interface KernelState {
  /** Namespaces by id, in creation order (a table: state/table.ts). */
  netns: Table<Netns>;
  /** Bind mounts of namespaces: path -> netns id (e.g. /var/run/netns/cni-...). */
  mounts: Record<string, string>;
  root: string;
  nextInode: number;
  /** Virtual time of the current operation (µs), for linkwatch's deferral. */
  now: number;
  /** Links with a deferred linkwatch event ("<netns id>/<ifindex>"). */
  lwPending: string[];
}
