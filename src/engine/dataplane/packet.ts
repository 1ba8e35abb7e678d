/** A packet as the walk carries it: the headers that decide its way, and nothing else. */

export type Proto = 'icmp' | 'tcp' | 'udp' | 'icmpv6';

export type IcmpKind =
  | 'echo-request'
  | 'echo-reply'
  | 'frag-needed'
  | 'time-exceeded'
  | 'port-unreachable'
  | 'host-unreachable';

export interface Packet {
  family: 4 | 6;
  src: string;
  dst: string;
  proto: Proto;
  /** tcp/udp source port; ICMP echo: the identifier. */
  sport: number;
  /** tcp/udp destination port; ICMP: 0. */
  dport: number;
  icmp?: IcmpKind;
  /** ICMP echo: the sequence number (icmp_seq). */
  icmpSeq?: number;
  tcp?: 'SYN' | 'SYN-ACK' | 'RST' | 'ACK' | 'FIN';
  ttl: number;
  /** Total length of the IP packet in bytes. */
  len: number;
  /** Don't Fragment (ping sets it by default: path MTU discovery). */
  df: boolean;
  /** skb->mark. */
  mark: number;
  /** A VXLAN datagram: the packet it carries, and its VNI. */
  inner?: Packet;
  vni?: number;
  /** ICMP errors: the header of the packet they quote (what conntrack relates them by). */
  embedded?: { proto: Proto; src: string; dst: string; sport: number; dport: number };
}

/** The one-line text of a packet, as tcpdump would summarise it. */
export function packetText(p: Packet): string {
  const ports = p.proto === 'tcp' || p.proto === 'udp';
  const from = ports ? `${p.src}.${p.sport}` : p.src;
  const to = ports ? `${p.dst}.${p.dport}` : p.dst;
  switch (p.proto) {
    case 'icmp':
    case 'icmpv6':
      if (p.icmp === 'time-exceeded')
        return `${from} > ${to}: ICMP time exceeded in-transit, length ${Math.max(0, p.len - 20)}`;
      if (p.icmp === 'port-unreachable' && p.embedded)
        return `${from} > ${to}: ICMP ${p.embedded.dst} ${p.embedded.proto} port ${p.embedded.dport} unreachable, length ${Math.max(0, p.len - 20)}`;
      return `${from} > ${to}: ICMP ${p.icmp === 'echo-request' ? 'echo request' : p.icmp === 'echo-reply' ? 'echo reply' : (p.icmp ?? '')}, id ${p.sport}, seq ${p.icmpSeq ?? 1}, length ${Math.max(0, p.len - 20)}`;
    case 'tcp':
      return `${from} > ${to}: Flags [${p.tcp === 'SYN' ? 'S' : p.tcp === 'SYN-ACK' ? 'S.' : p.tcp === 'RST' ? 'R.' : p.tcp === 'FIN' ? 'F.' : '.'}], length 0`;
    default:
      // tcpdump decodes UDP 8472 (the port Linux and flannel use for VXLAN) as OTV, 4789 as
      // VXLAN; the frame inside follows on its own line.
      if (p.inner && p.vni !== undefined && (p.dport === 8472 || p.dport === 4789))
        return `${from} > ${to}: ${p.dport === 8472 ? `OTV, flags [I] (0x08), overlay 0, instance ${p.vni}` : `VXLAN, flags [I] (0x08), vni ${p.vni}`}\nIP ${packetText(p.inner)}`;
      return `${from} > ${to}: UDP, length ${Math.max(0, p.len - 28)}`;
  }
}
