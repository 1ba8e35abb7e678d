/** libip6t_icmp6.c */
import { icmpExt, type IcmpName } from './icmp';

const ICMP6_CODES: readonly IcmpName[] = [
  ['destination-unreachable', 1, 0, 0xff],
  ['no-route', 1, 0, 0],
  ['communication-prohibited', 1, 1, 1],
  ['beyond-scope', 1, 2, 2],
  ['address-unreachable', 1, 3, 3],
  ['port-unreachable', 1, 4, 4],
  ['failed-policy', 1, 5, 5],
  ['reject-route', 1, 6, 6],
  ['packet-too-big', 2, 0, 0xff],
  ['time-exceeded', 3, 0, 0xff],
  ['ttl-exceeded', 3, 0, 0xff],
  ['ttl-zero-during-transit', 3, 0, 0],
  ['ttl-zero-during-reassembly', 3, 1, 1],
  ['parameter-problem', 4, 0, 0xff],
  ['bad-header', 4, 0, 0],
  ['unknown-header-type', 4, 1, 1],
  ['unknown-option', 4, 2, 2],
  ['echo-request', 128, 0, 0xff],
  ['ping', 128, 0, 0xff],
  ['echo-reply', 129, 0, 0xff],
  ['pong', 129, 0, 0xff],
  ['mld-listener-query', 130, 0, 0xff],
  ['mld-listener-report', 131, 0, 0xff],
  ['mld-listener-done', 132, 0, 0xff],
  ['mld-listener-reduction', 132, 0, 0xff],
  ['router-solicitation', 133, 0, 0xff],
  ['router-advertisement', 134, 0, 0xff],
  ['neighbour-solicitation', 135, 0, 0xff],
  ['neighbor-solicitation', 135, 0, 0xff],
  ['neighbour-advertisement', 136, 0, 0xff],
  ['neighbor-advertisement', 136, 0, 0xff],
  ['redirect', 137, 0, 0xff],
];

export const icmp6 = icmpExt(true, ICMP6_CODES);
