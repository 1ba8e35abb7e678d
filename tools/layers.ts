/**
 * The engine's layers (src/engine): which folder may import which. `LAYERS` lists them bottom
 * first; a folder (or a file directly in src/engine) may import only what sits in a lower entry,
 * never a peer in its own entry or anything above it. Type-only and dynamic imports count too.
 * Test files may import anything: `*.test.ts`, the plugins' test harnesses (`plugins/harness.ts`,
 * `plugins/pt-harness.ts`), `testkit.ts`, `faults/testing.ts` and `properties/` are left out of
 * the graph.
 *
 * The rest of src/ (the UI, the embed, the element) may import only the facade, src/engine/index.ts
 * (tests aside).
 *
 * `npm run lint` runs this: it fails on an upward or sideways arrow, on a folder missing from
 * `LAYERS`, on a cycle between files, and on an import of src/engine past its facade. `npx tsx tools/layers.ts --graph` prints the folder
 * graph (each folder and the folders it imports; the known upward arrows marked).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Bottom first. An entry's members do not import each other. */
export const LAYERS: readonly (readonly string[])[] = [
  ['state'],
  ['base64.ts', 'brand.ts', 'rng.ts', 'utf8.ts', 'schema-text.ts', 'net', 'trace', 'gojson', 'fs'],
  ['gofmt.ts'],
  ['kernel'],
  ['sim'],
  ['dataplane'],
  ['sched'],
  ['os'],
  ['cni'],
  ['plugins', 'libcni'],
  ['node'],
  ['runtime', 'apiserver'],
  ['kubelet'],
  ['shell'],
  ['cluster'],
  ['faults', 'conformance'],
  ['scenario'],
  ['session', 'bundle'],
  ['course'],
  ['demo.ts', 'app.ts', 'terminal.ts', 'landing.ts'],
  ['index.ts'],
];

/**
 * Arrows known to run upward, each `file -> imported file` (paths under src/engine). None today:
 * the world's state types (the API server's, containerd's, the kubelet's) live in state/.
 */
export const KNOWN_UPWARD: readonly string[] = [];

const TEST_SUPPORT =
  /(\.test\.ts$|^plugins\/(pt-)?harness\.ts$|^testkit\.ts$|^faults\/testing\.ts$|^properties\/)/;

export interface Graph {
  /** file (relative to the engine root) → the engine files it imports */
  files: Map<string, string[]>;
}

function walk(dir: string, ext = /\.ts$/): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? walk(p, ext) : ext.test(n) ? [p] : [];
    });
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The files a source file imports by relative path (static, dynamic and type-only imports). */
function importsOf(abs: string): string[] {
  const info = ts.preProcessFile(readFileSync(abs, 'utf8'), true, true);
  const out: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const t = resolve(dirname(abs), fileName);
    const target = [`${t}.ts`, `${t}.tsx`, join(t, 'index.ts'), t].find(isFile);
    if (target === undefined) throw new Error(`${abs}: cannot resolve ${fileName}`);
    out.push(target);
  }
  return [...new Set(out)];
}

/** The engine's import graph, read from the sources (test support left out). */
export function readGraph(root: string): Graph {
  const files = new Map<string, string[]>();
  for (const abs of walk(root)) {
    const rel = relative(root, abs);
    if (TEST_SUPPORT.test(rel)) continue;
    const deps = importsOf(abs)
      .map((t) => relative(root, t))
      .filter((r) => !r.startsWith('..') && r.endsWith('.ts')); // course data: outside the engine
    files.set(rel, deps);
  }
  return { files };
}

/**
 * The import graph of the app's own code (src/ outside src/engine: the UI, the embed, the
 * element), files relative to src/, tests left out. The app's store is split so that it has no
 * cycles (src/ui/store.ts).
 */
export function appGraph(src: string, engine: string): Graph {
  const files = new Map<string, string[]>();
  for (const abs of walk(src, /\.tsx?$/)) {
    if (abs.startsWith(engine + '/') || /\.test\.tsx?$/.test(abs) || abs.endsWith('.d.ts'))
      continue;
    const deps = importsOf(abs)
      .filter((t) => !t.startsWith(engine + '/') && /\.tsx?$/.test(t))
      .map((t) => relative(src, t));
    files.set(relative(src, abs), deps);
  }
  return { files };
}

/** Imports of src/engine from the rest of src/ that go past the facade (tests aside). */
export function facadeProblems(src: string, engine: string): string[] {
  const facade = join(engine, 'index.ts');
  const out: string[] = [];
  for (const abs of walk(src, /\.tsx?$/)) {
    if (abs.startsWith(engine + '/') || /\.test\.tsx?$/.test(abs)) continue;
    for (const t of importsOf(abs)) {
      if (t.startsWith(engine + '/') && t !== facade) {
        out.push(
          `${relative(src, abs)} imports ${relative(src, t)}: use the facade, src/engine/index.ts`,
        );
      }
    }
  }
  return out;
}

/** The layer unit of a file: its top folder, or the file itself directly under the root. */
export function unitOf(file: string): string {
  const i = file.indexOf('/');
  return i < 0 ? file : file.slice(0, i);
}

/** Folder graph: unit → units it imports (without itself), sorted. */
export function folderGraph(g: Graph): Map<string, string[]> {
  const m = new Map<string, Set<string>>();
  for (const [f, deps] of g.files) {
    const a = unitOf(f);
    const s = m.get(a) ?? new Set<string>();
    m.set(a, s);
    for (const d of deps) if (unitOf(d) !== a) s.add(unitOf(d));
  }
  return new Map([...m].sort(([a], [b]) => rank(a) - rank(b)).map(([k, v]) => [k, [...v].sort()]));
}

function rank(unit: string, layers = LAYERS): number {
  const i = layers.findIndex((l) => l.includes(unit));
  return i < 0 ? Infinity : i;
}

/** Cycles between files (strongly connected components of more than one file, or a self-import). */
export function fileCycles(g: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  let n = 0;
  const visit = (v: string): void => {
    index.set(v, n);
    low.set(v, n++);
    stack.push(v);
    on.add(v);
    for (const w of g.files.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (g.files.get(v) ?? []).includes(v)) out.push(c.sort());
    }
  };
  for (const f of g.files.keys()) if (!index.has(f)) visit(f);
  return out;
}

/** Every problem: arrows that do not point down, units missing from the layers, file cycles. */
export function problems(
  g: Graph,
  layers: readonly (readonly string[])[] = LAYERS,
  known: readonly string[] = KNOWN_UPWARD,
): string[] {
  const out: string[] = [];
  const units = new Set([...g.files.keys()].map(unitOf));
  for (const u of [...units].sort()) {
    if (rank(u, layers) === Infinity) out.push(`${u}: not in LAYERS (tools/layers.ts)`);
  }
  for (const [f, deps] of g.files) {
    const a = unitOf(f);
    for (const d of deps) {
      const b = unitOf(d);
      if (a === b || known.includes(`${f} -> ${d}`)) continue;
      const ra = rank(a, layers);
      const rb = rank(b, layers);
      if (ra === Infinity || rb === Infinity || rb < ra) continue;
      out.push(`${f} imports ${d}: ${b} is ${rb === ra ? 'beside' : 'above'} ${a}`);
    }
  }
  for (const c of fileCycles(g)) out.push(`import cycle: ${c.join(' -> ')}`);
  return out;
}

export const ENGINE_ROOT = fileURLToPath(new URL('../src/engine', import.meta.url));

function main(argv: string[]): number {
  const g = readGraph(ENGINE_ROOT);
  if (argv.includes('--graph')) {
    const up = new Set(KNOWN_UPWARD.map((k) => `${unitOf(k)} ${unitOf(k.split(' -> ')[1]!)}`));
    for (const [u, deps] of folderGraph(g)) {
      const shown = deps.map((d) => (up.has(`${u} ${d}`) ? `${d}(known, upward)` : d));
      console.log(`${u} -> ${shown.join(' ') || '(nothing)'}`);
    }
  }
  const appCycles = fileCycles(appGraph(dirname(ENGINE_ROOT), ENGINE_ROOT)).map(
    (c) => `import cycle in the app: ${c.join(' -> ')}`,
  );
  const found = [
    ...problems(g),
    ...facadeProblems(dirname(ENGINE_ROOT), ENGINE_ROOT),
    ...appCycles,
  ];
  for (const p of found) console.error(`layers: ${p}`);
  return found.length === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
