/**
 * tuning (plugins/meta/tuning, v1.1.1): a chained plugin that changes the container interface
 * and its namespace's sysctls, then passes the previous result on.
 *
 * ADD writes every `sysctl` key in the pod's namespace (IFNAME in a key replaced by CNI_IFNAME, the
 * first occurrence only; keys outside /proc/sys/net/ refused), saves the interface's current
 * mac / promisc / mtu / allmulti (only those configured) to `<dataDir>/<containerID>_<ifname>.json`,
 * then sets them. DEL puts the saved values back and removes the file, ignoring every error (and it
 * never restores sysctls). CHECK compares the sysctls (without IFNAME substitution: a key with
 * IFNAME always fails) and the link's settings with the config; promiscuity is checked even when
 * the config does not ask for it.
 *
 * Quirks kept: MAC= in CNI_ARGS, runtimeConfig.mac and args.cni.mac override `mac` in that order;
 * `args.cni.sysctl` without a top-level `sysctl` map panics (assignment to entry in nil map);
 * CHECK compares the MAC as text and prints the allmulti setting as a pointer. There is no sysctl
 * allow-list and no txQLen in this release.
 *
 * The v1.6.2 build (plugins v1.6.x, spec 1.1 builds) has the later code: before parsing, ADD and
 * CHECK decode `sysctl` once more into a map whose key type refuses a key seen before ("duplicated
 * sysctl keys are not allowed"; a wrongly typed `sysctl` fails there, without the "failed to load
 * netconf" prefix); ADD then reads the allow-list `/etc/cni/tuning/allowlist.conf` (when it
 * exists: one RE2 pattern per non-blank line, a sysctl key as configured must match one) and
 * refuses an interface name with a `/`. A key's dots become slashes before IFNAME is replaced, so
 * an interface name with dots stays one path element, and CHECK replaces IFNAME (and refuses keys
 * outside /proc/sys/net/) as ADD does. `txQLen` (a *int: 0 is a value) is set last, saved in the
 * backup and restored on DEL, and compared by CHECK. Read from the upstream source (a post-1.1.1
 * revision with the allow-list, and the v1.6.x declarations); the order of the txQLen steps after
 * the allmulti ones and the CHECK message for it follow the other settings' pattern. The panic
 * trace printed for the nil-map case is v1.1.1's.
 */
import { utf8Bytes } from '../base64';
import { IGNORE_UNKNOWN, loadArgs } from '../cni/args';
import { parsePrevResult } from '../cni/create';
import { GoError } from '../cni/errors';
import {
  type GoNetConf,
  type GoType,
  field,
  goBool,
  goDecode,
  goInt,
  goString,
  map,
  pluginConf,
  ptr,
  struct,
} from '../cni/gotypes';
import type { GoCustomType } from '../gojson/types';
import { goMarshal } from '../cni/json';
import { type Result, toCurrent } from '../cni/result';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { q } from '../gofmt';
import * as vfs from '../fs/vfs';
import type { Link } from '../kernel/types';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { type PluginBuild, aboutText } from './lib/build';
import * as nl from './lib/netlink';
import { getNS } from './lib/ns';
import { GoPanic, goSliceArg, pluginMainWithPanics } from './lib/panic';
import { goMatchString } from './lib/goregexp';
import { PROC_SYS, readProcSys, writeProcSys } from './lib/procsys';
import { printResult } from './loopback';
import { parseMAC } from '../net/mac';

const DEFAULT_DATA_DIR = '/run/cni/tuning';
/** v1.6.x: filepath.Join(defaultAllowlistDir, defaultAllowlistFile). */
export const ALLOWLIST_FILE = '/etc/cni/tuning/allowlist.conf';

interface IPAMArgs {
  /** *map[string]string: null (nil pointer) or a box around the map. */
  sysctl: { elem: Record<string, string> | null } | null;
  mac: string | null;
  promisc: boolean | null;
  mtu: number | null;
  allmulti: boolean | null;
  /** v1.6.x only */
  txQLen?: number | null;
}

interface TuningConf {
  netConf: GoNetConf;
  dataDir: string;
  sysctl: Record<string, string> | null;
  mac: string;
  promisc: boolean;
  mtu: number;
  allmulti: boolean | null;
  /** v1.6.x only (*int): null when not configured. */
  txQLen?: number | null;
  runtimeConfig: { mac: string };
  args: { cni: IPAMArgs | null } | null;
}

function ipamArgsT(txq: boolean): GoType {
  return struct('main.IPAMArgs', [
    field('SysCtl', ptr(map(goString)), 'sysctl', { prop: 'sysctl' }),
    field('Mac', ptr(goString), 'mac,omitempty', { prop: 'mac' }),
    field('Promisc', ptr(goBool), 'promisc,omitempty', { prop: 'promisc' }),
    field('Mtu', ptr(goInt), 'mtu,omitempty', { prop: 'mtu' }),
    field('Allmulti', ptr(goBool), 'allmulti,omitempty', { prop: 'allmulti' }),
    ...(txq ? [field('TxQLen', ptr(goInt), 'txQLen,omitempty', { prop: 'txQLen' })] : []),
  ]);
}

function tuningConfT(txq: boolean): GoType {
  return pluginConf('main.TuningConf', [
    field('DataDir', goString, 'dataDir,omitempty', { prop: 'dataDir' }),
    field('SysCtl', map(goString), 'sysctl', { prop: 'sysctl' }),
    field('Mac', goString, 'mac,omitempty', { prop: 'mac' }),
    field('Promisc', goBool, 'promisc,omitempty', { prop: 'promisc' }),
    field('Mtu', goInt, 'mtu,omitempty', { prop: 'mtu' }),
    ...(txq ? [field('TxQLen', ptr(goInt), 'txQLen,omitempty', { prop: 'txQLen' })] : []),
    field('Allmulti', ptr(goBool), 'allmulti,omitempty', { prop: 'allmulti' }),
    field(
      'RuntimeConfig',
      struct(undefined, [field('Mac', goString, 'mac,omitempty', { prop: 'mac' })]),
      'runtimeConfig,omitempty',
      { prop: 'runtimeConfig' },
    ),
    field(
      'Args',
      ptr(struct(undefined, [field('A', ptr(ipamArgsT(txq)), 'cni', { prop: 'cni' })])),
      'args',
      { prop: 'args' },
    ),
  ]);
}

const TuningConfT = tuningConfT(false);
const TuningConf16T = tuningConfT(true);

function configToRestoreT(txq: boolean): GoType {
  return struct('main.configToRestore', [
    field('Mac', goString, 'mac,omitempty', { prop: 'mac' }),
    field('Promisc', ptr(goBool), 'promisc,omitempty', { prop: 'promisc' }),
    field('Mtu', goInt, 'mtu,omitempty', { prop: 'mtu' }),
    field('Allmulti', ptr(goBool), 'allmulti,omitempty', { prop: 'allmulti' }),
    ...(txq ? [field('TxQLen', ptr(goInt), 'txQLen,omitempty', { prop: 'txQLen' })] : []),
  ]);
}

const ConfigToRestoreT = configToRestoreT(false);
const ConfigToRestore16T = configToRestoreT(true);

/**
 * v1.6.x: `type sysctlCheck struct { SysCtl map[sysctlKey]string `json:"sysctl"` }`, where
 * sysctlKey's UnmarshalText refuses a key it has seen (across every `sysctl` object of the
 * document: fields match case-insensitively and fill the same map). One per decode.
 */
function sysctlCheckT(): GoType {
  const seen = new Set<string>();
  const key: GoCustomType<string> = {
    kind: 'custom',
    name: 'main.sysctlKey',
    zero: () => '',
    unmarshalText: (k) => {
      if (seen.has(k)) return { error: 'duplicated sysctl keys are not allowed' };
      seen.add(k);
      return { value: k };
    },
  };
  return struct('main.sysctlCheck', [
    field('SysCtl', map(goString, undefined, key), 'sysctl', { prop: 'sysctl' }),
  ]);
}

const MAC_ENV_ARGS = [IGNORE_UNKNOWN, { name: 'MAC', parse: (t: string) => t }];

type Cmd = 'ADD' | 'DEL' | 'CHECK';

/** The runtime's trace for the nil-map panic in parseConf (addresses from one real run). */
function nilMapPanic(cmd: Cmd, stdin: string, about: string): GoPanic {
  const caller = {
    ADD: ['cmdAdd(0xc0000a0310)', 303, '0x55', 219, '0x2ca'],
    DEL: ['cmdDel(0xc000018380)', 383, '0x39', 243, '0x30e'],
    CHECK: ['cmdCheck(0xc000018380)', 400, '0x39', 235, '0x71a'],
  }[cmd];
  const len = utf8Bytes(stdin).length;
  const aboutArg = `{0xc0000cc030, 0x${utf8Bytes(about).length.toString(16)}}`;
  return new GoPanic(
    [
      'panic: assignment to entry in nil map',
      '',
      'goroutine 1 [running]:',
      `main.parseConf(${goSliceArg('0xc0000d0000', len)}, {0xc00001c020, 0x0})`,
      '\tgithub.com/containernetworking/plugins/plugins/meta/tuning/tuning.go:116 +0x385',
      `main.${caller[0]}`,
      `\tgithub.com/containernetworking/plugins/plugins/meta/tuning/tuning.go:${caller[1]} +${caller[2]}`,
      'github.com/containernetworking/cni/pkg/skel.(*dispatcher).checkVersionAndCall(0xc0000c1ec8, 0xc0000a0310, {0x577a98, 0xc000092e40}, 0x552920)',
      '\tgithub.com/containernetworking/cni/pkg/skel/skel.go:166 +0x20a',
      `github.com/containernetworking/cni/pkg/skel.(*dispatcher).pluginMain(0xc0000c1ec8, 0x61f3a0?, 0xc0000c1eb0?, 0x44ed89?, {0x577a98, 0xc000092e40}, ${aboutArg})`,
      `\tgithub.com/containernetworking/cni/pkg/skel/skel.go:${caller[3]} +${caller[4]}`,
      'github.com/containernetworking/cni/pkg/skel.PluginMainWithError(...)',
      '\tgithub.com/containernetworking/cni/pkg/skel/skel.go:273',
      `github.com/containernetworking/cni/pkg/skel.PluginMain(0x549775?, 0x10?, 0xc0000c1f50?, {0x577a98?, 0xc000092e40?}, {0xc0000cc030?, 0x50f370?})`,
      '\tgithub.com/containernetworking/cni/pkg/skel/skel.go:288 +0xd1',
      'main.main()',
      '\tgithub.com/containernetworking/plugins/plugins/meta/tuning/tuning.go:396 +0xb6',
      '',
    ].join('\n'),
  );
}

function parseConf(args: CmdArgs, cmd: Cmd, about: string, v16: boolean): TuningConf {
  const r = goDecode<TuningConf>(args.stdin, v16 ? TuningConf16T : TuningConfT);
  if (r.error !== null) throw new GoError(`failed to load netconf: ${r.error}`);
  const conf = r.value;
  if (conf.dataDir === '') conf.dataDir = DEFAULT_DATA_DIR;
  if (args.args !== '') {
    const e = loadArgs(args.args, MAC_ENV_ARGS);
    if (e['MAC']) conf.mac = e['MAC'] as string;
  }
  if (conf.runtimeConfig.mac !== '') conf.mac = conf.runtimeConfig.mac;
  const a = conf.args?.cni;
  if (a) {
    const extra = a.sysctl?.elem;
    if (extra) {
      for (const [k, v] of Object.entries(extra)) {
        if (conf.sysctl === null) throw nilMapPanic(cmd, args.stdin, about);
        conf.sysctl[k] = v;
      }
    }
    if (a.mac !== null) conf.mac = a.mac;
    if (a.promisc !== null) conf.promisc = a.promisc;
    if (a.mtu !== null) conf.mtu = a.mtu;
    if (a.allmulti !== null) conf.allmulti = a.allmulti;
    if (v16 && a.txQLen != null) conf.txQLen = a.txQLen;
  }
  return conf;
}

/**
 * v1.6.x validateSysctlConflictingKeys: json.Unmarshal of the config into sysctlCheck. A
 * duplicate key stops decoding at once; otherwise a type error is returned as encoding/json
 * words it.
 */
function validateSysctlConflictingKeys(stdin: string): void {
  const r = goDecode<unknown>(stdin, sysctlCheckT());
  if (r.error !== null) throw new GoError(r.error);
}

/** strings.TrimSpace: Unicode White_Space at both ends (not U+FEFF, which JS's trim() takes). */
const GO_SPACE_EDGES =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** v1.6.x readAllowlist: absent -> null; else its trimmed non-blank lines. */
function readAllowlist(p: Proc): string[] | null {
  const fs = p.sys.fs;
  if (statErrno(fs, ALLOWLIST_FILE) === 'ENOENT') return null;
  let data: string;
  try {
    data = vfs.readFile(fs, ALLOWLIST_FILE);
  } catch (e) {
    throw new GoError((e as Error).message);
  }
  return data
    .split('\n')
    .map((l) => l.replace(GO_SPACE_EDGES, ''))
    .filter((l) => l !== '');
}

/** v1.6.x validateSysctlConf: every configured key (as written) must match an allow-list line. */
function validateSysctlConf(p: Proc, conf: TuningConf): void {
  const allow = readAllowlist(p);
  if (allow === null) return;
  for (const key of Object.keys(conf.sysctl ?? {})) {
    let ok = false;
    for (const pattern of allow) {
      const m = goMatchString(pattern, key);
      if (m.error !== undefined) throw new GoError(m.error);
      if (m.match) {
        ok = true;
        break;
      }
    }
    if (!ok) {
      throw new GoError(
        `Sysctl ${key} is not allowed. Only the following sysctls are allowed: [${allow.join(' ')}]`,
      );
    }
  }
}

function linkOrErr(p: Proc, ns: nl.NsId, ifName: string): Link {
  try {
    return nl.linkByName(p.sys, ns, ifName);
  } catch (e) {
    throw new GoError(`failed to get ${q(ifName)}: ${(e as Error).message}`);
  }
}

function* changeMacAddr(p: Proc, ns: nl.NsId, ifName: string, mac: string): Gen<void> {
  const bytes = parseMAC(mac);
  if (!bytes) {
    throw new GoError(`invalid args ${mac} for MAC addr: address ${mac}: invalid MAC address`);
  }
  const l = linkOrErr(p, ns, ifName);
  // The kernel takes the device's address length (6 bytes) of what it is given.
  const text = bytes
    .slice(0, 6)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join(':');
  yield* nl.linkSetHardwareAddr(p.sys, ns, l, text);
}

function* changePromisc(p: Proc, ns: nl.NsId, ifName: string, on: boolean): Gen<void> {
  const l = linkOrErr(p, ns, ifName);
  // SetPromiscOn/Off change IFF_PROMISC (the kernel counts it once, however often it is set).
  yield* nl.linkSetPromisc(p.sys, ns, l, on);
}

function* changeMtu(p: Proc, ns: nl.NsId, ifName: string, mtu: number): Gen<void> {
  const l = linkOrErr(p, ns, ifName);
  // IFLA_MTU is a u32: a negative MTU arrives as a huge one.
  const wire = mtu < 0 ? mtu + 2 ** 32 : mtu;
  yield* nl.linkSetMTU(p.sys, ns, l, wire);
}

function* changeAllmulti(p: Proc, ns: nl.NsId, ifName: string, on: boolean): Gen<void> {
  const l = linkOrErr(p, ns, ifName);
  yield* nl.linkSetAllmulti(p.sys, ns, l, on);
}

function* changeTxQLen(p: Proc, ns: nl.NsId, ifName: string, q: number): Gen<void> {
  const l = linkOrErr(p, ns, ifName);
  // IFLA_TXQLEN is a u32 too.
  yield* nl.linkSetTxQLen(p.sys, ns, l, q < 0 ? q + 2 ** 32 : q);
}

function backupPath(dataDir: string, containerId: string, ifName: string): string {
  return vfs.joinPath(dataDir, `${containerId}_${ifName}.json`);
}

/** os.Stat's error for `path`: a missing component is ENOENT, a file used as a directory ENOTDIR. */
function statErrno(fs: vfs.FsState, path: string): 'ENOENT' | 'ENOTDIR' | null {
  const parts = vfs.cleanPath(path).split('/').filter(Boolean);
  let cur = '';
  for (let i = 0; i < parts.length; i++) {
    cur += `/${parts[i]}`;
    const e = vfs.stat(fs, cur);
    if (!e) return 'ENOENT';
    if (e.kind !== 'dir' && i < parts.length - 1) return 'ENOTDIR';
  }
  return null;
}

function* createBackup(
  p: Proc,
  ns: nl.NsId,
  ifName: string,
  containerId: string,
  conf: TuningConf,
): Gen<void> {
  const l = linkOrErr(p, ns, ifName);
  // configToRestore, in field order, empty ones omitted.
  const config: Record<string, unknown> = {};
  if (conf.mac !== '') config['mac'] = l.mac;
  if (conf.promisc) config['promisc'] = l.promisc !== 0;
  if (conf.mtu !== 0) config['mtu'] = l.mtu;
  if (conf.allmulti !== null) config['allmulti'] = l.allmulti;
  if (conf.txQLen != null) config['txQLen'] = l.txqlen;
  const sys = p.sys;
  if (statErrno(sys.fs, conf.dataDir) === 'ENOENT') {
    try {
      yield* sys.mkdirAll(conf.dataDir, 0o600);
    } catch (e) {
      throw new GoError(`failed to create backup directory: ${(e as Error).message}`);
    }
  }
  const file = backupPath(conf.dataDir, containerId, ifName);
  const data = goMarshal(config, ' ');
  const err = statErrno(sys.fs, vfs.dirname(file));
  try {
    if (err) throw new vfs.FsError(err, 'open', file);
    yield* sys.writeFile(file, data, { mode: 0o600 });
  } catch (e) {
    throw new GoError(`failed to save file ${ifName}.json: ${(e as Error).message}`);
  }
}

/** restoreBackup: every failure is swallowed by cmdDel, so this never throws. */
function* restoreBackup(
  p: Proc,
  ns: nl.NsId,
  ifName: string,
  containerId: string,
  dataDir: string,
  v16: boolean,
): Gen<void> {
  const sys = p.sys;
  const file = backupPath(dataDir, containerId, ifName);
  if (statErrno(sys.fs, file) === 'ENOENT') return;
  const entry = vfs.stat(sys.fs, file);
  if (!entry || entry.kind !== 'file') return;
  const r = goDecode<{
    mac: string;
    promisc: boolean | null;
    mtu: number;
    allmulti: boolean | null;
    txQLen?: number | null;
  }>(entry.data, v16 ? ConfigToRestore16T : ConfigToRestoreT);
  if (r.error !== null) return;
  const config = r.value;
  try {
    nl.linkByName(sys, ns, ifName);
  } catch {
    return;
  }
  let failed = false;
  const attempt = function* (g: Gen<void>): Gen<void> {
    try {
      yield* g;
    } catch {
      failed = true;
    }
  };
  if (config.mtu !== 0) yield* attempt(changeMtu(p, ns, ifName, config.mtu));
  if (config.mac !== '') yield* attempt(changeMacAddr(p, ns, ifName, config.mac));
  if (config.promisc !== null) yield* attempt(changePromisc(p, ns, ifName, config.promisc));
  if (config.allmulti !== null) yield* attempt(changeAllmulti(p, ns, ifName, config.allmulti));
  if (config.txQLen != null) yield* attempt(changeTxQLen(p, ns, ifName, config.txQLen));
  if (failed) return;
  try {
    yield* sys.remove(file);
  } catch {
    // "failed to remove file": dropped by cmdDel
  }
}

/** filepath.Join("/proc/sys", key with every "." made a "/"). */
function sysctlFile(key: string): string {
  return vfs.joinPath(PROC_SYS, key.split('.').join('/'));
}

/**
 * v1.6.x getSysctlFilename: the dots become slashes first, then the first IFNAME is replaced (an
 * interface name with dots stays one path element); a key outside /proc/sys/net/ is refused,
 * quoted in its slash form.
 */
function sysctlFile16(key: string, ifName: string): string {
  const slashed = key
    .split('.')
    .join('/')
    .replace('IFNAME', () => ifName);
  const file = vfs.joinPath(PROC_SYS, slashed);
  if (!file.startsWith(`${PROC_SYS}/net/`))
    throw new GoError(`invalid net sysctl key: ${q(slashed)}`);
  return file;
}

function prevResultOf(conf: TuningConf, b: PluginBuild): Result {
  if (conf.netConf.prevResult === null) throw new GoError('Required prevResult missing');
  return parsePrevResult(conf.netConf.prevResult, conf.netConf.cniVersion, b.lib);
}

function makeTuning(b: PluginBuild): SkelPlugin {
  const about = aboutText('tuning', b);
  // The plugins v1.6.x code: allow-list, txQLen, duplicate keys, IFNAME after the dots.
  const v16 = b.spec11;

  function* add(args: CmdArgs, p: Proc): Gen<void> {
    if (v16) validateSysctlConflictingKeys(args.stdin);
    const conf = parseConf(args, 'ADD', about, v16);
    if (v16) {
      validateSysctlConf(p, conf);
      if (args.ifName.includes('/')) {
        throw new GoError(`Interface name (${args.ifName}) contains an invalid character /`);
      }
    }
    let prev = prevResultOf(conf, b);
    const sys = p.sys;
    const ns = getNS(sys, args.netns);
    for (const [rawKey, value] of Object.entries(conf.sysctl ?? {})) {
      let file: string;
      if (v16) file = sysctlFile16(rawKey, args.ifName);
      else {
        const key = rawKey.replace('IFNAME', () => args.ifName);
        file = sysctlFile(key);
        if (!file.startsWith(`${PROC_SYS}/net/`))
          throw new GoError(`invalid net sysctl key: ${q(key)}`);
      }
      yield* writeProcSys(sys, ns, file, value);
    }
    const txQLen = v16 ? (conf.txQLen ?? null) : null;
    if (
      conf.mac !== '' ||
      conf.mtu !== 0 ||
      conf.promisc ||
      conf.allmulti !== null ||
      txQLen !== null
    ) {
      yield* createBackup(p, ns, args.ifName, args.containerId, conf);
    }
    if (conf.mac !== '') {
      yield* changeMacAddr(p, ns, args.ifName, conf.mac);
      // updateResultsMacAddr: the result becomes a current one, the MAC as configured.
      const cur = toCurrent(prev, b.lib);
      for (const i of cur.interfaces ?? []) if (i.name === args.ifName) i.mac = conf.mac;
      prev = cur;
    }
    if (conf.promisc) yield* changePromisc(p, ns, args.ifName, true);
    if (conf.mtu !== 0) yield* changeMtu(p, ns, args.ifName, conf.mtu);
    if (conf.allmulti !== null) yield* changeAllmulti(p, ns, args.ifName, conf.allmulti);
    if (txQLen !== null) yield* changeTxQLen(p, ns, args.ifName, txQLen);
    printResult(p, prev, conf.netConf.cniVersion, b);
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    const conf = parseConf(args, 'DEL', about, v16);
    let ns: nl.NsId;
    try {
      ns = getNS(p.sys, args.netns);
    } catch {
      return;
    }
    yield* restoreBackup(p, ns, args.ifName, args.containerId, conf.dataDir, v16);
  }

  // eslint-disable-next-line require-yield
  function* check(args: CmdArgs, p: Proc): Gen<void> {
    if (v16) validateSysctlConflictingKeys(args.stdin);
    const conf = parseConf(args, 'CHECK', about, v16);
    const prev = prevResultOf(conf, b);
    toCurrent(prev, b.lib);
    const sys = p.sys;
    const ns = getNS(sys, args.netns);
    for (const [key, confValue] of Object.entries(conf.sysctl ?? {})) {
      const file = v16 ? sysctlFile16(key, args.ifName) : sysctlFile(key);
      const curValue = readProcSys(sys, ns, file);
      if (confValue !== curValue) {
        throw new GoError(
          `Error: Tuning configured value of ${file} is ${confValue}, current value is ${curValue}`,
        );
      }
    }
    let link: Link;
    try {
      link = nl.linkByName(sys, ns, args.ifName);
    } catch {
      throw new GoError(`Cannot find container link ${args.ifName}`);
    }
    if (conf.mac !== '' && conf.mac !== link.mac) {
      throw new GoError(
        `Error: Tuning configured Ethernet of ${args.ifName} is ${conf.mac}, current value is ${link.mac}`,
      );
    }
    if (conf.promisc ? link.promisc === 0 : link.promisc !== 0) {
      throw new GoError(
        `Error: Tuning link ${args.ifName} configured promisc is ${conf.promisc}, current value is ${link.promisc}`,
      );
    }
    if (conf.mtu !== 0 && conf.mtu !== link.mtu) {
      throw new GoError(
        `Error: Tuning configured MTU of ${args.ifName} is ${conf.mtu}, current value is ${link.mtu}`,
      );
    }
    if (conf.allmulti !== null && conf.allmulti !== link.allmulti) {
      // Go prints the *bool itself: an address that changes from run to run.
      throw new GoError(
        `Error: Tuning configured all-multicast mode of ${args.ifName} is 0xc0000a8c7c, current value is ${link.allmulti}`,
      );
    }
    const txQLen = v16 ? (conf.txQLen ?? null) : null;
    if (txQLen !== null && txQLen !== link.txqlen) {
      throw new GoError(
        `Error: Tuning configured Transmit Queue Length of ${args.ifName} is ${txQLen}, current value is ${link.txqlen}`,
      );
    }
  }

  return { add, del, check, skel: b.skel, versions: b.all, specVersion: b.specVersion, about };
}

export function tuningProgram(b: PluginBuild): Program {
  return pluginMainWithPanics(makeTuning(b));
}
