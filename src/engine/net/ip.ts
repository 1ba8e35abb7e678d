/**
 * IP address and CIDR helpers with Go's `net` package semantics (parsing rules, String() forms,
 * error texts), built on ipaddr.js for the address math and formatting.
 */
import ipaddr from 'ipaddr.js';

// ipaddr.js formats IPv6 (RFC 5952, as Go does); parsing follows Go's own rules below.

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
  /**
   * The mask bytes in hex when Go holds a non-canonical mask for this prefix, which only `%v` of
   * the struct shows (net.IPMask(net.IPv4zero) is 16 bytes, 00000000000000000000ffff00000000).
   */
  readonly goMaskHex?: string;
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

/** Go's xtoi: hex digits up to a non-hex character (values past 0xFFFFFF fail). */
function xtoi(s: string): { n: number; used: number } | null {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n = n * 16 + (c - 48);
    else if (c >= 97 && c <= 102) n = n * 16 + (c - 87);
    else if (c >= 65 && c <= 70) n = n * 16 + (c - 55);
    else break;
    if (n >= 0xffffff) return null;
  }
  return i === 0 ? null : { n, used: i };
}

/** Go 1.19's parseIPv6 (ellipsis, embedded IPv4 tail, up to 4+ hex digits per group). */
function parseV6Go(input: string): bigint | null {
  const bytes = new Array<number>(16).fill(0);
  let s = input;
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return 0n;
  }
  let i = 0;
  while (i < 16) {
    const x = xtoi(s);
    if (!x || x.n > 0xffff) return null;
    if (x.used < s.length && s[x.used] === '.') {
      if (ellipsis < 0 && i !== 12) return null;
      if (i + 4 > 16) return null;
      const v4 = parseV4Strict(s);
      if (v4 === null) return null;
      bytes[i] = Number((v4 >> 24n) & 0xffn);
      bytes[i + 1] = Number((v4 >> 16n) & 0xffn);
      bytes[i + 2] = Number((v4 >> 8n) & 0xffn);
      bytes[i + 3] = Number(v4 & 0xffn);
      s = '';
      i += 4;
      break;
    }
    bytes[i] = x.n >> 8;
    bytes[i + 1] = x.n & 0xff;
    i += 2;
    s = s.slice(x.used);
    if (s.length === 0) break;
    if (s[0] !== ':' || s.length === 1) return null;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return null;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return null;
  if (i < 16) {
    if (ellipsis < 0) return null;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) bytes[j + n] = bytes[j]!;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) bytes[j] = 0;
  } else if (ellipsis >= 0) {
    return null;
  }
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** Go's net.ParseIP: null when the text is not an IP address. IPv4-mapped IPv6 is IPv4. */
export function parseIP(s: string): IP | null {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '.') {
      const n = parseV4Strict(s);
      return n === null ? null : { v: 4, n };
    }
    if (s[i] === ':') {
      const n = parseV6Go(s);
      if (n === null) return null;
      if (n >> 32n === 0xffffn) return { v: 4, n: n & V4_MAX };
      return { v: 6, n };
    }
  }
  return null;
}

/**
 * A dotted-quad IPv4 address as Go's ParseIP and glibc's inet_pton(AF_INET) read one (four
 * decimal octets, no leading zeros), as a 32-bit unsigned number; null when it is not one.
 */
export function parseIPv4(s: string): number | null {
  const n = parseV4Strict(s);
  return n === null ? null : Number(n);
}

/** The dotted quad of a 32-bit unsigned number (Go's IP.String() of an IPv4 address). */
export function ipv4String(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** Whether `s` is written in IPv6 notation (decides the mask length of a CIDR). */
function isV6Text(s: string): boolean {
  for (const c of s) {
    if (c === '.') return false;
    if (c === ':') return true;
  }
  return false;
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
  const addr = s.slice(0, slash);
  const ip = parseIP(addr);
  const mask = s.slice(slash + 1);
  if (!ip || !/^[0-9]{1,7}$/.test(mask)) return err;
  const prefix = Number(mask);
  const v6Text = isV6Text(addr);
  if (prefix > (v6Text ? 128 : 32)) return err;
  if (v6Text && ip.v === 4) {
    // An IPv4-mapped address with a 128-bit mask: Go shows it as IPv4 with the low 32 bits, but
    // the mask stays 16 bytes (host-local's Range.Canonicalize refuses that: version mismatch).
    if (prefix < 96) return { ok: true, net: { ip: { v: 6, n: (0xffffn << 32n) | ip.n }, prefix } };
    return { ok: true, net: { ip, prefix: prefix - 96, goMaskHex: maskHex(6, prefix) } };
  }
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

/**
 * `%v` of a net.IPNet value (not pointer): Go prints the struct, e.g. "{10.22.0.0 ffffff00}";
 * null is the zero IPNet, "{<nil> <nil>}".
 */
export function goIPNetValue(n: IPNet | null): string {
  if (!n) return '{<nil> <nil>}';
  return `{${ipString(n.ip)} ${n.goMaskHex ?? maskHex(n.ip.v, n.prefix)}}`;
}

/** `%+v` of a net.IPNet value, e.g. "{IP:10.22.0.0 Mask:ffffff00}" ("{IP:<nil> Mask:<nil>}"). */
export function goIPNetValuePlus(n: IPNet | null): string {
  if (!n) return '{IP:<nil> Mask:<nil>}';
  return `{IP:${ipString(n.ip)} Mask:${n.goMaskHex ?? maskHex(n.ip.v, n.prefix)}}`;
}

export function isGlobalUnicast(ip: IP): boolean {
  if (ip.v === 4) {
    const first = Number(ip.n >> 24n);
    if (ip.n === V4_MAX) return false; // broadcast
    if (ip.n === 0n) return false;
    if (first === 127) return false;
    if (first >= 224 && first < 240) return false; // multicast (240/4 counts as global unicast)
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
