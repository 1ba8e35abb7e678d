/**
 * A challenge's hidden fault: which variant (a fault of the catalogue) and which node, drawn from
 * (challenge id, seed), and the cluster it makes. The fault is folded into the affected node's
 * description before the cluster boots (a plugin binary absent from /opt/cni/bin, an old build,
 * a conflist as the fault leaves it, reservation files of an earlier life), so the node simply
 * starts out broken: the trace has no event that injects it, no marker, nothing to step back to.
 * What the candidate sees is what an operator on a real node would see: the node's state and
 * how the kubelet, containerd and the plugins cope with it.
 *
 * Faults that are not a node's state before anything runs (a plugin that starts hanging, a pod's
 * cache cut short before it is deleted, a restart during ADD) happen after the workload started:
 * the challenge's `inject` says when, and the scenario gets an `injectFault` action there, which
 * the challenge's Session replays as a hidden action (no marker, not in the log, no "next fault").
 * What the injection itself did stays in the trace, as it would in a real node's audit log.
 */
import { defaultConflist, REFERENCE_PACKAGE } from '../cluster/cluster';
import { faultById } from '../faults/catalogue';
import * as vfs from '../fs/vfs';
import { ipv4String, parseIPv4 } from '../net/ip';
import { LINE_BREAK, lastReservedIPPath, networkDir } from '../plugins/host-local-disk';
import type { Challenge, Variant } from './schema';

/** Catalogue faults a challenge can hide, and what they do to a node before it boots. */
export const HIDEABLE = [
  'plugin-missing',
  'silent-ip-leak',
  'add-fails-midway',
  'cni-version-unsupported',
  'old-plugin-in-chain',
  'conflist-malformed',
  'conflist-missing',
  'ipam-exhausted',
  'stale-reservation',
] as const;
export type HideableFault = (typeof HIDEABLE)[number];

export interface Hidden {
  variant: Variant;
  /** Its index in the challenge's variants. */
  index: number;
  node: string;
  /** What {node}, {pod}, {pod2}, {pod3} stand for in the ticket and the goals. */
  vars: Record<string, string>;
  /** The fault's parameters: the variant's over the catalogue's defaults. */
  params: Record<string, string | number>;
}

type Data = Record<string, unknown>;

/** FNV-1a, 32 bits: a stable, well-mixed number from a string. */
export function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // Final avalanche (murmur3's fmix32) so that seeds 1, 2, 3 spread over the variants.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

function clusterNodes(ch: Challenge): string[] {
  const nodes = (ch.cluster['nodes'] as { name: string }[] | undefined) ?? [];
  return nodes.map((n) => n.name);
}

/** The pods the cluster's actions create on `node`, in order. */
export function podsOn(ch: Challenge, node: string): string[] {
  const actions = (ch.cluster['actions'] as Record<string, unknown>[] | undefined) ?? [];
  return actions
    .filter((a) => a['do'] === 'createPod' && a['node'] === node)
    .map((a) => String(a['name']));
}

/** Whether a fault of the catalogue is folded into the node before it boots. */
export function foldedBeforeBoot(fault: string): boolean {
  // (A challenge with `inject` injects even these while the cluster runs.)
  return (HIDEABLE as readonly string[]).includes(fault);
}

/** The nodes a challenge's fault may be on. */
export function faultNodes(ch: Challenge): string[] {
  return ch.faultNodes ?? clusterNodes(ch);
}

/** The fault hidden in challenge `ch` with `seed` (a positive integer). */
export function drawHidden(ch: Challenge, seed: number): Hidden {
  const h = hash(`${ch.id}#${seed}`);
  const index = h % ch.variants.length;
  const nodes = faultNodes(ch);
  const node = nodes[Math.floor(h / ch.variants.length) % nodes.length]!;
  const variant = ch.variants[index]!;
  const params: Record<string, string | number> = {};
  const def = faultById(variant.fault);
  for (const [k, p] of Object.entries(def?.params ?? {}))
    if (p.default !== undefined && p.kind !== 'node') params[k] = p.default;
  Object.assign(params, variant.params ?? {});
  const pods = podsOn(ch, node);
  const vars: Record<string, string> = { node };
  pods.slice(0, 3).forEach((p, i) => (vars[i ? `pod${i + 1}` : 'pod'] = p));
  for (const [k, v] of Object.entries(params))
    if (typeof v === 'string') params[k] = v.replace(/\{(\w+)\}/g, (m, x: string) => vars[x] ?? m);
  // A pod's fault is the first pod's on the node unless the variant names another.
  if (def?.params['pod'] && params['pod'] === undefined && vars['pod']) params['pod'] = vars['pod'];
  return { variant, index, node, vars, params };
}

/** The ticket as the candidate reads it. */
export function ticketText(ch: Challenge, hidden: Hidden): string {
  return ch.ticket.replace(/\{(\w+)\}/g, (m, k: string) => hidden.vars[k] ?? m);
}

/** A 64-hex container id of an earlier life, from the seed (no runtime knows it). */
function ghostId(seed: number, i: number): string {
  let out = '';
  for (let k = 0; out.length < 64; k++)
    out += hash(`ghost#${seed}#${i}#${k}`).toString(16).padStart(8, '0');
  return out.slice(0, 64);
}

/** Problems with a variant, as `variants[i]...: what is wrong` lines. */
export function variantProblems(ch: Challenge): string[] {
  const out: string[] = [];
  const nodes = clusterNodes(ch);
  for (const n of ch.faultNodes ?? [])
    if (!nodes.includes(n)) out.push(`faultNodes: no node "${n}" in the cluster`);
  ch.variants.forEach((v, i) => {
    const at = `variants[${i}]`;
    const def = faultById(v.fault);
    if (!def) out.push(`${at}.fault: no fault "${v.fault}" in the catalogue`);
    else if (!def.challenge)
      out.push(
        `${at}.fault: "${v.fault}" heals by itself: the catalogue keeps it out of challenges`,
      );
    else {
      for (const k of Object.keys(v.params ?? {}))
        if (!def.params[k] || def.params[k].kind === 'node')
          out.push(`${at}.params.${k}: fault "${v.fault}" has no parameter ${k}`);
      if (!foldedBeforeBoot(v.fault) || ch.inject)
        if (def.when !== 'any')
          for (const n of faultNodes(ch))
            if (!podsOn(ch, n).length)
              out.push(
                `${at}.fault: "${v.fault}" needs a pod, and the cluster creates none on ${n}`,
              );
    }
    if (!ch.causes.some((c) => c.id === v.cause))
      out.push(`${at}.cause: "${v.cause}" is not one of the causes`);
    v.fix.forEach((f, k) => {
      if (!ch.fixes.includes(f)) out.push(`${at}.fix[${k}]: "${f}" is not one of the fixes`);
    });
  });
  return out;
}

/**
 * The challenge's cluster scenario with the hidden fault folded into the affected node, run with
 * the challenge's seed (the same seed gives the same cluster, fault and trace).
 */
export function challengeScenario(ch: Challenge, hidden: Hidden, seed: number): Data {
  const data = JSON.parse(JSON.stringify(ch.cluster)) as Data;
  data['seed'] = seed;
  const nodes = data['nodes'] as Data[];
  const node = nodes.find((n) => n['name'] === hidden.node);
  if (!node) throw new Error(`challenge ${ch.id}: no node ${hidden.node}`);
  const podCIDR = node['podCIDR'] as string;
  const conf = (): Data => JSON.parse(defaultConflist(podCIDR)) as Data;
  const p = hidden.params;
  const file = '10-containerd-net.conflist';
  if (ch.inject || !foldedBeforeBoot(hidden.variant.fault)) {
    // Injected while the cluster runs: after action `after`, once `until` holds.
    const def = faultById(hidden.variant.fault)!;
    const params: Record<string, unknown> = { ...p };
    if (def.when === 'any') params['node'] = hidden.node;
    const actions = [...((data['actions'] as Data[] | undefined) ?? [])];
    const at = Math.min(ch.inject?.after ?? actions.length - 1, actions.length - 1) + 1;
    actions.splice(at, 0, {
      do: 'injectFault',
      fault: hidden.variant.fault,
      params,
      ...(ch.inject?.until ? { after: ch.inject.until } : {}),
    });
    data['actions'] = actions;
    return data;
  }
  switch (hidden.variant.fault as HideableFault) {
    case 'plugin-missing':
    case 'silent-ip-leak':
    case 'add-fails-midway': {
      const have = (node['plugins'] as string[] | undefined) ?? REFERENCE_PACKAGE;
      node['plugins'] = have.filter((x) => x !== p['plugin']);
      break;
    }
    case 'cni-version-unsupported':
      node['cniConfigs'] = { [file]: { ...conf(), cniVersion: String(p['cniVersion']) } };
      break;
    case 'old-plugin-in-chain':
      node['pluginBuilds'] = {
        ...((node['pluginBuilds'] as Data | undefined) ?? {}),
        [String(p['plugin'])]: String(p['build']),
      };
      break;
    case 'conflist-malformed': {
      // Half-written, as the catalogue's injection leaves it.
      const text = defaultConflist(podCIDR);
      node['cniConfigs'] = { [file]: text.slice(0, Math.floor(text.length / 2)) };
      break;
    }
    case 'conflist-missing':
      node['cniConfigs'] = {};
      break;
    case 'ipam-exhausted':
    case 'stale-reservation': {
      // Reservations held by containers no runtime knows, from the top of the range down (the
      // pods of an earlier life): all but `free` addresses, or one for a stale reservation.
      const [net, prefix] = podCIDR.split('/') as [string, string];
      const base = parseIPv4(net) ?? 0;
      const first = base + 2; // .1 is the gateway
      const last = base + 2 ** (32 - Number(prefix)) - 2;
      const total = last - first + 1;
      const count =
        hidden.variant.fault === 'stale-reservation'
          ? 1
          : Math.max(0, total - Number(p['free'] ?? 0));
      const files: Record<string, string> = {};
      const dir = networkDir('containerd-net');
      for (let i = 0; i < count; i++)
        files[vfs.joinPath(dir, ipv4String(first + i))] = `${ghostId(seed, i)}${LINE_BREAK}eth0`;
      if (count) files[lastReservedIPPath(dir, 0)] = ipv4String(first + count - 1);
      node['files'] = { ...((node['files'] as Data | undefined) ?? {}), ...files };
      break;
    }
  }
  return data;
}
