/**
 * firewall (plugins/meta/firewall, v1.1.1): a chained plugin that lets the pod's traffic through
 * the filter table's FORWARD chain. The iptables backend keeps a CNI-FORWARD chain (jumped to
 * first from FORWARD) that starts with a jump to the admin override chain (CNI-ADMIN by default),
 * then per pod address an ACCEPT for replies to it and one for traffic from it. With
 * ingressPolicy "same-bridge" it also adds CNI-ISOLATION-STAGE-1/2, which drop traffic entering
 * the pod's bridge from another interface.
 *
 * Backends: "iptables"; "firewalld" talks to firewalld over the D-Bus system bus; anything else
 * (or nothing) means firewalld when it is running, else iptables. A cnisim node has no D-Bus
 * (like the machine the fixtures were recorded on): "firewalld" fails as the real plugin does
 * without a system bus socket, and the default falls back to iptables.
 *
 * Quirks of v1.1.1 kept here:
 * - An unknown ingressPolicy is reported only after the backend added its rules (which stay), and
 *   DEL fails with the same error after removing them; CHECK does not look at the policy.
 * - CHECK creates CNI-FORWARD and the admin chain if they are missing before it reports the
 *   missing FORWARD rule.
 * - The same-bridge chains are never removed (other pods on the bridge may need them).
 * - The rules of both families are handled in Go map order, which is random; cnisim does IPv4
 *   first.
 * - Every iptables handle runs `iptables --version` first (go-iptables New): one step each.
 */
import { parsePrevResult } from '../cni/create';
import { GoError } from '../cni/errors';
import { type GoNetConf, field, goDecode, goString, pluginConf } from '../cni/gotypes';
import { type Result, type Result100, toCurrent } from '../cni/result';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { pluginMain } from '../cni/skel';
import { versionsFrom } from '../cni/version';
import { q } from '../gofmt';
import { type IPNet, ipString } from '../net/ip';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { type PluginBuild, aboutText } from './lib/build';
import { type IPTables, type Proto, newWithProtocol } from './lib/goiptables';
import { ensureChain, goFmtStrings, insertUnique } from './lib/iptables-utils';
import { printResult } from './loopback';

interface FirewallNetConf {
  netConf: GoNetConf;
  backend: string;
  iptablesAdminChainName: string;
  firewalldZone: string;
  ingressPolicy: string;
}

const FirewallNetConfT = pluginConf('main.FirewallNetConf', [
  field('Backend', goString, 'backend', { prop: 'backend' }),
  field('IptablesAdminChainName', goString, 'iptablesAdminChainName,omitempty', {
    prop: 'iptablesAdminChainName',
  }),
  field('FirewalldZone', goString, 'firewalldZone,omitempty', { prop: 'firewalldZone' }),
  field('IngressPolicy', goString, 'ingressPolicy,omitempty', { prop: 'ingressPolicy' }),
]);

const INGRESS_POLICY_OPEN = 'open';
const INGRESS_POLICY_SAME_BRIDGE = 'same-bridge';

interface Parsed {
  conf: FirewallNetConf;
  /** conf.PrevResult != nil */
  hasPrev: boolean;
  /** The previous result as the current version; empty when there is none (DEL). */
  result: Result100;
  /** prevResult.interfaces[0] was JSON null (a nil *Interface). */
  firstInterfaceNil: boolean;
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function emptyResult(): Result100 {
  return {
    kind: '100',
    cniVersion: '',
    interfaces: null,
    ips: null,
    routes: null,
    dns: { nameservers: null, domain: '', search: null, options: null },
  };
}

function parseConf(stdin: string, b: PluginBuild): Parsed {
  const r = goDecode<FirewallNetConf>(stdin, FirewallNetConfT);
  if (r.error !== null) throw new GoError(`failed to load netconf: ${r.error}`);
  const conf = r.value;
  if (conf.firewalldZone === '') conf.firewalldZone = 'trusted';
  const raw = conf.netConf.prevResult;
  // No previous result is allowed (for DEL): an empty result.
  if (raw === null)
    return { conf, hasPrev: false, result: emptyResult(), firstInterfaceNil: false };
  let prev: Result;
  try {
    prev = parsePrevResult(raw, conf.netConf.cniVersion, b.lib);
  } catch (e) {
    throw new GoError(`could not parse prevResult: ${errText(e)}`);
  }
  let result: Result100;
  try {
    result = toCurrent(prev, b.lib);
  } catch (e) {
    throw new GoError(`could not convert result to current version: ${errText(e)}`);
  }
  const ifs = raw['interfaces'];
  const firstInterfaceNil = Array.isArray(ifs) && ifs.length > 0 && ifs[0] === null;
  return { conf, hasPrev: true, result, firstInterfaceNil };
}

/** ipString: the address as a host prefix (/32 or /128). */
function hostCidr(n: IPNet): string {
  return `${ipString(n.ip)}/${n.ip.v === 4 ? 32 : 128}`;
}

function protoOf(n: IPNet): Proto {
  return n.ip.v === 4 ? 'ipv4' : 'ipv6';
}

// ---------------------------------------------------------------------------------------------
// The iptables backend (iptables.go)

function privChainRules(ip: string): string[][] {
  return [
    ['-d', ip, '-m', 'conntrack', '--ctstate', 'RELATED,ESTABLISHED', '-j', 'ACCEPT'],
    ['-s', ip, '-j', 'ACCEPT'],
  ];
}

function filterRule(privChainName: string): string[] {
  return ['-m', 'comment', '--comment', 'CNI firewall plugin rules', '-j', privChainName];
}

function adminRule(adminChainName: string): string[] {
  return [
    '-m',
    'comment',
    '--comment',
    'CNI firewall plugin admin overrides',
    '-j',
    adminChainName,
  ];
}

interface Backend {
  add(parsed: Parsed): Gen<void>;
  del(parsed: Parsed): Gen<void>;
  check(parsed: Parsed): Gen<void>;
}

/** cleanupRules: deletes each rule, ignoring every error. */
function* cleanupRules(ipt: IPTables, privChainName: string, rules: string[][]): Gen<void> {
  for (const rule of rules) {
    try {
      yield* ipt.delete('filter', privChainName, rule);
    } catch {
      // ignored
    }
  }
}

/** ensureFirstChainRule: Exists, then insert at position 1. */
function* ensureFirstChainRule(ipt: IPTables, chain: string, rule: string[]): Gen<void> {
  if (!(yield* ipt.exists('filter', chain, rule))) yield* ipt.insert('filter', chain, 1, rule);
}

function* newIptablesBackend(p: Proc, conf: FirewallNetConf): Gen<Backend> {
  const adminChainName = conf.iptablesAdminChainName || 'CNI-ADMIN';
  const privChainName = 'CNI-FORWARD';
  const protos = new Map<Proto, IPTables>();
  for (const proto of ['ipv4', 'ipv6'] as const)
    protos.set(proto, yield* newWithProtocol(p.sys, proto));

  const rulesFor = (result: Result100, proto: Proto): string[][] => {
    const rules: string[][] = [];
    for (const ip of result.ips ?? []) {
      if (protoOf(ip.address) === proto) rules.push(...privChainRules(hostCidr(ip.address)));
    }
    return rules;
  };

  function* setupChains(ipt: IPTables): Gen<void> {
    const privRule = filterRule(privChainName);
    const admRule = adminRule(adminChainName);
    yield* ensureChain(ipt, 'filter', privChainName);
    yield* ensureChain(ipt, 'filter', adminChainName);
    yield* ensureFirstChainRule(ipt, 'FORWARD', privRule);
    yield* ensureFirstChainRule(ipt, privChainName, admRule);
  }

  function* addRules(result: Result100, ipt: IPTables, proto: Proto): Gen<void> {
    const rules = rulesFor(result, proto);
    if (rules.length === 0) return;
    yield* setupChains(ipt);
    try {
      for (const rule of rules) yield* ipt.appendUnique('filter', privChainName, rule);
    } catch (e) {
      // The deferred clean-up removes every rule of this family.
      yield* cleanupRules(ipt, privChainName, rules);
      throw e;
    }
  }

  function* checkRules(result: Result100, ipt: IPTables, proto: Proto): Gen<void> {
    const rules = rulesFor(result, proto);
    if (rules.length === 0) return;
    yield* ensureChain(ipt, 'filter', privChainName);
    yield* ensureChain(ipt, 'filter', adminChainName);
    const privRule = filterRule(privChainName);
    if (!(yield* ipt.exists('filter', 'FORWARD', privRule)))
      throw new GoError(`expected FORWARD rule ${goFmtStrings(privRule)} not found`);
    const admRule = adminRule(adminChainName);
    if (!(yield* ipt.exists('filter', privChainName, admRule)))
      throw new GoError(`expected ${privChainName} rule ${goFmtStrings(admRule)} not found`);
    for (const rule of rules) {
      if (!(yield* ipt.exists('filter', privChainName, rule)))
        throw new GoError(`expected rule ${goFmtStrings(rule)} not found`);
    }
  }

  // Go ranges over a map[Protocol]*IPTables, in random order; cnisim takes IPv4 first.
  return {
    *add(parsed) {
      for (const [proto, ipt] of protos) yield* addRules(parsed.result, ipt, proto);
    },
    *del(parsed) {
      for (const [proto, ipt] of protos) {
        const rules = rulesFor(parsed.result, proto);
        if (rules.length > 0) yield* cleanupRules(ipt, privChainName, rules);
      }
    },
    *check(parsed) {
      for (const [proto, ipt] of protos) yield* checkRules(parsed.result, ipt, proto);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Backend choice (firewall.go, firewalld.go)

/** godbus' dbus.SystemBus() on a node without a D-Bus system bus socket. */
const SYSTEM_BUS_SOCKET = '/var/run/dbus/system_bus_socket';
const NO_SYSTEM_BUS = `dial unix ${SYSTEM_BUS_SOCKET}: connect: no such file or directory`;

/** isFirewalldRunning: no system bus, so no. */
function isFirewalldRunning(): boolean {
  return false;
}

/** newFirewalldBackend: getConn() fails first, there is no system bus to connect to. */
function newFirewalldBackend(): never {
  throw new GoError(NO_SYSTEM_BUS);
}

function* getBackend(p: Proc, conf: FirewallNetConf): Gen<Backend> {
  switch (conf.backend) {
    case 'iptables':
      return yield* newIptablesBackend(p, conf);
    case 'firewalld':
      return newFirewalldBackend();
  }
  // Default to firewalld if it is running, else iptables.
  if (isFirewalldRunning()) return newFirewalldBackend();
  return yield* newIptablesBackend(p, conf);
}

// ---------------------------------------------------------------------------------------------
// Ingress policy (ingresspolicy.go)

const STAGE1_CHAIN = 'CNI-ISOLATION-STAGE-1';
const STAGE2_CHAIN = 'CNI-ISOLATION-STAGE-2';

function withDefaultComment(rule: string[]): string[] {
  return [
    ...rule,
    '-m',
    'comment',
    '--comment',
    'CNI firewall plugin rules (ingressPolicy: same-bridge)',
  ];
}

/** findProtos: one entry per address of the previous result (duplicates included). */
function findProtos(parsed: Parsed): Proto[] {
  if (!parsed.hasPrev) return ['ipv4', 'ipv6'];
  return (parsed.result.ips ?? []).map((ip) => protoOf(ip.address));
}

function* setupIsolationChains(ipt: IPTables, bridgeName: string): Gen<void> {
  for (const chain of [STAGE1_CHAIN, STAGE2_CHAIN]) yield* ensureChain(ipt, 'filter', chain);
  // Before the CNI-FORWARD jump of the firewall rules: prepended.
  yield* insertUnique(ipt, 'filter', 'FORWARD', true, withDefaultComment(['-j', STAGE1_CHAIN]));
  yield* insertUnique(
    ipt,
    'filter',
    STAGE1_CHAIN,
    true,
    withDefaultComment(['-i', bridgeName, '!', '-o', bridgeName, '-j', STAGE2_CHAIN]),
  );
  yield* insertUnique(ipt, 'filter', STAGE1_CHAIN, false, withDefaultComment(['-j', 'RETURN']));
  yield* insertUnique(
    ipt,
    'filter',
    STAGE2_CHAIN,
    true,
    withDefaultComment(['-o', bridgeName, '-j', 'DROP']),
  );
  yield* insertUnique(ipt, 'filter', STAGE2_CHAIN, false, withDefaultComment(['-j', 'RETURN']));
}

function* setupIngressPolicySameBridge(p: Proc, parsed: Parsed): Gen<void> {
  const policy = parsed.conf.ingressPolicy;
  const ifs = parsed.result.interfaces ?? [];
  if (ifs.length === 0) {
    throw new GoError(
      `interface needs to be set for ingress policy ${q(policy)}, make sure to chain "firewall" plugin with "bridge"`,
    );
  }
  if (parsed.firstInterfaceNil) throw new GoError('got nil interface');
  const bridgeName = ifs[0]!.name;
  if (bridgeName === '') throw new GoError('got empty bridge name');
  for (const proto of findProtos(parsed)) {
    const ipt = yield* newWithProtocol(p.sys, proto);
    yield* setupIsolationChains(ipt, bridgeName);
  }
}

function* setupIngressPolicy(p: Proc, parsed: Parsed): Gen<void> {
  const policy = parsed.conf.ingressPolicy;
  switch (policy) {
    case '':
    case INGRESS_POLICY_OPEN:
      return;
    case INGRESS_POLICY_SAME_BRIDGE:
      yield* setupIngressPolicySameBridge(p, parsed);
      return;
    default:
      throw new GoError(`unknown ingress policy: ${q(policy)}`);
  }
}

function teardownIngressPolicy(parsed: Parsed): void {
  const policy = parsed.conf.ingressPolicy;
  switch (policy) {
    case '':
    case INGRESS_POLICY_OPEN:
      return;
    case INGRESS_POLICY_SAME_BRIDGE:
      // Nothing: the bridge may still be used by other pods, its isolation rules stay.
      return;
    default:
      throw new GoError(`unknown ingress policy: ${q(policy)}`);
  }
}

// ---------------------------------------------------------------------------------------------

function makeFirewall(b: PluginBuild): SkelPlugin {
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const parsed = parseConf(args.stdin, b);
    if (!parsed.hasPrev) throw new GoError('missing prevResult from earlier plugin');
    const backend = yield* getBackend(p, parsed.conf);
    yield* backend.add(parsed);
    yield* setupIngressPolicy(p, parsed);
    printResult(p, parsed.result, parsed.conf.netConf.cniVersion, b);
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    const parsed = parseConf(args.stdin, b);
    const backend = yield* getBackend(p, parsed.conf);
    // Runtime errors are ignored by the backends' Del.
    yield* backend.del(parsed);
    teardownIngressPolicy(parsed);
  }

  function* check(args: CmdArgs, p: Proc): Gen<void> {
    const parsed = parseConf(args.stdin, b);
    if (!parsed.hasPrev) throw new GoError('missing prevResult from earlier plugin');
    const backend = yield* getBackend(p, parsed.conf);
    yield* backend.check(parsed);
  }

  return {
    add,
    del,
    check,
    skel: b.skel,
    versions: versionsFrom(b.all, '0.4.0'),
    specVersion: b.specVersion,
    about: aboutText('firewall', b),
  };
}

export function firewallProgram(b: PluginBuild): Program {
  const plugin = makeFirewall(b);
  return (p) => pluginMain(p, plugin);
}
