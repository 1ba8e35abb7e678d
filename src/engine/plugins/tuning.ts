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
 */
import { utf8Bytes } from '../base64';
import { IGNORE_UNKNOWN, loadArgs } from '../cni/args';
import { parsePrevResult } from '../cni/create';
import { GoError } from '../cni/errors';
import {
  type GoNetConf,
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
import { PROC_SYS, readProcSys, writeProcSys } from './lib/procsys';
import { printResult } from './loopback';

const DEFAULT_DATA_DIR = '/run/cni/tuning';

interface IPAMArgs {
  /** *map[string]string: null (nil pointer) or a box around the map. */
  sysctl: { elem: Record<string, string> | null } | null;
  mac: string | null;
  promisc: boolean | null;
  mtu: number | null;
  allmulti: boolean | null;
}

interface TuningConf {
  netConf: GoNetConf;
  dataDir: string;
  sysctl: Record<string, string> | null;
  mac: string;
  promisc: boolean;
  mtu: number;
  allmulti: boolean | null;
  runtimeConfig: { mac: string };
  args: { cni: IPAMArgs | null } | null;
}

const IPAMArgsT = struct('main.IPAMArgs', [
  field('SysCtl', ptr(map(goString)), 'sysctl', { prop: 'sysctl' }),
  field('Mac', ptr(goString), 'mac,omitempty', { prop: 'mac' }),
  field('Promisc', ptr(goBool), 'promisc,omitempty', { prop: 'promisc' }),
  field('Mtu', ptr(goInt), 'mtu,omitempty', { prop: 'mtu' }),
  field('Allmulti', ptr(goBool), 'allmulti,omitempty', { prop: 'allmulti' }),
]);

const TuningConfT = pluginConf('main.TuningConf', [
  field('DataDir', goString, 'dataDir,omitempty', { prop: 'dataDir' }),
  field('SysCtl', map(goString), 'sysctl', { prop: 'sysctl' }),
  field('Mac', goString, 'mac,omitempty', { prop: 'mac' }),
  field('Promisc', goBool, 'promisc,omitempty', { prop: 'promisc' }),
  field('Mtu', goInt, 'mtu,omitempty', { prop: 'mtu' }),
  field('Allmulti', ptr(goBool), 'allmulti,omitempty', { prop: 'allmulti' }),
  field(
    'RuntimeConfig',
    struct(undefined, [field('Mac', goString, 'mac,omitempty', { prop: 'mac' })]),
    'runtimeConfig,omitempty',
    { prop: 'runtimeConfig' },
  ),
  field(
    'Args',
    ptr(struct(undefined, [field('A', ptr(IPAMArgsT), 'cni', { prop: 'cni' })])),
    'args',
    { prop: 'args' },
  ),
]);

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

function parseConf(args: CmdArgs, cmd: Cmd, about: string): TuningConf {
  const r = goDecode<TuningConf>(args.stdin, TuningConfT);
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
  }
  return conf;
}

/** net.ParseMAC: 6, 8 or 20 bytes written as xx:xx, xx-xx or xxxx.xxxx; null when invalid. */
export function parseMAC(s: string): number[] | null {
  const hex2 = (t: string): number | null => (/^[0-9a-fA-F]{2}$/.test(t) ? parseInt(t, 16) : null);
  if (s.length < 14) return null;
  const out: number[] = [];
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return null;
    const n = (s.length + 1) / 3;
    if (n !== 6 && n !== 8 && n !== 20) return null;
    for (let i = 0, x = 0; i < n; i++, x += 3) {
      if (i < n - 1 && s[x + 2] !== s[2]) return null;
      const b = hex2(s.slice(x, x + 2));
      if (b === null) return null;
      out.push(b);
    }
    return out;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return null;
    const n = (2 * (s.length + 1)) / 5;
    if (n !== 6 && n !== 8 && n !== 20) return null;
    for (let x = 0; out.length < n; x += 5) {
      if (out.length + 2 < n && s[x + 4] !== '.') return null;
      const b0 = hex2(s.slice(x, x + 2));
      const b1 = hex2(s.slice(x + 2, x + 4));
      if (b0 === null || b1 === null) return null;
      out.push(b0, b1);
    }
    return out;
  }
  return null;
}

function linkOrErr(p: Proc, ns: string, ifName: string): Link {
  try {
    return nl.linkByName(p.sys, ns, ifName);
  } catch (e) {
    throw new GoError(`failed to get ${q(ifName)}: ${(e as Error).message}`);
  }
}

function* changeMacAddr(p: Proc, ns: string, ifName: string, mac: string): Gen<void> {
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

function* changePromisc(p: Proc, ns: string, ifName: string, on: boolean): Gen<void> {
  const l = linkOrErr(p, ns, ifName);
  // SetPromiscOn/Off change IFF_PROMISC (the kernel counts it once, however often it is set).
  yield* nl.linkSetPromisc(p.sys, ns, l, on);
}

function* changeMtu(p: Proc, ns: string, ifName: string, mtu: number): Gen<void> {
  const l = linkOrErr(p, ns, ifName);
  // IFLA_MTU is a u32: a negative MTU arrives as a huge one.
  const wire = mtu < 0 ? mtu + 2 ** 32 : mtu;
  yield* nl.linkSetMTU(p.sys, ns, l, wire);
}

function* changeAllmulti(p: Proc, ns: string, ifName: string, on: boolean): Gen<void> {
  const l = linkOrErr(p, ns, ifName);
  yield* nl.linkSetAllmulti(p.sys, ns, l, on);
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
  ns: string,
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
  ns: string,
  ifName: string,
  containerId: string,
  dataDir: string,
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
  }>(
    entry.data,
    struct('main.configToRestore', [
      field('Mac', goString, 'mac,omitempty', { prop: 'mac' }),
      field('Promisc', ptr(goBool), 'promisc,omitempty', { prop: 'promisc' }),
      field('Mtu', goInt, 'mtu,omitempty', { prop: 'mtu' }),
      field('Allmulti', ptr(goBool), 'allmulti,omitempty', { prop: 'allmulti' }),
    ]),
  );
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

function prevResultOf(conf: TuningConf, b: PluginBuild): Result {
  if (conf.netConf.prevResult === null) throw new GoError('Required prevResult missing');
  return parsePrevResult(conf.netConf.prevResult, conf.netConf.cniVersion, b.lib);
}

function makeTuning(b: PluginBuild): SkelPlugin {
  const about = aboutText('tuning', b);

  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const conf = parseConf(args, 'ADD', about);
    let prev = prevResultOf(conf, b);
    const sys = p.sys;
    const ns = getNS(sys, args.netns);
    for (const [rawKey, value] of Object.entries(conf.sysctl ?? {})) {
      const key = rawKey.replace('IFNAME', () => args.ifName);
      const file = sysctlFile(key);
      if (!file.startsWith(`${PROC_SYS}/net/`))
        throw new GoError(`invalid net sysctl key: ${q(key)}`);
      yield* writeProcSys(sys, ns, file, value);
    }
    if (conf.mac !== '' || conf.mtu !== 0 || conf.promisc || conf.allmulti !== null) {
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
    printResult(p, prev, conf.netConf.cniVersion, b);
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    const conf = parseConf(args, 'DEL', about);
    let ns: string;
    try {
      ns = getNS(p.sys, args.netns);
    } catch {
      return;
    }
    yield* restoreBackup(p, ns, args.ifName, args.containerId, conf.dataDir);
  }

  // eslint-disable-next-line require-yield
  function* check(args: CmdArgs, p: Proc): Gen<void> {
    const conf = parseConf(args, 'CHECK', about);
    const prev = prevResultOf(conf, b);
    toCurrent(prev, b.lib);
    const sys = p.sys;
    const ns = getNS(sys, args.netns);
    for (const [key, confValue] of Object.entries(conf.sysctl ?? {})) {
      const file = sysctlFile(key);
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
  }

  return { add, del, check, skel: b.skel, versions: b.all, specVersion: b.specVersion, about };
}

export function tuningProgram(b: PluginBuild): Program {
  return pluginMainWithPanics(makeTuning(b));
}
