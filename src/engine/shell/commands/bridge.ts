/**
 * `bridge [-n NS] [-j] [-p] link [show] [dev DEV]` (iproute2 6.1): the bridge ports (state
 * forwarding or disabled, priority 32, cost 2 for a veth — its 10 Gb/s — else 100), and
 * `bridge link set dev DEV hairpin on|off`.
 * `bridge fdb add | append | replace | del MAC dev DEV [dst IP] [self] [permanent]`: the
 * entries of a VXLAN device (a MAC reached through a remote VTEP), as flanneld writes them.
 * Not modelled: fdb show, entries on bridge ports, vlan/mdb and `bridge -d` / `-s`.
 */
import { linkByName, linkSetHairpin, linksOf, nsById, portForwarding } from '../../kernel/kernel';
import type { FdbEntry, Link } from '../../kernel/types';
import { linkFlags } from '../../kernel/view';
import type { CommandContext } from '../types';
import { matches } from './ip-common';
import { type JsonValue, jsonOutput } from './jsonw';
import { nsOfCtx, netnsOption, notSimulated } from './netcommon';

const BRIDGE_USAGE =
  'Usage: bridge [ OPTIONS ] OBJECT { COMMAND | help }\n       bridge [ -force ] -batch filename\nwhere  OBJECT := { link | fdb | mdb | vlan | monitor }\n       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] |\n                    -o[neline] | -t[imestamp] | -n[etns] name |\n                    -c[ompressvlans] -color -p[retty] -j[son] }\n';

/**
 * `bridge link set dev DEV hairpin on|off`: a port's hairpin mode (IFLA_BRPORT_MODE), as the
 * bridge plugin sets it at ADD from hairpinMode. The port's other flags are not modelled.
 */
function linkSet(ctx: CommandContext, nsId: string, a: string[]): number {
  let dev: string | null = null;
  let hairpin: boolean | null = null;
  for (let j = 0; j < a.length; j++) {
    const w = a[j]!;
    if (w === 'dev') dev = a[++j] ?? null;
    else if (w === 'hairpin') {
      const v = a[++j];
      if (v !== 'on' && v !== 'off') {
        ctx.err(`Error: argument of "hairpin" must be "on" or "off", not "${v ?? ''}"\n`);
        return 255;
      }
      hairpin = v === 'on';
    } else return notSimulated(ctx, 'bridge', `link set ${w}`);
  }
  if (dev === null) {
    ctx.err('Device is a required argument.\n');
    return 255;
  }
  const l = linkByName(nsOfCtx(ctx, nsId), dev);
  if (!l) {
    ctx.err(`Cannot find device "${dev}"\n`);
    return 1;
  }
  if (hairpin === null) return 0;
  if (!l.brport) {
    ctx.err('RTNETLINK answers: Operation not supported\n');
    return 255;
  }
  const on = hairpin;
  ctx.changeKernel((k) => linkSetHairpin(k, nsId, l.ifindex, on));
  return 0;
}

/** br_if.c port_cost: from the device's speed (a veth says 10000 Mb/s), else 100. */
function portCost(l: Link): number {
  return l.kind === 'veth' ? 2 : 100;
}

export function bridge(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  let nsId = ctx.netns;
  let json = false;
  let pretty = false;
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    let o = args[i]!;
    if (o === '--') {
      i++;
      break;
    }
    if (o.startsWith('--')) o = o.slice(1);
    if (matches(o, '-json')) json = true;
    else if (matches(o, '-pretty')) pretty = true;
    else if (matches(o, '-netns')) {
      const r = netnsOption(ctx, args[++i]);
      if (typeof r === 'string') {
        ctx.err(r);
        return 255;
      }
      nsId = r.id;
    } else if (matches(o, '-Version')) {
      ctx.out('bridge utility, 6.1.0\n');
      return 0;
    } else if (matches(o, '-help')) {
      ctx.err(BRIDGE_USAGE);
      return 255;
    } else if (matches(o, '-statistics') || matches(o, '-details'))
      return notSimulated(ctx, 'bridge', `option ${args[i]}`);
    else if (
      matches(o, '-oneline') ||
      matches(o, '-timestamp') ||
      matches(o, '-compressvlans') ||
      /^-c(olor|olour)?(=.*)?$/.test(o)
    )
      continue;
    else {
      ctx.err(`Option "${args[i]}" is unknown, try "bridge help".\n`);
      return 255;
    }
  }
  const [obj, ...rest] = args.slice(i);
  if (obj === undefined || matches(obj, 'help')) {
    ctx.err(BRIDGE_USAGE);
    return 255;
  }
  if (matches(obj, 'fdb') && rest[0] !== undefined && FDB_MODIFY.includes(rest[0]))
    return fdbModify(ctx, nsId, rest[0], rest.slice(1));
  if (!matches(obj, 'link')) {
    if (['fdb', 'mdb', 'vlan', 'monitor'].some((o) => matches(obj, o)))
      return notSimulated(ctx, 'bridge', obj);
    ctx.err(`Object "${obj}" is unknown, try "bridge help".\n`);
    return 255;
  }
  let a = rest;
  if (a.length > 0) {
    const c = a[0]!;
    if (matches(c, 'show') || matches(c, 'list') || matches(c, 'lst')) a = a.slice(1);
    else if (matches(c, 'set')) return linkSet(ctx, nsId, a.slice(1));
    else if (matches(c, 'add') || matches(c, 'delete'))
      return notSimulated(ctx, 'bridge', `link ${c}`);
    else if (matches(c, 'help')) return notSimulated(ctx, 'bridge', 'link help');
    else {
      ctx.err(`Command "${c}" is unknown, try "bridge link help".\n`);
      return 255;
    }
  }
  const ns = nsOfCtx(ctx, nsId);
  let dev: Link | null = null;
  for (let j = 0; j < a.length; j++) {
    let name = a[j]!;
    if (name === 'dev') {
      name = a[++j] ?? '';
      if (name === '') {
        ctx.err('Command line is not complete. Try option "help"\n');
        return 255;
      }
    }
    const l = linkByName(ns, name);
    if (!l) {
      ctx.err(`Cannot find device "${name}"\n`);
      return 255;
    }
    dev = l;
  }
  const k = ctx.kernel();
  const out: string[] = [];
  const items: JsonValue[] = [];
  for (const l of linksOf(ns)) {
    if (dev && l !== dev) continue;
    const br = l.master !== null ? ns.links[l.master] : undefined;
    if (!br || !br.bridge || !l.brport) continue;
    const at = l.peer ? (ns.links[l.peer.ifindex]?.name ?? `if${l.peer.ifindex}`) : null;
    const flags = linkFlags(k, ns, l);
    const state = portForwarding(k, ns, l, br) ? 'forwarding' : 'disabled';
    const cost = portCost(l);
    out.push(
      `${l.ifindex}: ${l.name}${at !== null ? `@${at}` : ''}: <${flags.join(',')}> mtu ${l.mtu} master ${br.name} state ${state} priority 32 cost ${cost} \n`,
    );
    items.push({
      ifindex: l.ifindex,
      ...(at !== null ? { link: at } : {}),
      ifname: l.name,
      flags,
      mtu: l.mtu,
      master: br.name,
      state,
      priority: 32,
      cost,
    });
  }
  ctx.out(json ? jsonOutput(items, pretty) : out.join(''));
  return 0;
}

const FDB_MODIFY = ['add', 'append', 'replace', 'del', 'delete'];

function fdbModify(ctx: CommandContext, nsId: string, cmd: string, a: readonly string[]): number {
  let mac: string | null = null;
  let dev: string | null = null;
  let dst: string | null = null;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x === 'dev') dev = a[++i] ?? null;
    else if (x === 'dst') dst = a[++i] ?? null;
    else if (x === 'self' || x === 'permanent' || x === 'static') continue;
    else if (x === 'master' || x === 'vlan' || x === 'port' || x === 'vni' || x === 'via')
      return notSimulated(ctx, 'bridge', `fdb ${x}`);
    else if (mac === null && /^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/.test(x)) mac = x.toLowerCase();
    else {
      ctx.err(`Invalid mac address ${x}\n`);
      return 255;
    }
  }
  if (mac === null || dev === null) {
    ctx.err('Device and address are required arguments.\n');
    return 255;
  }
  const ns = nsOfCtx(ctx, nsId);
  const l = linkByName(ns, dev);
  if (!l) {
    ctx.err(`Cannot find device "${dev}"\n`);
    return 255;
  }
  if (l.kind !== 'vxlan') return notSimulated(ctx, 'bridge', `fdb ${cmd} on a ${l.kind} device`);
  if (dst !== null && !/^\d+\.\d+\.\d+\.\d+$/.test(dst)) {
    ctx.err(`Invalid address "${dst}"\n`);
    return 255;
  }
  const m = mac;
  const ifindex = l.ifindex;
  const fail = (text: string): number => {
    ctx.err(`RTNETLINK answers: ${text}\n`);
    return 255;
  };
  let errText: string | null = null;
  ctx.changeKernel((k) => {
    const n = nsById(k, nsId);
    const list = n.fdb ?? [];
    const same = (f: FdbEntry) => f.dev === ifindex && f.mac === m;
    const entry: FdbEntry = {
      mac: m,
      dev: ifindex,
      master: null,
      ...(dst !== null ? { dst } : {}),
      permanent: true,
    };
    if (cmd === 'del' || cmd === 'delete') {
      const keep = list.filter((f) => !(same(f) && (dst === null || f.dst === dst)));
      if (keep.length === list.length) errText = 'No such file or directory';
      else n.fdb = keep;
      return;
    }
    const exists = list.some((f) => same(f) && (cmd !== 'append' || f.dst === dst));
    if (exists && (cmd === 'add' || cmd === 'append')) {
      errText = 'File exists';
      return;
    }
    n.fdb = cmd === 'replace' ? [...list.filter((f) => !same(f)), entry] : [...list, entry];
  });
  return errText === null ? 0 : fail(errText);
}

// tc
