/** What the app shows of a node's containerd release, and the picker's suggestions and errors. */
import { describe, expect, it } from 'vitest';
import { loadEngine } from '../engine';
import { newSandbox } from '../engine/session';
import {
  releaseDetails,
  releaseInfo,
  releaseProblem,
  releaseSpan,
  releaseSuggestions,
} from './release';

await loadEngine();

describe('the release picker', () => {
  it('suggests the newest release of every behaviour range', () => {
    const s = releaseSuggestions();
    expect(s).toHaveLength(loadEngine.now().BEHAVIOUR_RANGES.length);
    expect(s).toContainEqual({ version: '1.7.22', range: '1.7.0–1.7.22' });
    expect(s).toContainEqual({ version: '2.0.0', range: '2.0.0' });
    expect(s).toContainEqual({ version: '1.6.8', range: '1.6.0–1.6.8' });
    expect(s.at(-1)).toEqual({ version: '2.3.4', range: '2.0.1+' });
    expect(s).toContainEqual({ version: '1.7.34', range: '1.7.23+' });
    expect(releaseSpan()).toBe('1.6.0 to 2.3.4');
  });

  it("gives the engine's error for a number that is no release", () => {
    expect(releaseProblem(' 1.7.24 ')).toBeNull();
    expect(releaseProblem('1.8.0')).toMatch(
      /^unknown containerd release "1\.8\.0": .*behaviour ranges/,
    );
    expect(releaseProblem('latest')).toMatch(/^unknown containerd release "latest"/);
  });
});

describe('a node header', () => {
  it('shows the release that runs, its range and what it vendors, and one installed', () => {
    const s = newSandbox({ cluster: { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] } });
    s.runUntil({ kind: 'pod-running' });
    const before = releaseInfo(s.stateAt(s.cursor).nodes['node-1']!.containerd)!;
    expect(before).toEqual({
      runtime: 'containerd',
      version: '1.7.22',
      range: '1.7.0–1.7.22',
      libcni: '1.1',
      vendors: 'go-cni v1.1.9, libcni v1.1.2',
      installed: null,
    });
    expect(releaseDetails(before)).toBe(
      'behaviour range 1.7.0–1.7.22; go-cni v1.1.9, libcni v1.1.2',
    );
    s.perform({ do: 'setContainerdVersion', node: 'node-1', version: '2.0.0' });
    expect(releaseInfo(s.stateAt(s.cursor).nodes['node-1']!.containerd)).toMatchObject({
      version: '1.7.22',
      installed: '2.0.0',
    });
  });

  it('shows CRI-O and its release on a CRI-O node', () => {
    const s = newSandbox({
      cluster: {
        nodes: [
          {
            name: 'node-1',
            podCIDR: '10.244.1.0/24',
            runtime: { name: 'cri-o', version: '1.32.x' },
          },
        ],
      },
    });
    expect(releaseInfo(s.stateAt(s.cursor).nodes['node-1']!.containerd)).toEqual({
      runtime: 'cri-o',
      version: '1.32.13',
      range: '1.32–1.35',
      libcni: '1.2',
      vendors: 'ocicni v0.4.3, libcni v1.2.3',
      installed: null,
    });
  });
});
