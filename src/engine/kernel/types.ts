/**
 * The virtual Linux kernel of one node, as plain data: network namespaces with their links,
 * addresses, routes (main table), sysctls and iptables. Every change produces a new state (see
 * kernel.ts); a snapshot is just a reference to one of these objects.
 */
import type { Family } from '../net/ip';
import type { IptablesState } from './iptables';
import type { Table } from '../state/table';

export type OperState = 'UP' | 'DOWN' | 'UNKNOWN' | 'LOWERLAYERDOWN';
/**
 * `ether`: a node's physical NIC (eth0), wired to an underlay segment joining the nodes; `vxlan`:
 * a VXLAN tunnel device (flannel.1); `macvlan`: a device stacked on a lower device (its master),
 * often in another namespace.
 */
export type LinkKind =
  'loopback' | 'veth' | 'bridge' | 'dummy' | 'ifb' | 'ether' | 'vxlan' | 'macvlan';

/** IFLA_MACVLAN_MODE as iproute2 names it. */
export type MacvlanMode = 'private' | 'vepa' | 'bridge' | 'passthru';

export interface MacvlanInfo {
  mode: MacvlanMode;
  /** The lower device (IFLA_LINK), which may be in another namespace. */
  lower: { ns: string; ifindex: number };
}

/**
 * The macvlan_port of a lower device (drivers/net/macvlan.c): its macvlans, and whether they hold
 * one promiscuity count on it (a passthru macvlan that is up, or the unicast address of an up
 * macvlan on a device without unicast filtering: veth has none). Absent without macvlans.
 */
export interface MacvlanPort {
  vlans: Array<{ ns: string; ifindex: number }>;
  promisc: boolean;
}
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
  /** IPv6 IFA_F_NODAD: added with `nodad`, so no duplicate address detection runs. */
  nodad?: boolean;
  /**
   * IPv6 duplicate address detection: the virtual time (µs) at which it ends, or -1 while it
   * waits for the device to be ready (up, with a carrier). Until then the address is tentative
   * (IFA_F_TENTATIVE): `ip addr` says so, and it cannot be a route's preferred source. Absent: no
   * DAD (IPv4, `nodad`, accept_dad 0, the loopback device).
   */
  dadUntil?: number;
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
  /** `ether` links: the L2 segment (the wire between nodes) the NIC is plugged into. */
  segment?: string;
  /** `vxlan` links: VNI, UDP port, local address and underlay device (ifindex). */
  vxlan?: VxlanInfo;
  /** Packet and byte counters (`ip -s link`); absent until a packet crossed the device. */
  stats?: LinkStats;
  /** `macvlan` links: mode and lower device. */
  macvlan?: MacvlanInfo;
  /** A lower device with macvlans on it. */
  macvlanPort?: MacvlanPort;
}

export interface VxlanInfo {
  id: number;
  port: number;
  local: string | null;
  dev: number | null;
  learning: boolean;
}

/** struct rtnl_link_stats64, the fields `ip -s link` prints. */
export interface LinkStats {
  rxPackets: number;
  rxBytes: number;
  rxDropped: number;
  txPackets: number;
  txBytes: number;
  txDropped: number;
}

/** A neighbour (ARP / NDP) entry as `ip neigh` lists it. */
export interface NeighEntry {
  ip: string;
  dev: number;
  /** null: resolution failed (FAILED / INCOMPLETE). */
  mac: string | null;
  state: 'REACHABLE' | 'STALE' | 'FAILED' | 'PERMANENT';
}

/**
 * A forwarding database entry (`bridge fdb`): on a bridge, a MAC learned on a port; on a vxlan
 * device, a MAC reached through a remote VTEP (`dst`).
 */
export interface FdbEntry {
  mac: string;
  /** The port (bridge) or the vxlan device the entry is on. */
  dev: number;
  /** The bridge the port belongs to; null for a vxlan device's own entries. */
  master: number | null;
  /** vxlan: the remote VTEP's underlay address. */
  dst?: string;
  /** Learned from traffic (aging) or added by a person or a daemon (permanent). */
  permanent: boolean;
}

/** The tuple of one direction of a connection. */
export interface CtTuple {
  src: string;
  dst: string;
  /** tcp/udp ports; ICMP: the echo id in `sport`, 0 in `dport`. */
  sport: number;
  dport: number;
}

/** A conntrack entry (`conntrack -L`). */
export interface CtEntry {
  proto: 'icmp' | 'tcp' | 'udp' | 'icmpv6';
  orig: CtTuple;
  reply: CtTuple;
  /** A reply was seen (ESTABLISHED; `[UNREPLIED]` until then). */
  replied: boolean;
  /** tcp: the state conntrack -L shows. */
  tcpState?: string;
  /** tcp: the connection saw the handshake complete (`[ASSURED]`). */
  assured?: boolean;
  mark: number;
  /** Seconds left, as listed. */
  timeout: number;
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
  /** RTNH_F_ONLINK: the gateway is taken to be on the device, whatever its subnets. */
  onlink?: boolean;
}

export interface Netns {
  id: string;
  /** nsfs inode number, as `ls -i` / `ip netns identify` would show. */
  inode: number;
  /** Links by ifindex (integer keys: iteration is in ifindex order). */
  links: Record<number, Link>;
  /**
   * The IPv4 main (and local) routing tables exist: created by the first IPv4 route request or
   * IPv4 address (even on a down device), never removed. Until then a dump of the main table
   * fails ("ipv4: FIB table does not exist").
   */
  fib4?: boolean;
  /**
   * ifindex by name, in up to 16 chunks by a hash of the name (device.ts `nameChunk`): adding or
   * renaming a link in a namespace of many (the root's veths, one per pod) copies one chunk of
   * about n/16 names, not an index of all of them (issue 13). Read it through device.ts.
   */
  names: Record<number, Record<string, number>>;
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
  /** Neighbour table (ARP and NDP); absent until a packet was resolved. */
  neigh?: NeighEntry[];
  /** Forwarding databases of the bridges and vxlan devices of this namespace. */
  fdb?: FdbEntry[];
  /** The connection tracking table. */
  conntrack?: CtEntry[];
  /** Listening sockets (`nc -l`): what each answers a connection with. */
  listeners?: Listener[];
}

/** A listening TCP socket and the bytes it sends to whoever connects (what was piped to nc). */
export interface Listener {
  proto: 'tcp';
  port: number;
  response: string;
}

export interface KernelState {
  /** Namespaces by id, in creation order (a table: state/table.ts). */
  netns: Table<Netns>;
  /**
   * Bind mounts of namespaces: path -> netns id (e.g. /var/run/netns/cni-...), in mount order (a
   * table, so that one more pod's mount costs each trace step the same at 10 pods as at 500).
   */
  mounts: Table<string>;
  root: string;
  nextInode: number;
  /** Virtual time of the current operation (µs), for linkwatch's deferral. */
  now: number;
  /** Links with a deferred linkwatch event ("<netns id>/<ifindex>"). */
  lwPending: string[];
  /**
   * Modules the model has loaded by default that were removed (`rmmod`): today only
   * `br_netfilter`, whose /proc/sys/net/bridge keys exist only while it is loaded. Absent: all
   * loaded.
   */
  unloaded?: string[];
}
