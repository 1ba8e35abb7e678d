/**
 * Text helpers: file data is a JS string standing for its UTF-8 bytes (the engine's convention).
 */

export function toUtf8Bytes(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    let c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else
      out.push(
        0xf0 | (c >> 18),
        0x80 | ((c >> 12) & 0x3f),
        0x80 | ((c >> 6) & 0x3f),
        0x80 | (c & 0x3f),
      );
  }
  return out;
}

/** Decodes UTF-8; an invalid or cut sequence becomes U+FFFD (as Go's string conversion shows it). */
export function fromUtf8Bytes(b: readonly number[]): string {
  let out = '';
  for (let i = 0; i < b.length;) {
    const c = b[i]!;
    let n: number;
    let cp: number;
    if (c < 0x80) {
      out += String.fromCharCode(c);
      i++;
      continue;
    } else if (c >= 0xc2 && c < 0xe0) {
      n = 1;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c < 0xf0) {
      n = 2;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c < 0xf5) {
      n = 3;
      cp = c & 0x07;
    } else {
      out += '\ufffd';
      i++;
      continue;
    }
    let ok = true;
    for (let j = 1; j <= n && ok; j++) {
      const x = b[i + j];
      if (x === undefined || (x & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (x & 0x3f);
    }
    if (
      !ok ||
      (n === 2 && cp < 0x800) ||
      (n === 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff)
    ) {
      out += '\ufffd';
      i++;
      continue;
    }
    out += String.fromCodePoint(cp);
    i += n + 1;
  }
  return out;
}
