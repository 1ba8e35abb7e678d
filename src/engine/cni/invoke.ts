/**
 * cni/pkg/invoke: finding a plugin binary in CNI_PATH and executing it the way libcni and
 * delegating plugins do, with RawExec's error interpretation.
 */
import * as vfs from '../fs/vfs';
import { goList, q } from '../gofmt';
import type { ExecResult } from '../os/process';
import type { FsState } from '../fs/vfs';
import type { Gen } from '../os/sys';
import { decode } from '../gojson/decode';
import { CniError } from './errors';
import { createResult, decodeVersion } from './create';
import { field, goAny, goInt, goString, map, struct } from './gotypes';
import { goMarshalMap } from './json';
import type { Result, ResultLib } from './result';

/** invoke.FindInPath: throws Error with Go's text. */
export function findInPath(fs: FsState, plugin: string, paths: readonly string[]): string {
  if (plugin === '') throw new Error('no plugin name provided');
  if (plugin.includes('/')) throw new Error(`invalid plugin name: ${plugin}`);
  if (paths.length === 0) throw new Error('no paths provided');
  for (const dir of paths) {
    const full = vfs.joinPath(dir || '.', plugin);
    const e = vfs.stat(fs, full);
    if (e && e.kind === 'file' && !e.nsfs) return full;
  }
  throw new Error(`failed to find plugin ${q(plugin)} in path ${goList(paths)}`);
}

/** filepath.SplitList */
export function splitList(p: string): string[] {
  return p === '' ? [] : p.split(':');
}

/** The environment of a plugin process: the caller's environment plus the CNI_* variables. */
export interface CniArgs {
  command: string;
  containerId: string;
  netns: string;
  pluginArgs: ReadonlyArray<readonly [string, string]>;
  pluginArgsStr?: string;
  ifName: string;
  path: string;
}

export function argsAsEnv(
  base: Readonly<Record<string, string>>,
  a: CniArgs,
): Record<string, string> {
  const argsStr = a.pluginArgsStr || a.pluginArgs.map(([k, v]) => `${k}=${v}`).join(';');
  return {
    ...base,
    CNI_COMMAND: a.command,
    CNI_CONTAINERID: a.containerId,
    CNI_NETNS: a.netns,
    CNI_ARGS: argsStr,
    CNI_IFNAME: a.ifName,
    CNI_PATH: a.path,
  };
}

export type Executor = (
  path: string,
  env: Record<string, string>,
  stdin: string,
) => Gen<ExecResult>;

const ERROR_TYPE = struct('types.Error', [
  field('Code', { kind: 'uint' }, 'code', { prop: 'code' }),
  field('Msg', goString, 'msg', { prop: 'msg' }),
  field('Details', goString, 'details,omitempty', { prop: 'details' }),
]);
void goInt;

/** RawExec.pluginErr: the error libcni (or a delegating plugin) sees when a plugin fails. */
export function pluginErr(res: ExecResult): CniError {
  // Any error of exec.Cmd.Run() (a start error, "context canceled" when the context was done
  // before Start, "signal: killed" when it was cancelled while the plugin ran) is wrapped.
  const cause =
    res.startError ?? (res.signal ? `signal: ${res.signal}` : `exit status ${res.exitCode}`);
  if (res.stdout.length === 0) {
    if (res.stderr.length === 0)
      return new CniError(0, `netplugin failed with no error message: ${cause}`);
    return new CniError(0, `netplugin failed: ${q(res.stderr)}`);
  }
  const r = decode<{ code: number; msg: string; details: string }>(res.stdout, ERROR_TYPE);
  if (r.error !== null) {
    return new CniError(
      0,
      `netplugin failed but error parsing its diagnostic message ${q(res.stdout)}: ${r.error}`,
    );
  }
  return new CniError(r.value.code, r.value.msg, r.value.details);
}

/** RawExec.ExecPlugin: stdout on success; throws the plugin's error otherwise. */
export function* execPlugin(
  exec: Executor,
  path: string,
  stdin: string,
  env: Record<string, string>,
  onStderr?: (s: string) => void,
): Gen<string> {
  const res = yield* exec(path, env, stdin);
  if (res.startError !== undefined || res.exitCode !== 0) throw pluginErr(res);
  if (res.stderr && onStderr) onStderr(res.stderr);
  return res.stdout;
}

/** map[string]interface{}, built once (the decoder caches what it learns about a type by the type object). */
const ANY_MAP = map(goAny);

/** invoke.fixupResultVersion + create.Create */
export function resultFromStdout(netconf: string, stdout: string, lib: ResultLib): Result {
  const v = decodeVersion(netconf);
  if (!v.ok) throw new Error(v.error);
  const parsed = decode<Record<string, unknown> | null>(stdout, ANY_MAP);
  if (parsed.error !== null) throw new Error(`failed to unmarshal raw result: ${parsed.error}`);
  const raw = parsed.value ?? {};
  const m = raw as Record<string, unknown>;
  const rv = m['cniVersion'];
  if (typeof rv === 'string' && rv !== '') return createResult(rv, stdout, lib);
  m['cniVersion'] = v.version;
  return createResult(v.version, goMarshalMap(m), lib);
}

export function* execPluginWithResult(
  exec: Executor,
  path: string,
  netconf: string,
  env: Record<string, string>,
  lib: ResultLib,
  onStderr?: (s: string) => void,
): Gen<Result> {
  const out = yield* execPlugin(exec, path, netconf, env, onStderr);
  return resultFromStdout(netconf, out, lib);
}
