/**
 * Port parsing and printing shared by tcp, udp, sctp, dccp, multiport and the NAT targets; the
 * ports-only matches sctp and dccp.
 */
import { ParamError } from '../errors';
import { getServByName, getServByPort } from '../netdb';
import { xtStrtoui } from '../numparse';
import { num, pair } from './common';
import type { Extension } from './framework';

/** xtables_parse_port(): base-0 number or getservbyname(name, proto). */
export function parsePortProto(port: string, proto: string): number {
  const n = xtStrtoui(port, 0, 65535);
  if (n !== undefined) return n;
  const s = getServByName(port, proto);
  if (s !== undefined) return s;
  throw new ParamError(`invalid port/service \`${port}' specified`);
}

/** getservbyname(name, NULL): the first protocol that knows it. */
export function serviceAnyProto(name: string): number | undefined {
  return getServByName(name, 'tcp') ?? getServByName(name, 'udp');
}

/** xtables_getportbyname(): getaddrinfo(NULL, service) semantics (decimal or any service). */
function getPortByName(name: string): number | undefined {
  const m = /^[ \t\n\v\f\r]*([+-]?)([0-9]*)$/.exec(name);
  if (m && (m[2] !== '' || (m[1] === '' && name.trim() === ''))) {
    if (m[2] === '') return 0;
    let v = BigInt(m[2]!) & 0xffffffffffffffffn;
    if (m[1] === '-') v = (0x10000000000000000n - v) & 0xffffffffffffffffn;
    return Number(v & 0xffffn);
  }
  return serviceAnyProto(name);
}

export function portName(port: number, proto: string, numeric: boolean): string {
  if (numeric) return String(port);
  return getServByPort(port, proto) ?? String(port);
}

/** tcp/udp/sctp/dccp print_ports(). */
export function printPorts(
  label: string,
  lo: number,
  hi: number,
  invert: boolean,
  proto: string,
  numeric: boolean,
): string {
  if (lo === 0 && hi === 0xffff && !invert) return '';
  const inv = invert ? '!' : '';
  if (lo === hi) return ` ${label}:${inv}${portName(lo, proto, numeric)}`;
  return ` ${label}s:${inv}${portName(lo, proto, numeric)}:${portName(hi, proto, numeric)}`;
}

export function savePortRange(opt: string, lo: number, hi: number, invert: boolean): string {
  return `${invert ? ' !' : ''} --${opt} ${lo === hi ? lo : `${lo}:${hi}`}`;
}

/** parse_tcp_ports() and friends: "a", "a:b", ":b", "a:". */
export function parsePortRange(text: string, proto: string): [number, number] {
  const colon = text.indexOf(':');
  if (colon < 0) {
    const p = parsePortProto(text, proto);
    return [p, p];
  }
  const a = text.slice(0, colon);
  const b = text.slice(colon + 1);
  const lo = a !== '' ? parsePortProto(a, proto) : 0;
  const hi = b !== '' ? parsePortProto(b, proto) : 0xffff;
  if (lo > hi) throw new ParamError('invalid portrange (min > max)');
  return [lo, hi];
}

/** xtopt XTTYPE_PORTRC (udp, dccp): up to two ':'-separated components. */
export function parsePortRc(ext: string, optName: string, text: string): [number, number] {
  const parts = text.split(':');
  const vals: number[] = [];
  for (const part of parts) {
    if (vals.length === 2)
      throw new ParamError(`${ext}: Too many components for option "--${optName}" (max: 2)\n`);
    if (part === '') vals.push(vals.length === 1 ? 0xffff : 0);
    else {
      const v = getPortByName(part);
      if (v === undefined) throw new ParamError(`Port "${part}" does not resolve to anything.\n`);
      vals.push(v);
    }
  }
  return [vals[0]!, vals[1] ?? vals[0]!];
}

/** invflags bits of the port matches. */
export const INV_SRC = 1;
export const INV_DST = 2;

/** sctp and dccp: their ports (their other options are not modelled). */
export function portsOnly(name: string, xtopt: boolean): Extension {
  return {
    name,
    kind: 'match',
    families: ['ipv4', 'ipv6'],
    xtopt,
    options: [
      { name: 'source-port', id: 0, hasArg: 1, invert: true },
      { name: 'sport', id: 0, hasArg: 1, invert: true },
      { name: 'destination-port', id: 1, hasArg: 1, invert: true },
      { name: 'dport', id: 1, hasArg: 1, invert: true },
    ],
    init: () => ({ spts: [0, 0xffff], dpts: [0, 0xffff], inv: 0, set: 0 }),
    parse(d, i) {
      const inv = num(d, 'inv');
      const set = num(d, 'set');
      const bit = i.id === 0 ? INV_SRC : INV_DST;
      if (!xtopt && i.seen & (1 << i.id))
        throw new ParamError(
          i.id === 0 ? "Only one `--source-port' allowed" : "Only one `--destination-port' allowed",
        );
      const range = xtopt
        ? parsePortRc(name, i.id === 0 ? 'source-port' : 'destination-port', i.arg ?? '')
        : parsePortRange(i.arg ?? '', name);
      return {
        ...d,
        [i.id === 0 ? 'spts' : 'dpts']: range,
        inv: i.invert ? inv | bit : inv,
        set: set | bit,
      };
    },
    save(d) {
      const inv = num(d, 'inv');
      const set = num(d, 'set');
      let out = '';
      if (set & INV_SRC) out += savePortRange('sport', ...pair(d, 'spts'), (inv & INV_SRC) !== 0);
      if (set & INV_DST) out += savePortRange('dport', ...pair(d, 'dpts'), (inv & INV_DST) !== 0);
      return out;
    },
    print(d, numeric) {
      const inv = num(d, 'inv');
      const set = num(d, 'set');
      let out = ` ${name}`;
      if (set & INV_SRC)
        out += printPorts('spt', ...pair(d, 'spts'), (inv & INV_SRC) !== 0, name, numeric);
      if (set & INV_DST)
        out += printPorts('dpt', ...pair(d, 'dpts'), (inv & INV_DST) !== 0, name, numeric);
      return out;
    },
  };
}
