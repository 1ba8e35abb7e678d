import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from './schema';

const EXAMPLES = join(__dirname, '../../../scenarios');

function errors(data: unknown): string[] {
  const r = parseScenario(data);
  return r.ok ? [] : r.errors;
}

const base = (extra: Record<string, unknown> = {}) => ({
  version: 1,
  nodes: [
    { name: 'node-1', podCIDR: '10.244.1.0/24' },
    { name: 'node-2', podCIDR: '10.244.2.0/24' },
  ],
  ...extra,
});

describe('scenario files', () => {
  it('every example under scenarios/ is valid', () => {
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      const r = parseScenario(readFileSync(join(EXAMPLES, f), 'utf8'));
      expect(r.ok ? [] : r.errors, f).toEqual([]);
      if (r.ok) expect(r.scenario.name, f).toBe(f.replace(/\.json$/, ''));
    }
  });

  it('a minimal file is the default two-node cluster with nothing to do', () => {
    expect(parseScenario('{"version": 1}')).toEqual({ ok: true, scenario: { version: 1 } });
  });

  it('names the field and the problem', () => {
    const nodes = base().nodes;
    nodes[1] = { name: 'node-2', podCIDR: '10.244.1' };
    expect(errors(base({ nodes }))).toEqual([
      'nodes[1].podCIDR: expected a CIDR like 10.244.1.0/24',
    ]);
    expect(errors({ version: 2 })).toEqual(['version: expected 1, got 2']);
    expect(errors({})).toEqual(['version: required']);
    expect(errors([])).toEqual(['(top level): expected an object, got an array']);
    expect(errors(base({ seed: 1.5 }))).toEqual(['seed: expected an integer, got 1.5']);
    expect(
      errors({ version: 1, nodes: [{ name: 'n', podCIDR: '10.0.0.0/24', podCidr: 'x' }] }),
    ).toEqual(['nodes[0].podCidr: unknown field (did you mean "podCIDR"?)']);
    expect(errors({ version: 1, nodes: [{ name: 'n', podCIDR: '10.0.0.5/24' }] })).toEqual([
      'nodes[0].podCIDR: expected a CIDR like 10.244.1.0/24 (10.0.0.5/24 has host bits set)',
    ]);
    expect(errors({ version: 1, nodes: [] })).toEqual(['nodes: expected at least 1 item(s)']);
  });

  it('checks nodes against each other and against the plugins and builds it knows', () => {
    const e = errors({
      version: 1,
      nodes: [
        { name: 'node-1', podCIDR: '10.244.0.0/16', pluginBuild: 'v2', plugins: ['brige'] },
        {
          name: 'node-1',
          podCIDR: '10.244.2.0/24',
          pluginBuilds: { portmap: 'v0.9', 'host-locl': 'v1.1.1' },
          containerd: { libcni: '1.3' },
          kubelet: { backoff: 'soon' },
          cniConfigs: { '../10-net.conflist': { cniVersion: '1.0.0' } },
        },
      ],
    });
    expect(e).toEqual([
      expect.stringMatching(/^nodes\[0\]\.pluginBuild: unknown build "v2" \(one of v1\.1\.1, /),
      expect.stringMatching(/^nodes\[0\]\.plugins\[0\]: unknown plugin "brige" \(one of /),
      'nodes[1].containerd.libcni: expected "1.1" or "1.2", got "1.3"',
      'nodes[1].kubelet.backoff: expected a duration like 30s, 1m30s or 500ms (or a number of seconds)',
      'nodes[1].name: duplicate node name "node-1"',
      'nodes[1].podCIDR: overlaps nodes[0].podCIDR',
      'nodes[1].cniConfigs["../10-net.conflist"]: expected a file name, not a path',
      expect.stringMatching(/^nodes\[1\]\.pluginBuilds\.portmap: unknown build "v0\.9"/),
      expect.stringMatching(/^nodes\[1\]\.pluginBuilds\["host-locl"\]: unknown plugin "host-locl"/),
    ]);
  });

  it('checks actions: their kind, fields, conditions, durations and nodes', () => {
    const e = errors(
      base({
        actions: [
          { do: 'createpod', name: 'web-0' },
          { name: 'web-0' },
          { do: 'restartKubelet' },
          { do: 'reboot', node: 'node-3' },
          { do: 'createPod', name: 'Web_0' },
          { do: 'runUntil', until: 'pod-runing:web-0' },
          { do: 'wait', for: '10 seconds' },
          { do: 'deletePod', pod: 'web-0', at: '1s', after: 'idle' },
          { do: 'scale', deployment: 'web', replicas: -1 },
          { do: 'installPlugin', node: 'node-1', plugin: 'portmap', build: 'v0.1' },
          { do: 'shell', node: 'node-1' },
        ],
      }),
    );
    expect(e).toEqual([
      expect.stringMatching(/^actions\[0\]\.do: "createpod" is not an action \(one of createPod, /),
      expect.stringMatching(/^actions\[1\]\.do: required \(one of createPod, /),
      'actions[2].node: required (the cluster has 2 nodes)',
      'actions[3].node: no node "node-3" (nodes: node-1, node-2)',
      'actions[4].name: expected a pod name (lower-case letters, digits, - and .)',
      expect.stringMatching(/^actions\[5\]\.until: unknown condition "pod-runing"/),
      'actions[6].for: expected a duration like 30s, 1m30s or 500ms (or a number of seconds)',
      'actions[7]: use either "at" or "after", not both',
      'actions[8].replicas: expected at least 0, got -1',
      expect.stringMatching(/^actions\[9\]\.build: unknown build "v0\.1"/),
      'actions[10].line: required',
    ]);
  });

  it('reports JSON syntax errors with a line and column, and never throws', () => {
    const r = parseScenario('{\n  "version": 1,\n}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatch(/^not valid JSON: .*line 3, column 1/);
    for (const junk of [
      null,
      42,
      'null',
      '"x"',
      { version: 1, nodes: 'x' },
      { version: 1, actions: [null] },
    ])
      expect(parseScenario(junk).ok).toBe(false);
  });
});
