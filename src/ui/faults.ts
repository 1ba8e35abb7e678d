/**
 * Faults the Actions view offers. Each is an ordinary session action (a file written or
 * removed, a plugin made to hang), so it is saved, replayed and marked like any other.
 *
 * The fault catalogue (src/engine/faults) is being written; when it lands, its entries replace
 * these presets and inject through `{ do: 'injectFault' }`.
 */
import type { FsState } from '../engine/fs/vfs';
import type { SessionAction } from '../engine/session/actions';
import type { Session } from '../engine/session/session';

export interface UiFault {
  id: string;
  title: string;
  explanation: string;
  /** The action that injects it at `step`, or a reason why it cannot be injected there. */
  action(session: Session, step: number): SessionAction | string;
}

const RESULTS = '/var/lib/cni/results';

/** The pod network's cache files on a node at a step, newest sandbox last (by name: stable). */
function cacheFiles(session: Session, step: number): { node: string; path: string }[] {
  const state = session.stateAt(step);
  const out: { node: string; path: string }[] = [];
  for (const node of session.nodeNames) {
    const fs = state.nodes[node]?.fs as FsState | undefined;
    for (const f of Object.keys(fs?.dirs[RESULTS] ?? {}).sort()) {
      if (!f.startsWith('cni-loopback-')) out.push({ node, path: `${RESULTS}/${f}` });
    }
  }
  return out;
}

export const FAULTS: readonly UiFault[] = [
  {
    id: 'corrupted-cache',
    title: 'Corrupted result cache',
    explanation:
      "Truncates a pod's cached ADD result in /var/lib/cni/results, as a crash mid-write or a full disk leaves it. libcni v1.1 cannot parse it when the pod is deleted: DEL fails, StopPodSandbox fails, the pod stays Terminating and its IP stays reserved. libcni v1.2 ignores the bad cache and DEL goes on.",
    action(session, step) {
      const f = cacheFiles(session, step)[0];
      if (!f) return 'No pod has a cached result yet: run a pod first.';
      return {
        do: 'writeFile',
        node: f.node,
        path: f.path,
        data: '{"kind":"cniCacheV1","containerId":"',
        mode: 0o600,
      };
    },
  },
  {
    id: 'deleted-cache',
    title: 'Deleted result cache',
    explanation:
      "Removes a pod's cached ADD result. DEL then runs without prevResult: plugins must clean up from what they find, and the reference plugins do.",
    action(session, step) {
      const f = cacheFiles(session, step)[0];
      if (!f) return 'No pod has a cached result yet: run a pod first.';
      return { do: 'removeFile', node: f.node, path: f.path };
    },
  },
  {
    id: 'plugin-missing',
    title: 'portmap binary missing from /opt/cni/bin on node-1',
    explanation:
      'The conflist still lists portmap. Every ADD on node-1 fails with "failed to find plugin \\"portmap\\" in path", containerd tears the sandbox down, and the kubelet retries with back-off: pods stay ContainerCreating.',
    action: () => ({ do: 'removeFile', node: 'node-1', path: '/opt/cni/bin/portmap' }),
  },
  {
    id: 'malformed-conflist',
    title: 'Malformed conflist on node-2',
    explanation:
      'A stray comma in /etc/cni/net.d: containerd cannot load any network, reports NetworkReady=false ("cni plugin not initialized"), and the kubelet stops starting pods on node-2; node-1 is untouched.',
    action: () => ({
      do: 'writeFile',
      node: 'node-2',
      path: '/etc/cni/net.d/10-containerd-net.conflist',
      data: '{\n  "cniVersion": "1.0.0",\n  "name": "containerd-net",\n  "plugins": [ { "type": "bridge", }\n}\n',
    }),
  },
  {
    id: 'plugin-hangs',
    title: 'bridge hangs on ADD on node-1',
    explanation:
      "The bridge binary blocks forever (a lock, a datastore). The kubelet's runtime request times out after 2 minutes, cancels the call and retries; the pod stays ContainerCreating.",
    action: () => ({ do: 'hangPlugin', node: 'node-1', plugin: 'bridge', commands: ['ADD'] }),
  },
];
