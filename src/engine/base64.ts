/** Standard base64 of UTF-8 text (Go's encoding of []byte in JSON), without DOM or Node APIs. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function utf8Bytes(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    let c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

export function utf8Decode(bytes: readonly number[]): string {
  let s = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    let c = 0xfffd;
    let n = 1;
    if (b < 0x80) c = b;
    else if (b >> 5 === 6 && i + 1 < bytes.length) {
      c = ((b & 31) << 6) | (bytes[i + 1]! & 63);
      n = 2;
    } else if (b >> 4 === 14 && i + 2 < bytes.length) {
      c = ((b & 15) << 12) | ((bytes[i + 1]! & 63) << 6) | (bytes[i + 2]! & 63);
      n = 3;
    } else if (b >> 3 === 30 && i + 3 < bytes.length) {
      c =
        ((b & 7) << 18) |
        ((bytes[i + 1]! & 63) << 12) |
        ((bytes[i + 2]! & 63) << 6) |
        (bytes[i + 3]! & 63);
      n = 4;
    }
    s += String.fromCodePoint(c);
    i += n;
  }
  return s;
}

export function base64Encode(text: string): string {
  const b = utf8Bytes(text);
  let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i]! << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!;
    out += i + 1 < b.length ? ALPHABET[(n >> 6) & 63]! : '=';
    out += i + 2 < b.length ? ALPHABET[n & 63]! : '=';
  }
  return out;
}

/** Decodes base64; null when the text is not valid base64 (Go: illegal base64 data). */
export function base64Decode(s: string): string | null {
  if (s.length % 4 !== 0) return null;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i += 4) {
    const v = [0, 1, 2, 3].map((j) => (s[i + j] === '=' ? -2 : ALPHABET.indexOf(s[i + j]!)));
    if (v.some((x) => x === -1)) return null;
    const n =
      ((v[0]! & 63) << 18) |
      ((v[1]! & 63) << 12) |
      ((Math.max(v[2]!, 0) & 63) << 6) |
      (Math.max(v[3]!, 0) & 63);
    bytes.push((n >> 16) & 255);
    if (v[2] !== -2) bytes.push((n >> 8) & 255);
    if (v[3] !== -2) bytes.push(n & 255);
  }
  return utf8Decode(bytes);
}
