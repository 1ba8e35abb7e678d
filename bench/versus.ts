/**
 * The comparison section of `npm run bench` (its method is described in engine.bench.ts): the
 * baseline commit checked out in a temporary git worktree, each job of bench/measure.ts run in a
 * child process against it and against the current checkout, interleaved, and one table.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  median,
  type GrowthParams,
  type GrowthResult,
  type Job,
  type MemParams,
  type MemResult,
  type QuickParams,
  type QuickResult,
} from './measure';

const MEASURE = join(dirname(fileURLToPath(import.meta.url)), 'measure.ts');

export interface VersusOptions {
  /** The current checkout (its working tree is what is measured). */
  root: string;
  /** The baseline: a commit-ish of the same repository. */
  baseline: string;
  /** Rounds of the quick job (a, b) per version. */
  reps: number;
  invokeRounds: number;
  /** The big cluster: the pod of (c) compared with the 50th, and the pods of (e). */
  big: number;
  heapCycles: number;
  /** Which jobs to run (quick, growth, mem). */
  jobs: Job[];
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** The baseline checked out in a temporary worktree, with the current node_modules linked in. */
function baselineWorktree(root: string, ref: string): { dir: string; remove: () => void } {
  const sha = git(root, 'rev-parse', '--verify', `${ref}^{commit}`);
  const tmp = mkdtempSync(join(tmpdir(), 'cnisim-bench-'));
  const dir = join(tmp, `cnisim-${sha.slice(0, 7)}`);
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try {
      unlinkSync(join(dir, 'node_modules'));
    } catch {
      // not linked yet
    }
    spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: root });
    rmSync(tmp, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: root });
  };
  const onSignal = (sig: NodeJS.Signals) => {
    running?.kill('SIGTERM');
    remove();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', remove);
  try {
    git(root, 'worktree', 'add', '--detach', dir, sha);
    symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'), 'dir');
  } catch (e) {
    remove();
    throw e;
  }
  return { dir, remove };
}

/** The job running now (killed with the bench on SIGINT or SIGTERM). */
let running: ChildProcess | null = null;

/** Runs one job of measure.ts against the checkout at `root`, in a process of its own. */
async function runJob<R>(root: string, job: Job, params: object): Promise<R> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', MEASURE, root, job, JSON.stringify(params)],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  running = child;
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((ok, fail) => {
    child.on('error', fail).on('close', (c, s) => ok([c, s]));
  });
  running = null;
  const lines = stdout.split('\n');
  const out = lines.find((l) => l.startsWith('RESULT '));
  const rest = lines.filter((l) => l && !l.startsWith('RESULT '));
  if (rest.length) console.error(rest.join('\n'));
  if (code !== 0 || !out) throw new Error(`${job} at ${root} failed (exit ${code ?? signal})`);
  return JSON.parse(out.slice('RESULT '.length)) as R;
}

// ---------------------------------------------------------------------------------------------
// The table

interface Row {
  label: string;
  old: number[];
  cur: number[];
  digits: number;
  /** The cell's centre and what the new/old column compares: the median, or the mean. */
  stat?: 'mean';
  /** Shown in the new/old column unless false. */
  ratio?: boolean;
  target?: { text: string; met: (cur: number, old: number) => boolean };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const centre = (r: Row, xs: number[]) => (!xs.length ? NaN : r.stat ? mean(xs) : median(xs));

function cell(r: Row, xs: number[]): string {
  const digits = r.digits;
  if (xs.length === 0) return '—';
  const m = centre(r, xs).toFixed(digits);
  if (xs.length === 1) return m;
  return `${m} [${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}]`;
}

function table(rows: Row[], oldName: string, curName: string): string {
  const head = ['', oldName, curName, 'new/old', 'target', ''];
  const body = rows.map((r) => {
    const o = centre(r, r.old);
    const c = centre(r, r.cur);
    const ratio = r.ratio === false || !(o > 0) || Number.isNaN(c) ? '' : (c / o).toFixed(2);
    const verdict = !r.target || Number.isNaN(c) ? '' : r.target.met(c, o) ? 'met' : 'NOT met';
    return [r.label, cell(r, r.old), cell(r, r.cur), ratio, r.target?.text ?? '', verdict];
  });
  const widths = head.map((_, i) => Math.max(...[head, ...body].map((l) => l[i]!.length)));
  const line = (l: string[]) =>
    l
      .map((s, i) => (i === 0 ? s.padEnd(widths[i]!) : s.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [head, ...body].map(line).join('\n');
}

// ---------------------------------------------------------------------------------------------

export async function versus(o: VersusOptions): Promise<void> {
  const dirty = git(o.root, 'status', '--porcelain', '--untracked-files=no') !== '';
  const curName = `current ${git(o.root, 'rev-parse', '--short', 'HEAD')}${dirty ? '+' : ''}`;
  const oldName = `baseline ${git(o.root, 'rev-parse', '--short', `${o.baseline}^{commit}`)}`;
  console.log(
    `versus: ${oldName} (temporary worktree) and ${curName}${dirty ? ' (with uncommitted changes)' : ''}, each job in a child process`,
  );
  const started = performance.now();
  const wt = baselineWorktree(o.root, o.baseline);
  const versions = [
    { name: 'baseline', root: wt.dir },
    { name: 'current', root: o.root },
  ] as const;
  const res = {
    quick: { baseline: [] as QuickResult[], current: [] as QuickResult[] },
    growth: { baseline: [] as GrowthResult[], current: [] as GrowthResult[] },
    mem: { baseline: [] as MemResult[], current: [] as MemResult[] },
  };
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const quickP: QuickParams = { pods: 110, invokeRounds: o.invokeRounds };
  const growthP: GrowthParams = {
    low: 50,
    high: o.big,
    window: 40,
    heapPods: 250,
    heapCycles: o.heapCycles,
    heapBatch: 5,
  };
  const memP: MemParams = { pods: o.big };
  /** Both versions, the first of them alternating from one round to the next. */
  const both = (round: number) => (round % 2 ? [...versions].reverse() : versions);
  try {
    if (o.jobs.includes('quick'))
      for (let round = 0; round < o.reps; round++)
        for (const v of both(round)) {
          const r = await runJob<QuickResult>(v.root, 'quick', quickP);
          res.quick[v.name].push(r);
          console.log(
            `  ${v.name} quick ${round + 1}/${o.reps}: ${quickP.pods}-pod scale-up ${s(r.scaleUp.wall)} (${s(r.scaleUp.cpu)} CPU), plugin invocation ${r.invocation.toFixed(3)} ms`,
          );
        }
    if (o.jobs.includes('growth'))
      for (const v of both(0)) {
        const r = await runJob<GrowthResult>(v.root, 'growth', growthP);
        res.growth[v.name].push(r);
        console.log(
          `  ${v.name} growth: pod ~${growthP.low} ${mean(r.low.wall).toFixed(1)} ms, pod ~${growthP.high} ${mean(r.high.wall).toFixed(1)} ms, ${Math.round((r.heap.retained - r.heap.payload) / r.heap.steps)} B/step at ${growthP.heapPods} pods`,
        );
      }
    if (o.jobs.includes('mem'))
      for (const v of both(1)) {
        const r = await runJob<MemResult>(v.root, 'mem', memP);
        res.mem[v.name].push(r);
        console.log(
          `  ${v.name} mem: ${memP.pods} pods in ${s(r.wall)}, heap ${(r.heap / 2 ** 20).toFixed(0)} MB, peak RSS ${(r.peakRss / 2 ** 20).toFixed(0)} MB`,
        );
      }
  } finally {
    wt.remove();
  }

  const rows: Row[] = [];
  const both2 = <T>(rs: { baseline: T[]; current: T[] }, f: (r: T) => number) => ({
    old: rs.baseline.map(f),
    cur: rs.current.map(f),
  });
  if (o.jobs.includes('quick')) {
    rows.push(
      {
        label: `a. ${quickP.pods}-pod scale-up, 3 nodes: wall s`,
        ...both2(res.quick, (r) => r.scaleUp.wall / 1000),
        digits: 2,
        target: { text: 'new/old <= 0.20', met: (c, old) => c <= old / 5 },
      },
      {
        label: '   the same, CPU s',
        ...both2(res.quick, (r) => r.scaleUp.cpu / 1000),
        digits: 2,
      },
      {
        label: '   trace steps',
        ...both2(res.quick, (r) => r.scaleUp.steps),
        digits: 0,
      },
      {
        label: 'b. one plugin invocation (bridge + host-local): median ms',
        ...both2(res.quick, (r) => r.invocation),
        digits: 3,
        target: { text: '< 0.5 ms', met: (c) => c < 0.5 },
      },
    );
  }
  if (o.jobs.includes('growth')) {
    const g = res.growth;
    const lo = g.current[0]?.low.first ?? g.baseline[0]!.low.first;
    const hi = g.current[0]?.high.first ?? g.baseline[0]!.high.first;
    const w = growthP.window;
    const costRatio = (r: GrowthResult) => mean(r.high.wall) / mean(r.low.wall);
    rows.push(
      {
        label: `c. one more pod at ${lo}..${lo + w - 1} pods: mean wall ms`,
        stat: 'mean',
        old: g.baseline.flatMap((r) => r.low.wall),
        cur: g.current.flatMap((r) => r.low.wall),
        digits: 1,
      },
      {
        label: `   one more pod at ${hi}..${hi + w - 1} pods: mean wall ms`,
        stat: 'mean',
        old: g.baseline.flatMap((r) => r.high.wall),
        cur: g.current.flatMap((r) => r.high.wall),
        digits: 1,
      },
      {
        label: `   pod ~${growthP.high} / pod ~${growthP.low} (means)`,
        ...both2(g, costRatio),
        digits: 2,
        target: { text: '<= 1.5', met: (c) => c <= 1.5 },
      },
      {
        label: '   the same in CPU time (steadier on a busy machine)',
        ...both2(g, (r) => mean(r.high.cpu) / mean(r.low.cpu)),
        digits: 2,
        target: { text: '<= 1.5', met: (c) => c <= 1.5 },
      },
      {
        label: `d. retained heap per step at ${growthP.heapPods} pods, payload excluded: B`,
        ...both2(g, (r) => (r.heap.retained - r.heap.payload) / r.heap.steps),
        digits: 0,
        target: { text: '<= 2048 B', met: (c) => c <= 2048 },
      },
      {
        label: '   payload strings (subtracted): B/step',
        ...both2(g, (r) => r.heap.payload / r.heap.steps),
        digits: 0,
      },
      {
        label: `   steps of ${growthP.heapCycles} cycles of -${growthP.heapBatch}/+${growthP.heapBatch} pods`,
        ...both2(g, (r) => r.heap.steps),
        digits: 0,
      },
    );
  }
  if (o.jobs.includes('mem')) {
    const mb = (b: number) => b / 2 ** 20;
    rows.push(
      {
        label: `e. ${memP.pods} pods on 3 nodes: peak RSS MB`,
        ...both2(res.mem, (r) => mb(r.peakRss)),
        digits: 0,
        target: { text: '< 350 MB', met: (c) => c < 350 },
      },
      {
        label: '   heap after gc MB',
        ...both2(res.mem, (r) => mb(r.heap)),
        digits: 0,
      },
      {
        label: '   heap before the cluster MB',
        ...both2(res.mem, (r) => mb(r.heapBefore)),
        digits: 0,
      },
      {
        label: `   scale-up to ${memP.pods}: wall s`,
        ...both2(res.mem, (r) => r.wall / 1000),
        digits: 2,
      },
    );
  }
  console.log(
    `versus: median [min–max] over ${o.reps} child runs (a, b; b is each run's median over ${o.invokeRounds * 220} ADDs and DELs), mean [min–max] over the ${growthP.window} pods of each window (c), one run (d, e); ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log(table(rows, oldName, curName));
}
