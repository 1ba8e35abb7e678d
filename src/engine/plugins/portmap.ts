/**
 * portmap (plugins/meta/portmap, v1.1.1): a chained plugin that forwards host ports to the pod
 * with iptables nat rules, for each address family the pod has an address in (from prevResult).
 *
 * Chains (nat table): CNI-HOSTPORT-SETMARK (marks traffic to masquerade), CNI-HOSTPORT-MASQ
 * (jumped to first from POSTROUTING), CNI-HOSTPORT-DNAT (from PREROUTING and OUTPUT for local
 * destinations), and per container CNI-DN-<hash> with one SETMARK rule for hairpin traffic, one
 * for 127.0.0.1 (IPv4) and the DNAT rule per mapping. With SNAT on IPv4, route_localnet is set on
 * the host interface that routes to the pod. DEL removes only the per-container chain (and the
 * CNI-SN-<hash> chain of old versions); the shared chains stay.
 *
 * Quirks of v1.1.1 kept here:
 * - CHECK checks the per-container chain of a family in BOTH iptables and ip6tables, so it fails
 *   whenever the pod is not dual-stack ("could not check ipv6 dnat: chain CNI-DN-... not found in
 *   iptables table nat"), and for a dual-stack pod the IPv4 rules are looked for in ip6tables.
 * - When setting up CNI-HOSTPORT-MASQ fails, the error names CNI-HOSTPORT-SETMARK.
 * - The "rule ... not found" messages print the whole rule list with fmt's %s ([[a b] [c d]]).
 * - DEL with no mappings in runtimeConfig does nothing, whatever ADD did.
 * - The ADD of a protocol other than tcp/udp/sctp/... fails at the first iptables call that uses
 *   it, leaving what was created before (shared chains, the per-container chain, earlier rules).
 *
 * Not modelled: after adding the rules for UDP mappings the real plugin deletes conntrack entries
 * of the host ports (netlink conntrack delete); cnisim has no conntrack table, and the plugin only
 * logs failures of that step, so nothing visible changes.
 */
import { parsePrevResult } from '../cni/create';
import { GoError } from '../cni/errors';
import {
  type GoNetConf,
  field,
  goBool,
  goDecode,
  goInt,
  goString,
  pluginConf,
  ptr,
  slice,
  struct,
} from '../cni/gotypes';
import { type Result, type Result100, toCurrent } from '../cni/result';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { pluginMain } from '../cni/skel';
import { utf8Bytes, utf8Decode } from '../base64';
import { KernelError, routeLookup } from '../kernel/kernel';
import { type IP, type IPNet, ipString, parseIP } from '../net/ip';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { type PluginBuild, aboutText } from './lib/build';
import { type IPTables, newWithProtocol } from './lib/goiptables';
import {
  chainExists,
  clearChain,
  deleteChain,
  deleteRule,
  ensureChain,
  goFmtStringSlices,
  insertUnique,
} from './lib/iptables-utils';
import { formatHashWithPrefix } from './lib/ipmasq';
import * as nl from './lib/netlink';
import { parseShellwords } from './lib/shellwords';
import { printResult } from './loopback';

// ---------------------------------------------------------------------------------------------
// Configuration

interface PortMapEntry {
  hostPort: number;
  containerPort: number;
  protocol: string;
  hostIP: string;
}

/** A Go `*[]string` as the decoder holds it: nil, or a box around a (possibly nil) slice. */
type BoxedStrings = { elem: string[] | null } | null;

interface PortMapConf {
  netConf: GoNetConf;
  snat: boolean | null;
  conditionsV4: BoxedStrings;
  conditionsV6: BoxedStrings;
  markMasqBit: number | null;
  externalSetMarkChain: string | null;
  runtimeConfig: { portMappings: PortMapEntry[] | null };
}

const PortMapEntryT = struct('main.PortMapEntry', [
  field('HostPort', goInt, 'hostPort', { prop: 'hostPort' }),
  field('ContainerPort', goInt, 'containerPort', { prop: 'containerPort' }),
  field('Protocol', goString, 'protocol', { prop: 'protocol' }),
  field('HostIP', goString, 'hostIP,omitempty', { prop: 'hostIP' }),
]);

const PortMapConfT = pluginConf('main.PortMapConf', [
  field('SNAT', ptr(goBool), 'snat,omitempty', { prop: 'snat' }),
  field('ConditionsV4', ptr(slice(goString)), 'conditionsV4', { prop: 'conditionsV4' }),
  field('ConditionsV6', ptr(slice(goString)), 'conditionsV6', { prop: 'conditionsV6' }),
  field('MarkMasqBit', ptr(goInt), 'markMasqBit', { prop: 'markMasqBit' }),
  field('ExternalSetMarkChain', ptr(goString), 'externalSetMarkChain', {
    prop: 'externalSetMarkChain',
  }),
  field(
    'RuntimeConfig',
    struct(undefined, [
      field('PortMaps', slice(PortMapEntryT), 'portMappings,omitempty', { prop: 'portMappings' }),
    ]),
    'runtimeConfig,omitempty',
    { prop: 'runtimeConfig' },
  ),
]);

/** The default mark bit that asks for masquerading (Kubernetes uses 14 and 15). */
const DEFAULT_MARK_BIT = 13;

/** The parsed configuration with the defaults and the container addresses filled in. */
interface Config {
  name: string;
  cniVersion: string;
  snat: boolean;
  conditionsV4: string[] | null;
  conditionsV6: string[] | null;
  markMasqBit: number;
  externalSetMarkChain: string | null;
  portMaps: PortMapEntry[];
  containerId: string;
  contIPv4: IPNet | null;
  contIPv6: IPNet | null;
  /** conf.PrevResult: the previous result at the config's version (null when absent). */
  prevResult: Result | null;
  /** The previous result as the current version (what parseConfig returns). */
  result: Result100 | null;
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** parseConfig: decodes stdin, parses prevResult, applies defaults and validates. */
function parseConfig(stdin: string, ifName: string, b: PluginBuild): Config {
  const r = goDecode<PortMapConf>(stdin, PortMapConfT);
  if (r.error !== null) throw new GoError(`failed to parse network configuration: ${r.error}`);
  const conf = r.value;
  let prevResult: Result | null = null;
  let result: Result100 | null = null;
  if (conf.netConf.prevResult !== null) {
    try {
      prevResult = parsePrevResult(conf.netConf.prevResult, conf.netConf.cniVersion, b.lib);
    } catch (e) {
      throw new GoError(`could not parse prevResult: ${errText(e)}`);
    }
    try {
      result = toCurrent(prevResult, b.lib);
    } catch (e) {
      throw new GoError(`could not convert result to current version: ${errText(e)}`);
    }
  }
  const snat = conf.snat ?? true;
  if (conf.markMasqBit !== null && conf.externalSetMarkChain !== null)
    throw new GoError('Cannot specify externalSetMarkChain and markMasqBit');
  const markMasqBit = conf.markMasqBit ?? DEFAULT_MARK_BIT;
  if (markMasqBit < 0 || markMasqBit > 31)
    throw new GoError('MasqMarkBit must be between 0 and 31');
  const portMaps = conf.runtimeConfig.portMappings ?? [];
  for (const pm of portMaps) {
    if (pm.containerPort <= 0)
      throw new GoError(`Invalid container port number: ${pm.containerPort}`);
    if (pm.hostPort <= 0) throw new GoError(`Invalid host port number: ${pm.hostPort}`);
  }
  let contIPv4: IPNet | null = null;
  let contIPv6: IPNet | null = null;
  if (result !== null) {
    const ifaces = result.interfaces ?? [];
    for (const ip of result.ips ?? []) {
      const isIPv4 = ip.address.ip.v === 4;
      if (!isIPv4 && contIPv6 !== null) continue;
      else if (isIPv4 && contIPv4 !== null) continue;
      // Skip addresses of known interfaces that are not the pod's CNI_IFNAME.
      if (ip.interface !== null) {
        const idx = ip.interface;
        const intf = ifaces[idx];
        if (idx >= 0 && intf && (intf.name !== ifName || intf.sandbox === '')) continue;
      }
      if (isIPv4) contIPv4 = ip.address;
      else contIPv6 = ip.address;
    }
  }
  return {
    name: conf.netConf.name,
    cniVersion: conf.netConf.cniVersion,
    snat,
    conditionsV4: conf.conditionsV4?.elem ?? null,
    conditionsV6: conf.conditionsV6?.elem ?? null,
    markMasqBit,
    externalSetMarkChain: conf.externalSetMarkChain,
    portMaps,
    containerId: '',
    contIPv4,
    contIPv6,
    prevResult,
    result,
  };
}

// ---------------------------------------------------------------------------------------------
// Chains (chain.go)

const TOP_LEVEL_DNAT_CHAIN = 'CNI-HOSTPORT-DNAT';
const SET_MARK_CHAIN = 'CNI-HOSTPORT-SETMARK';
const MARK_MASQ_CHAIN = 'CNI-HOSTPORT-MASQ';
const OLD_TOP_LEVEL_SNAT_CHAIN = 'CNI-HOSTPORT-SNAT';

interface Chain {
  table: string;
  name: string;
  /** The chains the entry rules go into. */
  entryChains: string[];
  /** The rules that jump to this chain (without the `-j <name>`). */
  entryRules: string[][];
  /** The rules of this chain. */
  rules: string[][];
  /** Whether the entry rules are inserted first (else appended). */
  prependEntry: boolean;
}

function newChain(name: string, entryChains: string[] = []): Chain {
  return { table: 'nat', name, entryChains, entryRules: [], rules: [], prependEntry: false };
}

/** chain.setup: idempotently creates the chain, its rules and the jumps to it. */
function* chainSetup(ipt: IPTables, c: Chain): Gen<void> {
  yield* ensureChain(ipt, c.table, c.name);
  for (const rule of c.rules) yield* insertUnique(ipt, c.table, c.name, false, rule);
  for (const entryChain of c.entryChains) {
    for (const rule of c.entryRules) {
      yield* insertUnique(ipt, c.table, entryChain, c.prependEntry, [...rule, '-j', c.name]);
    }
  }
}

/**
 * chain.teardown: flushes the chain (creating it when it does not exist), deletes every rule of
 * the entry chains that jumps to it (parsed back from `iptables -S` with go-shellwords), then
 * deletes the chain.
 */
function* chainTeardown(ipt: IPTables, c: Chain): Gen<void> {
  yield* clearChain(ipt, c.table, c.name);
  for (const entryChain of c.entryChains) {
    let lines: string[];
    try {
      lines = yield* ipt.list(c.table, entryChain);
    } catch {
      // Probably the chain does not exist.
      continue;
    }
    if (lines.length < 1) continue;
    for (const line of lines.slice(1)) {
      if (!line.endsWith(`-j ${c.name}`)) continue;
      let parts: string[];
      try {
        parts = parseShellwords(line);
      } catch (e) {
        throw new GoError(`error parsing iptables rule: ${line}: ${errText(e)}`);
      }
      // List results always start with "-A CHAINNAME".
      yield* deleteRule(ipt, c.table, entryChain, parts.slice(2));
    }
  }
  yield* deleteChain(ipt, c.table, c.name);
}

/** checkRule: `-C`; any error counts as "not there". */
function* checkRule(ipt: IPTables, table: string, chain: string, rule: string[]): Gen<boolean> {
  try {
    return yield* ipt.exists(table, chain, rule);
  } catch {
    return false;
  }
}

/** chain.check: the chain exists, then its rules and entry rules, each list from the end. */
function* chainCheck(ipt: IPTables, c: Chain): Gen<void> {
  const exists = yield* chainExists(ipt, c.table, c.name);
  if (!exists) throw new GoError(`chain ${c.name} not found in iptables table ${c.table}`);
  for (let i = c.rules.length - 1; i >= 0; i--) {
    if (!(yield* checkRule(ipt, c.table, c.name, c.rules[i]!))) {
      throw new GoError(
        `rule ${goFmtStringSlices(c.rules)} in chain ${c.name} not found in table ${c.table}`,
      );
    }
  }
  for (const entryChain of c.entryChains) {
    for (let i = c.entryRules.length - 1; i >= 0; i--) {
      const r = [...c.entryRules[i]!, '-j', c.name];
      if (!(yield* checkRule(ipt, c.table, entryChain, r))) {
        throw new GoError(
          `rule ${goFmtStringSlices(c.entryRules)} in chain ${entryChain} not found in table ${c.table}`,
        );
      }
    }
  }
}

function markDef(bit: number): string {
  const v = (2 ** bit).toString(16);
  return `0x${v}/0x${v}`;
}

function genToplevelDnatChain(): Chain {
  const c = newChain(TOP_LEVEL_DNAT_CHAIN, ['PREROUTING', 'OUTPUT']);
  c.entryRules = [['-m', 'addrtype', '--dst-type', 'LOCAL']];
  return c;
}

function genDnatChain(netName: string, containerId: string): Chain {
  return newChain(formatHashWithPrefix(28, 'CNI-DN-', netName + containerId), [
    TOP_LEVEL_DNAT_CHAIN,
  ]);
}

function genOldSnatChain(netName: string, containerId: string): Chain {
  return newChain(formatHashWithPrefix(28, 'CNI-SN-', netName + containerId), [
    OLD_TOP_LEVEL_SNAT_CHAIN,
  ]);
}

function genSetMarkChain(markBit: number): Chain {
  const c = newChain(SET_MARK_CHAIN);
  c.rules = [
    [
      '-m',
      'comment',
      '--comment',
      'CNI portfwd masquerade mark',
      '-j',
      'MARK',
      '--set-xmark',
      markDef(markBit),
    ],
  ];
  return c;
}

function genMarkMasqChain(markBit: number): Chain {
  const c = newChain(MARK_MASQ_CHAIN, ['POSTROUTING']);
  // Prepended, or the ptp / bridge masquerading rules would come first.
  c.prependEntry = true;
  c.entryRules = [['-m', 'comment', '--comment', 'CNI portfwd requiring masquerade']];
  c.rules = [['-m', 'mark', '--mark', markDef(markBit), '-j', 'MASQUERADE']];
  return c;
}

/** trimComment: iptables comments are at most 255 bytes. */
function trimComment(val: string): string {
  const bytes = utf8Bytes(val);
  if (bytes.length <= 255) return val;
  return `${utf8Decode(bytes.slice(0, 253))}...`;
}

/** fmtIpPort: `ip:port`, `[ip]:port` for IPv6. */
function fmtIpPort(ip: IP, port: number): string {
  return ip.v === 6 ? `[${ipString(ip)}]:${port}` : `${ipString(ip)}:${port}`;
}

/** net.IPNet.String(): the address as given (not masked) and the prefix length. */
function ipNetString(n: IPNet): string {
  return `${ipString(n.ip)}/${n.prefix}`;
}

/** splitPortList: multiport takes at most 15 ports per rule. */
function splitPortList(l: number[]): string[] {
  const out: string[] = [];
  let acc: string[] = [];
  for (const i of l) {
    acc.push(String(i));
    if (acc.length === 15) {
      out.push(acc.join(','));
      acc = [];
    }
  }
  if (acc.length > 0) out.push(acc.join(','));
  return out;
}

function goStringLess(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** fillDnatRules: the multiport entry rules per protocol and the 2 or 3 rules per mapping. */
function fillDnatRules(c: Chain, config: Config, containerNet: IPNet): void {
  const isV6 = containerNet.ip.v === 6;
  const comment = trimComment(`dnat name: "${config.name}" id: "${config.containerId}"`);
  const entries = config.portMaps;
  const setMarkChainName = config.externalSetMarkChain ?? SET_MARK_CHAIN;

  const protoPorts = new Map<string, number[]>();
  for (const e of entries) {
    const l = protoPorts.get(e.protocol);
    if (l) l.push(e.hostPort);
    else protoPorts.set(e.protocol, [e.hostPort]);
  }
  const protos = [...protoPorts.keys()].sort(goStringLess);
  for (const proto of protos) {
    for (const portSpec of splitPortList(protoPorts.get(proto)!)) {
      const r = [
        '-m',
        'comment',
        '--comment',
        comment,
        '-m',
        'multiport',
        '-p',
        proto,
        '--destination-ports',
        portSpec,
      ];
      if (isV6 && config.conditionsV6 !== null && config.conditionsV6.length > 0)
        r.push(...config.conditionsV6);
      else if (!isV6 && config.conditionsV4 !== null && config.conditionsV4.length > 0)
        r.push(...config.conditionsV4);
      c.entryRules.push(r);
    }
  }

  c.rules = [];
  for (const entry of entries) {
    let addRuleBaseDst = false;
    if (entry.hostIP !== '') {
      // net.ParseIP: an unparsable hostIP is nil, whose To4() is nil: it counts as IPv6.
      const hostIP = parseIP(entry.hostIP);
      const isHostV6 = hostIP === null || hostIP.v === 6;
      if (isV6 !== isHostV6) continue;
      // An unspecified address cannot be a destination.
      if (!(hostIP !== null && hostIP.n === 0n)) addRuleBaseDst = true;
    }
    const ruleBase = ['-p', entry.protocol, '--dport', String(entry.hostPort)];
    if (addRuleBaseDst) ruleBase.push('-d', entry.hostIP);
    if (config.snat) {
      // hairpin
      c.rules.push([...ruleBase, '-s', ipNetString(containerNet), '-j', setMarkChainName]);
      // localhost
      if (!isV6) c.rules.push([...ruleBase, '-s', '127.0.0.1', '-j', setMarkChainName]);
    }
    c.rules.push([
      ...ruleBase,
      '-j',
      'DNAT',
      '--to-destination',
      fmtIpPort(containerNet.ip, entry.containerPort),
    ]);
  }
}

// ---------------------------------------------------------------------------------------------
// ADD / DEL / CHECK (portmap.go)

/** getRoutableHostIF: netlink.RouteGet(containerIP) in the host, then the route's link name. */
function getRoutableHostIF(p: Proc, containerIP: IP): string {
  const sys = p.sys;
  const ns = sys.ns(sys.hostNs);
  if (!ns) return '';
  const route = routeLookup(sys.kernel, ns, containerIP);
  if (!route) return '';
  try {
    return nl.linkByIndex(sys, sys.hostNs, route.dev).name;
  } catch {
    return '';
  }
}

/** enableLocalnetRouting: sysctl net/ipv4/conf/<if>/route_localnet = 1 (127/8 not martian). */
function* enableLocalnetRouting(p: Proc, ifName: string): Gen<void> {
  const path = `/proc/sys/net/ipv4/conf/${ifName}/route_localnet`;
  try {
    yield* nl.sysctlWrite(p.sys, p.sys.hostNs, `net.ipv4.conf.${ifName}.route_localnet`, '1');
  } catch (e) {
    if (e instanceof KernelError && e.errno === 'ENOENT')
      throw new GoError(`open ${path}: ${e.message}`);
    throw new GoError(`write ${path}: ${errText(e)}`);
  }
}

function* forwardPorts(p: Proc, config: Config, containerNet: IPNet): Gen<void> {
  const isV6 = containerNet.ip.v === 6;
  const ipt = yield* newWithProtocol(p.sys, isV6 ? 'ipv6' : 'ipv4');
  // The DNAT rules jump to the mark chains: create those first.
  if (config.snat) {
    if (config.externalSetMarkChain === null) {
      const setMarkChain = genSetMarkChain(config.markMasqBit);
      try {
        yield* chainSetup(ipt, setMarkChain);
      } catch (e) {
        throw new GoError(`unable to create chain ${setMarkChain.name}: ${errText(e)}`);
      }
      const masqChain = genMarkMasqChain(config.markMasqBit);
      try {
        yield* chainSetup(ipt, masqChain);
      } catch (e) {
        // v1.1.1 names the SETMARK chain here too.
        throw new GoError(`unable to create chain ${setMarkChain.name}: ${errText(e)}`);
      }
    }
    if (!isV6) {
      // route_localnet on the host interface that routes to the pod, so that 127/8 can cross a
      // routing boundary.
      const hostIfName = getRoutableHostIF(p, containerNet.ip);
      if (hostIfName !== '') {
        try {
          yield* enableLocalnetRouting(p, hostIfName);
        } catch (e) {
          throw new GoError(`unable to enable route_localnet: ${errText(e)}`);
        }
      }
    }
  }
  const toplevelDnatChain = genToplevelDnatChain();
  try {
    yield* chainSetup(ipt, toplevelDnatChain);
  } catch (e) {
    throw new GoError(`failed to create top-level DNAT chain: ${errText(e)}`);
  }
  const dnatChain = genDnatChain(config.name, config.containerId);
  fillDnatRules(dnatChain, config, containerNet);
  try {
    yield* chainSetup(ipt, dnatChain);
  } catch (e) {
    throw new GoError(`unable to setup DNAT: ${errText(e)}`);
  }
}

/** maybeGetIptables: a handle if `iptables -t nat -S OUTPUT` works for that family, else null. */
function* maybeGetIptables(p: Proc, isV6: boolean): Gen<IPTables | null> {
  const ipt = yield* newWithProtocol(p.sys, isV6 ? 'ipv6' : 'ipv4');
  try {
    yield* ipt.list('nat', 'OUTPUT');
  } catch {
    return null;
  }
  return ipt;
}

function* checkPorts(p: Proc, config: Config, containerNet: IPNet): Gen<void> {
  const dnatChain = genDnatChain(config.name, config.containerId);
  fillDnatRules(dnatChain, config, containerNet);
  const ip4t = yield* maybeGetIptables(p, false);
  const ip6t = yield* maybeGetIptables(p, true);
  if (ip4t === null && ip6t === null) throw new GoError('neither iptables nor ip6tables usable');
  // Both families are checked whatever the family of containerNet (v1.1.1).
  if (ip4t !== null) {
    try {
      yield* chainCheck(ip4t, dnatChain);
    } catch (e) {
      throw new GoError(`could not check ipv4 dnat: ${errText(e)}`);
    }
  }
  if (ip6t !== null) {
    try {
      yield* chainCheck(ip6t, dnatChain);
    } catch (e) {
      throw new GoError(`could not check ipv6 dnat: ${errText(e)}`);
    }
  }
}

function* unforwardPorts(p: Proc, config: Config): Gen<void> {
  const dnatChain = genDnatChain(config.name, config.containerId);
  // Might be lying around from old versions.
  const oldSnatChain = genOldSnatChain(config.name, config.containerId);
  const ip4t = yield* maybeGetIptables(p, false);
  const ip6t = yield* maybeGetIptables(p, true);
  if (ip4t === null && ip6t === null) throw new GoError('neither iptables nor ip6tables usable');
  for (const [ipt, fam] of [
    [ip4t, 'ipv4'],
    [ip6t, 'ipv6'],
  ] as const) {
    if (ipt === null) continue;
    try {
      yield* chainTeardown(ipt, dnatChain);
    } catch (e) {
      throw new GoError(`could not teardown ${fam} dnat: ${errText(e)}`);
    }
    try {
      yield* chainTeardown(ipt, oldSnatChain);
    } catch {
      // ignored
    }
  }
}

function makePortmap(b: PluginBuild): SkelPlugin {
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    let config: Config;
    try {
      config = parseConfig(args.stdin, args.ifName, b);
    } catch (e) {
      throw new GoError(`failed to parse config: ${errText(e)}`);
    }
    if (config.prevResult === null) throw new GoError('must be called as chained plugin');
    if (config.portMaps.length > 0) {
      config.containerId = args.containerId;
      // After each family's rules the real plugin deletes the UDP conntrack entries of the host
      // ports (stale connections would bypass the new DNAT); not modelled, see the header.
      if (config.contIPv4 !== null) yield* forwardPorts(p, config, config.contIPv4);
      if (config.contIPv6 !== null) yield* forwardPorts(p, config, config.contIPv6);
    }
    // The previous result passes through.
    printResult(p, config.prevResult, config.cniVersion, b);
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    let config: Config;
    try {
      config = parseConfig(args.stdin, args.ifName, b);
    } catch (e) {
      throw new GoError(`failed to parse config: ${errText(e)}`);
    }
    if (config.portMaps.length === 0) return;
    config.containerId = args.containerId;
    // Whether v6 or SNAT were used does not matter: deletion is idempotent.
    yield* unforwardPorts(p, config);
  }

  function* check(args: CmdArgs, p: Proc): Gen<void> {
    const config = parseConfig(args.stdin, args.ifName, b);
    if (config.result === null) throw new GoError('Required prevResult missing');
    if (config.portMaps.length === 0) return;
    config.containerId = args.containerId;
    if (config.contIPv4 !== null) yield* checkPorts(p, config, config.contIPv4);
    if (config.contIPv6 !== null) yield* checkPorts(p, config, config.contIPv6);
  }

  return {
    add,
    del,
    check,
    skel: b.skel,
    versions: b.all,
    specVersion: b.specVersion,
    about: aboutText('portmap', b),
  };
}

export function portmapProgram(b: PluginBuild): Program {
  const plugin = makePortmap(b);
  return (p) => pluginMain(p, plugin);
}
