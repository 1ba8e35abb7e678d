/**
 * The catalogue describes containerd nodes: on a CRI-O node every fault is refused with the
 * reason, by injectFault and by faultProblem (what the app asks before it offers one), instead of
 * symptoms and recoveries that would not hold there; but the network faults, which are the
 * kernel's alone (`anyRuntime`), are not refused for the runtime.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS } from './catalogue';
import { faultProblem, injectFault } from './inject';
import { viewOf } from './params';
import { NODE, oneNode } from './testing';

describe('faults on a CRI-O node', () => {
  it('are refused, each with the reason, and nothing is changed', () => {
    const c = oneNode({ runtime: { name: 'cri-o', version: '1.31.x' } }, 7);
    c.createPod({ name: 'web-0', node: NODE });
    c.runFor(5_000_000);
    const before = c.events.length;
    for (const f of FAULTS.filter((x) => !x.anyRuntime)) {
      const params = 'pod' in f.params ? { pod: 'web-0' } : { node: NODE };
      const r = injectFault(c, f.id, params);
      expect(r.ok, f.id).toBe(false);
      if (!r.ok) expect(r.error, f.id).toMatch(/runs CRI-O 1\.31\.13: the fault catalogue/);
      expect(faultProblem(viewOf(c), f.id, params), f.id).toMatch(/runs CRI-O/);
    }
    expect(c.events.length).toBe(before);
    // The network faults: never for the runtime (others, on this node, for what they need).
    const network = FAULTS.filter((x) => x.anyRuntime);
    expect(network.length).toBe(7);
    for (const f of network) {
      const params = 'pod' in f.params ? { pod: 'web-0' } : { node: NODE };
      expect(faultProblem(viewOf(c), f.id, params) ?? '', f.id).not.toMatch(/CRI-O/);
    }
  });

  it('still come on a containerd node of the same cluster shape', () => {
    const c = oneNode({}, 7);
    c.createPod({ name: 'web-0', node: NODE });
    c.runFor(5_000_000);
    expect(injectFault(c, 'plugin-missing', { node: NODE }).ok).toBe(true);
  });
});
