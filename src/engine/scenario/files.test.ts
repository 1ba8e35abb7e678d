/** A scenario node's `files`: what the node has on disk before it boots (no event writes them). */
import { describe, expect, it } from 'vitest';
import * as vfs from '../fs/vfs';
import { runScenario } from './run';
import { parseScenario } from './schema';

describe('nodes[].files', () => {
  it('are on the node from the first step, with no event in the trace', () => {
    const r = runScenario({
      version: 1,
      nodes: [
        {
          name: 'node-1',
          podCIDR: '10.244.1.0/24',
          files: { '/var/lib/cni/networks/containerd-net/10.244.1.9': 'abc\r\neth0' },
        },
      ],
      end: { until: 'idle' },
    });
    if (!r.ok) throw new Error(r.errors.join('; '));
    const fs = r.cluster.sim.initial.nodes['node-1']!.fs;
    expect(vfs.readFile(fs, '/var/lib/cni/networks/containerd-net/10.244.1.9')).toBe('abc\r\neth0');
    expect(r.cluster.events.some((e) => e.summary.includes('10.244.1.9'))).toBe(false);
  });

  it('refuses a relative path', () => {
    const r = parseScenario({
      version: 1,
      nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24', files: { 'etc/x': 'y' } }],
    });
    expect(r.ok ? [] : r.errors).toEqual(['nodes[0].files["etc/x"]: expected an absolute path']);
  });
});
