import { ipString } from './ip';

/** The EUI-64 IPv6 link-local address the kernel derives from a MAC (fe80::/64). */
export function eui64LinkLocal(mac: string): string {
  const b = mac.split(':').map((x) => parseInt(x, 16));
  const iid = [b[0]! ^ 2, b[1]!, b[2]!, 0xff, 0xfe, b[3]!, b[4]!, b[5]!];
  let n = 0xfe80n << 112n;
  for (let i = 0; i < 8; i++) n |= BigInt(iid[i]!) << BigInt(8 * (7 - i));
  return ipString({ v: 6, n });
}

export const MAC_RE = /^[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}$/;

/** net.ParseMAC: 6, 8 or 20 bytes written as xx:xx, xx-xx or xxxx.xxxx; null when invalid. */
export function parseMAC(s: string): number[] | null {
  const hex2 = (t: string): number | null => (/^[0-9a-fA-F]{2}$/.test(t) ? parseInt(t, 16) : null);
  if (s.length < 14) return null;
  const out: number[] = [];
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return null;
    const n = (s.length + 1) / 3;
    if (n !== 6 && n !== 8 && n !== 20) return null;
    for (let i = 0, x = 0; i < n; i++, x += 3) {
      if (i < n - 1 && s[x + 2] !== s[2]) return null;
      const b = hex2(s.slice(x, x + 2));
      if (b === null) return null;
      out.push(b);
    }
    return out;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return null;
    const n = (2 * (s.length + 1)) / 5;
    if (n !== 6 && n !== 8 && n !== 20) return null;
    for (let x = 0; out.length < n; x += 5) {
      if (out.length + 2 < n && s[x + 4] !== '.') return null;
      const b0 = hex2(s.slice(x, x + 2));
      const b1 = hex2(s.slice(x + 2, x + 4));
      if (b0 === null || b1 === null) return null;
      out.push(b0, b1);
    }
    return out;
  }
  return null;
}
