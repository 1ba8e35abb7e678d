/**
 * npm run sim -- FILE [--seed N] [--until CONDITION] [--json] [--journal N] [--exec 'NODE: LINE']...
 *
 * Runs a scenario file (docs/scenarios.md) headless and prints where it ends: virtual time and
 * events, the pods as `kubectl get pods -o wide` shows them, each node's state, the audit and
 * the journals' last lines; with --json, the same as JSON. Exit code 1 for a file that cannot be
 * read or is not a valid scenario, 2 for bad arguments.
 *
 * With --exec, runs shell lines on nodes where the run stopped instead (docs/shell.md), one
 * shell session per node as in the app's terminal, and prints what they print (--json: their
 * stdout, stderr and status); the exit code is the last line's.
 *
 * With --node BUNDLE (docs/your-node.md), builds a node from a real node's bundle (a folder or a
 * .tar.gz), dry-runs the staging drill on it and prints what would break; --before BUNDLE2 adds
 * the differences from the node's current bundle. Exit code 1 for a bundle that cannot be read,
 * 3 when the report has errors, 0 otherwise.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseCondition } from '../src/engine/scenario/condition';
import { clusterReport, formatReport, reportJson } from '../src/engine/scenario/report';
import { runScenario } from '../src/engine/scenario/run';
import type { Cluster } from '../src/engine/cluster/cluster';
import { defaultSnapshot, type RunResult, type ShellSnapshot } from '../src/engine/shell';
import {
  type BundleLoad,
  compareBundles,
  formatNodeReport,
  nodeReport,
} from '../src/engine/bundle';
import { readBundlePath } from './node-bundle';

export const USAGE = `usage: npm run sim -- FILE [--seed N] [--until CONDITION] [--json] [--journal N]
                          [--exec 'NODE: LINE']...
       npm run sim -- --node BUNDLE [--before BUNDLE] [--pods N] [--json]

  FILE               a scenario (JSON, docs/scenarios.md), e.g. scenarios/happy-path.json
  --seed N           run with this seed instead of the scenario's
  --until CONDITION  stop as soon as CONDITION holds, e.g. error, pod-running:web-0, time:30s
  --json             print JSON instead of text
  --journal N        journal lines per node (default 10)
  --exec 'NODE: LINE'  run LINE in NODE's shell where the run stopped, and print its output
                     instead of the report (repeatable), e.g. --exec 'node-1: ip netns list'
  --node BUNDLE      a real node's bundle (folder or .tar.gz, docs/your-node.md): build the node,
                     dry-run the staging drill, report what would break
  --before BUNDLE    the node's current bundle: add the differences to the report
  --pods N           pods to scale to in the drill (default 10)`;

export interface SimArgs {
  file: string;
  seed?: number;
  until?: string;
  json: boolean;
  journal: number;
  /** Shell lines to run on nodes where the run stopped. */
  exec?: Array<{ node: string; line: string }>;
  /** A node bundle to report on (then `file` is empty). */
  node?: string;
  before?: string;
  pods?: number;
}

export type ParsedArgs = { ok: true; args: SimArgs } | { ok: false; error: string; help?: boolean };

/** Parses the command line (after `--`); `--opt=value` and `--opt value` both work. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  let file: string | undefined;
  let seed: number | undefined;
  let until: string | undefined;
  let json = false;
  let journal = 10;
  const exec: Array<{ node: string; line: string }> = [];
  let node: string | undefined;
  let before: string | undefined;
  let pods: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i]!;
    let value: string | undefined;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) {
      value = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const next = (): string | null => {
      if (value !== undefined) return value;
      const v = argv[i + 1];
      if (v === undefined) return null;
      i++;
      return v;
    };
    switch (a) {
      case '-h':
      case '--help':
        return { ok: false, error: USAGE, help: true };
      case '--json':
        json = true;
        break;
      case '--seed': {
        const v = next();
        if (v === null || !/^\d+$/.test(v) || Number(v) > 0xffffffff)
          return {
            ok: false,
            error: `--seed: expected a number from 0 to 4294967295, got ${v ?? 'nothing'}`,
          };
        seed = Number(v);
        break;
      }
      case '--until': {
        const v = next();
        if (v === null) return { ok: false, error: '--until: expected a condition' };
        const c = parseCondition(v);
        if (!c.ok) return { ok: false, error: `--until: ${c.error}` };
        until = v;
        break;
      }
      case '--journal': {
        const v = next();
        if (v === null || !/^\d+$/.test(v))
          return {
            ok: false,
            error: `--journal: expected a number of lines, got ${v ?? 'nothing'}`,
          };
        journal = Number(v);
        break;
      }
      case '--exec': {
        const v = next();
        const m = v === null ? null : /^\s*([^\s:]+)\s*:\s?([\s\S]*)$/.exec(v);
        if (!m || m[2]!.trim() === '')
          return {
            ok: false,
            error: `--exec: expected 'NODE: LINE', e.g. 'node-1: ip netns list', got ${v ?? 'nothing'}`,
          };
        exec.push({ node: m[1]!, line: m[2]! });
        break;
      }
      case '--node':
      case '--before': {
        const v = next();
        if (v === null || v === '')
          return { ok: false, error: `${a}: expected a bundle (folder or .tar.gz)` };
        if (a === '--node') node = v;
        else before = v;
        break;
      }
      case '--pods': {
        const v = next();
        if (v === null || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 120)
          return {
            ok: false,
            error: `--pods: expected a number from 1 to 120, got ${v ?? 'nothing'}`,
          };
        pods = Number(v);
        break;
      }
      default:
        if (a.startsWith('-')) return { ok: false, error: `unknown option ${a}` };
        if (file !== undefined)
          return { ok: false, error: `one scenario file at a time (got ${file} and ${a})` };
        file = a;
    }
  }
  if (node !== undefined) {
    if (file !== undefined)
      return { ok: false, error: `--node: a bundle or a scenario file, not both (got ${file})` };
    return {
      ok: true,
      args: {
        file: '',
        json,
        journal,
        node,
        ...(before ? { before } : {}),
        ...(pods ? { pods } : {}),
      },
    };
  }
  if (before !== undefined || pods !== undefined)
    return { ok: false, error: `${before !== undefined ? '--before' : '--pods'} goes with --node` };
  if (file === undefined) return { ok: false, error: 'no scenario file given' };
  return {
    ok: true,
    args: {
      file,
      ...(seed !== undefined ? { seed } : {}),
      ...(until !== undefined ? { until } : {}),
      json,
      journal,
      ...(exec.length ? { exec } : {}),
    },
  };
}

export interface Io {
  readFile(path: string): string;
  /** Reads a node bundle (a folder or an archive); default: from disk. */
  readBundle?(path: string): BundleLoad;
  out(text: string): void;
  err(text: string): void;
}

/** The whole command; returns the exit code. */
export function main(argv: readonly string[], io: Io): number {
  const p = parseArgs(argv);
  if (!p.ok) {
    if (p.help) {
      io.out(p.error);
      return 0;
    }
    io.err(`sim: ${p.error}\n${USAGE}`);
    return 2;
  }
  if (p.args.node !== undefined) return nodeMain(p.args, io);
  const { file, json, journal } = p.args;
  let text: string;
  try {
    text = io.readFile(file);
  } catch (e) {
    const code = (e as { code?: string }).code;
    io.err(
      `sim: cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
    return 1;
  }
  const run = runScenario(text, {
    ...(p.args.seed !== undefined ? { seed: p.args.seed } : {}),
    ...(p.args.until !== undefined ? { until: p.args.until } : {}),
  });
  if (!run.ok) {
    io.err(`sim: ${file} is not a valid scenario:\n${run.errors.map((e) => `  ${e}`).join('\n')}`);
    return 1;
  }
  if (p.args.exec) return execLines(run.cluster, p.args.exec, json, io);
  // Where the run stopped: with --until, the event that met the condition.
  const report = clusterReport(run.cluster, { step: run.summary.stop.step, journal });
  if (json) io.out(JSON.stringify(reportJson(run.summary, report), null, 2));
  else io.out(formatReport(run.summary, report, run.cluster));
  return 0;
}

/** --node: the report on a bundle's node (and the differences from --before). */
function nodeMain(args: SimArgs, io: Io): number {
  const read =
    io.readBundle ??
    ((path: string) => readBundlePath(resolve(process.env['INIT_CWD'] ?? process.cwd(), path)));
  const after = read(args.node!);
  if (!after.ok) {
    io.err(`sim: ${args.node} is not a usable node bundle: ${after.error}`);
    return 1;
  }
  let report;
  const opts = args.pods ? { pods: args.pods } : {};
  if (args.before !== undefined) {
    const before = read(args.before);
    if (!before.ok) {
      io.err(`sim: ${args.before} is not a usable node bundle: ${before.error}`);
      return 1;
    }
    report = compareBundles(before.bundle, after.bundle, opts);
  } else report = nodeReport(after.bundle, opts);
  io.out(args.json ? JSON.stringify(report, null, 2) : formatNodeReport(report));
  return report.findings.some((f) => f.severity === 'error') ? 3 : 0;
}

/** Runs --exec lines: each node's lines continue one shell session. */
function execLines(
  cluster: Cluster,
  lines: ReadonlyArray<{ node: string; line: string }>,
  json: boolean,
  io: Io,
): number {
  const sessions = new Map<string, ShellSnapshot>();
  const results: Array<{ node: string; line: string } & Omit<RunResult, 'output'>> = [];
  let code = 0;
  for (const { node, line } of lines) {
    if (!cluster.spec.nodes.some((n) => n.name === node)) {
      io.err(
        `sim: --exec: no node ${node} (nodes: ${cluster.spec.nodes.map((n) => n.name).join(', ')})`,
      );
      return 2;
    }
    const prev = sessions.get(node);
    const r = cluster.shell(node, line, prev ? { resume: prev } : {});
    sessions.set(node, r.exited ? defaultSnapshot() : r.state);
    code = r.exitCode;
    if (json) {
      const { output: _, state: __, ...rest } = r;
      results.push({ node, line, ...rest });
    } else if (r.output !== '') io.out(r.output.replace(/\n$/, ''));
  }
  if (json) io.out(JSON.stringify(results, null, 2));
  return code;
}

const nodeIo: Io = {
  // npm runs scripts in the package root; a relative path is the caller's (INIT_CWD).
  readFile: (path) => readFileSync(resolve(process.env['INIT_CWD'] ?? process.cwd(), path), 'utf8'),
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2), nodeIo);
}
