/** pkg/ipam: delegating to the IPAM plugin named in the config, found through CNI_PATH. */
import { execPlugin, execPluginWithResult, findInPath, splitList } from '../../cni/invoke';
import type { Result, ResultLib } from '../../cni/result';
import type { Proc } from '../../os/process';
import type { Gen } from '../../os/sys';

function delegate(
  p: Proc,
  plugin: string,
  command: string,
): { path: string; env: Record<string, string> } {
  const path = findInPath(p.sys.fs, plugin, splitList(p.getenv('CNI_PATH')));
  return { path, env: { ...p.env, CNI_COMMAND: command } };
}

export function* ipamExecAdd(
  p: Proc,
  plugin: string,
  netconf: string,
  lib: ResultLib,
): Gen<Result> {
  const d = delegate(p, plugin, 'ADD');
  return yield* execPluginWithResult(p.exec, d.path, netconf, d.env, lib, (s) => (p.stderr += s));
}

export function* ipamExecDel(p: Proc, plugin: string, netconf: string): Gen<void> {
  const d = delegate(p, plugin, 'DEL');
  yield* execPlugin(p.exec, d.path, netconf, d.env, (s) => (p.stderr += s));
}

export function* ipamExecCheck(p: Proc, plugin: string, netconf: string): Gen<void> {
  const d = delegate(p, plugin, 'CHECK');
  yield* execPlugin(p.exec, d.path, netconf, d.env, (s) => (p.stderr += s));
}

export function* ipamExecCmd(p: Proc, plugin: string, netconf: string, command: string): Gen<void> {
  const d = delegate(p, plugin, command);
  yield* execPlugin(p.exec, d.path, netconf, d.env, (s) => (p.stderr += s));
}
