/**
 * /proc/sys/net: global and per-device sysctls with the defaults of the recordings' kernel. A
 * per-device write is announced on the device sysctl chain so that its owner (addrconf for
 * disable_ipv6) applies it.
 */
import { GLOBAL_SYSCTL_DEFAULTS, INTERFACE_SYSCTL_DEFAULTS } from './sysctl-defaults';
import { KernelError } from './errors';
import { linkByName, linksOf, nsById } from './device';
import { linkwatch } from './linkwatch';
import { devSysctlChain } from './notifier';
import type { KernelState, Link, Netns } from './types';
import { tvalues } from '../state/table';

/** Splits `net.ipv6.conf.eth0.accept_ra` into interface + per-interface key. */
function splitInterfaceKey(key: string): { ifname: string; sub: string } | null {
  const m = /^net\.(ipv4|ipv6)\.(conf|neigh)\.([^.]+)\.(.+)$/.exec(key);
  if (!m) return null;
  const ifname = m[3]!;
  if (ifname === 'all' || ifname === 'default') return null;
  return { ifname, sub: `${m[1]}.${m[2]}.${m[4]}` };
}

export function interfaceSysctl(ns: Netns, l: Link, sub: string): string | undefined {
  return l.sysctl[sub] ?? defaultInterfaceSysctl(ns, sub);
}

function defaultInterfaceSysctl(ns: Netns, sub: string): string | undefined {
  const [fam, kind, ...rest] = sub.split('.');
  const dflt = `net.${fam}.${kind}.default.${rest.join('.')}`;
  return ns.sysctl[dflt] ?? INTERFACE_SYSCTL_DEFAULTS[sub];
}

export function ipv6Disabled(ns: Netns, l: Link): boolean {
  return interfaceSysctl(ns, l, 'ipv6.conf.disable_ipv6') === '1';
}

/** Loadable modules the model knows, with the /proc/sys keys each one brings. */
export const MODULES: Readonly<Record<string, { keys: string }>> = {
  // br_netfilter registers net.bridge.* (bridge-nf-call-iptables, ...) in every namespace.
  br_netfilter: { keys: 'net.bridge.' },
};

export function moduleLoaded(k: KernelState, name: string): boolean {
  return !k.unloaded?.includes(name);
}

/** Whether a key exists with the modules loaded now (br_netfilter's net.bridge.*). */
function keyLoaded(k: KernelState, key: string): boolean {
  if (!k.unloaded?.length) return true;
  return !k.unloaded.some((m) => MODULES[m] && key.startsWith(MODULES[m].keys));
}

/**
 * Removes or loads a module. Loading br_netfilter again registers its keys afresh in every
 * namespace with the module's defaults (bridge-nf-call-iptables=1): what was written before is
 * gone with the module.
 */
export function moduleSet(k: KernelState, name: string, loaded: boolean): void {
  const spec = MODULES[name];
  if (!spec) throw new KernelError('ENOENT');
  const off = (k.unloaded ?? []).filter((m) => m !== name);
  if (loaded) {
    if (off.length) k.unloaded = off;
    else delete k.unloaded;
    return;
  }
  k.unloaded = [...off, name].sort();
  for (const ns of tvalues(k.netns))
    for (const key of Object.keys(ns.sysctl)) if (key.startsWith(spec.keys)) delete ns.sysctl[key];
}

/** Reads /proc/sys/<key>; undefined when the file does not exist. */
export function sysctlGet(k: KernelState, nsId: string, key: string): string | undefined {
  if (!keyLoaded(k, key)) return undefined;
  const ns = nsById(k, nsId);
  const split = splitInterfaceKey(key);
  if (split) {
    const l = linkByName(ns, split.ifname);
    return l ? interfaceSysctl(ns, l, split.sub) : undefined;
  }
  return ns.sysctl[key] ?? GLOBAL_SYSCTL_DEFAULTS[key];
}

/** Writes /proc/sys/<key>; throws ENOENT when the file does not exist, EINVAL for bad values. */
export function sysctlSet(k: KernelState, nsId: string, key: string, value: string): void {
  const ns = nsById(k, nsId);
  const v = value.trim();
  const split = splitInterfaceKey(key);
  if (split) {
    const l = linkByName(ns, split.ifname);
    if (!l || INTERFACE_SYSCTL_DEFAULTS[split.sub] === undefined) throw new KernelError('ENOENT');
    if (!validSysctlValue(INTERFACE_SYSCTL_DEFAULTS[split.sub]!, v))
      throw new KernelError('EINVAL');
    l.sysctl[split.sub] = v;
    devSysctlChain.call('write', { k, ns, link: l, key: split.sub, value: v });
    linkwatch(k, [[ns.id, l.ifindex]]);
    return;
  }
  if (GLOBAL_SYSCTL_DEFAULTS[key] === undefined || !keyLoaded(k, key))
    throw new KernelError('ENOENT');
  if (!validSysctlValue(GLOBAL_SYSCTL_DEFAULTS[key]!, v)) throw new KernelError('EINVAL');
  const before = ns.sysctl[key] ?? GLOBAL_SYSCTL_DEFAULTS[key];
  ns.sysctl[key] = v;
  // Forwarding switched for "all" switches it for every interface and the default (as
  // inet_forward_change / addrconf_forward_change do).
  const fam =
    key === 'net.ipv4.ip_forward' || key === 'net.ipv4.conf.all.forwarding'
      ? 'ipv4'
      : key === 'net.ipv6.conf.all.forwarding'
        ? 'ipv6'
        : null;
  // devinet_sysctl_forward / addrconf_sysctl_forward act only when the value changes: writing
  // the current value (as every bridge ADD does with ip_forward=1) leaves the devices alone.
  if (fam && before !== v) {
    if (fam === 'ipv4') {
      ns.sysctl['net.ipv4.ip_forward'] = v;
      ns.sysctl['net.ipv4.conf.all.forwarding'] = v;
    }
    ns.sysctl[`net.${fam}.conf.default.forwarding`] = v;
    for (const l of linksOf(ns)) l.sysctl[`${fam}.conf.forwarding`] = v;
  }
  // addrconf_sysctl_disable -> addrconf_disable_ipv6 (Linux 6.1), when "all" changes: the default
  // follows, and every device takes the value; a device whose state flips is brought down or up
  // for IPv6 (dev_disable_change). Recorded: conformance/local/pod-ipv6-disabled.
  if (key === 'net.ipv6.conf.all.disable_ipv6' && Number(before) !== Number(v)) {
    ns.sysctl['net.ipv6.conf.default.disable_ipv6'] = v;
    const touched: [string, number][] = [];
    for (const l of linksOf(ns)) {
      const old = interfaceSysctl(ns, l, 'ipv6.conf.disable_ipv6');
      l.sysctl['ipv6.conf.disable_ipv6'] = v;
      if ((Number(old) === 0) !== (Number(v) === 0)) {
        devSysctlChain.call('write', { k, ns, link: l, key: 'ipv6.conf.disable_ipv6', value: v });
        touched.push([ns.id, l.ifindex]);
      }
    }
    if (touched.length) linkwatch(k, touched);
  }
}

function validSysctlValue(dflt: string, v: string): boolean {
  // Integer-valued keys accept integers only.
  if (/^-?\d+$/.test(dflt)) return /^-?\d+$/.test(v);
  return true;
}

/** All sysctl keys of the namespace (for `sysctl -a`). */
export function sysctlKeys(k: KernelState, nsId: string): string[] {
  const ns = nsById(k, nsId);
  const keys = Object.keys(GLOBAL_SYSCTL_DEFAULTS).filter((x) => keyLoaded(k, x));
  for (const l of linksOf(ns)) {
    for (const sub of Object.keys(INTERFACE_SYSCTL_DEFAULTS)) {
      const [fam, kind, ...rest] = sub.split('.');
      keys.push(`net.${fam}.${kind}.${l.name}.${rest.join('.')}`);
    }
  }
  return keys.sort();
}
