/** libxt_mark.c (revision 1) */
import { bool, num, parseMark, printMark } from '../common';
import type { Extension } from '../framework';

export const mark: Extension = {
  name: 'mark',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [{ name: 'mark', id: 0, hasArg: 1, invert: true, mand: true }],
  init: () => ({ mark: 0, mask: 0xffffffff, invert: false }),
  parse(_d, i) {
    const [m, k] = parseMark('mark', 'mark', i.arg ?? '', true);
    return { mark: m, mask: k, invert: i.invert };
  },
  save: (d) =>
    `${bool(d, 'invert') ? ' !' : ''} --mark${printMark(num(d, 'mark'), num(d, 'mask'))}`,
  print: (d) =>
    ` mark match${bool(d, 'invert') ? ' !' : ''}${printMark(num(d, 'mark'), num(d, 'mask'))}`,
};
