/**
 * libcni/conf.go: finding and parsing network configurations in a directory
 * (/etc/cni/net.d), with libcni's order (byte-wise sorted file names) and error texts.
 */
import { GoError } from '../cni/errors';
import { type GoNetConf, goDecode, typesNetConf } from '../cni/gotypes';
import { goMarshal, goParse, sortKeysDeep } from '../cni/json';
import { versionGt } from '../cni/version';
import { q } from '../gofmt';
import * as vfs from '../fs/vfs';
import type { FsState } from '../fs/vfs';
import { goTypeName } from './gotypename';

export interface NetworkConfig {
  network: GoNetConf;
  /** The plugin's JSON as libcni holds it (re-marshalled with sorted keys). */
  bytes: string;
}

export interface NetworkConfigList {
  name: string;
  cniVersion: string;
  disableCheck: boolean;
  /** libcni v1.2+: `disableGC`. */
  disableGC: boolean;
  /** libcni v1.3+: `loadOnlyInlinedPlugins` (set only when true). */
  loadOnlyInlinedPlugins?: boolean;
  plugins: NetworkConfig[];
  /** The file's bytes (the cache stores them base64-encoded). */
  bytes: string;
}

export interface ConfOptions {
  /** libcni generation: v1.1 (the recorded one) or v1.2+ (cniVersions, string bools, GC). */
  libcni: '1.1' | '1.2';
  /**
   * libcni v1.3.0 (`conf.go` NetworkConfFromBytes / NetworkConfFromFile): `loadOnlyInlinedPlugins`,
   * a list without `plugins`, and plugin configs from `<dir>/<network name>/*.conf` appended to a
   * list loaded from a file. Only with libcni '1.2'.
   */
  v13?: boolean;
}

/** ConfFromBytes */
export function confFromBytes(bytes: string): NetworkConfig {
  const r = goDecode<GoNetConf>(bytes, typesNetConf);
  if (r.error !== null) throw new GoError(`error parsing configuration: ${r.error}`);
  if (r.value.type === '') throw new GoError("error parsing configuration: missing 'type'");
  return { network: r.value, bytes };
}

/** version.Current() of libcni v1.2: versions above it in `cniVersions` are skipped. */
const CURRENT_V1_2 = '1.1.0';

/** disableCheck: libcni v1.1 takes only a JSON bool. */
function readBool11(raw: unknown, key: string): boolean {
  if (typeof raw === 'boolean') return raw;
  throw new GoError(`error parsing configuration list: invalid ${key} type ${goTypeName(raw)}`);
}

/** ConfListFromBytes' readBool (libcni v1.2): a bool, or "true" / "false" in any case. */
function readBool12(raw: unknown, key: string): boolean {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw !== 'string')
    throw new GoError(
      `error parsing configuration list: invalid type ${goTypeName(raw)} for ${key}`,
    );
  const s = raw.toLowerCase();
  if (s === 'true') return true;
  if (s === 'false') return false;
  throw new GoError(`error parsing configuration list: invalid value ${q(s)} for ${key}`);
}

/**
 * The version libcni v1.2 picks from `cniVersions` (and `cniVersion`): entries above
 * version.Current() are dropped, the rest sorted with slices.SortFunc (an insertion sort for
 * lists this short, with the source's comparator), the last one wins.
 */
function pickVersion(vs: unknown, cniVersion: string): string {
  if (!Array.isArray(vs))
    throw new GoError(
      'error parsing configuration list: invalid type for cniVersions: []interface {}',
    );
  const kept: string[] = [];
  vs.forEach((v: unknown, i) => {
    if (typeof v !== 'string')
      throw new GoError(
        `error parsing configuration list: invalid type for cniVersions index ${i}: ${goTypeName(v)}`,
      );
    const gt = versionGt(v, CURRENT_V1_2);
    if (!gt.ok)
      throw new GoError(
        `error parsing configuration list: invalid cniVersions entry ${v} at index ${i}: ${gt.error}`,
      );
    if (!gt.value) kept.push(v);
  });
  if (cniVersion !== '') {
    const gt = versionGt(cniVersion, CURRENT_V1_2);
    if (!gt.ok)
      throw new GoError(
        `error parsing configuration list: invalid cniVersion ${cniVersion}: ${gt.error}`,
      );
    if (!gt.value) kept.push(cniVersion);
  }
  const cmp = (a: string, b: string): number => {
    if (a === b) return 0;
    const gt = versionGt(a, b);
    return gt.ok && gt.value ? 1 : -1;
  };
  for (let i = 1; i < kept.length; i++) {
    for (let j = i; j > 0 && cmp(kept[j]!, kept[j - 1]!) < 0; j--) {
      [kept[j], kept[j - 1]] = [kept[j - 1]!, kept[j]!];
    }
  }
  return kept.length > 0 ? kept[kept.length - 1]! : cniVersion;
}

/** ConfListFromBytes */
export function confListFromBytes(
  bytes: string,
  opts: ConfOptions = { libcni: '1.1' },
): NetworkConfigList {
  const parsed = goParse(bytes);
  if (!parsed.ok) throw new GoError(`error parsing configuration list: ${parsed.error}`);
  // json.Unmarshal of `null` into a map leaves it empty (no error).
  const raw = parsed.value === null ? {} : parsed.value;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new GoError(
      `error parsing configuration list: json: cannot unmarshal ${Array.isArray(raw) ? 'array' : typeof raw === 'string' ? 'string' : typeof raw === 'number' ? 'number' : 'bool'} into Go value of type map[string]interface {}`,
    );
  }
  const m = raw as Record<string, unknown>;
  if (!('name' in m)) throw new GoError('error parsing configuration list: no name');
  const name = m['name'];
  if (typeof name !== 'string')
    throw new GoError(`error parsing configuration list: invalid name type ${goTypeName(name)}`);
  let cniVersion = '';
  if ('cniVersion' in m) {
    if (typeof m['cniVersion'] !== 'string') {
      throw new GoError(
        `error parsing configuration list: invalid cniVersion type ${goTypeName(m['cniVersion'])}`,
      );
    }
    cniVersion = m['cniVersion'];
  }
  if (opts.libcni === '1.2' && 'cniVersions' in m)
    cniVersion = pickVersion(m['cniVersions'], cniVersion);
  const v12 = opts.libcni === '1.2';
  const disableCheck =
    'disableCheck' in m
      ? (v12 ? readBool12 : readBool11)(m['disableCheck'], 'disableCheck')
      : false;
  const disableGC = v12 && 'disableGC' in m ? readBool12(m['disableGC'], 'disableGC') : false;
  const v13 = v12 && opts.v13 === true;
  const loadOnlyInlinedPlugins =
    v13 && 'loadOnlyInlinedPlugins' in m
      ? readBool12(m['loadOnlyInlinedPlugins'], 'loadOnlyInlinedPlugins')
      : false;
  if (!('plugins' in m)) {
    // v1.3: the plugins may come from the network's directory (NetworkConfFromFile).
    if (v13 && !loadOnlyInlinedPlugins)
      return { name, cniVersion, disableCheck, disableGC, plugins: [], bytes };
    throw new GoError(
      v13
        ? "error parsing configuration list: `loadOnlyInlinedPlugins` is true, and no 'plugins' key"
        : "error parsing configuration list: no 'plugins' key",
    );
  }
  const plugins = m['plugins'];
  if (!Array.isArray(plugins))
    throw new GoError(
      `error parsing configuration list: invalid 'plugins' type ${goTypeName(plugins)}`,
    );
  if (plugins.length === 0)
    throw new GoError('error parsing configuration list: no plugins in list');
  const list: NetworkConfigList = { name, cniVersion, disableCheck, disableGC, plugins: [], bytes };
  if (loadOnlyInlinedPlugins) list.loadOnlyInlinedPlugins = true;
  plugins.forEach((conf, i) => {
    const newBytes = goMarshal(sortKeysDeep(conf));
    try {
      list.plugins.push(confFromBytes(newBytes));
    } catch (e) {
      throw new GoError(`failed to parse plugin config ${i}: ${(e as Error).message}`);
    }
  });
  return list;
}

/**
 * The plugin configs libcni v1.3.0 reads for a list loaded from a file
 * (`conf.go` NetworkPluginConfsFromFiles): the `.conf` files of `<dir of the file>/<network name>/`
 * (os.ReadDir: name order), each parsed as one plugin; their bytes as read. Empty before v1.3,
 * or with `loadOnlyInlinedPlugins`.
 */
export function pluginConfsFromFiles(
  fs: FsState,
  file: string,
  list: NetworkConfigList,
  opts: ConfOptions,
): string[] {
  if (opts.libcni !== '1.2' || !opts.v13 || list.loadOnlyInlinedPlugins) return [];
  const dir = vfs.joinPath(vfs.dirname(file), list.name);
  let files: string[];
  try {
    files = confFiles(fs, dir, ['.conf']).sort(vfs.byteCompare);
  } catch (e) {
    throw new GoError(`failed to read plugin config files in ${dir}: ${(e as Error).message}`);
  }
  return files.map((f) => {
    const bytes = readConf(fs, f);
    confFromBytes(bytes);
    return bytes;
  });
}

/**
 * ConfListFromFile (NetworkConfFromFile in libcni v1.3.0): the list, with v1.3 the plugin configs
 * of its directory appended (`no plugin configs found` when there are none at all). `extra` holds
 * those plugins' bytes, for a caller that keeps the list (containerd, as go-cni does).
 */
export function confListFromFile(
  fs: FsState,
  file: string,
  opts: ConfOptions,
): { list: NetworkConfigList; extra: string[] } {
  const list = confListFromBytes(readConf(fs, file), opts);
  const extra = pluginConfsFromFiles(fs, file, list, opts);
  const full = withPlugins(list, extra);
  if (opts.libcni === '1.2' && opts.v13 && full.plugins.length === 0)
    throw new GoError('no plugin configs found');
  return { list: full, extra };
}

/** A parsed list with plugin configs appended (what NetworkConfFromFile returns). */
export function withPlugins(list: NetworkConfigList, extra: readonly string[]): NetworkConfigList {
  if (extra.length === 0) return list;
  return { ...list, plugins: [...list.plugins, ...extra.map((b) => confFromBytes(b))] };
}

/** ConfListFromConf: a single-plugin .conf up-converted to a list. */
export function confListFromConf(orig: NetworkConfig, opts: ConfOptions): NetworkConfigList {
  const p = goParse(orig.bytes);
  const raw = p.ok ? p.value : {};
  const b = goMarshal(
    sortKeysDeep({ name: orig.network.name, cniVersion: orig.network.cniVersion, plugins: [raw] }),
  );
  return confListFromBytes(b, opts);
}

/** ConfFiles: files in `dir` (not subdirectories) whose extension is one of `exts`, unsorted. */
export function confFiles(fs: FsState, dir: string, exts: readonly string[]): string[] {
  const e = vfs.stat(fs, dir);
  if (!e) return [];
  if (e.kind !== 'dir') throw new GoError(`readdirent ${dir}: not a directory`);
  const out: string[] = [];
  for (const name of vfs.readDir(fs, dir)) {
    const full = vfs.joinPath(dir, name);
    if (vfs.stat(fs, full)?.kind === 'dir') continue;
    const dot = name.lastIndexOf('.');
    const ext = dot >= 0 ? name.slice(dot) : '';
    if (exts.includes(ext)) out.push(full);
  }
  return out;
}

export class NotFoundError extends GoError {
  constructor(dir: string, name: string) {
    super(`no net configuration with name "${name}" in ${dir}`);
  }
}
export class NoConfigsFoundError extends GoError {
  constructor(dir: string) {
    super(`no net configurations found in ${dir}`);
  }
}

function readConf(fs: FsState, file: string): string {
  try {
    return vfs.readFile(fs, file);
  } catch (e) {
    throw new GoError(`error reading ${file}: ${(e as Error).message}`);
  }
}

/** LoadConf: the first .conf / .json file whose network name matches. */
export function loadConf(fs: FsState, dir: string, name: string): NetworkConfig {
  const files = confFiles(fs, dir, ['.conf', '.json']);
  if (files.length === 0) throw new NoConfigsFoundError(dir);
  files.sort(vfs.byteCompare);
  for (const f of files) {
    const conf = confFromBytes(readConf(fs, f));
    if (conf.network.name === name) return conf;
  }
  throw new NotFoundError(dir, name);
}

/** LoadConfList: .conflist files first (any parse error aborts), then single configs. */
export function loadConfList(
  fs: FsState,
  dir: string,
  name: string,
  opts: ConfOptions,
): NetworkConfigList {
  const files = confFiles(fs, dir, ['.conflist']).sort(vfs.byteCompare);
  for (const f of files) {
    const conf = confListFromFile(fs, f, opts).list;
    if (conf.name === name) return conf;
  }
  let single: NetworkConfig;
  try {
    single = loadConf(fs, dir, name);
  } catch (e) {
    if (e instanceof NoConfigsFoundError && files.length !== 0) throw new NotFoundError(dir, name);
    throw e;
  }
  return confListFromConf(single, opts);
}

/** InjectConf: set top-level keys of a plugin's config (re-marshalled with sorted keys). */
export function injectConf(orig: NetworkConfig, values: Array<[string, unknown]>): NetworkConfig {
  const p = goParse(orig.bytes);
  if (!p.ok) throw new GoError(`unmarshal existing network bytes: ${p.error}`);
  const config = { ...sortKeysDeep(p.value as Record<string, unknown>) };
  for (const [k, v] of values) {
    if (k === '') throw new GoError('keys cannot be empty');
    if (v === null || v === undefined) throw new GoError(`key '${k}' value must not be nil`);
    config[k] = v;
  }
  // Top-level keys sorted (a Go map); an injected struct value keeps its own field order.
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(config).sort(vfs.byteCompare)) sorted[k] = config[k];
  return confFromBytes(goMarshal(sorted));
}
