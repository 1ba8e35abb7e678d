/** libxt_udp.c (xtopt, XTTYPE_PORTRC) */
import { num, pair } from '../common';
import type { Extension } from '../framework';
import { INV_DST, INV_SRC, parsePortRc, printPorts, savePortRange } from '../ports';

export const udp: Extension = {
  name: 'udp',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'source-port', id: 0, hasArg: 1, invert: true },
    { name: 'sport', id: 0, hasArg: 1, invert: true },
    { name: 'destination-port', id: 1, hasArg: 1, invert: true },
    { name: 'dport', id: 1, hasArg: 1, invert: true },
  ],
  init: () => ({ spts: [0, 0xffff], dpts: [0, 0xffff], inv: 0 }),
  parse(d, i) {
    const inv = num(d, 'inv');
    if (i.id === 0)
      return {
        ...d,
        spts: parsePortRc('udp', 'source-port', i.arg ?? ''),
        inv: i.invert ? inv | INV_SRC : inv,
      };
    return {
      ...d,
      dpts: parsePortRc('udp', 'destination-port', i.arg ?? ''),
      inv: i.invert ? inv | INV_DST : inv,
    };
  },
  save(d) {
    const [s0, s1] = pair(d, 'spts');
    const [d0, d1] = pair(d, 'dpts');
    const inv = num(d, 'inv');
    let out = '';
    if (s0 !== 0 || s1 !== 0xffff) out += savePortRange('sport', s0, s1, (inv & INV_SRC) !== 0);
    if (d0 !== 0 || d1 !== 0xffff) out += savePortRange('dport', d0, d1, (inv & INV_DST) !== 0);
    return out;
  },
  print(d, numeric) {
    const inv = num(d, 'inv');
    const [s0, s1] = pair(d, 'spts');
    const [d0, d1] = pair(d, 'dpts');
    return (
      ' udp' +
      printPorts('spt', s0, s1, (inv & INV_SRC) !== 0, 'udp', numeric) +
      printPorts('dpt', d0, d1, (inv & INV_DST) !== 0, 'udp', numeric)
    );
  },
};
