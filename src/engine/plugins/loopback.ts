/**
 * loopback (plugins/main/loopback): brings `lo` up in the pod's namespace on ADD, down on DEL.
 * It ignores CNI_IFNAME.
 */
import { GoError } from '../cni/errors';
import { parsePrevResult } from '../cni/create';
import { goDecode, typesNetConf, type GoNetConf } from '../cni/gotypes';
import { goMarshal } from '../cni/json';
import { type Result, type Result100, getAsVersion, resultJSON, toCurrent } from '../cni/result';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { pluginMain } from '../cni/skel';
import { q } from '../gofmt';
import { isLoopback, ipString } from '../net/ip';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { type PluginBuild, aboutText } from './lib/build';
import * as nl from './lib/netlink';
import { NSPathNotExistErr, getNS } from './lib/ns';

function parseNetConf(stdin: string, b: PluginBuild): { conf: GoNetConf; prev: Result | null } {
  const r = goDecode<GoNetConf & { netConf?: never }>(stdin, typesNetConf);
  if (r.error !== null) throw new GoError(`failed to parse network config: ${r.error}`);
  let prev: Result | null = null;
  if (r.value.prevResult !== null) {
    try {
      prev = parsePrevResult(r.value.prevResult, r.value.cniVersion, b.lib);
    } catch (e) {
      throw new GoError(`failed to parse prevResult: ${(e as Error).message}`);
    }
    try {
      toCurrent(prev, b.lib);
    } catch (e) {
      throw new GoError(`failed to convert result to current version: ${(e as Error).message}`);
    }
  }
  return { conf: r.value, prev };
}

export function printResult(p: Proc, r: Result, version: string, b: PluginBuild): void {
  const out = getAsVersion(r, version, b.lib);
  p.stdout += goMarshal(resultJSON(out, b.lib), '    ');
}

function makeLoopback(b: PluginBuild): SkelPlugin {
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const { conf, prev } = parseNetConf(args.stdin, b);
    const ifName = 'lo';
    const ns = getNS(p.sys, args.netns);
    const link = nl.linkByName(p.sys, ns, ifName);
    yield* nl.linkSetUp(p.sys, ns, link);
    const cur = nl.refresh(p.sys, ns, link);
    const addrs = nl.addrList(p.sys, ns, cur);
    for (const fam of [4, 6] as const) {
      for (const a of addrs.filter((x) => x.ip.v === fam)) {
        if (!isLoopback(a.ip)) {
          throw new GoError(
            `loopback interface found with non-loopback address ${q(ipString(a.ip))}`,
          );
        }
      }
    }
    let result: Result;
    if (prev) {
      result = prev;
    } else {
      const r: Result100 = {
        kind: '100',
        cniVersion: conf.cniVersion,
        interfaces: [{ name: ifName, mac: '00:00:00:00:00:00', sandbox: args.netns }],
        ips: null,
        routes: null,
        dns: { nameservers: null, domain: '', search: null, options: null },
      };
      const first4 = addrs.find((a) => a.ip.v === 4);
      const first6 = addrs.find((a) => a.ip.v === 6);
      if (first4) (r.ips ??= []).push({ interface: 0, address: first4, gateway: null });
      if (first6) (r.ips ??= []).push({ interface: 0, address: first6, gateway: null });
      result = r;
    }
    printResult(p, result, conf.cniVersion, b);
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    if (args.netns === '') return;
    let ns: nl.NsId;
    try {
      ns = getNS(p.sys, args.netns);
    } catch (e) {
      if (e instanceof NSPathNotExistErr) return;
      throw e;
    }
    const link = nl.linkByName(p.sys, ns, 'lo');
    yield* nl.linkSetDown(p.sys, ns, link);
  }

  // eslint-disable-next-line require-yield
  function* check(args: CmdArgs, p: Proc): Gen<void> {
    const ns = getNS(p.sys, args.netns);
    const link = nl.linkByName(p.sys, ns, 'lo');
    if (!link.adminUp) throw new GoError('loopback interface is down');
  }

  return {
    add,
    del,
    check,
    skel: b.skel,
    versions: b.all,
    specVersion: b.specVersion,
    about: aboutText('loopback', b),
  };
}

export function loopbackProgram(b: PluginBuild): Program {
  const plugin = makeLoopback(b);
  return (p) => pluginMain(p, plugin);
}
