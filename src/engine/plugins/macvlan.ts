/**
 * macvlan (plugins/main/macvlan, v1.1.1): a macvlan device on a node link (the master, by default
 * the device of the node's first default route), made directly in the pod's namespace under a
 * temporary name and renamed there. With IPAM the addresses and routes of the IPAM result go on
 * it (after arp_notify=1); without, it is only set up (L2). There is no `linkInContainer` in
 * 1.1.1 (it came in v1.3.0).
 *
 * Go's variable shadowing decides what a failed ADD leaves, as recorded: with IPAM the macvlan
 * always stays in the pod (the deferred delete looks at cmdAdd's outer `err`, which the IPAM
 * branch never sets), and the IPAM allocation is released only when converting the IPAM result or
 * configuring the interface fails (not for an empty result). In the L2 branch a failure to set the
 * link up deletes it.
 */
import { COMMON_ARGS, IGNORE_UNKNOWN, loadArgs } from '../cni/args';
import { parsePrevResult } from '../cni/create';
import { GoError } from '../cni/errors';
import {
  type GoNetConf,
  field,
  goDecode,
  goInt,
  goString,
  pluginConf,
  struct,
} from '../cni/gotypes';
import { type Interface, type Result100, toCurrent } from '../cni/result';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { pluginMain } from '../cni/skel';
import { q } from '../gofmt';
import { routesInDumpOrder } from '../kernel/view';
import type { Link, MacvlanMode } from '../kernel/types';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { type PluginBuild, aboutText } from './lib/build';
import * as ipl from './lib/ip';
import { ipamExecAdd, ipamExecCheck, ipamExecDel } from './lib/ipam';
import * as nl from './lib/netlink';
import { NSPathNotExistErr, getNS } from './lib/ns';
import { printResult } from './loopback';
import { parseMAC } from '../net/mac';

interface MacvlanConf {
  netConf: GoNetConf;
  master: string;
  mode: string;
  mtu: number;
  mac: string;
  runtimeConfig: { mac: string };
}

const MacvlanConfT = pluginConf('main.NetConf', [
  field('Master', goString, 'master', { prop: 'master' }),
  field('Mode', goString, 'mode', { prop: 'mode' }),
  field('MTU', goInt, 'mtu', { prop: 'mtu' }),
  field('Mac', goString, 'mac,omitempty', { prop: 'mac' }),
  field(
    'RuntimeConfig',
    struct(undefined, [field('Mac', goString, 'mac,omitempty', { prop: 'mac' })]),
    'runtimeConfig,omitempty',
    { prop: 'runtimeConfig' },
  ),
]);

const MAC_ENV_ARGS = [IGNORE_UNKNOWN, COMMON_ARGS, { name: 'MAC', parse: (t: string) => t }];

/**
 * getDefaultRouteInterfaceName: the device of the first route without a destination that
 * netlink.RouteList(nil, FAMILY_ALL) returns (the main table, IPv4 before IPv6).
 */
function defaultRouteInterfaceName(p: Proc): string {
  const ns = p.sys.ns(p.sys.hostNs);
  if (ns) {
    for (const fam of [4, 6] as const) {
      for (const r of routesInDumpOrder(ns, fam)) {
        if (r.prefix === 0) return nl.linkByIndex(p.sys, p.sys.hostNs, r.dev).name;
      }
    }
  }
  throw new GoError('no default route interface found');
}

function loadConf(p: Proc, stdin: string, envArgs: string): MacvlanConf {
  const r = goDecode<MacvlanConf>(stdin, MacvlanConfT);
  if (r.error !== null) throw new GoError(`failed to load netconf: ${r.error}`);
  const n = r.value;
  if (n.master === '') n.master = defaultRouteInterfaceName(p);
  // getMTUByName: netlink's "Link not found", unwrapped.
  const masterMTU = nl.linkByName(p.sys, p.sys.hostNs, n.master).mtu;
  if (n.mtu < 0 || n.mtu > masterMTU)
    throw new GoError(`invalid MTU ${n.mtu}, must be [0, master MTU(${masterMTU})]`);
  if (envArgs !== '') {
    const e = loadArgs(envArgs, MAC_ENV_ARGS);
    if (e['MAC']) n.mac = e['MAC'] as string;
  }
  if (n.runtimeConfig.mac) n.mac = n.runtimeConfig.mac;
  return n;
}

const MODES: Record<string, MacvlanMode> = {
  '': 'bridge',
  bridge: 'bridge',
  private: 'private',
  vepa: 'vepa',
  passthru: 'passthru',
};

function modeFromString(s: string): MacvlanMode {
  const m = MODES[s];
  if (!m) throw new GoError(`unknown macvlan mode: ${q(s)}`);
  return m;
}

function* createMacvlan(
  p: Proc,
  conf: MacvlanConf,
  ifName: string,
  podNs: nl.NsId,
  netnsPath: string,
): Gen<Interface> {
  const sys = p.sys;
  const mode = modeFromString(conf.mode);
  let m: Link;
  try {
    m = nl.linkByName(sys, sys.hostNs, conf.master);
  } catch (e) {
    throw new GoError(`failed to lookup master ${q(conf.master)}: ${(e as Error).message}`);
  }
  const tmpName = ipl.randomVethName(p);
  let mac = '';
  if (conf.mac !== '') {
    const bytes = parseMAC(conf.mac);
    if (!bytes) {
      throw new GoError(
        `invalid args ${conf.mac} for MAC addr: address ${conf.mac}: invalid MAC address`,
      );
    }
    // All the bytes go to the kernel, which refuses any other length than 6.
    mac = bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
  }
  try {
    yield* nl.linkAddMacvlan(sys, sys.hostNs, m, podNs, tmpName, mode, conf.mtu, mac);
  } catch (e) {
    throw new GoError(`failed to create macvlan: ${(e as Error).message}`);
  }
  const tmp = nl.linkByName(sys, podNs, tmpName);
  try {
    yield* nl.linkSetName(sys, podNs, tmp, ifName);
  } catch (e) {
    try {
      yield* nl.linkDel(sys, podNs, tmp);
    } catch {
      // ignored, as the real plugin ignores it
    }
    throw new GoError(`failed to rename macvlan to ${q(ifName)}: ${(e as Error).message}`);
  }
  let cont: Link;
  try {
    cont = nl.linkByName(sys, podNs, ifName);
  } catch (e) {
    throw new GoError(`failed to refetch macvlan ${q(ifName)}: ${(e as Error).message}`);
  }
  return { name: ifName, mac: nl.hardwareAddr(cont), sandbox: netnsPath };
}

/** CHECK's validateCniContainerInterface (the parent index it is given is not used in 1.1.1). */
function validateContainerInterface(
  p: Proc,
  podNs: nl.NsId,
  intf: Interface,
  modeExpected: string,
): void {
  if (intf.name === '')
    throw new GoError(`Container interface name missing in prevResult: ${intf.name}`);
  let link: Link;
  try {
    link = nl.linkByName(p.sys, podNs, intf.name);
  } catch {
    throw new GoError(`Container Interface name in prevResult: ${intf.name} not found`);
  }
  if (intf.sandbox === '')
    throw new GoError(`Error: Container interface ${link.name} should not be in host namespace`);
  if (link.kind !== 'macvlan' || !link.macvlan)
    throw new GoError(`Error: Container interface ${link.name} not of type macvlan`);
  // modeFromString's error is dropped: an unknown mode compares as vishvananda's
  // MACVLAN_MODE_DEFAULT (0), which modeToString refuses, printed with %q of an integer.
  const expected = MODES[modeExpected];
  if (link.macvlan.mode !== expected) {
    if (!expected) throw new GoError(`unknown macvlan mode: '\\x00'`);
    throw new GoError(
      `Container macvlan mode ${link.macvlan.mode} does not match expected value: ${expected}`,
    );
  }
  if (intf.mac !== '' && intf.mac !== nl.hardwareAddr(link)) {
    throw new GoError(
      `Interface ${intf.name} Mac ${intf.mac} doesn't match container Mac: ${nl.hardwareAddr(link)}`,
    );
  }
}

function makeMacvlan(b: PluginBuild): SkelPlugin {
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const sys = p.sys;
    const n = loadConf(p, args.stdin, args.args);
    const isLayer3 = n.netConf.ipam.type !== '';
    let podNs: nl.NsId;
    try {
      podNs = getNS(sys, args.netns);
    } catch (e) {
      // `%q` of the nil NetNS that GetNS returned with its error.
      throw new GoError(`failed to open netns %!q(<nil>): ${(e as Error).message}`);
    }
    const iface = yield* createMacvlan(p, n, args.ifName, podNs, args.netns);
    const result: Result100 = {
      kind: '100',
      cniVersion: b.lib.current,
      interfaces: [iface],
      ips: null,
      routes: null,
      dns: { ...n.netConf.dns },
    };
    if (isLayer3) {
      const r = yield* ipamExecAdd(p, n.netConf.ipam.type, args.stdin, b.lib);
      // The deferred IPAM DEL sees only the errors assigned to the inner `err`.
      let releaseOnFail = false;
      try {
        releaseOnFail = true;
        const ipamResult = toCurrent(r, b.lib);
        releaseOnFail = false;
        if (!ipamResult.ips || ipamResult.ips.length === 0)
          throw new GoError('IPAM plugin returned missing IP config');
        result.ips = ipamResult.ips;
        result.routes = ipamResult.routes;
        for (const ipc of result.ips) ipc.interface = 0;
        releaseOnFail = true;
        try {
          yield* nl.sysctlWrite(sys, podNs, `net.ipv4.conf.${args.ifName}.arp_notify`, '1');
        } catch {
          // ignored, as sysctl.Sysctl's error is
        }
        yield* ipl.configureIface(p, podNs, args.ifName, result);
        releaseOnFail = false;
      } catch (e) {
        if (releaseOnFail) {
          try {
            yield* ipamExecDel(p, n.netConf.ipam.type, args.stdin);
          } catch {
            // the deferred DEL's error is dropped
          }
        }
        throw e;
      }
    } else {
      try {
        let l: Link;
        try {
          l = nl.linkByName(sys, podNs, args.ifName);
        } catch (e) {
          throw new GoError(
            `failed to find interface name ${q(iface.name)}: ${(e as Error).message}`,
          );
        }
        try {
          yield* nl.linkSetUp(sys, podNs, l);
        } catch (e) {
          throw new GoError(`failed to set ${q(args.ifName)} UP: ${(e as Error).message}`);
        }
      } catch (e) {
        try {
          yield* ipl.delLinkByName(p, podNs, args.ifName);
        } catch {
          // the deferred delete's error is dropped
        }
        throw e;
      }
    }
    printResult(p, result, n.netConf.cniVersion, b);
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    const n = loadConf(p, args.stdin, args.args);
    if (n.netConf.ipam.type !== '') yield* ipamExecDel(p, n.netConf.ipam.type, args.stdin);
    if (args.netns === '') return;
    let podNs: nl.NsId;
    try {
      podNs = getNS(p.sys, args.netns);
    } catch (e) {
      if (e instanceof NSPathNotExistErr) return;
      throw e;
    }
    try {
      yield* ipl.delLinkByName(p, podNs, args.ifName);
    } catch (e) {
      if (e !== ipl.ErrLinkNotFound) throw e;
    }
  }

  function* check(args: CmdArgs, p: Proc): Gen<void> {
    const n = loadConf(p, args.stdin, args.args);
    let podNs: nl.NsId;
    try {
      podNs = getNS(p.sys, args.netns);
    } catch (e) {
      throw new GoError(`failed to open netns ${q(args.netns)}: ${(e as Error).message}`);
    }
    if (n.netConf.ipam.type !== '') yield* ipamExecCheck(p, n.netConf.ipam.type, args.stdin);
    if (n.netConf.prevResult === null) throw new GoError('Required prevResult missing');
    const result = toCurrent(
      parsePrevResult(n.netConf.prevResult, n.netConf.cniVersion, b.lib),
      b.lib,
    );
    let contMap: Interface = { name: '', mac: '', sandbox: '' };
    for (const intf of result.interfaces ?? []) {
      if (args.ifName === intf.name && args.netns === intf.sandbox) contMap = intf;
    }
    if (args.netns !== contMap.sandbox) {
      throw new GoError(
        `Sandbox in prevResult ${contMap.sandbox} doesn't match configured netns: ${args.netns}`,
      );
    }
    try {
      nl.linkByName(p.sys, p.sys.hostNs, n.master);
    } catch (e) {
      throw new GoError(`failed to lookup master ${q(n.master)}: ${(e as Error).message}`);
    }
    validateContainerInterface(p, podNs, contMap, n.mode);
    ipl.validateExpectedInterfaceIPs(p, podNs, args.ifName, result.ips ?? []);
    ipl.validateExpectedRoute(p, podNs, result.routes ?? []);
  }

  return {
    add,
    del,
    check,
    skel: b.skel,
    versions: b.all,
    specVersion: b.specVersion,
    about: aboutText('macvlan', b),
  };
}

export function macvlanProgram(b: PluginBuild): Program {
  const plugin = makeMacvlan(b);
  return (p) => pluginMain(p, plugin);
}
