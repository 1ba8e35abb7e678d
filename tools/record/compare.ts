/**
 * Compares re-recorded fixtures with the originals and lists every difference by JSON path.
 *
 *   npx tsx tools/record/compare.ts <originals-dir> <rerecorded-dir> [--raw]
 *
 * Before comparing, the differences that are expected by construction are removed (unless --raw):
 *  - provenance: the original's `"derived": "from libcni source"` vs our
 *    `"observed": "libcni v1.1.2"` (outcome, cache block, state.cacheDir);
 *  - recordedWith.kernel and recordedWith.libcniEmulation.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObject, type Json, type JsonObject } from './lib/util';

function stripExpected(v: Json): Json {
  if (Array.isArray(v)) return v.map(stripExpected);
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'derived' && x === 'from libcni source') continue;
      if (k === 'observed' && x === 'libcni v1.1.2') continue;
      out[k] = stripExpected(x);
    }
    return out;
  }
  return v;
}

export function diff(a: Json | undefined, b: Json | undefined, path: string, out: string[]): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (isObject(a) && isObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      diff(a[k], b[k], `${path}.${k}`, out);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diff(x, b[i], `${path}[${i}]`, out));
    return;
  }
  const show = (v: Json | undefined) => (v === undefined ? '(absent)' : JSON.stringify(v));
  out.push(`${path}\n    original: ${show(a)}\n    recorded: ${show(b)}`);
}

function main(): void {
  const [origDir, newDir, ...rest] = process.argv.slice(2);
  if (!origDir || !newDir) {
    console.error(
      'usage: npx tsx tools/record/compare.ts <originals-dir> <rerecorded-dir> [--raw]',
    );
    process.exit(2);
  }
  const raw = rest.includes('--raw');
  let total = 0;
  for (const f of readdirSync(origDir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const nf = join(newDir, f);
    if (!existsSync(nf)) {
      console.log(`== ${f}: NOT RE-RECORDED`);
      total++;
      continue;
    }
    let a = JSON.parse(readFileSync(join(origDir, f), 'utf8')) as JsonObject;
    let b = JSON.parse(readFileSync(nf, 'utf8')) as JsonObject;
    if (!raw) {
      a = stripExpected(a) as JsonObject;
      b = stripExpected(b) as JsonObject;
      for (const d of [a, b]) {
        if (isObject(d.recordedWith)) {
          delete d.recordedWith.kernel;
          delete d.recordedWith.libcniEmulation;
        }
      }
    }
    const out: string[] = [];
    diff(a, b, '', out);
    console.log(`== ${f}: ${out.length === 0 ? 'identical' : `${out.length} difference(s)`}`);
    for (const d of out) console.log(`  ${d}`);
    total += out.length;
  }
  console.log(`total differences: ${total}`);
}

main();
