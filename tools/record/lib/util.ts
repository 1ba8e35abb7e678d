/**
 * Small helpers: JSON types, process execution, sorted JSON output.
 */
import { spawnSync } from 'node:child_process';
import { execFileSync } from 'node:child_process';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs argv[0] with argv[1..] (no shell). Never throws on a non-zero exit. */
export function run(
  argv: string[],
  opts: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): RunResult {
  const [cmd, ...args] = argv;
  if (cmd === undefined) throw new Error('run: empty argv');
  const r = spawnSync(cmd, args, {
    input: opts.input ?? '',
    env: opts.env ?? process.env,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  const exitCode = r.status ?? (r.signal ? 128 : 1);
  return { stdout: r.stdout ?? '', stderr: r.stderr ?? '', exitCode };
}

/** Runs a command and throws unless it exits 0. */
export function runOk(argv: string[], opts: { input?: string } = {}): string {
  const r = run(argv, opts);
  if (r.exitCode !== 0) {
    throw new Error(`command failed (${r.exitCode}): ${argv.join(' ')}\n${r.stderr}${r.stdout}`);
  }
  return r.stdout;
}

export function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON.parse that returns undefined instead of throwing. */
export function tryParse(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** Serialises exactly like `jq -S .` (the fixture format): sorted keys, 2-space indent. */
export function jqSorted(value: Json): string {
  return execFileSync('jq', ['-S', '.'], {
    input: JSON.stringify(value),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** Deep copy with object keys sorted (code point order, like jq -S). */
export function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const k of Object.keys(value).sort(cmpCodePoints)) out[k] = sortKeys(value[k] as Json);
    return out;
  }
  return value;
}

export function cmpCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
