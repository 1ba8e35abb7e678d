/**
 * Read commands over the kernel's other tables, with the real tools' output (checked against
 * iproute2 6.1 and iptables-nft 1.8.9 in test namespaces), one file each: bridge, tc, iptables
 * (with ip6tables and the -save commands).
 */
import type { CommandSpec } from '../types';
import { bridge } from './bridge';
import { tc } from './tc';
import { iptables, iptablesSave } from './iptables';

export const NETREAD_COMMANDS: CommandSpec[] = [
  { name: 'bridge', dir: '/usr/sbin', run: bridge },
  { name: 'tc', dir: '/usr/sbin', run: tc },
  { name: 'iptables', dir: '/usr/sbin', run: iptables('ipv4') },
  { name: 'ip6tables', dir: '/usr/sbin', run: iptables('ipv6') },
  { name: 'iptables-save', dir: '/usr/sbin', run: iptablesSave('ipv4') },
  { name: 'ip6tables-save', dir: '/usr/sbin', run: iptablesSave('ipv6') },
];
