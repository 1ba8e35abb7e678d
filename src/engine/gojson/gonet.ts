/**
 * The parts of Go 1.19's net package that JSON decoding of CNI configs depends on: net.ParseIP,
 * net.ParseCIDR, IP.String, IPMask.String, IPNet.String, and net.IP as a GoCustomType.
 *
 * A net.IP is a Uint8Array of length 4 or 16 (ParseIP always returns the 16-byte form), or null
 * for a nil IP. A net.IPNet is { IP, Mask } with the same representation.
 */
import type { GoCustomType } from './types';

export type GoIP = Uint8Array | null;

export interface GoIPNet {
  IP: GoIP;
  Mask: GoIP;
}

const BIG = 0xffffff;

/** dtoi: decimal to integer; returns [n, i, ok]. */
function dtoi(s: string): [number, number, boolean] {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    n = n * 10 + (c - 0x30);
    if (n >= BIG) return [BIG, i, false];
  }
  if (i === 0) return [0, 0, false];
  return [n, i, true];
}

/** xtoi: hexadecimal to integer; returns [n, i, ok]. */
function xtoi(s: string): [number, number, boolean] {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x61 + 10;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x41 + 10;
    else break;
    n = n * 16 + d;
    if (n >= BIG) return [0, i, false];
  }
  if (i === 0) return [0, i, false];
  return [n, i, true];
}

/** net.IPv4(a, b, c, d): the 16-byte form. */
export function ipv4(a: number, b: number, c: number, d: number): Uint8Array {
  const ip = new Uint8Array(16);
  ip[10] = 0xff;
  ip[11] = 0xff;
  ip[12] = a;
  ip[13] = b;
  ip[14] = c;
  ip[15] = d;
  return ip;
}

function parseIPv4(s: string): Uint8Array | null {
  const p = [0, 0, 0, 0];
  for (let i = 0; i < 4; i++) {
    if (s.length === 0) return null;
    if (i > 0) {
      if (s[0] !== '.') return null;
      s = s.slice(1);
    }
    const [n, c, ok] = dtoi(s);
    if (!ok || n > 0xff) return null;
    if (c > 1 && s[0] === '0') return null;
    s = s.slice(c);
    p[i] = n;
  }
  if (s.length !== 0) return null;
  return ipv4(p[0] ?? 0, p[1] ?? 0, p[2] ?? 0, p[3] ?? 0);
}

function parseIPv6(s: string): Uint8Array | null {
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return ip;
  }
  let i = 0;
  while (i < 16) {
    const [n, c, ok] = xtoi(s);
    if (!ok || n > 0xffff) return null;
    if (c < s.length && s[c] === '.') {
      if (ellipsis < 0 && i !== 12) return null;
      if (i + 4 > 16) return null;
      const ip4 = parseIPv4(s);
      if (ip4 === null) return null;
      ip[i] = ip4[12] ?? 0;
      ip[i + 1] = ip4[13] ?? 0;
      ip[i + 2] = ip4[14] ?? 0;
      ip[i + 3] = ip4[15] ?? 0;
      s = '';
      i += 4;
      break;
    }
    ip[i] = n >> 8;
    ip[i + 1] = n & 0xff;
    i += 2;
    s = s.slice(c);
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
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j] ?? 0;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return null;
  }
  return ip;
}

/** net.ParseIP: the 16-byte IP, or null. */
export function parseIP(s: string): Uint8Array | null {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '.') return parseIPv4(s);
    if (c === ':') return parseIPv6(s);
  }
  return null;
}

function isZeros(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] !== 0) return false;
  return true;
}

/** IP.To4(): the 4-byte form, or null. */
export function ipTo4(ip: GoIP): Uint8Array | null {
  if (ip === null) return null;
  if (ip.length === 4) return ip;
  if (ip.length === 16 && isZeros(ip, 0, 10) && ip[10] === 0xff && ip[11] === 0xff) {
    return ip.subarray(12, 16);
  }
  return null;
}

/** net.CIDRMask(ones, bits). */
export function cidrMask(ones: number, bits: number): Uint8Array | null {
  if (bits !== 32 && bits !== 128) return null;
  if (ones < 0 || ones > bits) return null;
  const l = bits / 8;
  const m = new Uint8Array(l);
  let n = ones;
  for (let i = 0; i < l; i++) {
    if (n >= 8) {
      m[i] = 0xff;
      n -= 8;
      continue;
    }
    m[i] = ~(0xff >> n) & 0xff;
    n = 0;
  }
  return m;
}

const V4_IN_V6_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** IP.Mask(mask). */
export function ipMask(ip: Uint8Array, mask: Uint8Array): Uint8Array | null {
  if (mask.length === 16 && ip.length === 4 && mask.subarray(0, 12).every((x) => x === 0xff)) {
    mask = mask.subarray(12);
  }
  if (mask.length === 4 && ip.length === 16 && V4_IN_V6_PREFIX.every((x, i) => ip[i] === x)) {
    ip = ip.subarray(12);
  }
  const n = ip.length;
  if (n !== mask.length) return null;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (ip[i] ?? 0) & (mask[i] ?? 0);
  return out;
}

export type ParseCIDRResult =
  | { ip: Uint8Array; net: { IP: Uint8Array; Mask: Uint8Array }; error: null }
  | { ip: null; net: null; error: string };

/** net.ParseCIDR; the error is Go's "invalid CIDR address: <s>". */
export function parseCIDR(s: string): ParseCIDRResult {
  const fail: ParseCIDRResult = { ip: null, net: null, error: 'invalid CIDR address: ' + s };
  const i = s.indexOf('/');
  if (i < 0) return fail;
  const addr = s.slice(0, i);
  const maskStr = s.slice(i + 1);
  let iplen = 4;
  let ip = parseIPv4(addr);
  if (ip === null) {
    iplen = 16;
    ip = parseIPv6(addr);
  }
  const [n, j, ok] = dtoi(maskStr);
  if (ip === null || !ok || j !== maskStr.length || n < 0 || n > 8 * iplen) return fail;
  const m = cidrMask(n, 8 * iplen);
  if (m === null) return fail;
  const netIP = ipMask(ip, m);
  if (netIP === null) return fail;
  return { ip, net: { IP: netIP, Mask: m }, error: null };
}

function hexString(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

/** IP.String(). */
export function ipString(ip: GoIP): string {
  if (ip === null || ip.length === 0) return '<nil>';
  const p4 = ipTo4(ip);
  if (p4 !== null && p4.length === 4) return `${p4[0]}.${p4[1]}.${p4[2]}.${p4[3]}`;
  if (ip.length !== 16) return '?' + hexString(ip);
  let e0 = -1;
  let e1 = -1;
  for (let i = 0; i < 16; i += 2) {
    let j = i;
    while (j < 16 && ip[j] === 0 && ip[j + 1] === 0) j += 2;
    if (j > i && j - i > e1 - e0) {
      e0 = i;
      e1 = j;
      i = j;
    }
  }
  if (e1 - e0 <= 2) {
    e0 = -1;
    e1 = -1;
  }
  let out = '';
  for (let i = 0; i < 16; i += 2) {
    if (i === e0) {
      out += '::';
      i = e1;
      if (i >= 16) break;
    } else if (i > 0) out += ':';
    out += (((ip[i] ?? 0) << 8) | (ip[i + 1] ?? 0)).toString(16);
  }
  return out;
}

/** IPMask.String(). */
export function ipMaskString(m: GoIP): string {
  if (m === null || m.length === 0) return '<nil>';
  return hexString(m);
}

function simpleMaskLength(mask: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    let v = mask[i] ?? 0;
    if (v === 0xff) {
      n += 8;
      continue;
    }
    while ((v & 0x80) !== 0) {
      n++;
      v = (v << 1) & 0xff;
    }
    if (v !== 0) return -1;
    for (i++; i < mask.length; i++) if (mask[i] !== 0) return -1;
    break;
  }
  return n;
}

/** (*IPNet).String(). */
export function ipNetString(n: GoIPNet | null): string {
  if (n === null) return '<nil>';
  let ip = ipTo4(n.IP);
  if (ip === null) {
    ip = n.IP;
    if (ip === null || ip.length !== 16) return '<nil>';
  }
  let m = n.Mask;
  if (m === null) return '<nil>';
  switch (m.length) {
    case 4:
      if (ip.length !== 4) return '<nil>';
      break;
    case 16:
      if (ip.length === 4) m = m.subarray(12);
      break;
    default:
      return '<nil>';
  }
  const l = simpleMaskLength(m);
  if (l === -1) return ipString(ip) + '/' + ipMaskString(m);
  return ipString(ip) + '/' + l;
}

/** net.IP as a JSON type: UnmarshalText (error "invalid IP address: <s>"), MarshalText. */
export const netIPType: GoCustomType<GoIP> = {
  kind: 'custom',
  name: 'net.IP',
  zero: () => null,
  nullable: true,
  unmarshalText: (text) => {
    if (text.length === 0) return { value: null };
    const ip = parseIP(text);
    if (ip === null) return { error: 'invalid IP address: ' + text };
    return { value: ip };
  },
  marshalText: (ip) => ({ value: ip === null || ip.length === 0 ? '' : ipString(ip) }),
  isEmpty: (ip) => ip === null || ip.length === 0,
};
