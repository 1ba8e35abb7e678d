/**
 * cnitool (containernetworking/cni v1.2 cnitool/cnitool.go) over the simulated libcni v1.2:
 * `cnitool add|check|del|gc|status NETWORK NETNS`, configured by the environment as the real
 * tool is:
 *
 * - NETCONFPATH: where the network's conflist is looked up (default /etc/cni/net.d);
 * - CNI_PATH: the plugin directories (colon-separated; unset means none, and the plugin is not
 *   found);
 * - CNI_IFNAME: the interface name, eth0 when the variable is not set at all;
 * - CNI_ARGS: `K=V;K=V` pairs given to the plugins (a bad pair is refused);
 * - CAP_ARGS: capability arguments as a JSON object (e.g. portMappings).
 *
 * The container id is `cnitool-` followed by the first 10 bytes (20 hex digits) of the SHA-512 of
 * the absolute netns path. `add` prints the result (4-space indented JSON, no final newline);
 * errors are printed as libcni returns them, with exit status 1. gc runs without GC args (every
 * attachment of the network is garbage), status asks the plugins for their status. The plugins
 * get the caller's environment plus the CNI_* variables, as libcni's exec does. An unknown
 * subcommand does nothing, as in the real tool.
 */
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8Bytes } from '../../base64';
import { goAny, map } from '../../cni/gotypes';
import { goMarshal } from '../../cni/json';
import { resultJSON } from '../../cni/result';
import { decode } from '../../gojson/decode';
import { q } from '../../gofmt';
import { CNIConfig, type LibcniOutcome, type RuntimeConf } from '../../libcni/api';
import { loadConfList } from '../../libcni/conf';
import { runToEnd } from '../../os/sys';
import { PROGRAMS } from '../../plugins/registry';
import '../../plugins/late';
import '../../runtime/crio-late';
import type { CommandContext, CommandSpec } from '../types';

/** The container id cnitool derives from the netns path. */
export function cnitoolContainerId(netns: string): string {
  const digest = sha512(new Uint8Array(utf8Bytes(netns)));
  let hex = '';
  for (const b of digest.slice(0, 10)) hex += b.toString(16).padStart(2, '0');
  return `cnitool-${hex}`;
}

function usage(ctx: CommandContext): number {
  const exe = ctx.argv[0]!.slice(ctx.argv[0]!.lastIndexOf('/') + 1);
  ctx.err(
    `${exe}: Add, check, remove, gc or status network interfaces from a network namespace\n` +
      `  ${exe} add    <net> <netns>\n` +
      `  ${exe} check  <net> <netns>\n` +
      `  ${exe} del    <net> <netns>\n` +
      `  ${exe} gc     <net> <netns>\n` +
      `  ${exe} status <net> <netns>\n`,
  );
  return 1;
}

function fail(ctx: CommandContext, message: string): number {
  ctx.err(`${message}\n`);
  return 1;
}

/** cnitool's parseArgs: `K=V;K=V`, each pair exactly one `=` with both sides non-empty. */
function parseCniArgs(s: string): Array<[string, string]> | string {
  const out: Array<[string, string]> = [];
  for (const pair of s.split(';')) {
    const kv = pair.split('=');
    if (kv.length !== 2 || kv[0] === '' || kv[1] === '') return `invalid CNI_ARGS pair ${q(pair)}`;
    out.push([kv[0]!, kv[1]!]);
  }
  return out;
}

function cnitool(ctx: CommandContext): number {
  const argv = ctx.argv;
  if (argv.length < 4) return usage(ctx);
  const env = ctx.env;
  const netdir = env['NETCONFPATH'] || '/etc/cni/net.d';
  let list;
  try {
    list = loadConfList(ctx.fs(), ctx.resolve(netdir), argv[2]!, { libcni: '1.2' });
  } catch (e) {
    return fail(ctx, (e as Error).message);
  }
  let capabilityArgs: Record<string, unknown> = {};
  const cap = env['CAP_ARGS'] ?? '';
  if (cap.length > 0) {
    const r = decode<Record<string, unknown> | null>(cap, map(goAny));
    if (r.error !== null) return fail(ctx, r.error);
    capabilityArgs = r.value ?? {};
  }
  let args: Array<[string, string]> = [];
  const cniArgs = env['CNI_ARGS'] ?? '';
  if (cniArgs.length > 0) {
    const r = parseCniArgs(cniArgs);
    if (typeof r === 'string') return fail(ctx, r);
    args = r;
  }
  const ifName = 'CNI_IFNAME' in env ? env['CNI_IFNAME']! : 'eth0';
  // filepath.Abs: relative to the working directory, cleaned.
  const netns = ctx.resolve(argv[3]!);
  const containerId = cnitoolContainerId(netns);
  const cniPath = env['CNI_PATH'] ?? '';
  const path = cniPath === '' ? [] : cniPath.split(':');
  const lib = new CNIConfig({
    sim: ctx.sim,
    node: ctx.nodeName,
    programs: PROGRAMS,
    path,
    version: '1.2',
    env: { ...env },
    caller: 'cnitool',
  });
  const rt: RuntimeConf = { containerId, netns, ifName, args, capabilityArgs };
  const op = argv[1]!;
  const run = (f: () => LibcniOutcome): LibcniOutcome | number => {
    try {
      return ctx.outside(() => {
        ctx.note('libcni', 'cni');
        return f();
      });
    } catch (e) {
      if (e instanceof Error && /blocks forever/.test(e.message))
        return fail(
          ctx,
          'cnisim: cnitool: a plugin blocks forever; the real cnitool would wait until killed (Ctrl-C)',
        );
      throw e;
    }
  };
  let out: LibcniOutcome | number;
  switch (op) {
    case 'add':
      out = run(() => runToEnd(lib.addNetworkList(list, rt)));
      if (typeof out === 'number') return out;
      if (out.ok && out.result) ctx.out(goMarshal(resultJSON(out.result, lib.lib), '    '));
      break;
    case 'check':
      out = run(() => runToEnd(lib.checkNetworkList(list, rt)));
      break;
    case 'del':
      out = run(() => runToEnd(lib.delNetworkList(list, rt)));
      break;
    case 'gc':
      out = run(() => runToEnd(lib.gcNetworkList(list, null)));
      break;
    case 'status':
      out = run(() => runToEnd(lib.getStatusNetworkList(list)));
      break;
    default:
      return 0;
  }
  if (typeof out === 'number') return out;
  if (!out.ok) return fail(ctx, out.error.message);
  return 0;
}

export const CNITOOL_COMMANDS: CommandSpec[] = [{ name: 'cnitool', dir: '/usr/bin', run: cnitool }];
