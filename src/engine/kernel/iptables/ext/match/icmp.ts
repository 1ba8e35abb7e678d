/** libipt_icmp.c; icmp6 (libip6t_icmp6.c) shares its code. */
import { ParamError } from '../../errors';
import { xtStrtoui } from '../../numparse';
import { bool, num, pair } from '../common';
import type { Extension } from '../framework';

/** name, type, lowest code, highest code */
export type IcmpName = readonly [string, number, number, number];

const ICMP_CODES: readonly IcmpName[] = [
  ['any', 0xff, 0, 0xff],
  ['echo-reply', 0, 0, 0xff],
  ['pong', 0, 0, 0xff],
  ['destination-unreachable', 3, 0, 0xff],
  ['network-unreachable', 3, 0, 0],
  ['host-unreachable', 3, 1, 1],
  ['protocol-unreachable', 3, 2, 2],
  ['port-unreachable', 3, 3, 3],
  ['fragmentation-needed', 3, 4, 4],
  ['source-route-failed', 3, 5, 5],
  ['network-unknown', 3, 6, 6],
  ['host-unknown', 3, 7, 7],
  ['network-prohibited', 3, 9, 9],
  ['host-prohibited', 3, 10, 10],
  ['TOS-network-unreachable', 3, 11, 11],
  ['TOS-host-unreachable', 3, 12, 12],
  ['communication-prohibited', 3, 13, 13],
  ['host-precedence-violation', 3, 14, 14],
  ['precedence-cutoff', 3, 15, 15],
  ['source-quench', 4, 0, 0xff],
  ['redirect', 5, 0, 0xff],
  ['network-redirect', 5, 0, 0],
  ['host-redirect', 5, 1, 1],
  ['TOS-network-redirect', 5, 2, 2],
  ['TOS-host-redirect', 5, 3, 3],
  ['echo-request', 8, 0, 0xff],
  ['ping', 8, 0, 0xff],
  ['router-advertisement', 9, 0, 0xff],
  ['router-solicitation', 10, 0, 0xff],
  ['time-exceeded', 11, 0, 0xff],
  ['ttl-exceeded', 11, 0, 0xff],
  ['ttl-zero-during-transit', 11, 0, 0],
  ['ttl-zero-during-reassembly', 11, 1, 1],
  ['parameter-problem', 12, 0, 0xff],
  ['ip-header-bad', 12, 0, 0],
  ['required-option-missing', 12, 1, 1],
  ['timestamp-request', 13, 0, 0xff],
  ['timestamp-reply', 14, 0, 0xff],
  ['address-mask-request', 17, 0, 0xff],
  ['address-mask-reply', 18, 0, 0xff],
];

function parseIcmpType(
  text: string,
  table: readonly IcmpName[],
  label: string,
): [number, number, number] {
  let match = -1;
  table.forEach(([name], i) => {
    if (name.slice(0, text.length).toLowerCase() === text.toLowerCase()) {
      if (match >= 0)
        throw new ParamError(
          `Ambiguous ${label} type \`${text}': \`${table[match]![0]}' or \`${name}'?`,
        );
      match = i;
    }
  });
  if (match >= 0) {
    const [, t, c0, c1] = table[match]!;
    return [t, c0, c1];
  }
  const slash = text.indexOf('/');
  const typeText = slash >= 0 ? text.slice(0, slash) : text;
  const type = xtStrtoui(typeText, 0, 255);
  if (type === undefined) throw new ParamError(`Unknown ${label} type \`${text}'`);
  if (slash < 0) return [type, 0, 0xff];
  const code = xtStrtoui(text.slice(slash + 1), 0, 255);
  if (code === undefined) throw new ParamError(`Unknown ${label} code \`${text}'`);
  return [type, code, code];
}

/** The icmp and icmp6 matches differ in names, their table and the protocol they need. */
export function icmpExt(v6: boolean, table: readonly IcmpName[]): Extension {
  const label = v6 ? 'ICMPv6' : 'ICMP';
  const opt = v6 ? 'icmpv6-type' : 'icmp-type';
  const word = v6 ? 'ipv6-icmp' : 'icmp';
  return {
    name: v6 ? 'icmp6' : 'icmp',
    kind: 'match',
    families: [v6 ? 'ipv6' : 'ipv4'],
    xtopt: true,
    options: [{ name: opt, id: 0, hasArg: 1, invert: true, mand: true }],
    init: () => ({ type: v6 ? 0 : 0xff, code: [0, 0xff], inv: false }),
    parse(d, i) {
      if (v6 && (i.arg ?? '').toLowerCase() === 'any')
        throw new ParamError(`Unknown ${label} type \`${i.arg ?? ''}'`);
      const [t, c0, c1] = parseIcmpType(i.arg ?? '', table, label);
      return { ...d, type: t, code: [c0, c1], inv: i.invert };
    },
    save(d) {
      const t = num(d, 'type');
      const [c0, c1] = pair(d, 'code');
      const inv = bool(d, 'inv') ? ' !' : '';
      if (!v6 && t === 0xff) return `${inv} --${opt} any`;
      return `${inv} --${opt} ${t}${c0 !== 0 || c1 !== 0xff ? `/${c0}` : ''}`;
    },
    print(d, numeric) {
      const t = num(d, 'type');
      const [c0, c1] = pair(d, 'code');
      const inv = bool(d, 'inv');
      if (!numeric) {
        const hit = table.find(([, tt, a, b]) => tt === t && a === c0 && b === c1);
        if (hit) return ` ${word} ${inv ? '!' : ''}${hit[0]}`;
      }
      let out = ` ${word}${inv ? ' !' : ''}type ${t}`;
      if (c0 === c1) out += ` code ${c0}`;
      else if (c0 !== 0 || c1 !== 0xff) out += ` codes ${c0}-${c1}`;
      return out;
    },
    checkEntry: (_d, ctx) => ctx.proto === (v6 ? 58 : 1) && !ctx.protoInvert,
  };
}

export const icmp = icmpExt(false, ICMP_CODES);
