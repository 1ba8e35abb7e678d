/** libxt_tcp.c (old-style option parsing) */
import { ParamError } from '../../errors';
import { xtStrtoui } from '../../numparse';
import { num, pair } from '../common';
import type { Extension } from '../framework';
import { INV_DST, INV_SRC, parsePortRange, printPorts, savePortRange } from '../ports';

const TCP_FLAG_NAMES: readonly (readonly [string, number])[] = [
  ['FIN', 0x01],
  ['SYN', 0x02],
  ['RST', 0x04],
  ['PSH', 0x08],
  ['ACK', 0x10],
  ['URG', 0x20],
  ['ALL', 0x3f],
  ['NONE', 0],
];

function parseTcpFlagList(text: string): number {
  let v = 0;
  for (const f of text.split(',')) {
    const hit = TCP_FLAG_NAMES.find(([n]) => n.toLowerCase() === f.toLowerCase());
    if (!hit) throw new ParamError(`Unknown TCP flag \`${f}'`);
    v |= hit[1];
  }
  return v;
}

function printTcpFlags(flags: number): string {
  const names: string[] = [];
  let f = flags;
  while (f) {
    const hit = TCP_FLAG_NAMES.find(([, bit]) => (f & bit) !== 0)!;
    names.push(hit[0]);
    f &= ~hit[1];
  }
  return names.length === 0 ? 'NONE' : names.join(',');
}

// invflags bits (INV_SRC and INV_DST are shared with udp, sctp and dccp)
const INV_FLAGS = 4;
const INV_OPTION = 8;

export const tcp: Extension = {
  name: 'tcp',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: false,
  options: [
    { name: 'source-port', id: 1, hasArg: 1 },
    { name: 'sport', id: 1, hasArg: 1 },
    { name: 'destination-port', id: 2, hasArg: 1 },
    { name: 'dport', id: 2, hasArg: 1 },
    { name: 'syn', id: 3, hasArg: 0 },
    { name: 'tcp-flags', id: 4, hasArg: 1 },
    { name: 'tcp-option', id: 5, hasArg: 1 },
  ],
  init: () => ({ spts: [0, 0xffff], dpts: [0, 0xffff], option: 0, flgMask: 0, flgCmp: 0, inv: 0 }),
  parse(d, i) {
    const inv = num(d, 'inv');
    const flagsSeen = (i.seen & ((1 << 3) | (1 << 4))) !== 0;
    switch (i.id) {
      case 1:
        if (i.seen & (1 << 1)) throw new ParamError("Only one `--source-port' allowed");
        return {
          ...d,
          spts: parsePortRange(i.arg ?? '', 'tcp'),
          inv: i.invert ? inv | INV_SRC : inv,
        };
      case 2:
        if (i.seen & (1 << 2)) throw new ParamError("Only one `--destination-port' allowed");
        return {
          ...d,
          dpts: parsePortRange(i.arg ?? '', 'tcp'),
          inv: i.invert ? inv | INV_DST : inv,
        };
      case 3:
        if (flagsSeen) throw new ParamError("Only one of `--syn' or `--tcp-flags'  allowed");
        return { ...d, flgMask: 0x17, flgCmp: 0x02, inv: i.invert ? inv | INV_FLAGS : inv };
      case 4: {
        if (flagsSeen) throw new ParamError("Only one of `--syn' or `--tcp-flags'  allowed");
        const next = i.peek();
        if (next === undefined || next.startsWith('-') || next.startsWith('!'))
          throw new ParamError('--tcp-flags requires two args.');
        const mask = parseTcpFlagList(i.arg ?? '');
        const cmp = parseTcpFlagList(next);
        i.advance();
        return { ...d, flgMask: mask, flgCmp: cmp, inv: i.invert ? inv | INV_FLAGS : inv };
      }
      default: {
        if (i.seen & (1 << 5)) throw new ParamError("Only one `--tcp-option' allowed");
        const o = xtStrtoui(i.arg ?? '', 1, 255);
        if (o === undefined) throw new ParamError(`Bad TCP option "${i.arg ?? ''}"`);
        return { ...d, option: o, inv: i.invert ? inv | INV_OPTION : inv };
      }
    }
  },
  save(d) {
    const [s0, s1] = pair(d, 'spts');
    const [d0, d1] = pair(d, 'dpts');
    const inv = num(d, 'inv');
    let out = '';
    if (s0 !== 0 || s1 !== 0xffff) out += savePortRange('sport', s0, s1, (inv & INV_SRC) !== 0);
    if (d0 !== 0 || d1 !== 0xffff) out += savePortRange('dport', d0, d1, (inv & INV_DST) !== 0);
    if (num(d, 'option') || inv & INV_OPTION)
      out += `${inv & INV_OPTION ? ' !' : ''} --tcp-option ${num(d, 'option')}`;
    if (num(d, 'flgMask') || inv & INV_FLAGS)
      out += `${inv & INV_FLAGS ? ' !' : ''} --tcp-flags ${printTcpFlags(num(d, 'flgMask'))} ${printTcpFlags(num(d, 'flgCmp'))}`;
    return out;
  },
  print(d, numeric) {
    const inv = num(d, 'inv');
    const [s0, s1] = pair(d, 'spts');
    const [d0, d1] = pair(d, 'dpts');
    let out = ' tcp';
    out += printPorts('spt', s0, s1, (inv & INV_SRC) !== 0, 'tcp', numeric);
    out += printPorts('dpt', d0, d1, (inv & INV_DST) !== 0, 'tcp', numeric);
    if (num(d, 'option') || inv & INV_OPTION)
      out += ` option=${inv & INV_OPTION ? '!' : ''}${num(d, 'option')}`;
    if (num(d, 'flgMask') || inv & INV_FLAGS) {
      out += ` flags:${inv & INV_FLAGS ? '!' : ''}`;
      const m = num(d, 'flgMask');
      const c = num(d, 'flgCmp');
      out += numeric
        ? `0x${m.toString(16).toUpperCase().padStart(2, '0')}/0x${c.toString(16).toUpperCase().padStart(2, '0')}`
        : `${printTcpFlags(m)}/${printTcpFlags(c)}`;
    }
    return out;
  },
};
