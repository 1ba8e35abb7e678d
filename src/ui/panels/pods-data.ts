/**
 * What the Pods view (PodsView.tsx) shows at a step, as plain data: the landing's precomputed
 * trace (../landing-trace.ts) holds it for its steps, computed by the same function at build
 * time.
 */
import { loadEngine, tget, type PodRow, type Session } from '../../engine';
import { releaseInfo, type ReleaseInfo } from '../release';

/**
 * What the Pods view shows at a step: the nodes with their readiness and release, the pods'
 * rows, and `kubectl describe` of the selected pod. Plain data: the landing's precomputed trace
 * (../preview.ts) holds it per step, with every pod described.
 */
export interface PodsData {
  /** False: the step has no API server. */
  api: boolean;
  nodes: { name: string; ready: string; release: ReleaseInfo | null }[];
  rows: PodRow[];
  /** By `namespace/name`: the pods described (the selected one; every one when precomputed). */
  describe: Record<string, PodDescribe>;
}

export interface PodDescribe {
  node: string;
  ip: string;
  conditions: string;
  events: string;
}

/** The Pods view's data at `step`, with the pods of `describe` described. */
export function podsData(
  session: Session,
  step: number,
  describe: (key: string) => boolean,
): PodsData {
  const state = session.stateAt(step);
  const api = state.api;
  if (!api) return { api: false, nodes: [], rows: [], describe: {} };
  const engine = loadEngine.now();
  const rows = engine.podRows(api, state.clock);
  const described: Record<string, PodDescribe> = {};
  for (const r of rows) {
    const key = `${r.namespace}/${r.name}`;
    const pod = describe(key) ? tget(api.pods, key) : undefined;
    if (!pod) continue;
    described[key] = {
      node: pod.spec.nodeName,
      ip: pod.podIP ?? '<none>',
      conditions: pod.conditions.map((c) => `${c.type}=${c.status}`).join(', '),
      events: engine
        .describeEvents(api, `pod/${pod.spec.name}`, pod.spec.namespace, state.clock)
        .join('\n'),
    };
  }
  return {
    api: true,
    nodes: Object.values(api.nodes).map((n) => ({
      name: n.name,
      ready: n.ready.status,
      release: releaseInfo(state.nodes[n.name]?.containerd),
    })),
    rows,
    describe: described,
  };
}
