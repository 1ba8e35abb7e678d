/**
 * A fault's parameters, checked against the cluster before anything happens: a bad one fails with
 * a message naming it (`params.pod: pods "web-9" not found`).
 */
import { podKey } from '../apiserver/apiserver';
import type { Cluster, ClusterSpec } from '../cluster/cluster';
import type { PodObj } from '../state/api';
import { BUILDS } from '../plugins/lib/build';
import { PLUGIN_FACTORIES } from '../plugins/registry';
import type { WorldState } from '../sim/world';
import type { FaultDef, ParamSpec } from './catalogue';
import { tget } from '../state/table';

export type FaultParams = Record<string, unknown>;

export interface Resolved {
  node: string;
  pod?: PodObj;
  podKey?: string;
  plugin: string;
  build: string;
  cniVersion: string;
  /** Values of `choice` parameters by name (command, what). */
  choices: Record<string, string>;
  free: number;
}

export class ParamError extends Error {}

export function fail(message: string): never {
  throw new ParamError(message);
}

/**
 * What the checks of a fault read: a cluster's spec and its state at some step. The app checks
 * a fault at the step a person looks at (`faultProblem`) without a live Cluster.
 */
export interface FaultView {
  spec: ClusterSpec;
  state: WorldState;
}

export function viewOf(c: Cluster): FaultView {
  return { spec: c.spec, state: c.sim.state };
}

export function resolveParams(view: FaultView, f: FaultDef, params: unknown): Resolved {
  if (params === null || typeof params !== 'object' || Array.isArray(params))
    fail(`params: expected an object of parameters, got ${JSON.stringify(params)}`);
  const given = params as FaultParams;
  const known = Object.keys(f.params);
  for (const k of Object.keys(given)) {
    if (!known.includes(k)) {
      fail(
        `params.${k}: fault "${f.id}" has no parameter ${k} (it takes: ${known.join(', ') || 'none'})`,
      );
    }
  }
  const value = (name: string, spec: ParamSpec): unknown => given[name] ?? spec.default;
  const str = (name: string, spec: ParamSpec): string | undefined => {
    const v = value(name, spec);
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v === '')
      fail(`params.${name}: expected a non-empty string, got ${JSON.stringify(v)}`);
    return v;
  };
  const out: Resolved = {
    node: '',
    plugin: '',
    build: '',
    cniVersion: '',
    choices: {},
    free: 0,
  };
  const nodes = view.spec.nodes.map((n) => n.name);
  for (const [name, spec] of Object.entries(f.params)) {
    switch (spec.kind) {
      case 'pod': {
        const v = str(name, spec);
        if (v === undefined) fail(`params.${name}: required (the pod to inject into)`);
        const key = v.includes('/') ? v : podKey('default', v);
        const p = tget(view.state.api?.pods, key);
        if (!p) fail(`params.${name}: pods "${v}" not found`);
        out.pod = p;
        out.podKey = key;
        break;
      }
      case 'plugin': {
        const v = str(name, spec)!;
        if (!PLUGIN_FACTORIES[v])
          fail(
            `params.${name}: unknown plugin "${v}" (known: ${Object.keys(PLUGIN_FACTORIES).sort().join(', ')})`,
          );
        out.plugin = v;
        break;
      }
      case 'build': {
        const v = str(name, spec)!;
        if (!BUILDS[v])
          fail(`params.${name}: unknown build "${v}" (known: ${Object.keys(BUILDS).join(', ')})`);
        out.build = v;
        break;
      }
      case 'cniVersion': {
        const v = str(name, spec)!;
        if (!/^\d+\.\d+\.\d+$/.test(v)) fail(`params.${name}: "${v}" is not a version like 1.0.0`);
        out.cniVersion = v;
        break;
      }
      case 'choice': {
        const v = str(name, spec)!;
        if (!spec.values!.includes(v))
          fail(`params.${name}: "${v}" is not one of ${spec.values!.join(', ')}`);
        out.choices[name] = v;
        break;
      }
      case 'count': {
        const v = value(name, spec);
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
          fail(`params.${name}: expected a whole number >= 0, got ${JSON.stringify(v)}`);
        out.free = v;
        break;
      }
      case 'node':
        break;
    }
  }
  // The node: given, or the pod's, or the only one.
  const nodeSpec = f.params['node'];
  const givenNode = nodeSpec ? given['node'] : undefined;
  if (givenNode !== undefined) {
    if (typeof givenNode !== 'string' || !nodes.includes(givenNode))
      fail(`params.node: no node ${JSON.stringify(givenNode)} (nodes: ${nodes.join(', ')})`);
    if (out.pod && out.pod.spec.nodeName !== givenNode)
      fail(`params.node: pod ${out.podKey} runs on ${out.pod.spec.nodeName}, not ${givenNode}`);
    out.node = givenNode;
  } else if (out.pod) out.node = out.pod.spec.nodeName;
  else if (nodes.length === 1) out.node = nodes[0]!;
  else fail(`params.node: required: the cluster has ${nodes.length} nodes (${nodes.join(', ')})`);

  // The pod's state must fit the moment.
  if (out.pod) {
    const p = out.pod;
    const running = p.containerRunning && p.deletionTimestamp === null;
    if ((f.when === 'pod-running' || f.when === 'before-delete') && !running)
      fail(`params.pod: pod ${out.podKey} is not Running; fault "${f.id}" needs a running pod`);
    if (f.when === 'during-add' && (p.containerRunning || p.deletionTimestamp !== null))
      fail(
        `params.pod: pod ${out.podKey} is ${p.deletionTimestamp !== null ? 'being deleted' : 'already Running'}; fault "${f.id}" needs a pod being created`,
      );
  }
  return out;
}
