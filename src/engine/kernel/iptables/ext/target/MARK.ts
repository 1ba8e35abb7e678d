/** libxt_MARK.c (revision 2) */
import { ParamError } from '../../errors';
import { hex32 } from '../../numparse';
import { num, parseMark } from '../common';
import type { Extension } from '../framework';

export const markTarget: Extension = {
  name: 'MARK',
  kind: 'target',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'set-xmark', id: 4, hasArg: 1, excl: [0, 1, 2, 3, 4] },
    { name: 'set-mark', id: 0, hasArg: 1, excl: [0, 1, 2, 3, 4] },
    { name: 'and-mark', id: 1, hasArg: 1, excl: [0, 1, 2, 3, 4] },
    { name: 'or-mark', id: 2, hasArg: 1, excl: [0, 1, 2, 3, 4] },
    { name: 'xor-mark', id: 3, hasArg: 1, excl: [0, 1, 2, 3, 4] },
  ],
  init: () => ({ mark: 0, mask: 0 }),
  parse(_d, i) {
    const name = ['set-mark', 'and-mark', 'or-mark', 'xor-mark', 'set-xmark'][i.id] ?? '';
    const arg = i.arg ?? '';
    switch (i.id) {
      case 4: {
        const [m, k] = parseMark('MARK', name, arg, true);
        return { mark: m, mask: k };
      }
      case 0: {
        const [m, k] = parseMark('MARK', name, arg, true);
        return { mark: m, mask: (m | k) >>> 0 };
      }
      case 1: {
        const [v] = parseMark('MARK', name, arg, false);
        return { mark: 0, mask: ~v >>> 0 };
      }
      case 2: {
        const [v] = parseMark('MARK', name, arg, false);
        return { mark: v, mask: v };
      }
      default: {
        const [v] = parseMark('MARK', name, arg, false);
        return { mark: v, mask: 0 };
      }
    }
  },
  finalCheck(_d, seen) {
    if (seen === 0)
      throw new ParamError(
        'MARK: One of the --set-xmark, --{and,or,xor,set}-mark options is required',
      );
  },
  save: (d) => ` --set-xmark ${hex32(num(d, 'mark'))}/${hex32(num(d, 'mask'))}`,
  print(d) {
    const m = num(d, 'mark');
    const k = num(d, 'mask');
    if (m === 0) return ` MARK and ${hex32(~k >>> 0)}`;
    if (m === k) return ` MARK or ${hex32(m)}`;
    if (k === 0) return ` MARK xor ${hex32(m)}`;
    if (k === 0xffffffff) return ` MARK set ${hex32(m)}`;
    return ` MARK xset ${hex32(m)}/${hex32(k)}`;
  },
};
