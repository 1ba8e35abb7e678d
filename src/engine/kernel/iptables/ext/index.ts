/**
 * The iptables extensions the model knows (libxt_* / libipt_* / libip6t_* of iptables 1.8.9), one
 * file each under match/ and target/ as iptables has one libxt_*.c each: how each parses its
 * options (with the exact error texts), what it prints for `-S` / iptables-save and for `-L`, and
 * which kernel checks it is subject to. This file is the registry the rule code looks them up in.
 *
 * Matches: comment, tcp, udp, sctp, dccp (ports), icmp, icmp6, multiport, mark, addrtype,
 * conntrack (--ctstate, --ctstatus), state, physdev.
 * Targets: MASQUERADE, SNAT, DNAT, REDIRECT, MARK, REJECT, LOG (ACCEPT/DROP/RETURN/QUEUE and
 * chain jumps are handled by the rule code).
 */
import { getProtoByNumber } from '../netdb';
import type { Family } from '../types';
import type { Extension } from './framework';
import { addrtype } from './match/addrtype';
import { comment } from './match/comment';
import { conntrack, state } from './match/conntrack';
import { dccp } from './match/dccp';
import { icmp } from './match/icmp';
import { icmp6 } from './match/icmp6';
import { mark } from './match/mark';
import { multiport } from './match/multiport';
import { physdev } from './match/physdev';
import { sctp } from './match/sctp';
import { tcp } from './match/tcp';
import { udp } from './match/udp';
import { log } from './target/LOG';
import { markTarget } from './target/MARK';
import { dnat, masquerade, redirect, snat } from './target/NAT';
import { reject4, reject6 } from './target/REJECT';

export { parseInterface } from './common';
export {
  type CheckCtx,
  type Extension,
  type ExtOption,
  type ParseInput,
  type RenderCtx,
  xtoptFinalCheck,
  xtoptPreParse,
} from './framework';

const MATCHES: readonly Extension[] = [
  comment,
  tcp,
  udp,
  sctp,
  dccp,
  icmp,
  icmp6,
  multiport,
  mark,
  addrtype,
  conntrack,
  state,
  physdev,
];

const TARGETS: readonly Extension[] = [
  masquerade,
  snat,
  dnat,
  redirect,
  markTarget,
  reject4,
  reject6,
  log,
];

export function findMatch(name: string, family: Family): Extension | undefined {
  const n = name === 'icmpv6' || name === 'ipv6-icmp' ? 'icmp6' : name;
  return MATCHES.find((m) => m.name === n && m.families.includes(family));
}

export function findTarget(name: string, family: Family): Extension | undefined {
  return TARGETS.find((t) => t.name === name && t.families.includes(family));
}

/** Extensions installed on a Debian bookworm node (libxt_*.so & co) that the model lacks. */
const OTHER_MATCHES = [
  'ah',
  'bpf',
  'cgroup',
  'cluster',
  'connbytes',
  'connlabel',
  'connlimit',
  'connmark',
  'cpu',
  'devgroup',
  'dscp',
  'ecn',
  'esp',
  'hashlimit',
  'helper',
  'ipcomp',
  'iprange',
  'ipvs',
  'length',
  'limit',
  'mac',
  'nfacct',
  'osf',
  'owner',
  'pkttype',
  'policy',
  'quota',
  'rateest',
  'recent',
  'rpfilter',
  'set',
  'socket',
  'statistic',
  'string',
  'tcpmss',
  'time',
  'tos',
  'u32',
  'realm',
  'ttl',
  'dst',
  'eui64',
  'frag',
  'hbh',
  'hl',
  'ipv6header',
  'mh',
  'rt',
  'srh',
];
const OTHER_TARGETS_BOTH = [
  'AUDIT',
  'CHECKSUM',
  'CLASSIFY',
  'CONNMARK',
  'CONNSECMARK',
  'CT',
  'DSCP',
  'HMARK',
  'IDLETIMER',
  'LED',
  'NETMAP',
  'NFLOG',
  'NFQUEUE',
  'NOTRACK',
  'RATEEST',
  'SECMARK',
  'SET',
  'SYNPROXY',
  'TCPMSS',
  'TCPOPTSTRIP',
  'TEE',
  'TOS',
  'TPROXY',
  'TRACE',
];
const OTHER_TARGETS_4 = ['CLUSTERIP', 'ECN', 'TTL', 'ULOG'];
const OTHER_TARGETS_6 = ['DNPT', 'HL', 'SNPT'];

export function isUnmodelledMatch(name: string): boolean {
  return OTHER_MATCHES.includes(name);
}

export function isUnmodelledTarget(name: string, family: Family): boolean {
  return (
    OTHER_TARGETS_BOTH.includes(name) ||
    (family === 'ipv4' ? OTHER_TARGETS_4 : OTHER_TARGETS_6).includes(name)
  );
}

/** Whether `name` is a target extension (for `-N` "may not clash with target name"). */
export function isTargetName(name: string, family: Family): boolean {
  return (
    ['', 'ACCEPT', 'DROP', 'QUEUE', 'RETURN', 'standard'].includes(name) ||
    findTarget(name, family) !== undefined ||
    isUnmodelledTarget(name, family)
  );
}

/** The matches a protocol loads implicitly (`-p tcp --dport …`). */
export function protoMatchName(num: number, family: Family): string | undefined {
  const name = getProtoByNumber(num) ?? (num === 58 ? 'ipv6-icmp' : undefined);
  if (name === undefined) return undefined;
  return findMatch(name, family)?.name;
}
