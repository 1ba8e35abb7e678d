/**
 * Read commands over the kernel's other tables, with the real tools' output (checked against
 * iproute2 6.1 and iptables-nft 1.8.9 in test namespaces):
 *
 * - `bridge [-n NS] [-j] [-p] link [show] [dev DEV]`: the bridge ports (state forwarding or
 *   disabled, priority 32, cost 2 for a veth — its 10 Gb/s — else 100);
 * - `tc [-n NS] qdisc show [dev DEV] [root|ingress]`, `tc [-n NS] filter show dev DEV
 *   [ingress|root|parent ffff:]` (kernel/tc.ts);
 * - `iptables`, `ip6tables` (every command of the iptables model: a listing changes nothing, `-A`
 *   and friends change the namespace's rules) and `iptables-save`, `ip6tables-save`, dated with
 *   the virtual clock.
 *
 * Not modelled: bridge fdb/vlan/mdb and `bridge -d` / `-s`; tc changes, classes, actions,
 * `tc -s` / `-d` / `-j`; iptables-restore and iptables-legacy.
 */
import { linkByName, linksOf, portForwarding } from '../../kernel/kernel';
import { runIptables, runIptablesSave } from '../../kernel/iptables';
import type { Family as IptFamily } from '../../kernel/iptables';
import { filterShowLines, qdiscShowLines } from '../../kernel/tc';
import type { Link, Netns } from '../../kernel/types';
import { linkFlags } from '../../kernel/view';
import { BASE_TIME_MS } from '../../trace/time';
import type { CommandContext, CommandSpec } from '../types';
import { lookupNetnsByName, matches } from './ip-common';
import { type JsonValue, jsonOutput } from './jsonw';
import { tget } from '../../state/table';

function nsOfCtx(ctx: CommandContext, id: string): Netns {
  return tget(ctx.kernel().netns, id)!;
}

/** `-n NAME` of tc and bridge: the namespace id, or an error text (exit 255 / 1). */
function netnsOption(ctx: CommandContext, name: string | undefined): { id: string } | string {
  if (name === undefined) return 'Command line is not complete. Try option "help"\n';
  const r = lookupNetnsByName(ctx, name);
  if ('errno' in r) {
    return r.errno === 'ENOENT'
      ? `Cannot open network namespace "${name}": No such file or directory\n`
      : `setting the network namespace "${name}" failed: Invalid argument\n`;
  }
  return r;
}

function notSimulated(ctx: CommandContext, prog: string, what: string): number {
  ctx.err(`cnisim: ${prog}: ${what}: not simulated\n`);
  return 2;
}

// -----------------------------------------------------------------------------------------------
// bridge

const BRIDGE_USAGE =
  'Usage: bridge [ OPTIONS ] OBJECT { COMMAND | help }\n       bridge [ -force ] -batch filename\nwhere  OBJECT := { link | fdb | mdb | vlan | monitor }\n       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] |\n                    -o[neline] | -t[imestamp] | -n[etns] name |\n                    -c[ompressvlans] -color -p[retty] -j[son] }\n';

/** br_if.c port_cost: from the device's speed (a veth says 10000 Mb/s), else 100. */
function portCost(l: Link): number {
  return l.kind === 'veth' ? 2 : 100;
}

function bridge(ctx: CommandContext): number {
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
    else if (matches(c, 'set') || matches(c, 'add') || matches(c, 'delete'))
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

// -----------------------------------------------------------------------------------------------
// tc

const TC_USAGE =
  'Usage:\ttc [ OPTIONS ] OBJECT { COMMAND | help }\n\ttc [-force] -batch filename\nwhere  OBJECT := { qdisc | class | filter | chain |\n\t\t    action | monitor | exec }\n       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] | -r[aw] |\n\t\t    -o[neline] | -j[son] | -p[retty] | -c[olor]\n\t\t    -b[atch] [filename] | -n[etns] name | -N[umeric] |\n\t\t     -nm | -nam[es] | { -cf | -conf } path\n\t\t     -br[ief] }\n';

/** `tc qdisc show` lines as printed: every line but pfifo_fast's ends in a blank. */
function qdiscLines(l: Link, withDev: boolean, which: 'all' | 'root' | 'ingress'): string[] {
  return qdiscShowLines(l)
    .filter((line) => {
      const ingress = line.startsWith('qdisc ingress ');
      return which === 'all' || (which === 'ingress') === ingress;
    })
    .map((line) => {
      const t = withDev ? line : line.replace(` dev ${l.name} `, ' ');
      return t.startsWith('qdisc pfifo_fast ') ? t : `${t} `;
    });
}

/** `tc filter show dev X`: the u32 filters of its ingress qdisc, as tc prints them. */
function filterLines(ns: Netns, l: Link, withParent: boolean): string[] {
  const out: string[] = [];
  for (const line of filterShowLines(ns, l)) {
    const t = withParent ? line : line.replace(/^filter parent [0-9a-f]+: /, 'filter ');
    if (t.startsWith('filter ')) out.push(`${t} `);
    else out.push(t);
    if (t.startsWith('\tindex ')) out.push('');
  }
  return out;
}

function tc(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  let nsId = ctx.netns;
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    let o = args[i]!;
    if (o.startsWith('--')) o = o.slice(1);
    if (matches(o, '-netns')) {
      const r = netnsOption(ctx, args[++i]);
      if (typeof r === 'string') {
        ctx.err(r);
        return 255;
      }
      nsId = r.id;
    } else if (matches(o, '-Version')) {
      ctx.out('tc utility, iproute2-6.1.0, libbpf 1.1.2\n');
      return 0;
    } else if (matches(o, '-help')) {
      ctx.err(TC_USAGE);
      return 0;
    } else if (
      matches(o, '-statistics') ||
      matches(o, '-details') ||
      matches(o, '-json') ||
      matches(o, '-batch')
    )
      return notSimulated(ctx, 'tc', `option ${args[i]}`);
    else if (
      matches(o, '-raw') ||
      matches(o, '-pretty') ||
      matches(o, '-Numeric') ||
      matches(o, '-oneline') ||
      /^-c(olor|olour)?(=.*)?$/.test(o)
    )
      continue;
    else {
      ctx.err(`Option "${args[i]}" is unknown, try "tc -help".\n`);
      return 255;
    }
  }
  const [obj, cmd, ...rest] = args.slice(i);
  if (obj === undefined) {
    ctx.err(TC_USAGE);
    return 0;
  }
  const isQdisc = matches(obj, 'qdisc');
  const isFilter = matches(obj, 'filter');
  if (!isQdisc && !isFilter) {
    if (['class', 'chain', 'action', 'actions', 'monitor', 'exec'].some((o) => matches(obj, o)))
      return notSimulated(ctx, 'tc', obj);
    if (matches(obj, 'help')) {
      ctx.err(TC_USAGE);
      return 0;
    }
    ctx.err(`Object "${obj}" is unknown, try "tc help".\n`);
    return 1;
  }
  const what = isQdisc ? 'qdisc' : 'filter';
  if (
    cmd !== undefined &&
    !(matches(cmd, 'show') || matches(cmd, 'list') || matches(cmd, 'ls') || cmd === 'lst')
  ) {
    if (['add', 'delete', 'change', 'replace', 'link', 'get'].some((c) => matches(cmd, c)))
      return notSimulated(ctx, 'tc', `${what} ${cmd}`);
    ctx.err(`Command "${cmd}" is unknown, try "tc ${what} help".\n`);
    return 255;
  }
  const ns = nsOfCtx(ctx, nsId);
  let dev: Link | null = null;
  let which: 'all' | 'root' | 'ingress' = 'all';
  for (let j = 0; j < rest.length; j++) {
    const a = rest[j]!;
    if (a === 'dev') {
      const name = rest[++j];
      if (name === undefined) {
        ctx.err('Command line is not complete. Try option "help"\n');
        return 255;
      }
      const l = linkByName(ns, name);
      if (!l) {
        ctx.err(`Cannot find device "${name}"\n`);
        return 1;
      }
      dev = l;
    } else if (a === 'ingress') which = 'ingress';
    else if (a === 'root') which = 'root';
    else if (a === 'parent' && rest[j + 1] === 'ffff:') {
      which = 'ingress';
      j++;
    } else return notSimulated(ctx, 'tc', `${what} show ${a}`);
  }
  const out: string[] = [];
  if (isQdisc) {
    for (const l of linksOf(ns)) {
      if (dev && l !== dev) continue;
      out.push(...qdiscLines(l, dev === null, which));
    }
  } else if (dev && which !== 'root') {
    out.push(...filterLines(ns, dev, which === 'ingress'));
  }
  ctx.out(out.map((x) => x + '\n').join(''));
  return 0;
}

// -----------------------------------------------------------------------------------------------
// iptables

function iptables(family: IptFamily) {
  return (ctx: CommandContext): number => {
    const ns = nsOfCtx(ctx, ctx.netns);
    const r = runIptables(ns.iptables, family, ctx.argv.slice(1));
    if (r.state !== ns.iptables) {
      const next = r.state;
      ctx.changeKernel((k) => {
        tget(k.netns, ctx.netns)!.iptables = next as never;
      });
    }
    ctx.out(r.stdout);
    ctx.err(r.stderr);
    return r.exitCode;
  };
}

function iptablesSave(family: IptFamily) {
  return (ctx: CommandContext): number => {
    const ns = nsOfCtx(ctx, ctx.netns);
    const date = new Date(BASE_TIME_MS + Math.floor(ctx.sim.state.clock / 1000));
    const r = runIptablesSave(ns.iptables, family, ctx.argv.slice(1), { date });
    ctx.out(r.stdout);
    ctx.err(r.stderr);
    return r.exitCode;
  };
}

export const NETREAD_COMMANDS: CommandSpec[] = [
  { name: 'bridge', dir: '/usr/sbin', run: bridge },
  { name: 'tc', dir: '/usr/sbin', run: tc },
  { name: 'iptables', dir: '/usr/sbin', run: iptables('ipv4') },
  { name: 'ip6tables', dir: '/usr/sbin', run: iptables('ipv6') },
  { name: 'iptables-save', dir: '/usr/sbin', run: iptablesSave('ipv4') },
  { name: 'ip6tables-save', dir: '/usr/sbin', run: iptablesSave('ipv6') },
];
