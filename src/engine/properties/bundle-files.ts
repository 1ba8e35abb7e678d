/** Test helpers for node bundles (src/engine/bundle): the testdata bundles' files, tar and tar.gz writers. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, strToU8 } from 'fflate';
import type { BundleFile } from '../bundle/archive';

const TESTDATA = join(dirname(fileURLToPath(import.meta.url)), '..', 'bundle', 'testdata');

/** The files of a testdata bundle, under a top folder as the collection command makes them. */
export function testBundleFiles(name: string, top = 'node-bundle'): BundleFile[] {
  const out: BundleFile[] = [];
  const walk = (rel: string) => {
    for (const n of readdirSync(join(TESTDATA, name, rel)).sort()) {
      const r = rel ? `${rel}/${n}` : n;
      if (statSync(join(TESTDATA, name, r)).isDirectory()) walk(r);
      else
        out.push({
          path: `${top}/${r}`,
          data: new Uint8Array(readFileSync(join(TESTDATA, name, r))),
        });
    }
  };
  walk('');
  return out;
}

interface TarEntry {
  name: string;
  data?: Uint8Array | string;
  type?: string;
  linkname?: string;
  size?: number;
}

/** A minimal ustar writer for the tests. */
export function tar(entries: TarEntry[], end = true): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const e of entries) {
    const data = typeof e.data === 'string' ? strToU8(e.data) : (e.data ?? new Uint8Array());
    const h = new Uint8Array(512);
    const put = (off: number, s: string) => h.set(strToU8(s).subarray(0, s.length), off);
    put(0, e.name.slice(0, 100));
    put(100, '0000644\0');
    put(108, '0000000\0');
    put(116, '0000000\0');
    put(124, `${(e.size ?? data.length).toString(8).padStart(11, '0')}\0`);
    put(136, '00000000000\0');
    h[156] = (e.type ?? '0').charCodeAt(0);
    if (e.linkname) put(157, e.linkname);
    put(257, 'ustar\0');
    put(263, '00');
    for (let i = 148; i < 156; i++) h[i] = 0x20;
    let sum = 0;
    for (const b of h) sum += b;
    put(148, `${sum.toString(8).padStart(6, '0')}\0 `);
    blocks.push(h);
    const padded = new Uint8Array(Math.ceil(data.length / 512) * 512);
    padded.set(data);
    blocks.push(padded);
  }
  if (end) blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let o = 0;
  for (const b of blocks) {
    out.set(b, o);
    o += b.length;
  }
  return out;
}

export function tgzOf(files: BundleFile[]): Uint8Array {
  return gzipSync(tar(files.map((f) => ({ name: f.path, data: f.data }))));
}
