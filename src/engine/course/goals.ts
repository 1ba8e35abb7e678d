/**
 * The goal checker. A goal (schema.ts) is checked against the whole relevant state of the
 * simulation at one step: the API server's pods and events, containerd's sandboxes, each
 * namespace's links, addresses and routes, the node's files, the journal, the audit and the
 * trace. When a goal is not met the result says, in plain language, what was expected and what
 * is there instead ("expected pod web-0 Running with an IP from 10.244.1.0/24; web-0 is
 * ContainerCreating and has no IP"), so the check can never silently disagree with its text.
 */
import { podStatusText } from '../apiserver/apiserver';
import type { NodeAudit } from '../cluster/cluster';
import type { PodObj } from '../state/api';
import * as vfs from '../fs/vfs';
import { linkByName, linksOf } from '../kernel/kernel';
import type { KernelState, Link, Netns } from '../kernel/types';
import { netContains, parseIP } from '../net/ip';
import * as inspect from '../node/inspect';
import { journalLine } from '../node/journal';
import { usesHostLocal } from '../plugins/host-local';
import type { SandboxRec } from '../state/containerd';
import { parsePodPattern, podsMatching } from '../scenario/condition';
import type { WorldState } from '../sim/world';
import type { TraceEvent } from '../trace/trace';
import { walkPacket } from '../dataplane/api';
import { describeMatcher, matcherNoun, matches } from './match';
import type { Goal } from './schema';
import { tget, tvalues } from '../state/table';

/** What a goal is checked against: the world at one step and the trace up to it. */
export interface CheckContext {
  /** The world after event `step`. */
  state: WorldState;
  /** The trace; only events[0..step] count. */
  events: readonly TraceEvent[];
  step: number;
  /** First event of the learner's part (goals with `since: "setup"` count from there). */
  setupEnd: number;
  /** The audit of a world (Cluster.audit / Session.audit). */
  audit: (state: WorldState) => NodeAudit[];
}

export interface GoalResult {
  id: string;
  /** The goal's sentence, as the learner reads it. */
  text: string;
  met: boolean;
  /** When unmet: "expected ...; <what is there instead>". Empty when met. */
  explanation: string;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const short = (s: string): string => s.replace(/\b([0-9a-f]{12})[0-9a-f]{52}\b/g, '$1…');

/** Whether an IPv4 address (no prefix) is inside a CIDR. */
export function inCidr(ip: string, cidr: string): boolean {
  const [net, p] = cidr.split('/');
  const a = parseIP(ip.split('/')[0]!);
  const n = parseIP(net ?? '');
  const prefix = Number(p);
  if (a?.v !== 4 || n?.v !== 4 || !(prefix >= 0 && prefix <= 32)) return false;
  return netContains({ ip: n, prefix }, a);
}

function globRe(s: string): RegExp {
  return new RegExp(`^${s.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

interface Counted {
  count?: number | undefined;
  min?: number | undefined;
  max?: number | undefined;
}

/** Whether `n` satisfies count/min/max (nothing given: at least one). */
function countOk(n: number, c: Counted): boolean {
  if (c.count !== undefined) return n === c.count;
  if (c.min === undefined && c.max === undefined) return n >= 1;
  return (c.min === undefined || n >= c.min) && (c.max === undefined || n <= c.max);
}

/**
 * "no file", "exactly 2 files", "at least one file", "between 1 and 3 files"; `after` qualifies
 * the noun and stays as it is ("exactly 2 files matching /a/*", not "file matching /a/*s").
 */
function countText(c: Counted, noun: string, after = ''): string {
  if (c.count !== undefined)
    return c.count === 0 ? `no ${noun}${after}` : `exactly ${plural(c.count, noun)}${after}`;
  if (c.min === undefined && c.max === undefined) return `a ${noun}${after}`;
  if (c.max === 0) return `no ${noun}${after}`;
  if (c.min !== undefined && c.max !== undefined)
    return `between ${c.min} and ${plural(c.max, noun)}${after}`;
  if (c.min !== undefined)
    return c.min === 1 ? `a ${noun}${after}` : `at least ${plural(c.min, noun)}${after}`;
  return `at most ${plural(c.max!, noun)}${after}`;
}

function listText(items: string[], max = 3): string {
  const shown = items.slice(0, max).map(short);
  return items.length > max
    ? `${shown.join(', ')} and ${items.length - max} more`
    : shown.join(', ');
}

function from(ctx: CheckContext, since: 'start' | 'setup' | undefined): number {
  return since === 'setup' ? ctx.setupEnd : 0;
}

// ---------------------------------------------------------------------------------------------
// Reading the world

function pods(state: WorldState, pattern: string): PodObj[] | string {
  const p = parsePodPattern(pattern);
  if (!p.ok) return p.error;
  return podsMatching(state.api, p.value).sort((a, b) =>
    a.spec.name < b.spec.name ? -1 : a.spec.name > b.spec.name ? 1 : 0,
  );
}

/** The pod's newest sandbox on its node. */
export function sandboxOf(state: WorldState, pod: PodObj): SandboxRec | null {
  const c = state.nodes[pod.spec.nodeName]?.containerd;
  if (!c) return null;
  const mine = tvalues(c.sandboxes).filter((s) => s.pod.uid === pod.spec.uid);
  mine.sort((a, b) => a.createdAt - b.createdAt);
  return mine[mine.length - 1] ?? null;
}

interface NsLookup {
  ns: Netns | null;
  /** How to name it in a sentence. */
  label: string;
  /** Why it could not be found. */
  missing?: string;
}

/** The node's runtime as its operator names it: a CRI-O node's sandboxes are CRI-O's. */
function runtimeOf(state: WorldState, node: string): string {
  return state.nodes[node]?.containerd?.settings.runtime === 'cri-o' ? 'CRI-O' : 'containerd';
}

function lookupNetns(state: WorldState, node: string, ref: string): NsLookup {
  const n = state.nodes[node];
  if (!n) return { ns: null, label: ref, missing: `there is no node ${node}` };
  const k: KernelState = n.kernel;
  if (ref === 'host')
    return { ns: tget(k.netns, k.root) ?? null, label: `the host namespace of ${node}` };
  const podRef = ref.slice(4);
  const label = `pod ${podRef}'s namespace`;
  const found = pods(state, podRef);
  if (typeof found === 'string') return { ns: null, label, missing: found };
  const pod = found.find((p) => p.spec.nodeName === node) ?? found[0];
  if (!pod) return { ns: null, label, missing: `there is no pod ${podRef}` };
  const sb = sandboxOf(state, pod);
  if (!sb)
    return {
      ns: null,
      label,
      missing: `${runtimeOf(state, node)} has no sandbox for pod ${podRef}`,
    };
  const ns = inspect.netnsOfMount(k, sb.netns) ?? null;
  if (!ns) return { ns: null, label, missing: `its network namespace ${sb.netns} is gone` };
  return { ns, label };
}

const addrText = (l: Link): string[] => inspect.addrTexts(l, 4);

function routeText(ns: Netns, r: Netns['routes'][number]): string {
  const dev = ns.links[r.dev]?.name ?? `if${r.dev}`;
  const dst =
    r.prefix === 0 && (r.dst === '0.0.0.0' || r.dst === '::') ? 'default' : `${r.dst}/${r.prefix}`;
  return `${dst}${r.gateway ? ` via ${r.gateway}` : ''} dev ${dev}`;
}

function filesMatching(state: WorldState, node: string, path: string): string[] | null {
  const fs = state.nodes[node]?.fs;
  if (!fs) return null;
  const dir = vfs.dirname(path);
  const base = vfs.basename(path);
  if (vfs.stat(fs, dir)?.kind !== 'dir') return [];
  const re = globRe(base);
  return vfs
    .readDir(fs, dir)
    .filter((f) => re.test(f) && vfs.stat(fs, vfs.joinPath(dir, f))?.kind === 'file')
    .map((f) => vfs.joinPath(dir, f));
}

function podCidrOf(state: WorldState, node: string): string | null {
  return state.api?.nodes[node]?.podCIDR ?? null;
}

/** Problems with the wiring of a pod's IP, in the order a person would look. */
function wiringProblems(state: WorldState, pod: PodObj, ip: string): string[] {
  const name = pod.spec.name;
  const node = pod.spec.nodeName;
  const sb = sandboxOf(state, pod);
  if (!sb) return [`${runtimeOf(state, node)} has no sandbox for ${name}`];
  const out: string[] = [];
  if (sb.ip !== ip) out.push(`its sandbox records ${sb.ip || 'no IP'}`);
  const n = state.nodes[node]!;
  const ns = inspect.netnsOfMount(n.kernel, sb.netns);
  if (!ns) out.push(`its network namespace ${sb.netns} is gone`);
  else {
    const eth0 = linkByName(ns, 'eth0');
    if (!eth0) out.push(`there is no eth0 in its network namespace`);
    else if (!eth0.addrs.some((a) => a.local === ip))
      out.push(
        `eth0 in its namespace does not carry ${ip} (it has ${addrText(eth0).join(', ') || 'no IPv4 address'})`,
      );
  }
  // host-local: a reservation file named by the IP, owned by the sandbox.
  const nets = n.containerd?.cni.networks ?? [];
  const podNet = nets.find((x) => x.ifName === 'eth0');
  if (podNet && usesHostLocal(podNet.bytes)) {
    const holders = inspect.reservationsOf(n.fs, ip).map((r) => r.containerId);
    if (!holders.includes(sb.id))
      out.push(
        holders.length
          ? `host-local's reservation of ${ip} belongs to ${short(holders[0]!)}, not to its sandbox ${short(sb.id)}`
          : `host-local holds no reservation of ${ip}`,
      );
  }
  if (podNet) {
    const cache = inspect.resultCachePath(podNet.name, sb.id, 'eth0');
    if (vfs.stat(n.fs, cache)?.kind !== 'file')
      out.push(`libcni has no cached result ${short(cache)}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The checks: each returns null when met, else what is there instead.

type Check<T extends Goal['type']> = (
  g: Extract<Goal, { type: T }>,
  ctx: CheckContext,
) => { expected: string; found: string | null };

const checkPod: Check<'pod'> = (g, ctx) => {
  const what: string[] = [];
  if (g.status) what.push(g.status);
  if (g.node) what.push(`on ${g.node}`);
  if (g.ip) what.push(`with IP ${g.ip}`);
  else if (g.ipIn)
    what.push(`with an IP from ${g.ipIn === 'podCIDR' ? "its node's pod CIDR" : g.ipIn}`);
  if (g.wired) what.push('wired through (sandbox, eth0, reservation, cached result)');
  const expected = `pod ${g.pod}${what.length ? ` ${what.join(' ')}` : ''}`;
  const found = pods(ctx.state, g.pod);
  if (typeof found === 'string') return { expected, found };
  if (!found.length)
    return {
      expected,
      found: g.pod.includes('*') ? `no pod matches ${g.pod}` : `there is no pod ${g.pod}`,
    };
  const problems: string[] = [];
  for (const p of found) {
    // Verb phrases about the pod, then sentences about its wiring.
    const mine: string[] = [];
    let wiring: string[] = [];
    const status = podStatusText(p);
    if (g.status && status !== g.status) mine.push(`is ${status}`);
    if (g.node && p.spec.nodeName !== g.node) mine.push(`runs on ${p.spec.nodeName}`);
    const ip = p.podIP;
    const cidr = g.ipIn === 'podCIDR' ? podCidrOf(ctx.state, p.spec.nodeName) : g.ipIn;
    if ((g.ip || g.ipIn || g.wired) && !ip) mine.push('has no IP');
    else if (ip) {
      if (g.ip && ip !== g.ip) mine.push(`has IP ${ip}`);
      else if (cidr && !inCidr(ip, cidr)) mine.push(`has IP ${ip}, outside ${cidr}`);
      if (g.wired && (!g.status || status === g.status)) wiring = wiringProblems(ctx.state, p, ip);
    }
    if (mine.length) problems.push(`${p.spec.name} ${andList(mine)}`);
    if (wiring.length) problems.push(`for ${p.spec.name}, ${wiring.join('; ')}`);
  }
  return { expected, found: problems.length ? problems.join('; ') : null };
};

/** "a", "a and b", "a, b and c". */
function andList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const checkPodGone: Check<'pod-gone'> = (g, ctx) => {
  const expected = `no pod ${g.pod} any more`;
  const found = pods(ctx.state, g.pod);
  if (typeof found === 'string') return { expected, found };
  if (!found.length) return { expected, found: null };
  return {
    expected,
    found: found
      .map(
        (p) =>
          `${p.spec.name} is still there (${podStatusText(p)}${p.podIP ? `, IP ${p.podIP}` : ''})`,
      )
      .join('; '),
  };
};

const checkFiles: Check<'files'> = (g, ctx) => {
  const after = g.path.includes('*') ? ` matching ${g.path}` : ` ${g.path}`;
  const expected = `${countText(g, 'file', after)} on ${g.node}${g.contains !== undefined ? ` containing "${g.contains}"` : ''}`;
  const files = filesMatching(ctx.state, g.node, g.path);
  if (files === null) return { expected, found: `there is no node ${g.node}` };
  const fs = ctx.state.nodes[g.node]!.fs;
  let counted = files;
  if (g.contains !== undefined)
    counted = files.filter((f) => vfs.readFile(fs, f).includes(g.contains!));
  if (countOk(counted.length, g)) return { expected, found: null };
  if (!files.length) return { expected, found: 'there is none' };
  const names = files.map((f) => vfs.basename(f));
  if (g.contains !== undefined && counted.length !== files.length)
    return {
      expected,
      found: `found ${plural(files.length, 'file')} (${listText(names)}), ${counted.length} containing it`,
    };
  return { expected, found: `found ${plural(files.length, 'file')}: ${listText(names)}` };
};

const checkLink: Check<'link'> = (g, ctx) => {
  const look = lookupNetns(ctx.state, g.node, g.netns);
  const what = [g.kind ?? 'link', g.name.includes('*') ? `named ${g.name}` : g.name];
  if (g.master) what.push(`with master ${g.master}`);
  if (g.up !== undefined) what.push(g.up ? 'up' : 'down');
  const expected = `${countText(g, what[0]!, ` ${what.slice(1).join(' ')}`)} in ${look.label}${g.netns === 'host' ? '' : ` on ${g.node}`}`;
  if (!look.ns) return { expected, found: look.missing ?? 'the namespace is gone' };
  const ns = look.ns;
  const re = globRe(g.name);
  const named = linksOf(ns).filter((l) => re.test(l.name) && (!g.kind || l.kind === g.kind));
  const ok = named.filter((l) => {
    if (g.master && (l.master === null || ns.links[l.master]?.name !== g.master)) return false;
    if (g.up !== undefined && l.adminUp !== g.up) return false;
    return true;
  });
  if (countOk(ok.length, g)) return { expected, found: null };
  if (!named.length) return { expected, found: 'there is none' };
  const desc = named.map((l) => {
    const m = l.master !== null ? ns.links[l.master]?.name : null;
    return `${l.name} (${l.kind}${m ? `, master ${m}` : ', no master'}, ${l.adminUp ? 'up' : 'down'})`;
  });
  return { expected, found: `found ${listText(desc, 4)}` };
};

const checkAddress: Check<'address'> = (g, ctx) => {
  const present = g.present ?? true;
  const look = lookupNetns(ctx.state, g.node, g.netns);
  const addr =
    g.address ??
    (g.within
      ? `an address from ${g.within === 'podCIDR' ? `${g.node}'s pod CIDR` : g.within}`
      : 'an IPv4 address');
  const expected = `${present ? '' : 'no '}${addr} on ${g.dev} in ${look.label}`;
  if (!look.ns) return { expected, found: look.missing ?? 'the namespace is gone' };
  const l = linkByName(look.ns, g.dev);
  if (!l)
    return present ? { expected, found: `there is no ${g.dev} there` } : { expected, found: null };
  const cidr = g.within === 'podCIDR' ? podCidrOf(ctx.state, g.node) : g.within;
  const have = addrText(l);
  const hits = have.filter((a) => (g.address ? a === g.address : cidr ? inCidr(a, cidr) : true));
  if (present && !hits.length)
    return { expected, found: `${g.dev} has ${have.length ? have.join(', ') : 'no IPv4 address'}` };
  if (!present && hits.length) return { expected, found: `${g.dev} has ${hits.join(', ')}` };
  return { expected, found: null };
};

const checkRoute: Check<'route'> = (g, ctx) => {
  const present = g.present ?? true;
  const look = lookupNetns(ctx.state, g.node, g.netns);
  const want = `${g.dst === 'default' ? 'a default route' : `a route to ${g.dst}`}${g.via ? ` via ${g.via}` : ''}${g.dev ? ` dev ${g.dev}` : ''}`;
  const expected = `${present ? want : `no ${want.slice(2)}`} in ${look.label}`;
  if (!look.ns) return { expected, found: look.missing ?? 'the namespace is gone' };
  const ns = look.ns;
  const [dst, p] =
    g.dst === 'default'
      ? ['0.0.0.0', 0]
      : [g.dst.split('/')[0]!, Number(g.dst.split('/')[1] ?? 32)];
  const v4 = ns.routes.filter((r) => r.family === 4);
  const hit = v4.filter(
    (r) =>
      r.dst === dst &&
      r.prefix === p &&
      (!g.via || r.gateway === g.via) &&
      (!g.dev || ns.links[r.dev]?.name === g.dev),
  );
  if (present && !hit.length)
    return {
      expected,
      found: v4.length
        ? `its IPv4 routes are: ${v4.map((r) => routeText(ns, r)).join('; ')}`
        : 'it has no IPv4 route',
    };
  if (!present && hit.length) return { expected, found: `found ${routeText(ns, hit[0]!)}` };
  return { expected, found: null };
};

const checkJournal: Check<'journal'> = (g, ctx) => {
  const present = g.present ?? true;
  const where = `${g.unit ? `${g.unit} ` : ''}journal line${g.node ? ` on ${g.node}` : ''}`;
  const expected = `${present ? 'a' : 'no'} ${where} containing "${g.contains}"`;
  for (let i = from(ctx, g.since); i <= ctx.step && i < ctx.events.length; i++) {
    const e = ctx.events[i]!;
    if (e.kind !== 'log' || (g.node && e.node !== g.node)) continue;
    const p = e.payload;
    if (g.unit && p.unit !== g.unit) continue;
    if (!p.line.includes(g.contains)) continue;
    return present
      ? { expected, found: null }
      : { expected, found: `found: ${short(journalLine(e)).slice(0, 240)}` };
  }
  return present ? { expected, found: 'there is none' } : { expected, found: null };
};

const checkK8sEvent: Check<'k8s-event'> = (g, ctx) => {
  const expected = `${countText(g, `${g.reason} event`)}${g.pod ? ` for pod ${g.pod}` : ''}`;
  // Counted from the trace (each recording is one event of the trace, aggregated or not).
  let n = 0;
  const podRe = g.pod ? globRe(g.pod.includes('/') ? g.pod.split('/')[1]! : g.pod) : null;
  for (let i = from(ctx, g.since); i <= ctx.step && i < ctx.events.length; i++) {
    const e = ctx.events[i]!;
    if (e.kind !== 'api' || !('event' in e.payload) || e.payload.event.reason !== g.reason)
      continue;
    const ev = e.payload.event;
    if (podRe && !(ev.object.startsWith('pod/') && podRe.test(ev.object.slice(4)))) continue;
    n++;
  }
  if (countOk(n, g)) return { expected, found: null };
  return { expected, found: n ? `there ${n === 1 ? 'is' : 'are'} ${n}` : 'there is none' };
};

const checkTrace: Check<'trace'> = (g, ctx) => {
  const what = describeMatcher(g.match);
  const expected = g.last
    ? `the latest ${what} to be ${describeMatcher(g.last)}`
    : countText(g, matcherNoun(g.match).noun, matcherNoun(g.match).after);
  const hits: number[] = [];
  for (let i = from(ctx, g.since); i <= ctx.step && i < ctx.events.length; i++)
    if (matches(g.match, ctx.events[i]!, ctx.events)) hits.push(i);
  if (g.last) {
    if (!hits.length) return { expected, found: `there is no ${what} yet` };
    const e = ctx.events[hits[hits.length - 1]!]!;
    if (!matches(g.last, e, ctx.events))
      return { expected, found: `it was "${short(e.summary).slice(0, 200)}"` };
    if (!countOk(hits.length, g))
      return { expected, found: `there ${hits.length === 1 ? 'is' : 'are'} ${hits.length}` };
    return { expected, found: null };
  }
  if (countOk(hits.length, g)) return { expected, found: null };
  if (!hits.length) return { expected, found: 'there is none' };
  const first = ctx.events[hits[0]!]!;
  return {
    expected,
    found: `there ${hits.length === 1 ? 'is' : 'are'} ${hits.length} (the first: "${short(first.summary).slice(0, 160)}")`,
  };
};

const checkSequence: Check<'sequence'> = (g, ctx) => {
  const names = g.steps.map(describeMatcher);
  const expected = names.join(', then ');
  let i = from(ctx, g.since);
  for (let k = 0; k < g.steps.length; k++) {
    let found = -1;
    for (; i <= ctx.step && i < ctx.events.length; i++) {
      if (matches(g.steps[k]!, ctx.events[i]!, ctx.events)) {
        found = i++;
        break;
      }
    }
    if (found < 0)
      return {
        expected,
        found:
          k === 0
            ? `there is no ${names[0]}`
            : `${names[k - 1]} happened, but no ${names[k]} after it`,
      };
  }
  return { expected, found: null };
};

const checkAudit: Check<'audit'> = (g, ctx) => {
  const max = g.max ?? (g.min !== undefined ? undefined : 0);
  const kinds = g.kinds?.length ? g.kinds.join(' or ') : '';
  const where = g.node ? ` on ${g.node}` : '';
  const expected =
    max === 0
      ? `no ${kinds ? `${kinds} ` : ''}audit finding${where}`
      : countText({ min: g.min, max }, `${kinds ? `${kinds} ` : ''}audit finding`) + where;
  const all = ctx
    .audit(ctx.state)
    .filter((a) => !g.node || a.node === g.node)
    .flatMap((a) => a.findings)
    .filter((f) => !g.kinds?.length || g.kinds.includes(f.kind));
  if (countOk(all.length, { min: g.min, max })) return { expected, found: null };
  if (!all.length) return { expected, found: 'the audit finds nothing' };
  return {
    expected,
    found: `the audit finds ${listText(
      all.map((f) => `${f.kind} ${f.detail}${g.node ? '' : ` (${f.node})`}`),
      3,
    )}`,
  };
};

const checkNode: Check<'node'> = (g, ctx) => {
  const what: string[] = [];
  if (g.ready !== undefined) what.push(g.ready ? 'Ready' : 'NotReady');
  if (g.networkReady !== undefined) what.push(`with NetworkReady=${g.networkReady}`);
  const expected = `node ${g.node} ${what.join(' ')}`.trim();
  const n = ctx.state.api?.nodes[g.node];
  const k = ctx.state.nodes[g.node]?.kubelet;
  if (!n || !k) return { expected, found: `there is no node ${g.node}` };
  const problems: string[] = [];
  const ready = n.ready.status === 'True';
  if (g.ready !== undefined && ready !== g.ready)
    problems.push(
      `it is ${ready ? 'Ready' : `NotReady${n.ready.message ? ` (${n.ready.message})` : ''}`}`,
    );
  if (g.networkReady !== undefined && k.networkReady !== g.networkReady)
    problems.push(
      `the runtime reports NetworkReady=${k.networkReady}${k.networkMessage ? ` (${k.networkMessage})` : ''}`,
    );
  return { expected, found: problems.length ? problems.join('; ') : null };
};

const checkSandboxes: Check<'sandboxes'> = (g, ctx) => {
  const what = `${g.state ? `${g.state} ` : ''}sandbox`;
  const expected = `${countText(g, what)}${g.pod ? ` of pod ${g.pod}` : ''} on ${g.node}`;
  const c = ctx.state.nodes[g.node]?.containerd;
  if (!c) return { expected, found: `there is no node ${g.node}` };
  const re = g.pod ? globRe(g.pod.includes('/') ? g.pod.split('/')[1]! : g.pod) : null;
  const all = tvalues(c.sandboxes)
    .filter((s) => !re || re.test(s.pod.name))
    .sort((a, b) => a.createdAt - b.createdAt);
  const ok = all.filter((s) => !g.state || s.state === g.state);
  if (countOk(ok.length, g)) return { expected, found: null };
  if (!all.length) return { expected, found: 'containerd has none' };
  return {
    expected,
    found: `containerd has ${listText(
      all.map((s) => `${s.id.slice(0, 12)}… (${s.pod.name}, ${s.state})`),
      4,
    )}`,
  };
};

/** The pod's IP and namespace (a walk's end), or why there is none. */
function podEnd(
  state: WorldState,
  ref: string,
): { node: string; ns: string; ip: string; name: string } | string {
  const found = pods(state, ref);
  if (typeof found === 'string') return found;
  const pod = found[0];
  if (!pod) return `there is no pod ${ref}`;
  if (!pod.podIP) return `pod ${pod.spec.name} has no IP`;
  const sb = sandboxOf(state, pod);
  const k = state.nodes[pod.spec.nodeName]?.kernel;
  const ns = sb && k ? inspect.netnsOfMount(k, sb.netns) : undefined;
  if (!ns) return `pod ${pod.spec.name} has no network namespace`;
  return { node: pod.spec.nodeName, ns: ns.id, ip: pod.podIP, name: pod.spec.name };
}

const checkReach: Check<'reach'> = (g, ctx) => {
  const want = g.reachable ?? true;
  const what = g.port
    ? `a TCP connect to port ${g.port}`
    : `a ping${g.size ? ` of ${g.size} bytes` : ''}`;
  const src = podEnd(ctx.state, g.from.slice(4));
  const dst = g.to.startsWith('pod:') ? podEnd(ctx.state, g.to.slice(4)) : null;
  const fromName = typeof src === 'string' ? g.from.slice(4) : src.name;
  const toName =
    dst === null ? g.to : typeof dst === 'string' ? g.to.slice(4) : `${dst.name} (${dst.ip})`;
  const expected = `${what} from ${fromName} to ${toName} ${want ? 'answered' : 'unanswered'}`;
  if (typeof src === 'string') return { expected, found: src };
  if (typeof dst === 'string') return { expected, found: dst };
  const addr = dst === null ? g.to : dst.ip;
  const w = walkPacket(ctx.state, {
    from: { node: src.node, ns: src.ns },
    dst: addr,
    ...(g.port ? { proto: 'tcp' as const, port: g.port } : {}),
    ...(g.size !== undefined ? { size: g.size } : {}),
  });
  const back =
    w.reply?.ok === true &&
    w.reply.at.node === src.node &&
    w.reply.at.ns === src.ns &&
    w.reply.packet.src === addr;
  if (back === want) return { expected, found: null };
  if (back) return { expected, found: 'the answer comes back' };
  const lost = !w.request.ok ? w.request : w.reply && !w.reply.ok ? w.reply : null;
  if (lost && !lost.ok)
    return {
      expected,
      found: `the ${lost === w.request ? 'packet' : 'answer'} is dropped${lost.at?.node ? ` on ${lost.at.node}` : ''}: ${lost.text}`,
    };
  return { expected, found: 'the answer does not come back to the sender' };
};

const CHECKS: { [T in Goal['type']]: Check<T> } = {
  reach: checkReach,
  pod: checkPod,
  'pod-gone': checkPodGone,
  files: checkFiles,
  link: checkLink,
  address: checkAddress,
  route: checkRoute,
  journal: checkJournal,
  'k8s-event': checkK8sEvent,
  trace: checkTrace,
  sequence: checkSequence,
  audit: checkAudit,
  node: checkNode,
  sandboxes: checkSandboxes,
};

/** Checks one goal. */
export function checkGoal(goal: Goal, ctx: CheckContext): GoalResult {
  const check = CHECKS[goal.type] as Check<Goal['type']>;
  const { expected, found } = check(goal as never, ctx);
  return {
    id: goal.id,
    text: goal.text,
    met: found === null,
    explanation: found === null ? '' : `expected ${expected}; ${found}`,
  };
}

export function checkGoals(goals: readonly Goal[], ctx: CheckContext): GoalResult[] {
  return goals.map((g) => checkGoal(g, ctx));
}

/** Replaces `{name}` in every string of a goal (a challenge's `{node}`). */
export function bindGoal<T>(goal: T, vars: Record<string, string>): T {
  const sub = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
    if (Array.isArray(v)) return v.map(sub);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sub(x)]));
    return v;
  };
  return sub(goal) as T;
}
