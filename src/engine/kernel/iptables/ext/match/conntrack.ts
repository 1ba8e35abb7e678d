/**
 * libxt_conntrack.c: conntrack (revision 3: --ctstate and --ctstatus) and state, which iptables
 * also implements in this file.
 */
import { ParamError } from '../../errors';
import { bool, num } from '../common';
import type { Extension } from '../framework';

const CT_STATES: readonly (readonly [string, number])[] = [
  ['INVALID', 1],
  ['NEW', 8],
  ['RELATED', 4],
  ['ESTABLISHED', 2],
  ['UNTRACKED', 64],
  ['SNAT', 128],
  ['DNAT', 256],
];
const CT_STATE_PRINT = ['INVALID', 'NEW', 'RELATED', 'ESTABLISHED', 'UNTRACKED', 'SNAT', 'DNAT'];
const CT_STATUS: readonly (readonly [string, number])[] = [
  ['NONE', 0],
  ['EXPECTED', 1],
  ['SEEN_REPLY', 2],
  ['ASSURED', 4],
  ['CONFIRMED', 8],
];

function prefixIs(word: string, full: string): boolean {
  return (
    full.slice(0, word.length).toLowerCase() === word.toLowerCase() && word.length <= full.length
  );
}

function parseList(
  arg: string,
  names: readonly (readonly [string, number])[],
  error: (s: string) => string,
  emptyLast?: string,
): number {
  let v = 0;
  const one = (w: string): boolean => {
    const hit = names.find(([n]) => prefixIs(w, n));
    if (!hit) return false;
    v |= hit[1];
    return true;
  };
  let rest = arg;
  let comma: number;
  while ((comma = rest.indexOf(',')) >= 0) {
    if (comma === 0 || !one(rest.slice(0, comma))) throw new ParamError(error(rest));
    rest = rest.slice(comma + 1);
  }
  if (rest === '' && emptyLast !== undefined) throw new ParamError(emptyLast);
  if (rest === '' || !one(rest)) throw new ParamError(error(rest));
  return v;
}

function stateNames(mask: number): string {
  return CT_STATE_PRINT.filter((n) => mask & CT_STATES.find(([m]) => m === n)![1]).join(',');
}

function statusNames(mask: number): string {
  if (mask === 0) return 'NONE';
  return ['EXPECTED', 'SEEN_REPLY', 'ASSURED', 'CONFIRMED']
    .filter((n) => mask & CT_STATUS.find(([m]) => m === n)![1])
    .join(',');
}

export const conntrack: Extension = {
  name: 'conntrack',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'ctstate', id: 0, hasArg: 1, invert: true },
    { name: 'ctstatus', id: 1, hasArg: 1, invert: true },
  ],
  init: () => ({ state: null, stateInv: false, status: null, statusInv: false }),
  parse(d, i) {
    if (i.id === 0)
      return {
        ...d,
        state: parseList(i.arg ?? '', CT_STATES, (s) => `Bad ctstate "${s}"`),
        stateInv: i.invert,
      };
    return {
      ...d,
      status: parseList(i.arg ?? '', CT_STATUS, (s) => `Bad ctstatus "${s}"`),
      statusInv: i.invert,
    };
  },
  finalCheck(_d, seen) {
    if (seen === 0) throw new ParamError('conntrack: At least one option is required');
  },
  save(d) {
    let out = '';
    if (d['state'] !== null)
      out += `${bool(d, 'stateInv') ? ' !' : ''} --ctstate ${stateNames(num(d, 'state'))}`;
    if (d['status'] !== null)
      out += `${bool(d, 'statusInv') ? ' !' : ''} --ctstatus ${statusNames(num(d, 'status'))}`;
    return out;
  },
  print(d) {
    let out = '';
    if (d['state'] !== null)
      out += `${bool(d, 'stateInv') ? ' !' : ''} ctstate ${stateNames(num(d, 'state'))}`;
    if (d['status'] !== null)
      out += `${bool(d, 'statusInv') ? ' !' : ''} ctstatus ${statusNames(num(d, 'status'))}`;
    return out;
  },
};

const STATE_NAMES: readonly (readonly [string, number])[] = [
  ['INVALID', 1],
  ['NEW', 8],
  ['ESTABLISHED', 2],
  ['RELATED', 4],
  ['UNTRACKED', 64],
];

export const state: Extension = {
  name: 'state',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [{ name: 'state', id: 0, hasArg: 1, invert: true, mand: true }],
  init: () => ({ state: 0, invert: false }),
  parse: (_d, i) => ({
    state: parseList(
      i.arg ?? '',
      STATE_NAMES,
      (s) => `Bad state "${s}"`,
      '"--state" requires a list of states with no spaces, e.g. ESTABLISHED,RELATED',
    ),
    invert: i.invert,
  }),
  save: (d) => `${bool(d, 'invert') ? ' !' : ''} --state ${stateNames(num(d, 'state'))}`,
  print: (d) => `${bool(d, 'invert') ? ' !' : ''} state ${stateNames(num(d, 'state'))}`,
};
