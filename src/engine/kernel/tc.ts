/**
 * Traffic control of the virtual kernel (what the bandwidth plugin uses): per device a root qdisc,
 * an optional ingress qdisc, and u32 filters with mirred redirect actions on it; and the text
 * `tc qdisc show` and `tc filter show dev X ingress` (iproute2 6.1) print for them.
 *
 * A device starts with the builtin noop qdisc, which `tc` does not list; the first time it comes up
 * the kernel attaches a default root qdisc (noqueue for a device without a queue: veth, bridge,
 * loopback or a tx queue length of 0; pfifo_fast otherwise) and keeps it when it goes down again.
 * Deleting a user's root qdisc brings the default back on an up device. A device's qdiscs and
 * filters go with it (deleted or moved to another namespace), and a mirred action whose target
 * went away redirects to device 0 (`*`).
 *
 * Pure functions over (draft) kernel state, like kernel.ts; errors are KernelErrors.
 */
import { KernelError, linkByIndex, linksOf, nsById } from './kernel';
import { defaultQdisc, tcOf } from './tc-device';
import type { KernelState, Link, Netns, Qdisc, TcAction, TcFilter } from './types';

export const TIME_UNITS_PER_SEC = 1000000;
/** psched ticks per µs, from /proc/net/psched `000003e8 00000040 000f4240 3b9aca00` (1000/64). */
export const TICK_IN_USEC = 1000 / 64;
/** A veth has one tx queue per possible CPU; the machine the recordings come from had 2. */
export const VETH_TX_QUEUES = 2;

export const HANDLE_INGRESS = 0xffff;

/** Tx queues of a device: a user's root qdisc holds one reference per queue plus its own. */
export function numTxQueues(l: Link): number {
  return l.kind === 'veth' ? VETH_TX_QUEUES : 1;
}

function getLink(k: KernelState, nsId: string, ifindex: number): { ns: Netns; l: Link } {
  const ns = nsById(k, nsId);
  const l = linkByIndex(ns, ifindex);
  if (!l) throw new KernelError('ENODEV');
  return { ns, l };
}

export interface TbfParams {
  /** bytes per second */
  rate: number;
  /** bytes */
  limit: number;
  /** psched ticks */
  buffer: number;
}

/** psched_ns_t2l: how many bytes the rate lets through in the buffer time (tbf's max_size). */
export function tbfMaxSize(p: TbfParams): bigint {
  const ns = BigInt(Math.trunc(p.buffer)) << 6n;
  return (ns * BigInt(Math.trunc(p.rate))) / 1000000000n;
}

export type QdiscSpec = ({ kind: 'tbf'; handle: number } & TbfParams) | { kind: 'ingress' };

/** RTM_NEWQDISC with NLM_F_CREATE|NLM_F_EXCL, at the root (tbf) or as the ingress qdisc. */
export function qdiscAdd(k: KernelState, nsId: string, ifindex: number, spec: QdiscSpec): void {
  const { l } = getLink(k, nsId, ifindex);
  if (spec.kind === 'ingress') {
    if (l.tc?.ingress) throw new KernelError('EEXIST');
    tcOf(l).ingress = { kind: 'ingress', handle: HANDLE_INGRESS, builtin: false };
    return;
  }
  // A root qdisc other than the default one: "Exclusivity flag on, cannot modify".
  const cur = l.tc?.root;
  if (cur && !cur.builtin) throw new KernelError('EEXIST');
  if (tbfMaxSize(spec) === 0n) throw new KernelError('EINVAL');
  tcOf(l).root = {
    kind: 'tbf',
    handle: spec.handle,
    builtin: false,
    tbf: { rate: spec.rate, limit: spec.limit, buffer: spec.buffer },
  };
}

/** RTM_DELQDISC of the root or the ingress qdisc (the ingress qdisc takes its filters along). */
export function qdiscDel(
  k: KernelState,
  nsId: string,
  ifindex: number,
  which: 'root' | 'ingress',
): void {
  const { l } = getLink(k, nsId, ifindex);
  const tc = l.tc;
  if (which === 'ingress') {
    if (!tc?.ingress) throw new KernelError('EINVAL');
    tc.ingress = null;
    tc.filters = [];
    return;
  }
  // "Cannot delete qdisc with handle of zero" (the default one, or the noop qdisc).
  if (!tc?.root || tc.root.builtin) throw new KernelError('ENOENT');
  tc.root = l.adminUp ? defaultQdisc(l) : null;
}

/** RTM_NEWQDISC (change) of a user's tbf root qdisc, as `tc qdisc change ... tbf` does. */
export function tbfChange(k: KernelState, nsId: string, ifindex: number, p: TbfParams): void {
  const { l } = getLink(k, nsId, ifindex);
  const root = l.tc?.root;
  if (!root || root.kind !== 'tbf') throw new KernelError('EINVAL');
  if (tbfMaxSize(p) === 0n) throw new KernelError('EINVAL');
  root.tbf = { rate: p.rate, limit: p.limit, buffer: p.buffer };
}

export interface U32Spec {
  /** Major handle of the qdisc to attach to (only the ingress qdisc, ffff:, is modelled). */
  parent: number;
  pref: number;
  classid: [number, number];
  /** Egress-redirect mirred actions, in order. */
  redirects: Array<{ ifindex: number; verdict: TcAction['verdict'] }>;
}

function usedActionIndexes(ns: Netns): Set<number> {
  const used = new Set<number>();
  for (const l of linksOf(ns))
    for (const f of l.tc?.filters ?? []) for (const a of f.actions) used.add(a.index);
  return used;
}

/** RTM_NEWTFILTER of a u32 filter; actions take the lowest free indexes of the namespace. */
export function filterAddU32(k: KernelState, nsId: string, ifindex: number, spec: U32Spec): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  if (spec.parent !== HANDLE_INGRESS || !l.tc?.ingress) throw new KernelError('EINVAL');
  for (const r of spec.redirects) if (!linkByIndex(ns, r.ifindex)) throw new KernelError('ENODEV');
  const used = usedActionIndexes(ns);
  const actions: TcAction[] = [];
  let next = 1;
  for (const r of spec.redirects) {
    while (used.has(next)) next++;
    used.add(next);
    actions.push({ kind: 'mirred', verdict: r.verdict, index: next, ifindex: r.ifindex });
  }
  const f: TcFilter = {
    kind: 'u32',
    parent: spec.parent,
    pref: spec.pref,
    classid: spec.classid,
    actions,
  };
  l.tc.filters.push(f);
}

/** The qdiscs netlink dumps for a device (QdiscList): the root one, then the ingress one. */
export function qdiscList(l: Link): Qdisc[] {
  const out: Qdisc[] = [];
  if (l.tc?.root) out.push(l.tc.root);
  if (l.tc?.ingress) out.push(l.tc.ingress);
  return out;
}

// ---------------------------------------------------------------------------------------------
// What tc prints (iproute2 6.1: tc_util.c, q_tbf.c, f_u32.c, m_mirred.c)

/** C's (unsigned int) of a double on x86-64: truncation to 64 bits, then the low 32 bits. */
export function u32OfDouble(x: number): number {
  if (!Number.isFinite(x) || x >= 2 ** 63 || x <= -(2 ** 63)) return 0;
  return Number(BigInt.asUintN(32, BigInt(Math.trunc(x))));
}

/** rint(): round half to even. */
function rint(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** C's printf("%.3g"). */
export function formatG3(x: number): string {
  if (x === 0) return '0';
  const [mant, expText] = x.toExponential(2).split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 3) {
    const m = mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant;
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  const fixed = x.toFixed(Math.max(0, 2 - exp));
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** sprint_rate: a rate in bytes/s as tc shows it in bit/s with SI prefixes ("1Mbit", "1600Kbit"). */
export function printRate(bytesPerSec: number): string {
  const units = ['', 'K', 'M', 'G', 'T'];
  let rate = BigInt(Math.trunc(bytesPerSec)) * 8n;
  let i = 0;
  for (; i < units.length - 1; i++) {
    if (rate < 1000n) break;
    if (rate % 1000n !== 0n && rate < 1000n * 1000n) break;
    rate /= 1000n;
  }
  return `${rate}${units[i]}bit`;
}

/** sprint_size: bytes as tc shows them ("12500b", "1Kb", "1Mb"). */
export function printSize(sz: number): string {
  const tmp = sz;
  if (sz >= 1024 * 1024 && Math.abs(1024 * 1024 * rint(tmp / (1024 * 1024)) - sz) < 1024)
    return `${rint(tmp / (1024 * 1024))}Mb`;
  if (sz >= 1024 && Math.abs(1024 * rint(tmp / 1024) - sz) < 16) return `${rint(tmp / 1024)}Kb`;
  return `${sz}b`;
}

/** sprint_time: µs as tc shows them ("25ms", "23.4ms", "1.1e+03s", "800us"). */
export function printTime(us: number): string {
  const t = u32OfDouble(us);
  if (t >= TIME_UNITS_PER_SEC) return `${formatG3(t / TIME_UNITS_PER_SEC)}s`;
  if (t >= TIME_UNITS_PER_SEC / 1000) return `${formatG3(t / (TIME_UNITS_PER_SEC / 1000))}ms`;
  return `${t}us`;
}

function tick2time(ticks: number): number {
  return ticks / TICK_IN_USEC;
}

/** tc_calc_xmitsize: the bytes `rate` sends in `ticks`. */
export function xmitSize(rate: number, ticks: number): number {
  return u32OfDouble((rate * tick2time(ticks)) / TIME_UNITS_PER_SEC);
}

function handleText(h: number): string {
  return `${h.toString(16)}:`;
}

function qdiscLine(l: Link, q: Qdisc, root: boolean): string {
  const head = `qdisc ${q.kind} ${handleText(q.handle)} dev ${l.name}`;
  if (!root) return `${head} parent ffff:fff1 ----------------`;
  const refcnt = q.builtin ? 2 : 1 + numTxQueues(l);
  const base = `${head} root refcnt ${refcnt}`;
  if (q.kind === 'pfifo_fast') return `${base} bands 3 priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1`;
  if (q.kind !== 'tbf' || !q.tbf) return base;
  const { rate, limit, buffer } = q.tbf;
  let out = `${base} rate ${printRate(rate)} burst ${printSize(xmitSize(rate, buffer))}`;
  const latency = TIME_UNITS_PER_SEC * (limit / rate) - tick2time(buffer);
  if (latency >= 0) out += ` lat ${printTime(latency)}`;
  else out += ` limit ${printSize(limit)}`;
  return out;
}

/** `tc qdisc show dev X` (trailing blanks removed). */
export function qdiscShowLines(l: Link): string[] {
  const out: string[] = [];
  if (l.tc?.root) out.push(qdiscLine(l, l.tc.root, true));
  if (l.tc?.ingress) out.push(qdiscLine(l, l.tc.ingress, false));
  return out;
}

/** `tc filter show dev X ingress` (blank lines and trailing blanks removed). */
export function filterShowLines(ns: Netns, l: Link): string[] {
  const out: string[] = [];
  const filters = l.tc?.ingress ? l.tc.filters : [];
  filters.forEach((f, i) => {
    const head = `filter parent ${handleText(f.parent)} protocol all pref ${f.pref} u32 chain 0`;
    if (i === 0) {
      out.push(head);
      out.push(`${head} fh 800: ht divisor 1`);
    }
    const node = (0x800 + i).toString(16);
    out.push(
      `${head} fh 800::${node} order ${0x800 + i} key ht 800 bkt 0 *flowid ${f.classid[0].toString(16)}:${f.classid[1].toString(16)} not_in_hw`,
    );
    out.push('  match 00000000/00000000 at 0');
    f.actions.forEach((a, j) => {
      const dev = a.ifindex === 0 ? '*' : (linkByIndex(ns, a.ifindex)?.name ?? '*');
      out.push(`\taction order ${j + 1}: mirred (Egress Redirect to device ${dev}) ${a.verdict}`);
      out.push(`\tindex ${a.index} ref 1 bind 1`);
    });
  });
  return out;
}

/**
 * What the recorder keeps of a namespace's tc state: `tc qdisc show`, then for every device with
 * an ingress qdisc a `# tc filter show dev X ingress` header and that command's output.
 */
export function tcShowLines(ns: Netns): string[] {
  const links = linksOf(ns);
  const out: string[] = [];
  for (const l of links) out.push(...qdiscShowLines(l));
  for (const l of links) {
    if (!l.tc?.ingress) continue;
    out.push(`# tc filter show dev ${l.name} ingress`);
    out.push(...filterShowLines(ns, l));
  }
  return out;
}
