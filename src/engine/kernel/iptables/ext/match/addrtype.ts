/** libxt_addrtype.c (revision 1) */
import { ParamError } from '../../errors';
import { bool, num } from '../common';
import type { Extension } from '../framework';

const RTN_NAMES = [
  'UNSPEC',
  'UNICAST',
  'LOCAL',
  'BROADCAST',
  'ANYCAST',
  'MULTICAST',
  'BLACKHOLE',
  'UNREACHABLE',
  'PROHIBIT',
  'THROW',
  'NAT',
  'XRESOLVE',
];

function parseAddrTypes(arg: string): number {
  let mask = 0;
  const one = (name: string): boolean => {
    const i = RTN_NAMES.findIndex(
      (n) =>
        n.slice(0, name.length).toLowerCase() === name.toLowerCase() && name.length <= n.length,
    );
    if (i < 0) return false;
    mask |= 1 << i;
    return true;
  };
  let rest = arg;
  let comma: number;
  while ((comma = rest.indexOf(',')) >= 0) {
    if (comma === 0 || !one(rest.slice(0, comma)))
      throw new ParamError(`addrtype: bad type \`${rest}'`);
    rest = rest.slice(comma + 1);
  }
  if (rest.length === 0 || !one(rest)) throw new ParamError(`addrtype: bad type "${rest}"`);
  return mask;
}

function addrTypeNames(mask: number): string {
  return RTN_NAMES.filter((_, i) => mask & (1 << i)).join(',');
}

export const addrtype: Extension = {
  name: 'addrtype',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'src-type', id: 0, hasArg: 1, invert: true },
    { name: 'dst-type', id: 1, hasArg: 1, invert: true },
    { name: 'limit-iface-in', id: 2, hasArg: 0, excl: [3] },
    { name: 'limit-iface-out', id: 3, hasArg: 0, excl: [2] },
  ],
  init: () => ({ src: 0, dst: 0, srcInv: false, dstInv: false, limitIn: false, limitOut: false }),
  parse(d, i) {
    switch (i.id) {
      case 0:
        return { ...d, src: parseAddrTypes(i.arg ?? ''), srcInv: i.invert };
      case 1:
        return { ...d, dst: parseAddrTypes(i.arg ?? ''), dstInv: i.invert };
      case 2:
        return { ...d, limitIn: true };
      default:
        return { ...d, limitOut: true };
    }
  },
  finalCheck(_d, seen) {
    if ((seen & 3) === 0)
      throw new ParamError('addrtype: you must specify --src-type or --dst-type');
  },
  save(d) {
    let out = '';
    if (num(d, 'src'))
      out += `${bool(d, 'srcInv') ? ' !' : ''} --src-type ${addrTypeNames(num(d, 'src'))}`;
    if (num(d, 'dst'))
      out += `${bool(d, 'dstInv') ? ' !' : ''} --dst-type ${addrTypeNames(num(d, 'dst'))}`;
    if (bool(d, 'limitIn')) out += ' --limit-iface-in';
    if (bool(d, 'limitOut')) out += ' --limit-iface-out';
    return out;
  },
  print(d) {
    let out = ' ADDRTYPE match';
    if (num(d, 'src'))
      out += ` src-type ${bool(d, 'srcInv') ? '!' : ''}${addrTypeNames(num(d, 'src'))}`;
    if (num(d, 'dst'))
      out += ` dst-type ${bool(d, 'dstInv') ? '!' : ''}${addrTypeNames(num(d, 'dst'))}`;
    if (bool(d, 'limitIn')) out += ' limit-in';
    if (bool(d, 'limitOut')) out += ' limit-out';
    return out;
  },
  checkEntry(d, ctx) {
    const h = ctx.hook;
    if (bool(d, 'limitOut') && (h === 'PREROUTING' || h === 'INPUT')) return false;
    if (bool(d, 'limitIn') && (h === 'POSTROUTING' || h === 'OUTPUT')) return false;
    if (ctx.family === 'ipv6') {
      const types = num(d, 'src') | num(d, 'dst');
      if (types & (1 << 6) || types >= 1 << 8 || types & (1 << 3)) return false;
    }
    return true;
  },
};
