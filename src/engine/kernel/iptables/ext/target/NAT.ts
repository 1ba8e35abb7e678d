/** libxt_NAT.c of 1.8.9: SNAT, DNAT, MASQUERADE, REDIRECT. */
import { ParamError } from '../../errors';
import { formatIp4, formatIp6, inetPton4, inetPton6 } from '../../inet';
import { xtStrtouiEnd } from '../../numparse';
import type { ExtData, Family } from '../../types';
import { bool, num } from '../common';
import type { ExtOption, Extension, ParseInput } from '../framework';
import { serviceAnyProto } from '../ports';

function portOk(i: ParseInput): boolean {
  return [6, 17, 132, 33, 1].includes(i.proto);
}

interface PortRange {
  min: number;
  max: number;
  base?: number;
}

function natParsePorts(arg: string, ok: boolean): PortRange {
  if (!ok) throw new ParamError('Need TCP, UDP, SCTP or DCCP with port specification');
  let port: number;
  let end: number;
  const r = xtStrtouiEnd(arg, 0, 65535);
  if (r === undefined) {
    const s = serviceAnyProto(arg);
    if (s === undefined) throw new ParamError(`Port \`${arg}' not valid`);
    port = s;
    end = arg.length;
  } else {
    port = r.value;
    end = r.end;
  }
  const rest = arg.slice(end);
  if (rest === '') return { min: port, max: port };
  if (rest[0] === ':') throw new ParamError('Invalid port:port syntax - use dash');
  if (rest[0] !== '-') throw new ParamError(`Garbage after port value: \`${rest}'`);
  const second = rest.slice(1);
  const r2 = xtStrtouiEnd(second, 0, 65535);
  if (r2 === undefined) throw new ParamError(`Port \`${second}' not valid`);
  if (r2.value < port) throw new ParamError(`Port range \`${second}' funky`);
  const rest2 = second.slice(r2.end);
  if (rest2 === '') return { min: port, max: r2.value };
  if (rest2[0] !== '/') throw new ParamError(`Garbage after port range: \`${rest2}'`);
  const b = xtStrtouiEnd(rest2.slice(1), 1, 65535);
  if (b === undefined || b.end !== rest2.length - 1)
    throw new ParamError(`Port \`${rest2.slice(1)}' not valid`);
  return { min: port, max: r2.value, base: b.value };
}

function natParseTo(orig: string, ok: boolean, family: Family, dropBase: boolean): ExtData {
  let start: string;
  let colonPart: string | undefined;
  const bracket = orig.indexOf('[');
  if (bracket < 0) {
    const colon = orig.indexOf(':');
    if (colon >= 0 && orig.indexOf(':', colon + 1) < 0) {
      start = orig.slice(0, colon);
      colonPart = orig.slice(colon + 1);
    } else {
      start = orig;
    }
  } else {
    const inner = orig.slice(bracket + 1);
    const close = inner.indexOf(']');
    if (close < 0 || family === 'ipv4') throw new ParamError('Invalid address format');
    start = inner.slice(0, close);
    const after = inner.slice(close + 1);
    const colon = after.indexOf(':');
    if (colon >= 0) colonPart = after.slice(colon + 1);
  }
  let ports: PortRange | undefined;
  if (colonPart !== undefined) {
    ports = natParsePorts(colonPart, ok);
    if (dropBase) ports = withoutBase(ports);
    if (start === '') return { ports: portsData(ports) };
  }
  const dash = start.indexOf('-');
  const lo = dash >= 0 ? start.slice(0, dash) : start;
  const hi = dash >= 0 ? start.slice(dash + 1) : undefined;
  const pton = (s: string): string | undefined => {
    if (family === 'ipv4') {
      const v = inetPton4(s);
      return v === undefined ? undefined : formatIp4(v);
    }
    const v = inetPton6(s);
    return v === undefined ? undefined : formatIp6(v);
  };
  const min = pton(lo);
  if (min === undefined) throw new ParamError(`Bad IP address "${lo}"`);
  let max = min;
  if (hi !== undefined) {
    const m = pton(hi);
    if (m === undefined) throw new ParamError(`Bad IP address "${hi}"`);
    max = m;
  }
  return { minAddr: min, maxAddr: max, ports: ports ? portsData(ports) : null };
}

/** SNAT, MASQUERADE and REDIRECT keep the "/base" flag but not its value (shown as /0). */
function withoutBase(p: PortRange): PortRange {
  return p.base === undefined ? p : { ...p, base: 0 };
}

function portsData(p: PortRange): ExtData {
  return p.base === undefined
    ? { min: p.min, max: p.max }
    : { min: p.min, max: p.max, base: p.base };
}

function rangeText(range: ExtData | null, family: Family): string {
  if (range === null) return '';
  const ports = range['ports'];
  const hasPorts = ports !== null && typeof ports === 'object' && !Array.isArray(ports);
  let out = '';
  if (typeof range['minAddr'] === 'string') {
    const br = family === 'ipv6' && hasPorts;
    out += br ? '[' : '';
    out += range['minAddr'];
    if (range['maxAddr'] !== range['minAddr']) out += `-${String(range['maxAddr'])}`;
    out += br ? ']' : '';
  }
  if (hasPorts) {
    const p = ports as ExtData;
    out += `:${num(p, 'min')}`;
    if (num(p, 'max') !== num(p, 'min')) out += `-${num(p, 'max')}`;
    if (typeof p['base'] === 'number') out += `/${p['base']}`;
  }
  return out;
}

function rangeOf(d: ExtData): ExtData | null {
  const r = d['range'];
  return r !== null && typeof r === 'object' && !Array.isArray(r) ? (r as ExtData) : null;
}

function portsOnlyText(d: ExtData): string {
  const p = rangeOf(d);
  if (p === null) return '';
  const base = typeof p['base'] === 'number' ? `/${p['base']}` : '';
  return (
    (num(p, 'min') === num(p, 'max') ? `${num(p, 'min')}` : `${num(p, 'min')}-${num(p, 'max')}`) +
    base
  );
}

function natTarget(name: 'SNAT' | 'DNAT'): Extension {
  const snat = name === 'SNAT';
  const opt = snat ? 'to-source' : 'to-destination';
  const options: ExtOption[] = [
    { name: opt, id: 0, hasArg: 1, mand: true },
    { name: 'random', id: 1, hasArg: 0 },
    { name: 'persistent', id: 2, hasArg: 0 },
  ];
  if (snat) options.push({ name: 'random-fully', id: 3, hasArg: 0 });
  return {
    name,
    kind: 'target',
    families: ['ipv4', 'ipv6'],
    xtopt: true,
    options,
    init: () => ({ range: null, random: false, randomFully: false, persistent: false }),
    parse(d, i) {
      switch (i.id) {
        case 0:
          return { ...d, range: natParseTo(i.arg ?? '', portOk(i), i.family, snat) };
        case 1:
          return { ...d, random: true };
        case 2:
          return { ...d, persistent: true };
        default:
          return { ...d, randomFully: true };
      }
    },
    save(d, ctx) {
      let out = ` --${opt} ${rangeText(rangeOf(d), ctx.family)}`;
      if (bool(d, 'random')) out += ' --random';
      if (bool(d, 'randomFully')) out += ' --random-fully';
      if (bool(d, 'persistent')) out += ' --persistent';
      return out;
    },
    print(d, _n, ctx) {
      let out = ` to:${rangeText(rangeOf(d), ctx.family)}`;
      if (bool(d, 'random')) out += ' random';
      if (bool(d, 'randomFully')) out += ' random-fully';
      if (bool(d, 'persistent')) out += ' persistent';
      return out;
    },
    table: 'nat',
    hooks: snat ? ['POSTROUTING', 'INPUT'] : ['PREROUTING', 'OUTPUT'],
  };
}

export const masquerade: Extension = {
  name: 'MASQUERADE',
  kind: 'target',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'to-ports', id: 0, hasArg: 1 },
    { name: 'random', id: 1, hasArg: 0 },
    { name: 'random-fully', id: 2, hasArg: 0 },
  ],
  init: () => ({ range: null, random: false, randomFully: false }),
  parse(d, i) {
    if (i.id === 0)
      return { ...d, range: portsData(withoutBase(natParsePorts(i.arg ?? '', portOk(i)))) };
    return i.id === 1 ? { ...d, random: true } : { ...d, randomFully: true };
  },
  save(d) {
    let out = rangeOf(d) ? ` --to-ports ${portsOnlyText(d)}` : '';
    if (bool(d, 'random')) out += ' --random';
    if (bool(d, 'randomFully')) out += ' --random-fully';
    return out;
  },
  print(d) {
    let out = rangeOf(d) ? ` masq ports: ${portsOnlyText(d)}` : '';
    if (bool(d, 'random')) out += ' random';
    if (bool(d, 'randomFully')) out += ' random-fully';
    return out;
  },
  table: 'nat',
  hooks: ['POSTROUTING'],
};

export const redirect: Extension = {
  name: 'REDIRECT',
  kind: 'target',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'to-ports', id: 0, hasArg: 1 },
    { name: 'random', id: 1, hasArg: 0 },
  ],
  init: () => ({ range: null, random: false }),
  parse(d, i) {
    if (i.id === 0)
      return { ...d, range: portsData(withoutBase(natParsePorts(i.arg ?? '', portOk(i)))) };
    return { ...d, random: true };
  },
  save: (d) =>
    (rangeOf(d) ? ` --to-ports ${portsOnlyText(d)}` : '') + (bool(d, 'random') ? ' --random' : ''),
  print: (d) =>
    (rangeOf(d) ? ` redir ports ${portsOnlyText(d)}` : '') + (bool(d, 'random') ? ' random' : ''),
  table: 'nat',
  hooks: ['PREROUTING', 'OUTPUT'],
};

export const snat = natTarget('SNAT');
export const dnat = natTarget('DNAT');
