/**
 * npm run sim -- FILE [--seed N] [--until CONDITION] [--json] [--journal N]
 *
 * Runs a scenario file (docs/scenarios.md) headless and prints where it ends: virtual time and
 * events, the pods as `kubectl get pods -o wide` shows them, each node's state, the audit and
 * the journals' last lines; with --json, the same as JSON. Exit code 1 for a file that cannot be
 * read or is not a valid scenario, 2 for bad arguments.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseCondition } from '../src/engine/scenario/condition';
import { clusterReport, formatReport, reportJson } from '../src/engine/scenario/report';
import { runScenario } from '../src/engine/scenario/run';

export const USAGE = `usage: npm run sim -- FILE [--seed N] [--until CONDITION] [--json] [--journal N]

  FILE               a scenario (JSON, docs/scenarios.md), e.g. scenarios/happy-path.json
  --seed N           run with this seed instead of the scenario's
  --until CONDITION  stop as soon as CONDITION holds, e.g. error, pod-running:web-0, time:30s
  --json             print JSON instead of text
  --journal N        journal lines per node (default 10)`;

export interface SimArgs {
  file: string;
  seed?: number;
  until?: string;
  json: boolean;
  journal: number;
}

export type ParsedArgs = { ok: true; args: SimArgs } | { ok: false; error: string; help?: boolean };

/** Parses the command line (after `--`); `--opt=value` and `--opt value` both work. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  let file: string | undefined;
  let seed: number | undefined;
  let until: string | undefined;
  let json = false;
  let journal = 10;
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
      default:
        if (a.startsWith('-')) return { ok: false, error: `unknown option ${a}` };
        if (file !== undefined)
          return { ok: false, error: `one scenario file at a time (got ${file} and ${a})` };
        file = a;
    }
  }
  if (file === undefined) return { ok: false, error: 'no scenario file given' };
  return {
    ok: true,
    args: {
      file,
      ...(seed !== undefined ? { seed } : {}),
      ...(until !== undefined ? { until } : {}),
      json,
      journal,
    },
  };
}

export interface Io {
  readFile(path: string): string;
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
  // Where the run stopped: with --until, the event that met the condition.
  const report = clusterReport(run.cluster, { step: run.summary.stop.step, journal });
  if (json) io.out(JSON.stringify(reportJson(run.summary, report), null, 2));
  else io.out(formatReport(run.summary, report, run.cluster));
  return 0;
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
