/** libxt_multiport.c (revision 1) */
import { ParamError } from '../../errors';
import type { ExtData } from '../../types';
import { bool, str } from '../common';
import type { Extension } from '../framework';
import { parsePortProto, portName } from '../ports';

const MULTIPORT_PROTOS: { readonly [n: number]: string } = {
  6: 'tcp',
  17: 'udp',
  136: 'udplite',
  132: 'sctp',
  33: 'dccp',
};

export const multiport: Extension = {
  name: 'multiport',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'source-ports', id: 0, hasArg: 1, invert: true, excl: [0, 1, 2] },
    { name: 'sports', id: 0, hasArg: 1, invert: true, excl: [0, 1, 2] },
    { name: 'destination-ports', id: 1, hasArg: 1, invert: true, excl: [0, 1, 2] },
    { name: 'dports', id: 1, hasArg: 1, invert: true, excl: [0, 1, 2] },
    { name: 'ports', id: 2, hasArg: 1, invert: true, excl: [0, 1, 2] },
  ],
  init: () => ({ dir: '', ports: [], invert: false }),
  parse(d, i) {
    if (i.protoInvert)
      throw new ParamError('multiport only works with TCP, UDP, UDPLITE, SCTP and DCCP');
    const proto = MULTIPORT_PROTOS[i.proto];
    if (proto === undefined) {
      if (i.proto === 0)
        throw new ParamError(
          "multiport needs `-p tcp', `-p udp', `-p udplite', `-p sctp' or `-p dccp'",
        );
      throw new ParamError('multiport only works with TCP, UDP, UDPLITE, SCTP and DCCP');
    }
    const entries: number[][] = [];
    let count = 0;
    const items = (i.arg ?? '').split(',');
    let idx = 0;
    for (; idx < items.length && count < 15; idx++) {
      const item = items[idx]!;
      const colon = item.indexOf(':');
      if (colon >= 0) {
        if (count === 14) throw new ParamError('too many ports specified');
        const lo = parsePortProto(item.slice(0, colon), proto);
        const hi = parsePortProto(item.slice(colon + 1), proto);
        if (lo >= hi) throw new ParamError('invalid portrange specified');
        entries.push([lo, hi]);
        count += 2;
      } else {
        entries.push([parsePortProto(item, proto)]);
        count += 1;
      }
    }
    if (idx < items.length) throw new ParamError('too many ports specified');
    return { dir: ['sports', 'dports', 'ports'][i.id] ?? '', ports: entries, invert: i.invert };
  },
  finalCheck(_d, seen) {
    if (seen === 0) throw new ParamError('multiport expection an option');
  },
  save(d) {
    return `${bool(d, 'invert') ? ' !' : ''} --${str(d, 'dir')} ${portsText(d, 'tcp', true)}`;
  },
  print(d, numeric, ctx) {
    const proto = MULTIPORT_PROTOS[ctx.proto] ?? 'tcp';
    return ` multiport ${str(d, 'dir')} ${bool(d, 'invert') ? ' !' : ''}${portsText(d, proto, numeric)}`;
  },
};

function portsText(d: ExtData, proto: string, numeric: boolean): string {
  const ports = d['ports'];
  if (!Array.isArray(ports)) return '';
  return ports
    .map((e) =>
      Array.isArray(e) ? e.map((p) => portName(Number(p), proto, numeric)).join(':') : '',
    )
    .join(',');
}
