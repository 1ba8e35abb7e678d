/** libipt_REJECT.c and libip6t_REJECT.c */
import { ParamError } from '../../errors';
import { str } from '../common';
import type { Extension } from '../framework';

const REJECT4: readonly (readonly [string, string])[] = [
  ['icmp-net-unreachable', 'net-unreach'],
  ['icmp-host-unreachable', 'host-unreach'],
  ['icmp-proto-unreachable', 'proto-unreach'],
  ['icmp-port-unreachable', 'port-unreach'],
  ['icmp-net-prohibited', 'net-prohib'],
  ['icmp-host-prohibited', 'host-prohib'],
  ['tcp-reset', 'tcp-rst'],
  ['icmp-admin-prohibited', 'admin-prohib'],
];

const REJECT6: readonly (readonly [string, string])[] = [
  ['icmp6-no-route', 'no-route'],
  ['icmp6-adm-prohibited', 'adm-prohibited'],
  ['icmp6-addr-unreachable', 'addr-unreach'],
  ['icmp6-port-unreachable', 'port-unreach'],
  ['tcp-reset', 'tcp-reset'],
  ['icmp6-policy-fail', 'policy-fail'],
  ['icmp6-reject-route', 'reject-route'],
];

function rejectTarget(v6: boolean): Extension {
  const table = v6 ? REJECT6 : REJECT4;
  return {
    name: 'REJECT',
    kind: 'target',
    families: [v6 ? 'ipv6' : 'ipv4'],
    xtopt: true,
    options: [{ name: 'reject-with', id: 0, hasArg: 1 }],
    init: () => ({ with: v6 ? 'icmp6-port-unreachable' : 'icmp-port-unreachable' }),
    parse(_d, i) {
      const arg = i.arg ?? '';
      const starts = (full: string): boolean =>
        full.slice(0, arg.length).toLowerCase() === arg.toLowerCase() && arg.length <= full.length;
      for (const [name, alias] of table) if (starts(name) || starts(alias)) return { with: name };
      if (starts('echo-reply') || starts('echoreply'))
        i.warn('--reject-with echo-reply no longer supported\n');
      throw new ParamError(`unknown reject type "${arg}"`);
    },
    save: (d) => ` --reject-with ${str(d, 'with')}`,
    print: (d) => ` reject-with ${str(d, 'with')}`,
    checkEntry: (d, ctx) => str(d, 'with') !== 'tcp-reset' || (ctx.proto === 6 && !ctx.protoInvert),
    table: 'filter',
    hooks: ['INPUT', 'FORWARD', 'OUTPUT'],
  };
}

export const reject4 = rejectTarget(false);
export const reject6 = rejectTarget(true);
