/**
 * Turns the tap log (top-level plugin processes, written by the Go driver in tap mode) and the
 * shim log (delegated calls through the bash golden shims in CNI_PATH) into fixture
 * `<invocation>` objects. A delegated call belongs to the top-level process that is its parent
 * (the shim's $PPID is the real plugin's pid, recorded by the tap).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Sandbox } from './sandbox';
import { tryParse, type Json, type JsonObject } from './util';

interface TapRecord {
  plugin: string;
  env: string[];
  stdin: string;
  stdout: string;
  stderr: string;
  exitCode: number;
  pid: number;
  startNs: number;
}

interface ShimRecord {
  dir: string;
  order: string;
  ppid: number;
  /** the real plugin the shim ran */
  pid: number;
  argv0: string;
  env: Record<string, string>;
  stdin: string;
  stdout: string;
  stderr: string;
  exitCode: number;
}

function envMap(entries: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of entries) {
    const i = e.indexOf('=');
    if (i > 0) out[e.slice(0, i)] = e.slice(i + 1);
  }
  return out;
}

/** stdin/stdout fields: parsed JSON, or null plus the raw text. */
function ioFields(name: 'stdin' | 'stdout', text: string): JsonObject {
  const v = text.trim() === '' ? undefined : tryParse(text);
  if (v === undefined) return { [name]: null, [`${name}Raw`]: text };
  return { [name]: v };
}

function invocation(
  plugin: string,
  path: string,
  env: Record<string, string>,
  stdin: string,
  stdout: string,
  stderr: string,
  exitCode: number,
): JsonObject {
  return {
    plugin,
    path,
    command: env.CNI_COMMAND ?? null,
    env,
    ...ioFields('stdin', stdin),
    ...ioFields('stdout', stdout),
    stderr,
    exitCode,
  };
}

function readShimLog(dir: string): ShimRecord[] {
  if (!existsSync(dir)) return [];
  const out: ShimRecord[] = [];
  for (const name of readdirSync(dir)) {
    const d = join(dir, name);
    const rd = (f: string) => (existsSync(join(d, f)) ? readFileSync(join(d, f), 'utf8') : '');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(envMap(rd('env').split('\0')))) {
      if (k === 'PATH' || k.startsWith('CNI_')) env[k] = v;
    }
    out.push({
      dir: d,
      order: name,
      ppid: Number(rd('ppid')),
      pid: Number(rd('pid') || '-1'),
      argv0: rd('argv0'),
      env,
      stdin: rd('stdin'),
      stdout: rd('stdout'),
      stderr: rd('stderr'),
      exitCode: Number(rd('rc') || '-1'),
    });
  }
  return out.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
}

function readTapLog(dir: string): TapRecord[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as TapRecord);
}

/**
 * Collects (and clears) the logs of one step. `paths` are the plugin paths libcni found
 * (FindInPath), in exec order; for direct invocations the caller passes `<cniPath>/<plugin>`.
 */
export function collectInvocations(sb: Sandbox, paths: string[]): JsonObject[] {
  const taps = readTapLog(sb.tapLog);
  const shims = readShimLog(sb.shimLog);
  const used = new Set<ShimRecord>();
  const result = taps.map((t, i) => {
    const inv = invocation(
      t.plugin,
      paths[i] ?? join(sb.cniPath, t.plugin),
      envMap(t.env),
      t.stdin,
      t.stdout,
      t.stderr,
      t.exitCode,
    );
    // a shim's $PPID is the real plugin that ran it; a shim records its own child's pid, so
    // a delegated plugin's own delegations (flannel -> bridge -> host-local) nest under it
    const delegatedOf = (pid: number): JsonObject[] =>
      shims
        .filter((s) => s.ppid === pid)
        .map((s) => {
          used.add(s);
          const d = invocation(
            basename(s.argv0),
            s.argv0,
            s.env,
            s.stdin,
            s.stdout,
            s.stderr,
            s.exitCode,
          );
          const inner = delegatedOf(s.pid);
          if (inner.length > 0) d.delegated = inner as Json[];
          return d;
        });
    const delegated = delegatedOf(t.pid);
    if (delegated.length > 0) inv.delegated = delegated as Json[];
    return inv;
  });
  const orphans = shims.filter((s) => !used.has(s));
  if (orphans.length > 0) {
    throw new Error(
      `shim calls without a recorded parent: ${orphans.map((o) => o.dir).join(', ')}`,
    );
  }
  if (paths.length !== taps.length) {
    throw new Error(`libcni executed ${paths.length} plugins but the tap saw ${taps.length}`);
  }
  clearLogs(sb);
  return result;
}

/** Clears the logs (and re-creates the empty log dirs the shims and the tap write into). */
export function clearLogs(sb: Sandbox): void {
  for (const d of [sb.tapLog, sb.shimLog]) {
    rmSync(d, { recursive: true, force: true });
    mkdirSync(d, { recursive: true });
  }
}
