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
