/**
 * Address parsing and printing exactly as iptables 1.8.9 does it: libxtables'
 * xtables_ipparse_multiple() / xtables_ip6parse_multiple() (with their quirks: "10.1" is
 * 10.1.0.0, base-0 octets, masks applied to the address), glibc inet_pton(3)/inet_ntop(3), and
 * the /etc/hosts and /etc/networks look-ups of netdb.ts.
 */
import { getHostByAddr4, getHostByName4, getNetByAddr, getNetByName } from './netdb';
import { ipv4String, parseIPv4 } from '../../net/ip';
import { xtStrtoui } from './numparse';

// ------------------------------------------------------------------------------------------------
// IPv4 (32-bit unsigned integers).

/** libxtables __numeric_to_ipaddr(): up to 4 base-0 octets, missing ones are zero (not masks). */
function numericToIp(dotted: string, isMask: boolean): number | undefined {
  const buf = dotted.slice(0, 19);
  const parts = buf.split('.');
  const bytes = [0, 0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const p = parts[i];
    if (parts.length === i + 1) {
      if (isMask) return undefined;
      const v = xtStrtoui(p ?? '', 0, 255);
      if (v === undefined) return undefined;
      bytes[i] = v;
      return ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
    }
    const v = xtStrtoui(p ?? '', 0, 255);
    if (v === undefined) return undefined;
    bytes[i] = v;
  }
  const last = v4Last(parts);
  const v = xtStrtoui(last, 0, 255);
  if (v === undefined) return undefined;
  bytes[3] = v;
  return ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
}

function v4Last(parts: string[]): string {
  return parts.slice(3).join('.');
}

/** glibc inet_pton(AF_INET): exactly four decimal octets, no leading zeros (as Go's ParseIP). */
export function inetPton4(s: string): number | undefined {
  return parseIPv4(s) ?? undefined;
}

/** inet_ntop(AF_INET). */
export const formatIp4 = ipv4String;

/** Prefix length of a contiguous mask, or -1. */
export function maskToCidr4(mask: number): number {
  let bits = 0;
  let m = mask >>> 0;
  while (bits < 32 && (m & 0x80000000) !== 0) {
    bits++;
    m = (m << 1) >>> 0;
  }
  return m === 0 ? bits : -1;
}

function prefixToMask4(bits: number): number {
  return bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
}

// ------------------------------------------------------------------------------------------------
// IPv6 (8 16-bit words).

export type Ip6 = readonly number[];

/** glibc inet_pton(AF_INET6). */
export function inetPton6(s: string): Ip6 | undefined {
  if (s.length === 0) return undefined;
  const words: number[] = [];
  let colonp = -1;
  let i = 0;
  if (s[0] === ':') {
    if (s[1] !== ':') return undefined;
    i = 1;
  }
  let curtok = i;
  let sawXdigit = false;
  let val = 0;
  let digits = 0;
  for (; i < s.length; i++) {
    const ch = s[i]!;
    const d = /[0-9a-fA-F]/.test(ch) ? parseInt(ch, 16) : -1;
    if (d >= 0) {
      if (digits >= 4) return undefined;
      val = (val << 4) | d;
      digits++;
      sawXdigit = true;
      continue;
    }
    if (ch === ':') {
      curtok = i + 1;
      if (!sawXdigit) {
        if (colonp >= 0) return undefined;
        colonp = words.length;
        continue;
      } else if (i + 1 >= s.length) {
        return undefined;
      }
      if (words.length >= 8) return undefined;
      words.push(val);
      sawXdigit = false;
      val = 0;
      digits = 0;
      continue;
    }
    if (ch === '.' && words.length <= 6) {
      const v4 = inetPton4(s.slice(curtok));
      if (v4 === undefined) return undefined;
      words.push((v4 >>> 16) & 0xffff, v4 & 0xffff);
      sawXdigit = false;
      break;
    }
    return undefined;
  }
  if (sawXdigit) {
    if (words.length >= 8) return undefined;
    words.push(val);
  }
  if (colonp >= 0) {
    if (words.length === 8) return undefined;
    const tail = words.splice(colonp);
    while (words.length + tail.length < 8) words.push(0);
    words.push(...tail);
  }
  if (words.length !== 8) return undefined;
  return words;
}

/** glibc inet_ntop(AF_INET6). */
export function formatIp6(w: Ip6): string {
  let best = { base: -1, len: 0 };
  let cur = { base: -1, len: 0 };
  for (let i = 0; i < 8; i++) {
    if (w[i] === 0) {
      if (cur.base === -1) cur = { base: i, len: 1 };
      else cur.len++;
    } else if (cur.base !== -1) {
      if (best.base === -1 || cur.len > best.len) best = cur;
      cur = { base: -1, len: 0 };
    }
  }
  if (cur.base !== -1 && (best.base === -1 || cur.len > best.len)) best = cur;
  if (best.base !== -1 && best.len < 2) best = { base: -1, len: 0 };
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (best.base !== -1 && i >= best.base && i < best.base + best.len) {
      if (i === best.base) out += ':';
      continue;
    }
    if (i !== 0) out += ':';
    if (i === 6 && best.base === 0 && (best.len === 6 || (best.len === 5 && w[5] === 0xffff))) {
      out += `${w[6]! >> 8}.${w[6]! & 255}.${w[7]! >> 8}.${w[7]! & 255}`;
      break;
    }
    out += w[i]!.toString(16);
  }
  if (best.base !== -1 && best.base + best.len === 8) out += ':';
  return out;
}

function maskToCidr6(m: Ip6): number {
  let bits = 0;
  let i = 0;
  for (; i < 8; i++) {
    const word = m[i]!;
    if (word === 0xffff) {
      bits += 16;
      continue;
    }
    let x = word;
    while (x & 0x8000) {
      bits++;
      x = (x << 1) & 0xffff;
    }
    if (x !== 0) return -1;
    i++;
    break;
  }
  for (; i < 8; i++) if (m[i] !== 0) return -1;
  return bits;
}

function prefixToMask6(bits: number): number[] {
  const m: number[] = [];
  for (let i = 0; i < 8; i++) {
    const b = Math.max(0, Math.min(16, bits - i * 16));
    m.push(b === 0 ? 0 : (0xffff << (16 - b)) & 0xffff);
  }
  return m;
}

// ------------------------------------------------------------------------------------------------
// Rule addresses.

/** One parsed -s/-d value: canonical text of the (masked) address and of the mask. */
export interface ParsedAddr {
  /** inet_ntop of the masked address. */
  readonly addr: string;
  /** Prefix length ("24") or, for a non-contiguous mask, its address form ("255.0.255.0"). */
  readonly mask: string;
  /** True when the mask is all zeros (matches everything). */
  readonly any: boolean;
}

export type AddrParse =
  | { readonly ok: true; readonly addrs: readonly ParsedAddr[] }
  | { readonly ok: false; readonly error: string };

/** xtables_ipparse_multiple() / xtables_ip6parse_multiple(). */
export function parseAddrList(text: string, v6: boolean): AddrParse {
  const count = text.split(',').length;
  const out: ParsedAddr[] = [];
  let rest = text;
  for (let i = 0; i < count; i++) {
    rest = rest.replace(/^[ \t\n\v\f\r]+/, '');
    const comma = rest.indexOf(',');
    let buf = comma >= 0 ? rest.slice(0, comma) : rest;
    rest = comma >= 0 ? rest.slice(comma + 1) : '';
    if (buf.length > 255) return { ok: false, error: 'Hostname too long' };
    let maskText: string | undefined;
    const slash = buf.lastIndexOf('/');
    if (slash >= 0) {
      maskText = buf.slice(slash + 1);
      buf = buf.slice(0, slash);
    }
    const r = v6 ? parseOne6(buf, maskText) : parseOne4(buf, maskText);
    if (!r.ok) return r;
    out.push(...r.addrs);
  }
  return { ok: true, addrs: out };
}

function parseOne4(host: string, maskText: string | undefined): AddrParse {
  let mask: number;
  if (maskText === undefined) {
    mask = 0xffffffff;
  } else {
    const dotted = numericToIp(maskText, true);
    if (dotted !== undefined) {
      mask = dotted;
    } else {
      const bits = xtStrtoui(maskText, 0, 32);
      if (bits === undefined) return { ok: false, error: `invalid mask \`${maskText}' specified` };
      mask = prefixToMask4(bits);
    }
  }
  const name = mask === 0 ? '0.0.0.0' : host;
  let addrs: number[];
  const numeric = numericToIp(name, false);
  if (numeric !== undefined) addrs = [numeric];
  else {
    const net = getNetByName(name);
    if (net !== undefined) addrs = [net];
    else addrs = getHostByName4(name);
  }
  if (addrs.length === 0) return { ok: false, error: `host/network \`${name}' not found` };
  const cidr = maskToCidr4(mask);
  const maskStr = cidr === -1 ? formatIp4(mask) : String(cidr);
  return {
    ok: true,
    addrs: addrs.map((a) => ({
      addr: formatIp4((a & mask) >>> 0),
      mask: maskStr,
      any: mask === 0,
    })),
  };
}

function parseOne6(host: string, maskText: string | undefined): AddrParse {
  let mask: Ip6;
  if (maskText === undefined) {
    mask = prefixToMask6(128);
  } else {
    const asAddr = inetPton6(maskText);
    if (asAddr !== undefined) {
      mask = asAddr;
    } else {
      const bits = xtStrtoui(maskText, 0, 128);
      if (bits === undefined) return { ok: false, error: `invalid mask \`${maskText}' specified` };
      mask = prefixToMask6(bits);
    }
  }
  const any = mask.every((w) => w === 0);
  const name = any ? '::' : host;
  const a = inetPton6(name);
  if (a === undefined) return { ok: false, error: `host/network \`${name}' not found` };
  const cidr = maskToCidr6(mask);
  return {
    ok: true,
    addrs: [
      {
        addr: formatIp6(a.map((w, i) => w & mask[i]!)),
        mask: cidr === -1 ? formatIp6(mask) : String(cidr),
        any,
      },
    ],
  };
}

/** Whether a stored mask text is the host mask (/32 or /128). */
export function isHostMask(mask: string, v6: boolean): boolean {
  return mask === (v6 ? '128' : '32');
}

/** xtables_ipaddr_to_anyname(): /etc/hosts, then /etc/networks, then numeric. */
export function ip4ToAnyName(addr: string): string {
  const n = numericToIp(addr, false);
  if (n === undefined) return addr;
  return getHostByAddr4(n) ?? getNetByAddr(n) ?? addr;
}
