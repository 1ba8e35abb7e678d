/**
 * A session with a CRI-O node (scenario field `runtime`) is saved and loaded like any other:
 * the node spec keeps its runtime, so a share link replays CRI-O, not containerd.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterSpec } from '../cluster/cluster';
import { newSandbox } from './index';
import { parseSavedSession, serializeSession } from './serialize';

const SPEC: ClusterSpec = {
  nodes: [
    { name: 'node-1', podCIDR: '10.244.1.0/24', runtime: { name: 'cri-o', version: '1.32.0' } },
  ],
};

describe('serialize.ts nodeSpec: runtime', () => {
  it('round-trips a CRI-O node, and refuses a CRI-O release that is not one', () => {
    const s = newSandbox({ cluster: SPEC });
    const text = serializeSession(s);
    const back = parseSavedSession(JSON.parse(text));
    expect(back.ok).toBe(true);
    if (back.ok)
      expect(back.saved.cluster.nodes[0]!.runtime).toEqual({ name: 'cri-o', version: '1.32.0' });
    const bad = JSON.parse(text);
    bad.cluster.nodes[0].runtime.version = '1.99.0';
    const r = parseSavedSession(bad);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toContain('expected a CRI-O release');
    expect(s.stateAt(s.cursor).nodes['node-1']!.containerd!.settings.runtime).toBe('cri-o');
  });
});
