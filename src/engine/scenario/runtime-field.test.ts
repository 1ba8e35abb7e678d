/**
 * A node's runtime in a scenario file, in the form issue 14 gives (`"runtime": "cri-o"` with
 * `"crio": {"version": "1.32.0"}`) and in the object form: the same node, the same trace.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from './run';

function scenario(node: Record<string, unknown>) {
  return JSON.stringify({
    version: 1,
    name: 'crio-node',
    title: 'One CRI-O node',
    seed: 4,
    nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24', ...node }],
    actions: [{ do: 'createPod', name: 'web-0', node: 'node-1' }],
    end: { until: 'pod-running:web-0', timeout: '1m' },
  });
}

describe("a node's runtime in a scenario", () => {
  it('"runtime": "cri-o" with "crio": {"version"} runs that CRI-O release, as the object form does', () => {
    const a = runScenario(scenario({ runtime: 'cri-o', crio: { version: '1.32.0' } }));
    const b = runScenario(scenario({ runtime: { name: 'cri-o', version: '1.32.0' } }));
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    const settings = a.cluster.sim.state.nodes['node-1']!.containerd!.settings;
    expect(settings).toMatchObject({ runtime: 'cri-o', version: '1.32.0' });
    expect(JSON.stringify(a.cluster.sim.events)).toBe(JSON.stringify(b.cluster.sim.events));
  });

  it('"runtime": "containerd" is the default node', () => {
    const a = runScenario(scenario({ runtime: 'containerd' }));
    const b = runScenario(scenario({}));
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok)
      expect(JSON.stringify(a.cluster.sim.events)).toBe(JSON.stringify(b.cluster.sim.events));
  });

  it('refuses "crio" on a containerd node, an unknown runtime and a bad release, each with the place', () => {
    const bad = (node: Record<string, unknown>) => {
      const r = runScenario(scenario(node));
      return r.ok ? [] : r.errors.join('\n');
    };
    expect(bad({ crio: { version: '1.32.0' } })).toMatch(
      /nodes\[0\]\.crio: the node runs containerd; set "runtime": "cri-o"/,
    );
    expect(bad({ runtime: 'docker' })).toMatch(/runtime/);
    expect(bad({ runtime: 'cri-o', crio: { version: '1.2.3' } })).toMatch(/crio\.version/);
  });

  it('the object form names the release that is refused, and why (not "Invalid input")', () => {
    const bad = (node: Record<string, unknown>) => {
      const r = runScenario(scenario(node));
      return r.ok ? [] : r.errors;
    };
    expect(bad({ runtime: { name: 'cri-o', version: '1.36.3' } })).toEqual([]);
    const [e137] = bad({ runtime: { name: 'cri-o', version: '1.37.0' } });
    expect(e137).toMatch(/^nodes\[0\]\.runtime\.version: unknown CRI-O release "1\.37\.0"/);
    expect(e137).toContain(
      'releases 1.28.0–1.28.11, 1.29.0–1.29.13, 1.30.0–1.30.14, 1.31.0–1.31.13, 1.32.0–1.32.13, 1.33.0–1.33.13, 1.34.0–1.34.11, 1.35.0–1.35.6, 1.36.0–1.36.3; behaviour ranges 1.28–1.30, 1.31, 1.32–1.35, 1.36)',
    );
    expect(bad({ runtime: { name: 'cri-o', version: '1.36.4' } })[0]).toContain('1.36.0–1.36.3');
    expect(bad({ runtime: { name: 'cri-o', version: '1.27.0' } })[0]).toContain(
      'releases 1.28.0–1.28.11',
    );
    expect(bad({ runtime: 'docker' })).toEqual([
      'nodes[0].runtime: expected "containerd" or "cri-o", got "docker"',
    ]);
    expect(bad({ runtime: { name: 'crio' } })).toEqual([
      'nodes[0].runtime.name: expected "cri-o", got "crio"',
    ]);
  });
});
