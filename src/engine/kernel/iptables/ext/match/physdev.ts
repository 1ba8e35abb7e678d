/** libxt_physdev.c */
import { ParamError } from '../../errors';
import type { ExtData } from '../../types';
import { num, parseInterface, str } from '../common';
import type { Extension } from '../framework';

const PHYS_IN = 1;
const PHYS_OUT = 2;
const PHYS_BRIDGED = 4;
const PHYS_ISIN = 8;
const PHYS_ISOUT = 16;

export const physdev: Extension = {
  name: 'physdev',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'physdev-in', id: 0, hasArg: 1, invert: true },
    { name: 'physdev-out', id: 1, hasArg: 1, invert: true },
    { name: 'physdev-is-in', id: 2, hasArg: 0, invert: true },
    { name: 'physdev-is-out', id: 3, hasArg: 0, invert: true },
    { name: 'physdev-is-bridged', id: 4, hasArg: 0, invert: true },
  ],
  init: () => ({ bits: 0, inv: 0, in: '', out: '' }),
  parse(d, i) {
    const bit = [PHYS_IN, PHYS_OUT, PHYS_ISIN, PHYS_ISOUT, PHYS_BRIDGED][i.id] ?? 0;
    const next = {
      ...d,
      bits: num(d, 'bits') | bit,
      inv: i.invert ? num(d, 'inv') | bit : num(d, 'inv'),
    };
    if (i.id === 0) return { ...next, in: parseInterface(i.arg ?? '', i.warn) };
    if (i.id === 1) return { ...next, out: parseInterface(i.arg ?? '', i.warn) };
    return next;
  },
  finalCheck(_d, seen) {
    if (seen === 0) throw new ParamError('PHYSDEV: no physdev option specified');
  },
  save: (d) => physdevText(d),
  print: (d) => ' PHYSDEV match' + physdevText(d),
  checkEntry(d, ctx) {
    const bits = num(d, 'bits');
    const inv = num(d, 'inv');
    return !(
      bits & (PHYS_OUT | PHYS_ISOUT) &&
      (!(bits & PHYS_BRIDGED) || inv & PHYS_BRIDGED) &&
      ctx.hook === 'OUTPUT'
    );
  },
};

function physdevText(d: ExtData): string {
  const bits = num(d, 'bits');
  const inv = num(d, 'inv');
  const n = (b: number): string => (inv & b ? ' !' : '');
  let out = '';
  if (bits & PHYS_ISIN) out += `${n(PHYS_ISIN)} --physdev-is-in`;
  if (bits & PHYS_IN) out += `${n(PHYS_IN)} --physdev-in ${str(d, 'in')}`;
  if (bits & PHYS_ISOUT) out += `${n(PHYS_ISOUT)} --physdev-is-out`;
  if (bits & PHYS_OUT) out += `${n(PHYS_OUT)} --physdev-out ${str(d, 'out')}`;
  if (bits & PHYS_BRIDGED) out += `${n(PHYS_BRIDGED)} --physdev-is-bridged`;
  return out;
}
