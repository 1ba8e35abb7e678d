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

/**
 * Which skeleton a build runs, by the cni library it vendors:
 * - `cni-0.6` (plugins v0.7.x): ADD, DEL and VERSION only; errors it makes itself (missing
 *   variables, unknown command, plain errors of the plugin) are createTypedError's code 100; no
 *   config or name validation, no about text.
 * - `cni-1.0` (plugins v0.8.x up to v1.1.x): CHECK; the config, the container id and the ifname
 *   are validated after the environment is read, for every command but VERSION.
 * - `cni-1.2` (plugins v1.5+ / v1.6.x): GC and STATUS; the container id and ifname are validated
 *   while the environment is read and only for the commands that need them, the config right
 *   after; CNI_NETNS must not be the plugin's own netns after ADD / DEL.
 */
export type SkelGen = 'cni-0.6' | 'cni-1.0' | 'cni-1.2';

export interface SkelPlugin {
  add: CmdFunc;
  check: CmdFunc;
  del: CmdFunc;
  /** The skeleton of the plugin's build. */
  skel: SkelGen;
  /** Spec 1.1 commands (cni-1.2 skeleton); a plugin without them answers success. */
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
  const err =
    plugin.skel === 'cni-0.6'
      ? yield* dispatch06(p, plugin)
      : plugin.skel === 'cni-1.2'
        ? yield* dispatch12(p, plugin)
        : yield* dispatch10(p, plugin);
  if (err) {
    printError(p, err);
    return 1;
  }
  return 0;
}

const ENV_ORDER = [
  'CNI_COMMAND',
  'CNI_CONTAINERID',
  'CNI_NETNS',
  'CNI_IFNAME',
  'CNI_ARGS',
  'CNI_PATH',
];

function cmdArgs(p: Proc, cmd: string): CmdArgs {
  return {
    containerId: p.getenv('CNI_CONTAINERID'),
    netns: p.getenv('CNI_NETNS'),
    ifName: p.getenv('CNI_IFNAME'),
    args: p.getenv('CNI_ARGS'),
    path: p.getenv('CNI_PATH'),
    stdin: cmd === 'VERSION' ? '' : p.stdin,
  };
}

function missingEnv(names: string[]): CniError {
  return new CniError(
    ErrCode.InvalidEnvironmentVariables,
    `required env variables [${names.join(',')}] missing`,
  );
}

function printAbout(p: Proc, plugin: SkelPlugin): void {
  p.stderr += `${plugin.about}\nCNI protocol versions supported: ${plugin.versions.join(', ')}\n`;
}

function printVersion(p: Proc, plugin: SkelPlugin): void {
  p.stdout +=
    goMarshal({ cniVersion: plugin.specVersion, supportedVersions: plugin.versions }) + '\n';
}

/** cni v1.0 / v1.1 skel (plugins v0.8.x - v1.1.x). */
function* dispatch10(p: Proc, plugin: SkelPlugin): Gen<CniError | null> {
  const cmd = p.getenv('CNI_COMMAND');
  const attachment = cmd === 'ADD' || cmd === 'CHECK' || cmd === 'DEL';
  const req: Record<string, boolean> = {
    CNI_COMMAND: true,
    CNI_CONTAINERID: attachment,
    CNI_NETNS: cmd === 'ADD' || cmd === 'CHECK',
    CNI_IFNAME: attachment,
    CNI_ARGS: false,
    CNI_PATH: attachment,
  };
  const missing = ENV_ORDER.filter((k) => p.getenv(k) === '' && req[k]);
  if (missing.length > 0) {
    if (cmd === '' && plugin.about) {
      printAbout(p, plugin);
      return null;
    }
    return missingEnv(missing);
  }
  const args = cmdArgs(p, cmd);
  // The container id and ifname are validated for every command but VERSION.
  if (cmd !== 'VERSION') {
    const e =
      validateConfig(args.stdin) ??
      validateContainerId(args.containerId) ??
      validateInterfaceName(args.ifName);
    if (e) return e;
  }
  switch (cmd) {
    case 'ADD':
      return yield* checkVersionAndCall(p, args, plugin, plugin.add);
    case 'DEL':
      return yield* checkVersionAndCall(p, args, plugin, plugin.del);
    case 'CHECK':
      return yield* gatedCall(p, args, plugin, plugin.check, '0.4.0', 'CHECK');
    case 'VERSION':
      printVersion(p, plugin);
      return null;
  }
  return new CniError(ErrCode.InvalidEnvironmentVariables, `unknown CNI_COMMAND: ${cmd}`);
}

/** cni v1.2 skel (plugins v1.6.x). */
function* dispatch12(p: Proc, plugin: SkelPlugin): Gen<CniError | null> {
  const cmd = p.getenv('CNI_COMMAND');
  const attachment = cmd === 'ADD' || cmd === 'CHECK' || cmd === 'DEL';
  const any = attachment || cmd === 'GC' || cmd === 'STATUS';
  const vars: Array<[string, boolean, ((v: string) => CniError | null) | null]> = [
    ['CNI_COMMAND', any, null],
    ['CNI_CONTAINERID', attachment, validateContainerId],
    ['CNI_NETNS', cmd === 'ADD' || cmd === 'CHECK', null],
    ['CNI_IFNAME', attachment, validateInterfaceName],
    ['CNI_ARGS', false, null],
    ['CNI_PATH', any, null],
    ['CNI_NETNS_OVERRIDE', false, null],
  ];
  // getCmdArgsFromEnv: a variable is validated as it is read, before the missing ones are reported.
  const missing: string[] = [];
  for (const [name, req, validate] of vars) {
    const v = p.getenv(name);
    if (v === '') {
      if (req || name === 'CNI_COMMAND') missing.push(name);
    } else if (req && validate) {
      const e = validate(v);
      if (e) return e;
    }
  }
  if (missing.length > 0) {
    if (cmd === '' && plugin.about) {
      printAbout(p, plugin);
      return null;
    }
    return missingEnv(missing);
  }
  const args = cmdArgs(p, cmd);
  if (cmd !== 'VERSION') {
    const e = validateConfig(args.stdin);
    if (e) return e;
  }
  const override = p.getenv('CNI_NETNS_OVERRIDE');
  switch (cmd) {
    case 'ADD':
    case 'DEL': {
      const e = yield* checkVersionAndCall(
        p,
        args,
        plugin,
        cmd === 'ADD' ? plugin.add : plugin.del,
      );
      if (e) return e;
      // ns.CheckNetNS after the call: a CNI_NETNS that cannot be opened (or is empty) passes.
      if (override.toUpperCase() !== 'TRUE' && override !== '1') {
        if (args.netns !== '' && p.sys.netnsAt(args.netns) === p.sys.hostNs) {
          return new CniError(
            ErrCode.InvalidNetNS,
            "plugin's netns and netns from CNI_NETNS should not be the same",
          );
        }
      }
      return null;
    }
    case 'CHECK':
      return yield* gatedCall(p, args, plugin, plugin.check, '0.4.0', 'CHECK');
    case 'GC':
      return yield* gatedCall(p, args, plugin, plugin.gc ?? null, '1.1.0', 'GC');
    case 'STATUS':
      return yield* gatedCall(p, args, plugin, plugin.status ?? null, '1.1.0', 'STATUS');
    case 'VERSION':
      printVersion(p, plugin);
      return null;
  }
  return new CniError(ErrCode.InvalidEnvironmentVariables, `unknown CNI_COMMAND: ${cmd}`);
}

/** createTypedError of cni v0.6.0: code 100. */
const TYPED_ERROR_CODE = 100;

/** cni v0.6.0 skel (plugins v0.7.x). */
function* dispatch06(p: Proc, plugin: SkelPlugin): Gen<CniError | null> {
  const cmd = p.getenv('CNI_COMMAND');
  const addDel = cmd === 'ADD' || cmd === 'DEL';
  const req: Record<string, boolean> = {
    CNI_COMMAND: true,
    CNI_CONTAINERID: false,
    CNI_NETNS: cmd === 'ADD',
    CNI_IFNAME: addDel,
    CNI_ARGS: false,
    CNI_PATH: addDel,
  };
  let missing = false;
  for (const k of ENV_ORDER) {
    if (p.getenv(k) === '' && req[k]) {
      p.stderr += `${k} env variable missing\n`;
      missing = true;
    }
  }
  if (missing) return new CniError(TYPED_ERROR_CODE, 'required env variables missing');
  const args = cmdArgs(p, cmd);
  switch (cmd) {
    case 'ADD':
    case 'DEL': {
      const v = decodeVersion(args.stdin);
      if (!v.ok) return new CniError(TYPED_ERROR_CODE, v.error);
      if (!plugin.versions.includes(v.version)) {
        return new CniError(
          ErrCode.IncompatibleCNIVersion,
          'incompatible CNI versions',
          `config is "${v.version}", plugin supports ${goQuoteList(plugin.versions)}`,
        );
      }
      try {
        yield* (cmd === 'ADD' ? plugin.add : plugin.del)(args, p);
      } catch (e) {
        if (e instanceof CniError) return e;
        return new CniError(TYPED_ERROR_CODE, e instanceof Error ? e.message : String(e));
      }
      return null;
    }
    case 'VERSION':
      printVersion(p, plugin);
      return null;
  }
  return new CniError(TYPED_ERROR_CODE, `unknown CNI_COMMAND: ${cmd}`);
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
