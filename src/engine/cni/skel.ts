/**
 * The plugin skeleton (cni/pkg/skel): reads the environment and stdin, validates them and
 * dispatches ADD / CHECK / DEL / VERSION (and GC / STATUS in newer builds) exactly as the real
 * skeleton does, printing errors as JSON on stdout with exit code 1.
 */
import { goQuoteList } from '../gofmt';
import { decode } from '../gojson/decode';
import type { Proc } from '../os/process';
import type { Gen } from '../os/sys';
import { decodeVersion } from './create';
import { CniError, ErrCode } from './errors';
import { field, goString, struct } from './gotypes';
import { goMarshal } from './json';
import { validateContainerId, validateInterfaceName, validateNetworkName } from './validate';
import { versionGte } from './version';

export interface CmdArgs {
  containerId: string;
  netns: string;
  ifName: string;
  args: string;
  path: string;
  stdin: string;
}

export type CmdFunc = (args: CmdArgs, p: Proc) => Gen<void>;

export interface SkelPlugin {
  add: CmdFunc;
  check: CmdFunc;
  del: CmdFunc;
  /** The newer skeleton (libcni v1.2+ era): knows GC and STATUS, checks the netns after ADD/DEL. */
  spec11?: boolean;
  /** false for skeletons older than spec 0.4.0: CHECK is an unknown command. */
  knowsCheck?: boolean;
  /** Spec 1.1 commands; in a newer build a plugin without them answers success. */
  gc?: CmdFunc;
  status?: CmdFunc;
  /** Spec versions the plugin accepts (VERSION answers these). */
  versions: readonly string[];
  /** The implemented spec version VERSION reports as cniVersion. */
  specVersion: string;
  /** The "about" text printed when CNI_COMMAND is missing. */
  about: string;
}

const NAME_ONLY = struct(undefined, [field('Name', goString, 'name', { prop: 'name' })]);

function validateConfig(stdin: string): CniError | null {
  const r = decode<{ name: string }>(stdin, NAME_ONLY);
  if (r.error !== null)
    return new CniError(ErrCode.DecodingFailure, `error unmarshall network config: ${r.error}`);
  if (r.value.name === '')
    return new CniError(ErrCode.InvalidNetworkConfig, 'missing network name');
  return validateNetworkName(r.value.name);
}

/** Prints a types.Error the way skel does (MarshalIndent with 4 spaces, no trailing newline). */
export function printError(p: Proc, e: CniError): void {
  p.stdout += goMarshal(e.toJSON(), '    ');
}

/** The skeleton's main: returns the process exit code. */
export function* pluginMain(p: Proc, plugin: SkelPlugin): Gen<number> {
  const err = yield* dispatch(p, plugin);
  if (err) {
    printError(p, err);
    return 1;
  }
  return 0;
}

function required(cmd: string, plugin: SkelPlugin): Record<string, boolean> {
  const attachment = cmd === 'ADD' || cmd === 'CHECK' || cmd === 'DEL';
  const spec11Cmd = !!plugin.spec11 && (cmd === 'GC' || cmd === 'STATUS');
  return {
    CNI_COMMAND: true,
    CNI_CONTAINERID: attachment,
    CNI_NETNS: cmd === 'ADD' || cmd === 'CHECK',
    CNI_IFNAME: attachment,
    CNI_ARGS: false,
    CNI_PATH: attachment || spec11Cmd,
  };
}

function* dispatch(p: Proc, plugin: SkelPlugin): Gen<CniError | null> {
  const cmd = p.getenv('CNI_COMMAND');
  const req = required(cmd, plugin);
  const missing = Object.keys(req).filter((k) => p.getenv(k) === '' && req[k]);
  if (missing.length > 0) {
    if (cmd === '' && plugin.about) {
      p.stderr += `${plugin.about}\nCNI protocol versions supported: ${plugin.versions.join(', ')}\n`;
      return null;
    }
    return new CniError(
      ErrCode.InvalidEnvironmentVariables,
      `required env variables [${missing.join(',')}] missing`,
    );
  }
  const args: CmdArgs = {
    containerId: p.getenv('CNI_CONTAINERID'),
    netns: p.getenv('CNI_NETNS'),
    ifName: p.getenv('CNI_IFNAME'),
    args: p.getenv('CNI_ARGS'),
    path: p.getenv('CNI_PATH'),
    stdin: cmd === 'VERSION' ? '' : p.stdin,
  };
  // The v1.1 skeleton validates the container id and ifname for every command but VERSION;
  // the newer one not for GC and STATUS, which have no attachment.
  const attachmentCmd = cmd !== 'VERSION' && !(plugin.spec11 && (cmd === 'GC' || cmd === 'STATUS'));
  if (cmd !== 'VERSION') {
    const e = validateConfig(args.stdin);
    if (e) return e;
  }
  if (attachmentCmd) {
    const e = validateContainerId(args.containerId) ?? validateInterfaceName(args.ifName);
    if (e) return e;
  }
  switch (cmd) {
    case 'ADD':
    case 'DEL': {
      const e = yield* checkVersionAndCall(
        p,
        args,
        plugin,
        cmd === 'ADD' ? plugin.add : plugin.del,
      );
      if (e || !plugin.spec11) return e;
      // The newer skeleton refuses (after the call) a CNI_NETNS that is the plugin's own netns.
      if (args.netns !== '' && p.sys.netnsAt(args.netns) === p.sys.hostNs) {
        return new CniError(
          ErrCode.InvalidNetNS,
          "plugin's netns and netns from CNI_NETNS should not be the same",
        );
      }
      return null;
    }
    case 'CHECK':
      if (plugin.knowsCheck === false) break;
      return yield* gatedCall(p, args, plugin, plugin.check, '0.4.0', 'CHECK');
    case 'GC':
      if (plugin.spec11) return yield* gatedCall(p, args, plugin, plugin.gc ?? null, '1.1.0', 'GC');
      break;
    case 'STATUS':
      if (plugin.spec11)
        return yield* gatedCall(p, args, plugin, plugin.status ?? null, '1.1.0', 'STATUS');
      break;
    case 'VERSION':
      p.stdout +=
        goMarshal({ cniVersion: plugin.specVersion, supportedVersions: plugin.versions }) + '\n';
      return null;
  }
  return new CniError(ErrCode.InvalidEnvironmentVariables, `unknown CNI_COMMAND: ${cmd}`);
}

function* checkVersionAndCall(
  p: Proc,
  args: CmdArgs,
  plugin: SkelPlugin,
  fn: CmdFunc | null,
): Gen<CniError | null> {
  const v = decodeVersion(args.stdin);
  if (!v.ok) return new CniError(ErrCode.DecodingFailure, v.error);
  if (!plugin.versions.includes(v.version)) {
    return new CniError(
      ErrCode.IncompatibleCNIVersion,
      'incompatible CNI versions',
      `config is "${v.version}", plugin supports ${goQuoteList(plugin.versions)}`,
    );
  }
  try {
    if (fn) yield* fn(args, p);
  } catch (e) {
    if (e instanceof CniError) return e;
    return new CniError(ErrCode.Internal, e instanceof Error ? e.message : String(e));
  }
  return null;
}

/** CHECK (and GC / STATUS): the config version must allow the command, and so must the plugin. */
function* gatedCall(
  p: Proc,
  args: CmdArgs,
  plugin: SkelPlugin,
  fn: CmdFunc | null,
  min: string,
  name: string,
): Gen<CniError | null> {
  const v = decodeVersion(args.stdin);
  if (!v.ok) return new CniError(ErrCode.DecodingFailure, v.error);
  const gte = versionGte(v.version, min);
  if (!gte.ok) return new CniError(ErrCode.DecodingFailure, gte.error);
  if (!gte.value)
    return new CniError(ErrCode.IncompatibleCNIVersion, `config version does not allow ${name}`);
  for (const pv of plugin.versions) {
    const g = versionGte(pv, v.version);
    if (!g.ok) return new CniError(ErrCode.DecodingFailure, g.error);
    if (g.value) return yield* checkVersionAndCall(p, args, plugin, fn);
  }
  return new CniError(ErrCode.IncompatibleCNIVersion, `plugin version does not allow ${name}`);
}
