/**
 * Reads a node bundle from disk for `npm run sim -- --node`: a folder (its plain files; a
 * symbolic link or a special file refuses the bundle) or a `.tar.gz` / `.tar` file. The engine
 * (src/engine/bundle) checks the rest; nothing here throws.
 */
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  LIMITS,
  bundleFromArchive,
  bundleFromFiles,
  type BundleFile,
  type BundleLoad,
} from '../src/engine/bundle';

function readFolder(root: string): BundleLoad {
  const files: BundleFile[] = [];
  const dirs: string[] = [];
  let total = 0;
  let entries = 0;
  const walk = (rel: string): string | null => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(root, r));
      if (++entries > LIMITS.entries)
        return `the folder has more than ${LIMITS.entries} entries (too many)`;
      if (st.isSymbolicLink())
        return `${r} is a symbolic link: a bundle holds plain files only (links could point outside it)`;
      if (st.isDirectory()) {
        dirs.push(r);
        const e = walk(r);
        if (e) return e;
      } else if (st.isFile()) {
        if (st.size > LIMITS.fileBytes)
          return `${r} is ${st.size} bytes: a bundle file may have at most ${LIMITS.fileBytes} (too large)`;
        total += st.size;
        if (total > LIMITS.totalBytes)
          return `the files add up to more than ${LIMITS.totalBytes} bytes (too large)`;
        files.push({ path: r, data: new Uint8Array(readFileSync(join(root, r))) });
      } else return `${r} is not a plain file`;
    }
    return null;
  };
  const e = walk('');
  if (e) return { ok: false, error: e };
  return bundleFromFiles(files, dirs);
}

export function readBundlePath(path: string): BundleLoad {
  try {
    const st = lstatSync(path);
    if (st.isDirectory()) return readFolder(path);
    if (!st.isFile()) return { ok: false, error: `${path} is neither a folder nor a file` };
    if (st.size > LIMITS.archiveBytes)
      return {
        ok: false,
        error: `${path} is ${st.size} bytes: at most ${LIMITS.archiveBytes} (too large)`,
      };
    return bundleFromArchive(new Uint8Array(readFileSync(path)));
  } catch (e) {
    const code = (e as { code?: string }).code;
    return {
      ok: false,
      error:
        code === 'ENOENT' ? `${path}: no such file or folder` : `${path}: ${(e as Error).message}`,
    };
  }
}
