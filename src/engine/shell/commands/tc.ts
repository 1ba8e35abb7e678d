/**
 * `tc [-n NS] qdisc show [dev DEV] [root|ingress]`, `tc [-n NS] filter show dev DEV
 * [ingress|root|parent ffff:]`, `tc [-n NS] qdisc del dev DEV root|ingress` (iproute2 6.1;
 * kernel/tc.ts). Not modelled: other tc changes, classes, actions, `tc -s` / `-d` / `-j`.
 */
import { KernelError, linkByName, linksOf } from '../../kernel/kernel';
import { filterShowLines, qdiscDel, qdiscShowLines } from '../../kernel/tc';
import type { Link, Netns } from '../../kernel/types';
import type { CommandContext } from '../types';
import { matches } from './ip-common';
import { nsOfCtx, netnsOption, notSimulated } from './netcommon';

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

export function tc(ctx: CommandContext): number {
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
  if (isQdisc && cmd !== undefined && matches(cmd, 'delete')) return qdiscDelete(ctx, nsId, rest);
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

/**
 * `tc qdisc del dev DEV root|ingress` (the words in any order), as the bandwidth plugin's
 * qdiscs are removed by hand. The kernel's answers (checked with iproute2 6.1 on a 6.18 kernel):
 * the default root qdisc (noqueue, or none on a down device) "Cannot delete qdisc with handle of
 * zero.", a missing ingress qdisc "Cannot find specified qdisc on specified device.", neither
 * root nor ingress (parent and handle unspecified) "Failed to find qdisc with specified handle.",
 * each with exit code 2. Other selectors (handle, parent) are not modelled.
 */
function qdiscDelete(ctx: CommandContext, nsId: string, rest: string[]): number {
  let devName: string | null = null;
  let which: 'root' | 'ingress' | null = null;
  for (let j = 0; j < rest.length; j++) {
    const a = rest[j]!;
    if (a === 'dev') {
      const name = rest[++j];
      if (name === undefined) {
        ctx.err('Command line is not complete. Try option "help"\n');
        return 255;
      }
      devName = name;
    } else if ((a === 'root' || a === 'ingress') && which === null) which = a;
    else return notSimulated(ctx, 'tc', `qdisc del ${a}`);
  }
  if (devName === null) return notSimulated(ctx, 'tc', 'qdisc del without dev');
  const l = linkByName(nsOfCtx(ctx, nsId), devName);
  if (!l) {
    ctx.err(`Cannot find device "${devName}"\n`);
    return 1;
  }
  if (which === null) {
    ctx.err('Error: Failed to find qdisc with specified handle.\n');
    return 2;
  }
  const w = which;
  try {
    ctx.changeKernel((k) => qdiscDel(k, nsId, l.ifindex, w));
  } catch (e) {
    if (!(e instanceof KernelError)) throw e;
    ctx.err(
      w === 'root'
        ? 'Error: Cannot delete qdisc with handle of zero.\n'
        : 'Error: Cannot find specified qdisc on specified device.\n',
    );
    return 2;
  }
  return 0;
}
