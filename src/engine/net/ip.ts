/**
 * IP address and CIDR helpers with Go's `net` package semantics (parsing rules, String() forms,
 * error texts), built on ipaddr.js for the address math and formatting.
 */
import ipaddr from 'ipaddr.js';

export type Family = 4 | 6;

/** An IP address: family plus its value as an unsigned integer. IPv4-mapped IPv6 is IPv4, as Go's To4() sees it. */
export interface IP {
  readonly v: Family;
  readonly n: bigint;
}

/** An address with a prefix length (Go's net.IPNet with the address kept, as types.ParseCIDR keeps it). */
export interface IPNet {
  readonly ip: IP;
  readonly prefix: number;
}

const V4_MAX = (1n << 32n) - 1n;
const V6_MAX = (1n << 128n) - 1n;

export const bits = (v: Family): number => (v === 4 ? 32 : 128);

function parseV4Strict(s: string): bigint | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let n = 0n;
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return null;
    if (p.length > 1 && p[0] === '0') return null; // Go >= 1.17 rejects leading zeros
    const x = Number(p);
    if (x > 255) return null;
    n = (n << 8n) | BigInt(x);
  }
  return n;
}

/** Go's net.ParseIP: null when the text is not an IP address. */
export function parseIP(s: string): IP | null {
  if (s.includes('.') && !s.includes(':')) {
    const n = parseV4Strict(s);
    return n === null ? null : { v: 4, n };
  }
  if (!s.includes(':') || s.includes('%') || /\s/.test(s)) return null;
  // An embedded IPv4 tail must itself be strict dotted decimal.
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.') && parseV4Strict(tail) === null) return null;
  if (!ipaddr.IPv6.isValid(s)) return null;
  let addr: ipaddr.IPv6;
  try {
    addr = ipaddr.IPv6.parse(s);
  } catch {
    return null;
  }
  let n = 0n;
  for (const b of addr.toByteArray()) n = (n << 8n) | BigInt(b);
  if (n >> 32n === 0xffffn) return { v: 4, n: n & V4_MAX };
  return { v: 6, n };
}

export function ipToBytes(ip: IP): number[] {
  const len = ip.v === 4 ? 4 : 16;
  const out = new Array<number>(len);
  let n = ip.n;
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

/** Go's net.IP.String(). */
export function ipString(ip: IP): string {
  if (ip.v === 4) {
    return ipToBytes(ip).join('.');
  }
  return (ipaddr.fromByteArray(ipToBytes(ip)) as ipaddr.IPv6).toRFC5952String();
}

export function ipEqual(a: IP, b: IP): boolean {
  return a.v === b.v && a.n === b.n;
}

export function ipCmp(a: IP, b: IP): number {
  if (a.v !== b.v) return a.v - b.v;
  return a.n < b.n ? -1 : a.n > b.n ? 1 : 0;
}

/** ip.NextIP: wraps like Go's big.Int arithmetic would not; callers never pass the last address. */
export function nextIP(ip: IP): IP {
  const max = ip.v === 4 ? V4_MAX : V6_MAX;
  return { v: ip.v, n: ip.n === max ? 0n : ip.n + 1n };
}

export function prevIP(ip: IP): IP {
  const max = ip.v === 4 ? V4_MAX : V6_MAX;
  return { v: ip.v, n: ip.n === 0n ? max : ip.n - 1n };
}

export function maskBits(v: Family, prefix: number): bigint {
  const b = BigInt(bits(v));
  const p = BigInt(prefix);
  const all = v === 4 ? V4_MAX : V6_MAX;
  return p === 0n ? 0n : (all >> (b - p)) << (b - p);
}

export function networkOf(n: IPNet): IP {
  return { v: n.ip.v, n: n.ip.n & maskBits(n.ip.v, n.prefix) };
}

/** The last address of the network (the IPv4 broadcast address). */
export function lastOf(n: IPNet): IP {
  const m = maskBits(n.ip.v, n.prefix);
  const all = n.ip.v === 4 ? V4_MAX : V6_MAX;
  return { v: n.ip.v, n: (n.ip.n & m) | (all & ~m) };
}

export function netContains(n: IPNet, ip: IP): boolean {
  if (n.ip.v !== ip.v) return false;
  const m = maskBits(ip.v, n.prefix);
  return (n.ip.n & m) === (ip.n & m);
}

/** Go's net.ParseCIDR; error text as Go's *ParseError prints it. */
export function parseCIDR(s: string): { ok: true; net: IPNet } | { ok: false; error: string } {
  const err = { ok: false as const, error: `invalid CIDR address: ${s}` };
  const slash = s.indexOf('/');
  if (slash < 0) return err;
  const ip = parseIP(s.slice(0, slash));
  const mask = s.slice(slash + 1);
  if (!ip || !/^[0-9]+$/.test(mask)) return err;
  const prefix = Number(mask);
  // Go: an IPv4 address written as IPv4-mapped IPv6 keeps a 128-bit mask; not worth modelling.
  if (prefix > bits(ip.v)) return err;
  return { ok: true, net: { ip, prefix } };
}

/** net.IPNet.String() of the network with the address kept (types.IPNet), e.g. "10.22.0.2/24". */
export function ipNetString(n: IPNet): string {
  return `${ipString(n.ip)}/${n.prefix}`;
}

/** The network in canonical form, e.g. "10.22.0.0/24". */
export function cidrString(n: IPNet): string {
  return `${ipString(networkOf(n))}/${n.prefix}`;
}

/** Go's IPMask.String(): hex digits, e.g. "ffffff00". */
export function maskHex(v: Family, prefix: number): string {
  return maskBits(v, prefix)
    .toString(16)
    .padStart(v === 4 ? 8 : 32, '0');
}

/** `%v` of a net.IPNet value (not pointer): Go prints the struct, e.g. "{10.22.0.0 ffffff00}". */
export function goIPNetValue(n: IPNet): string {
  return `{${ipString(n.ip)} ${maskHex(n.ip.v, n.prefix)}}`;
}

/** `%+v` of a net.IPNet value, e.g. "{IP:10.22.0.0 Mask:ffffff00}". */
export function goIPNetValuePlus(n: IPNet): string {
  return `{IP:${ipString(n.ip)} Mask:${maskHex(n.ip.v, n.prefix)}}`;
}

export function isGlobalUnicast(ip: IP): boolean {
  if (ip.v === 4) {
    const first = Number(ip.n >> 24n);
    if (ip.n === V4_MAX) return false; // broadcast
    if (ip.n === 0n) return false;
    if (first === 127) return false;
    if (first >= 224) return false; // multicast and above
    if (first === 169 && Number((ip.n >> 16n) & 0xffn) === 254) return false; // link-local
    return true;
  }
  if (ip.n === 0n || ip.n === 1n) return false;
  const top16 = Number(ip.n >> 112n);
  if (top16 >> 8 === 0xff) return false; // multicast
  if ((top16 & 0xffc0) === 0xfe80) return false; // link-local
  return true;
}

export function isLoopback(ip: IP): boolean {
  if (ip.v === 4) return Number(ip.n >> 24n) === 127;
  return ip.n === 1n;
}

export const IPV4_ZERO: IP = { v: 4, n: 0n };
export const IPV6_ZERO: IP = { v: 6, n: 0n };
