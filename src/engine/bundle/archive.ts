/**
 * A node bundle's bytes, as a list of files: a `.tar.gz` (or a plain `.tar`) read here, with the
 * limits and path rules every bundle obeys (docs/your-node.md). Nothing here throws: a bad archive
 * is an `ArchiveError` value naming the problem.
 */
import { Gunzip, strFromU8 } from 'fflate';

/** Limits a bundle must keep to; beyond them it is refused, not truncated. */
export const LIMITS = {
  /** The archive as given (compressed). */
  archiveBytes: 8 * 1024 * 1024,
  /** All files together, uncompressed. */
  totalBytes: 16 * 1024 * 1024,
  /** One file. */
  fileBytes: 1024 * 1024,
  /** Entries in the archive (files and directories). */
  entries: 2000,
};

/** One file of a bundle: its path inside the bundle (no leading `/`, no `..`) and its bytes. */
export interface BundleFile {
  path: string;
  data: Uint8Array;
}

export type Entries =
  { ok: true; files: BundleFile[]; dirs: string[] } | { ok: false; error: string };

const MIB = (n: number): string => `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) ? 1 : 0)} MiB`;

/**
 * Checks a path from an archive or a folder: relative, no `..`, no empty or NUL parts. Returns
 * the normalised path (no `./`, no trailing `/`) or an error text.
 */
export function cleanPath(raw: string): { ok: true; path: string } | { ok: false; error: string } {
  if (raw.includes('\0')) return { ok: false, error: `path ${JSON.stringify(raw)} contains NUL` };
  if (raw.startsWith('/'))
    return { ok: false, error: `absolute path ${JSON.stringify(raw)} (path traversal)` };
  if (/^[A-Za-z]:[\\/]/.test(raw))
    return { ok: false, error: `absolute path ${JSON.stringify(raw)} (path traversal)` };
  const parts = raw.split(/[\\/]/).filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..'))
    return { ok: false, error: `path ${JSON.stringify(raw)} leaves the bundle (path traversal)` };
  if (parts.length === 0) return { ok: true, path: '' };
  return { ok: true, path: parts.join('/') };
}

/** gunzip with a cap on the output; a truncated or corrupt stream is an error. */
export function gunzipLimited(
  data: Uint8Array,
  max = LIMITS.totalBytes + 1024 * 1024,
): { ok: true; data: Uint8Array } | { ok: false; error: string } {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  let ended = false;
  try {
    const g = new Gunzip((chunk, final) => {
      total += chunk.length;
      if (total > max) over = true;
      else chunks.push(chunk);
      if (final) ended = true;
    });
    const step = 64 * 1024;
    for (let i = 0; i < data.length && !over; i += step) {
      const end = Math.min(i + step, data.length);
      g.push(data.subarray(i, end), end === data.length);
    }
  } catch (e) {
    return {
      ok: false,
      error: `the gzip stream is corrupt or truncated (${e instanceof Error ? e.message : String(e)})`,
    };
  }
  if (over) return { ok: false, error: `the archive unpacks to more than ${MIB(max)} (too large)` };
  if (!ended) return { ok: false, error: 'the gzip stream is truncated (it ends early)' };
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return { ok: true, data: out };
}

const latin1 = (b: Uint8Array): string => {
  let s = '';
  for (const c of b) s += String.fromCharCode(c);
  return s;
};

function cstr(b: Uint8Array, off: number, len: number): string {
  let end = off;
  while (end < off + len && b[end] !== 0) end++;
  return strFromU8(b.subarray(off, end));
}

/** A numeric header field: octal digits (space/NUL padded), or GNU base-256. Null if neither. */
function num(b: Uint8Array, off: number, len: number): number | null {
  if (b[off]! & 0x80) {
    let n = 0;
    for (let i = off + 1; i < off + len; i++) {
      n = n * 256 + b[i]!;
      if (n > Number.MAX_SAFE_INTEGER) return null;
    }
    return (b[off]! & 0x40) !== 0 ? null : n + (b[off]! & 0x3f) * 256 ** (len - 1);
  }
  const s = latin1(b.subarray(off, off + len))
    .replace(/[\0 ]+$/, '')
    .replace(/^[ ]+/, '');
  if (s === '') return 0;
  if (!/^[0-7]+$/.test(s)) return null;
  return parseInt(s, 8);
}

function checksumOk(h: Uint8Array): boolean {
  const want = num(h, 148, 8);
  if (want === null) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
  return sum === want;
}

const isZero = (b: Uint8Array): boolean => b.every((x) => x === 0);

/** PAX extended header records: `LEN key=value\n`. */
function paxPath(data: Uint8Array): string | null {
  const text = strFromU8(data);
  let path: string | null = null;
  let i = 0;
  while (i < text.length) {
    const sp = text.indexOf(' ', i);
    if (sp < 0) break;
    const len = Number(text.slice(i, sp));
    if (!Number.isInteger(len) || len <= 0) break;
    const rec = text.slice(sp + 1, i + len).replace(/\n$/, '');
    const eq = rec.indexOf('=');
    if (eq > 0 && rec.slice(0, eq) === 'path') path = rec.slice(eq + 1);
    i += len;
  }
  return path;
}

/** Reads a tar archive (ustar, GNU and PAX long names): regular files and directories only. */
export function readTar(tar: Uint8Array): Entries {
  const files: BundleFile[] = [];
  const dirs: string[] = [];
  const seen = new Set<string>();
  let total = 0;
  let off = 0;
  let longName: string | null = null;
  let entries = 0;
  let ended = false;
  while (off + 512 <= tar.length) {
    const h = tar.subarray(off, off + 512);
    if (isZero(h)) {
      ended = true;
      break;
    }
    if (!checksumOk(h))
      return {
        ok: false,
        error:
          entries === 0
            ? 'not a tar archive (the first header has a bad checksum)'
            : `the archive is corrupt: bad header checksum at byte ${off}`,
      };
    if (++entries > LIMITS.entries)
      return { ok: false, error: `the archive has more than ${LIMITS.entries} entries (too many)` };
    const type = String.fromCharCode(h[156]!);
    const size = num(h, 124, 12);
    if (size === null)
      return { ok: false, error: `the archive is corrupt: bad size at byte ${off}` };
    const prefix = latin1(h.subarray(257, 262)) === 'ustar' ? cstr(h, 345, 155) : '';
    const rawName = longName ?? (prefix ? `${prefix}/${cstr(h, 0, 100)}` : cstr(h, 0, 100));
    longName = null;
    const dataStart = off + 512;
    const dataEnd = dataStart + size;
    if (dataEnd > tar.length)
      return {
        ok: false,
        error: `the archive is truncated: ${JSON.stringify(rawName)} needs ${size} bytes, ${Math.max(0, tar.length - dataStart)} are left`,
      };
    off = dataStart + Math.ceil(size / 512) * 512;
    if (type === 'L' || type === 'x') {
      if (size > 64 * 1024)
        return { ok: false, error: `the archive is corrupt: a ${size}-byte long-name header` };
      const d = tar.subarray(dataStart, dataEnd);
      longName = type === 'L' ? cstr(d, 0, d.length) : paxPath(d);
      continue;
    }
    if (type === 'g') continue;
    const p = cleanPath(rawName);
    if (!p.ok) return { ok: false, error: `archive entry refused: ${p.error}` };
    if (type === '5') {
      if (p.path) dirs.push(p.path);
      continue;
    }
    if (type === '2' || type === '1' || type === 'K')
      return {
        ok: false,
        error: `archive entry ${JSON.stringify(rawName)} is a ${type === '2' ? 'symbolic' : 'hard'} link: a bundle holds plain files only (links could point outside it)`,
      };
    if (type !== '0' && type !== '\0' && type !== '7')
      return {
        ok: false,
        error: `archive entry ${JSON.stringify(rawName)} is not a plain file (tar type ${JSON.stringify(type)})`,
      };
    if (p.path === '')
      return { ok: false, error: `archive entry ${JSON.stringify(rawName)} has no name` };
    if (size > LIMITS.fileBytes)
      return {
        ok: false,
        error: `${p.path} is ${size} bytes: a bundle file may have at most ${MIB(LIMITS.fileBytes)} (too large)`,
      };
    total += size;
    if (total > LIMITS.totalBytes)
      return {
        ok: false,
        error: `the files add up to more than ${MIB(LIMITS.totalBytes)} (too large)`,
      };
    if (seen.has(p.path)) return { ok: false, error: `${p.path} appears twice in the archive` };
    seen.add(p.path);
    files.push({ path: p.path, data: tar.slice(dataStart, dataEnd) });
  }
  if (!ended && off < tar.length)
    return { ok: false, error: `the archive is truncated (a partial header at byte ${off})` };
  if (entries === 0) return { ok: false, error: 'the archive is empty' };
  return { ok: true, files, dirs };
}

/** A `.tar.gz` or `.tar`, told apart by the gzip magic number. */
export function readArchive(bytes: Uint8Array): Entries {
  try {
    if (bytes.length === 0) return { ok: false, error: 'the file is empty' };
    if (bytes.length > LIMITS.archiveBytes)
      return {
        ok: false,
        error: `the archive is ${bytes.length} bytes: at most ${MIB(LIMITS.archiveBytes)} (too large)`,
      };
    let tar = bytes;
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      const g = gunzipLimited(bytes);
      if (!g.ok) return g;
      tar = g.data;
    } else if (bytes.length < 512 || latin1(bytes.subarray(257, 262)) !== 'ustar') {
      return {
        ok: false,
        error: 'not a node bundle: neither a .tar.gz nor a tar archive (see docs/your-node.md)',
      };
    }
    return readTar(tar);
  } catch (e) {
    return {
      ok: false,
      error: `the archive cannot be read: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}
