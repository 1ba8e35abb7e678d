import { describe, expect, it } from 'vitest';
import { dirname } from 'node:path';
import {
  appGraph,
  ENGINE_ROOT,
  facadeProblems,
  fileCycles,
  type Graph,
  problems,
  readGraph,
} from './layers';

function graph(edges: Record<string, string[]>): Graph {
  return { files: new Map(Object.entries(edges)) };
}

describe('engine layers', () => {
  it('every import of src/engine points down the stack, and no files import each other in a circle', () => {
    expect(problems(readGraph(ENGINE_ROOT))).toEqual([]);
  });

  it("the app's own modules (UI, embed, element) import each other in no circle", () => {
    const g = appGraph(dirname(ENGINE_ROOT), ENGINE_ROOT);
    expect(g.files.has('ui/app/boot.ts')).toBe(true);
    expect(g.files.get('ui/app/boot.ts')).toContain('ui/share/open.ts');
    expect(fileCycles(g)).toEqual([]);
  });

  it('the UI, the embed and the element import the engine only through its facade', () => {
    expect(facadeProblems(dirname(ENGINE_ROOT), ENGINE_ROOT)).toEqual([]);
  });

  it('finds an upward arrow, a sideways one, a folder missing from the layers and a file cycle', () => {
    const layers = [['fs'], ['os', 'node'], ['kubelet']];
    const g = graph({
      'fs/vfs.ts': ['kubelet/kubelet.ts'],
      'os/sys.ts': ['node/setup.ts', 'fs/vfs.ts'],
      'node/setup.ts': [],
      'kubelet/kubelet.ts': ['kubelet/types.ts'],
      'kubelet/types.ts': ['kubelet/kubelet.ts'],
      'extra/x.ts': [],
    });
    expect(problems(g, layers, [])).toEqual([
      'extra: not in LAYERS (tools/layers.ts)',
      'fs/vfs.ts imports kubelet/kubelet.ts: kubelet is above fs',
      'os/sys.ts imports node/setup.ts: node is beside os',
      'import cycle: kubelet/kubelet.ts -> kubelet/types.ts',
    ]);
    expect(problems(g, layers, ['fs/vfs.ts -> kubelet/kubelet.ts'])).toHaveLength(3);
  });
});
