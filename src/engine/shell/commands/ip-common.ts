/**
 * What the `ip` subcommands share: iproute2's argument helpers and messages (invarg, duparg,
 * NEXT_ARG, get_prefix, ll_addr_a2n), its exit codes (exit(-1) -> 255, a -1 return -> 1, a
 * netlink error -> 2), kernel errno texts, and namespace lookup.
 */
import * as vfs from '../../fs/vfs';
import { KernelError, LinkNotFoundError, linkByName, type KErrno } from '../../kernel/kernel';
import type { Link, Netns } from '../../kernel/types';
import type { IP } from '../../net/ip';
import { ipToBytes, parseIP } from '../../net/ip';
import { mountAt } from '../../kernel/netns';
import { resolvePath } from '../paths';
import type { CommandContext } from '../types';
import { tget } from '../../state/table';

/** Ends the ip command: `text` goes to stderr as is, `code` is the exit status. */
export class IpExit {
  constructor(
    readonly text: string,
    readonly code: number,
    /** Where the text goes (iproute2 prints some usages on stdout). */
    readonly stream: 'out' | 'err' = 'err',
  ) {}
}

export type Family = 0 | 4 | 6;

export interface IpRun {
  ctx: CommandContext;
  /** The namespace ip works in (-n NAME, ip netns exec, or the caller's). */
  ns: string;
  /** -4 / -6 / -f: preferred family (0: any). */
  family: Family;
  /** Display options (-j, -p, -br, -o, -d, -s), for the show commands. */
  show?: {
    json: boolean;
    pretty: boolean;
    brief: boolean;
    oneline: boolean;
    details: boolean;
    stats: boolean;
  };
}

/** iproute2's matches(): `cmd` is a prefix of `pattern`. */
export function matches(cmd: string, pattern: string): boolean {
  return cmd.length <= pattern.length && pattern.startsWith(cmd);
}

export function invarg(msg: string, arg: string): never {
  throw new IpExit(`Error: argument "${arg}" is wrong: ${msg}\n`, 255);
}

export function duparg(key: string, arg: string): never {
  throw new IpExit(`Error: duplicate "${key}": "${arg}" is the second value.\n`, 255);
}

export function duparg2(key: string, arg: string): never {
  throw new IpExit(`Error: either "${key}" is duplicate, or "${arg}" is a garbage.\n`, 255);
}

export function incomplete(): never {
  throw new IpExit('Command line is not complete. Try option "help"\n', 255);
}

export function nodev(name: string): never {
  throw new IpExit(`Cannot find device "${name}"\n`, 1);
}

/** A kernel error without an extack message. */
export function rtnl(errno: KErrno | 'ENOBUFS'): never {
  throw new IpExit(`RTNETLINK answers: ${ERRNO_TEXT[errno]}\n`, 2);
}

/** A kernel error with an extack message: iproute2 prints "Error: MSG", adding a final '.'. */
export function extack(msg: string): never {
  throw new IpExit(`Error: ${msg}${msg.endsWith('.') ? '' : '.'}\n`, 2);
}

/** A feature of ip the simulation does not model. */
export function notSimulated(what: string): never {
  throw new IpExit(`cnisim: ip: ${what}: not simulated\n`, 2);
}

export const ERRNO_TEXT: Record<string, string> = {
  EEXIST: 'File exists',
  ENODEV: 'No such device',
  ENOENT: 'No such file or directory',
  EINVAL: 'Invalid argument',
  EADDRNOTAVAIL: 'Cannot assign requested address',
  ENETUNREACH: 'Network is unreachable',
  ENETDOWN: 'Network is down',
  EBUSY: 'Device or resource busy',
  EPERM: 'Operation not permitted',
  ESRCH: 'No such process',
  EOPNOTSUPP: 'Operation not supported',
  ERANGE: 'Numerical result out of range',
  EACCES: 'Permission denied',
  EHOSTUNREACH: 'No route to host',
  ENOBUFS: 'No buffer space available',
};

/**
 * Runs a kernel change, turning the kernel's errors into ip's messages: its extack message when it
 * gave one, else the errno text (`map` refines errors the kernel model gives no message for).
 */
export function kernelCall<T>(
  ip: IpRun,
  fn: () => T,
  map: Partial<Record<string, () => never>> = {},
): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof KernelError) {
      if (e.extack) extack(e.extack);
      const m = map[e.errno];
      if (m) m();
      rtnl(e.errno);
    }
    if (e instanceof LinkNotFoundError) rtnl('ENODEV');
    throw e;
  }
}

export function args0(argv: readonly string[]): string[] {
  return [...argv];
}

/** A cursor over arguments with iproute2's NEXT_ARG. */
export class Args {
  i = 0;
  constructor(readonly a: readonly string[]) {}
  get more(): boolean {
    return this.i < this.a.length;
  }
  get cur(): string {
    return this.a[this.i]!;
  }
  /** NEXT_ARG(): moves to the next argument or ends with "Command line is not complete". */
  next(): string {
    this.i++;
    if (this.i >= this.a.length) incomplete();
    return this.a[this.i]!;
  }
  advance(): void {
    this.i++;
  }
  rest(): string[] {
    return this.a.slice(this.i);
  }
}

// -----------------------------------------------------------------------------------------------
// Addresses as iproute2 parses them

/** get_addr_ipv4: 1 to 4 parts, each strtoul(base 0) <= 255 ("10.1" is 10.1.0.0). */
export function parseIPv4Loose(s: string): IP | null {
  const bytes = [0, 0, 0, 0];
  let rest = s;
  for (let i = 0; i < 4; i++) {
    const m = /^(0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*)/.exec(rest);
    if (!m) return null;
    const t = m[0];
    const n = /^0[xX]/.test(t)
      ? t.length > 2
        ? parseInt(t.slice(2), 16)
        : 0
      : t.length > 1 && t[0] === '0'
        ? parseInt(t, 8)
        : Number(t);
    if (n > 255 || Number.isNaN(n)) return null;
    bytes[i] = n;
    rest = rest.slice(t.length);
    if (rest === '') break;
    if (i === 3 || rest[0] !== '.') return null;
    rest = rest.slice(1);
  }
  if (rest !== '') return null;
  const n =
    (BigInt(bytes[0]!) << 24n) |
    (BigInt(bytes[1]!) << 16n) |
    (BigInt(bytes[2]!) << 8n) |
    BigInt(bytes[3]!);
  return { v: 4, n };
}

/** get_addr_1: an address of the given family (0: any). */
export function parseAddr(s: string, family: Family): IP | null {
  if (s.includes(':')) {
    if (family === 4) return null;
    const ip = parseIP(s);
    return ip && ip.v === 6 ? ip : null;
  }
  if (family === 6) return null;
  return parseIPv4Loose(s);
}

export function familyVerbose(f: Family): string {
  return f === 4 ? 'inet' : f === 6 ? 'inet6' : 'any valid';
}

export interface Prefix {
  /** null for "default" / "any" / "all". */
  ip: IP | null;
  family: Family;
  prefix: number;
  /** A /LEN was given. */
  specified: boolean;
}

/** get_prefix: ADDR[/LEN] or default; exits like iproute2 on error. */
export function getPrefix(arg: string, family: Family): Prefix {
  if (arg === 'default' || arg === 'any' || arg === 'all')
    return { ip: null, family, prefix: 0, specified: true };
  const slash = arg.indexOf('/');
  const addr = slash < 0 ? arg : arg.slice(0, slash);
  const ip = parseAddr(addr, family);
  const bad = () => {
    throw new IpExit(
      `Error: ${familyVerbose(family)} prefix is expected rather than "${arg}".\n`,
      1,
    );
  };
  if (!ip) bad();
  const bits = ip!.v === 4 ? 32 : 128;
  if (slash < 0) return { ip, family: ip!.v, prefix: bits, specified: false };
  const mask = arg.slice(slash + 1);
  let plen: number | null = null;
  if (/^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.test(mask))
    plen = Number(
      mask.startsWith('0x') || mask.startsWith('0X')
        ? parseInt(mask, 16)
        : mask.length > 1 && mask[0] === '0'
          ? parseInt(mask, 8)
          : mask,
    );
  else if (mask.includes('.')) {
    const m = parseIPv4Loose(mask);
    if (m) {
      const bin = m.n.toString(2).padStart(32, '0');
      if (/^1*0*$/.test(bin)) plen = bin.indexOf('0') < 0 ? 32 : bin.indexOf('0');
    }
  }
  if (plen === null || plen > bits) bad();
  return { ip, family: ip!.v, prefix: plen!, specified: true };
}

/** get_addr: an address; exits like iproute2 on error. */
export function getAddr(arg: string, family: Family): IP {
  const ip = parseAddr(arg, family);
  if (!ip)
    throw new IpExit(
      `Error: ${familyVerbose(family)} address is expected rather than "${arg}".\n`,
      1,
    );
  return ip;
}

/** get_unsigned / get_u32 (strtoul base 0, whole string). */
export function getUnsigned(s: string, max = 0xffffffff): number | null {
  if (!/^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.test(s)) return null;
  const n = /^0[xX]/.test(s)
    ? parseInt(s.slice(2), 16)
    : s.length > 1 && s[0] === '0'
      ? parseInt(s, 8)
      : Number(s);
  return n > max ? null : n;
}

/** get_integer (strtol base 0, int range). */
export function getInteger(s: string): number | null {
  const m = /^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return null;
  const body = m[2]!;
  let n = /^0[xX]/.test(body)
    ? parseInt(body.slice(2), 16)
    : body.length > 1 && body[0] === '0'
      ? parseInt(body, 8)
      : Number(body);
  if (m[1] === '-') n = -n;
  if (n > 0x7fffffff || n < -0x80000000) return null;
  return n;
}

/** ll_addr_a2n: "aa:bb:..." (each part sscanf %x, <= 255); prints and fails like iproute2. */
export function llAddr(arg: string): number[] {
  if (arg.includes('.')) {
    const ip = parseIPv4Loose(arg);
    if (!ip) throw new IpExit(`"${arg}" is invalid lladdr.\n`, 1);
    return ipToBytes(ip);
  }
  const out: number[] = [];
  for (const part of arg.split(':')) {
    const m = /^\s*[+-]?(0[xX])?([0-9a-fA-F]+)/.exec(part);
    if (!m) throw new IpExit(`"${part}" is invalid lladdr.\n`, 1);
    const v = parseInt(m[2]!, 16);
    if (v > 255 || /^\s*-/.test(part)) throw new IpExit(`"${part}" is invalid lladdr.\n`, 1);
    out.push(v);
    if (out.length >= 32) break;
  }
  return out;
}

export function macString(bytes: number[]): string {
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/** check_ifname: non-empty, shorter than IFNAMSIZ (16), no '/' or white space. */
export function checkIfname(name: string, max = 16): boolean {
  return name.length > 0 && name.length < max && !/[/\s]/.test(name);
}

/** The kernel's dev_valid_name (besides the length, which netlink policy checks first). */
export function kernelValidName(name: string): boolean {
  return name !== '.' && name !== '..' && !/[/:\s]/.test(name);
}

// -----------------------------------------------------------------------------------------------
// Namespaces and links

export function nsOf(ip: IpRun, id = ip.ns): Netns {
  return tget(ip.ctx.kernel().netns, id)!;
}

export function linkNamed(ip: IpRun, name: string, nsId = ip.ns): Link | undefined {
  const ns = nsOf(ip, nsId);
  return ns ? linkByName(ns, name) : undefined;
}

/** ll_name_to_index: the link or "Cannot find device". */
export function requireLink(ip: IpRun, name: string): Link {
  return linkNamed(ip, name) ?? nodev(name);
}

/**
 * A namespace by name, as `ip -n NAME` / `ip netns exec NAME` open it (/run/netns/NAME). Host
 * aliases name the node's own namespace. ENOENT: no such file; EINVAL: a file that is not a
 * namespace.
 */
export function lookupNetnsByName(
  ctx: CommandContext,
  name: string,
): { id: string } | { errno: 'ENOENT' | 'EINVAL' } {
  if (ctx.shell.hostNetnsAliases.includes(name)) return { id: ctx.kernel().root };
  return lookupNetnsByPath(ctx, resolvePath('/', `/run/netns/${name}`));
}

/** A namespace by the path of its mount file. */
export function lookupNetnsByPath(
  ctx: CommandContext,
  path: string,
): { id: string } | { errno: 'ENOENT' | 'EINVAL' } {
  const k = ctx.kernel();
  const p = resolvePath(ctx.cwd, path);
  const id = mountAt(k, ctx.fs(), p);
  if (id && tget(k.netns, id)) return { id };
  const e = vfs.stat(ctx.fs(), p);
  if (e) return { errno: 'EINVAL' };
  return { errno: 'ENOENT' };
}
