/**
 * The catalogue as data: its schema's messages, its coverage by the fault tests, and the errors
 * a bad injection gets (a field named, never a throw).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { FAULTS, challengeFaults, parseCatalogue } from './catalogue';
import { faultProblem, injectFault, recoverFault } from './inject';
import { clusterFor, NODE, oneNode, runningPod } from './testing';

describe('the fault catalogue', () => {
  it('has the faults operators meet', () => {
    expect(FAULTS.map((f) => f.id)).toEqual([
      'cache-corrupted',
      'cache-deleted',
      'cni-version-unsupported',
      'old-plugin-in-chain',
      'plugin-missing',
      'ipam-exhausted',
      'del-fails-with-result',
      'silent-ip-leak',
      'stale-attachment',
      'stale-reservation',
      'netns-deleted',
      'add-fails-midway',
      'plugin-hangs',
      'bad-output',
      'kubelet-restart-during-add',
      'containerd-restart-during-add',
      'containerd-restart',
      'kubelet-restart',
      'node-reboot',
      'drift',
      'conflist-malformed',
      'conflist-missing',
      'ip-forward-off',
      'pod-route-missing',
      'br-netfilter-unloaded',
      'vxlan-mtu-mismatch',
      'forward-policy-drop',
      'masquerade-missing',
      'hairpin-off',
    ]);
  });

  it('passes its own schema and rules (the app does not re-check it when it loads)', () => {
    expect(parseCatalogue(structuredClone(FAULTS))).toEqual(FAULTS);
    // The check can fail: one entry's explanation cut short is named with its id.
    const broken = structuredClone(FAULTS).map((f, i) =>
      i === 4 ? { ...f, explanation: 'x' } : f,
    );
    expect(() => parseCatalogue(broken)).toThrow(/faults\[4\] \(plugin-missing\)\.explanation/);
  });

  it('has a symptoms test and a recovery test for every fault', () => {
    const tests = ['cache', 'plugins', 'lifecycle', 'network']
      .map((f) => readFileSync(new URL(`./${f}.test.ts`, import.meta.url), 'utf8'))
      .join('\n');
    for (const f of FAULTS) {
      const block = tests.split(/\ndescribe\(/).find((b) => b.startsWith(`'${f.id}'`));
      expect(block, f.id).toBeDefined();
      // brokenConflist(...) holds both tests of the two conflist faults.
      const shared = /brokenConflist\(/.test(block!);
      // A fault that heals by itself may show both in one test.
      const selfHealing = f.recovery.actions.every((a) => a.kind === 'none');
      const its = block!.match(/\bit(\.each\([^]*?\))?\(/g)?.length ?? 0;
      expect(shared || its >= (selfHealing ? 1 : 2), f.id).toBe(true);
      // The recovery: a recover() call (for faults that need none, it says so).
      expect(shared || /recover\((t\.)?c, /.test(block!), f.id).toBe(true);
    }
  });

  it('explains problems in the data with the entry and the field', () => {
    const good = JSON.parse(JSON.stringify(FAULTS.find((f) => f.id === 'plugin-missing')));
    const bad = {
      ...good,
      id: 'Bad Id',
      title: '',
      when: 'sometimes',
      inject: { kind: 'explode' },
      params: { plugin: { kind: 'plugin' } },
    };
    expect(() => parseCatalogue([good, bad])).toThrow(
      [
        'invalid fault catalogue:',
        'faults[1] (Bad Id).id: must be kebab-case',
        'faults[1] (Bad Id).title: must not be empty',
        'faults[1] (Bad Id).when: expected one of "any", "pod-running", "before-delete", "during-add", got "sometimes"',
        'faults[1] (Bad Id).params.plugin.description: expected string, got nothing',
        'faults[1] (Bad Id).inject.kind: expected kind to be one of "shell", "node-command", "truncate-cache", "set-cni-version", "install-build", "fill-ipam", "stale-attachment", "delete-netns", "hang-plugin", "half-write-conflist", "noisy-plugin", got "explode"',
      ].join('\n'),
    );
    expect(() => parseCatalogue([good, good])).toThrow(
      'faults[1] (plugin-missing).id: duplicate id',
    );
    expect(() => parseCatalogue([{ ...good, id: 'x', when: 'pod-running' }])).toThrow(
      'faults[0] (x).params.pod: required when "when" is pod-running',
    );
    expect(() => parseCatalogue([{ ...good, extra: 1 }])).toThrow(
      'faults[0] (plugin-missing): unknown key "extra"',
    );
  });

  it('checks the lines of shell injections: placeholders, and a line for each choice', () => {
    const good = JSON.parse(JSON.stringify(FAULTS.find((f) => f.id === 'plugin-missing')));
    const drift = JSON.parse(JSON.stringify(FAULTS.find((f) => f.id === 'drift')));
    expect(() =>
      parseCatalogue([{ ...good, inject: { kind: 'shell', line: 'rm {nope}' } }]),
    ).toThrow('faults[0] (plugin-missing).inject.line: unknown placeholder {nope}');
    expect(() =>
      parseCatalogue([{ ...good, inject: { kind: 'shell', by: 'plugin', line: 'rm x' } }]),
    ).toThrow('faults[0] (plugin-missing).inject.by: only for lines by choice');
    expect(() => parseCatalogue([{ ...drift, inject: { ...drift.inject, by: 'pod' } }])).toThrow(
      'faults[0] (drift).inject.by: lines by choice need `by` naming a choice parameter',
    );
    expect(() =>
      parseCatalogue([{ ...drift, inject: { ...drift.inject, line: { address: 'x' } } }]),
    ).toThrow('faults[0] (drift).inject.line: one line for each value of what');
  });
});

describe('injectFault parameters', () => {
  const cases: Array<[string, string, unknown, string]> = [
    ['an unknown fault', 'no-such', {}, 'fault: no fault "no-such" (known: cache-corrupted, '],
    [
      'params not an object',
      'plugin-missing',
      'bridge',
      'params: expected an object of parameters, got "bridge"',
    ],
    [
      'an unknown parameter',
      'plugin-missing',
      { pluginn: 'bridge' },
      'params.pluginn: fault "plugin-missing" has no parameter pluginn (it takes: node, plugin)',
    ],
    ['a missing pod', 'cache-deleted', {}, 'params.pod: required (the pod to inject into)'],
    ['an unknown pod', 'cache-deleted', { pod: 'web-9' }, 'params.pod: pods "web-9" not found'],
    [
      'an unknown node',
      'node-reboot',
      { node: 'node-7' },
      'params.node: no node "node-7" (nodes: node-1)',
    ],
    [
      'an unknown plugin',
      'plugin-missing',
      { plugin: 'weave-net' },
      'params.plugin: unknown plugin "weave-net" (known: ',
    ],
    [
      'an unknown build',
      'old-plugin-in-chain',
      { build: 'v9' },
      'params.build: unknown build "v9" (known: v1.1.1, v1.6.2, v0.8.7, v0.7.6)',
    ],
    [
      'a bad version',
      'cni-version-unsupported',
      { cniVersion: 'latest' },
      'params.cniVersion: "latest" is not a version like 1.0.0',
    ],
    [
      'a bad count',
      'ipam-exhausted',
      { free: -1 },
      'params.free: expected a whole number >= 0, got -1',
    ],
    [
      'a non-string',
      'plugin-missing',
      { plugin: 3 },
      'params.plugin: expected a non-empty string, got 3',
    ],
    [
      'a plugin that is not installed',
      'plugin-missing',
      { plugin: 'vrf' },
      'params.plugin: /opt/cni/bin/vrf is not installed',
    ],
  ];
  for (const [what, id, params, error] of cases) {
    it(`names the field for ${what}`, () => {
      const c = oneNode({ plugins: ['bridge', 'host-local', 'loopback', 'portmap'] });
      const r = injectFault(c, id, params);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error.startsWith(error) ? error : !r.ok && r.error).toBe(error);
    });
  }

  it('needs the node when the cluster has several', () => {
    const c = new Cluster(undefined, { seed: 7 });
    expect(injectFault(c, 'node-reboot')).toEqual({
      ok: false,
      error: 'params.node: required: the cluster has 2 nodes (node-1, node-2)',
    });
    expect(injectFault(c, 'node-reboot', { node: 'node-2' }).ok).toBe(true);
  });

  it('checks the pod fits the moment', () => {
    const c = oneNode();
    c.createPod({ name: 'web-0' });
    expect(injectFault(c, 'drift', { pod: 'web-0' })).toEqual({
      ok: false,
      error: 'params.pod: pod default/web-0 is not Running; fault "drift" needs a running pod',
    });
    c.runFor(3_000_000);
    expect(injectFault(c, 'kubelet-restart-during-add', { pod: 'web-0' })).toEqual({
      ok: false,
      error:
        'params.pod: pod default/web-0 is already Running; fault "kubelet-restart-during-add" needs a pod being created',
    });
    expect(injectFault(c, 'drift', { pod: 'web-0', what: 'everything' })).toEqual({
      ok: false,
      error: 'params.what: "everything" is not one of address, route, host-veth, bridge',
    });
  });

  it('reports a moment that never comes', () => {
    const c = oneNode();
    c.createPod({ name: 'web-0' });
    expect(
      injectFault(c, 'containerd-restart-during-add', { pod: 'web-0', plugin: 'tuning' }),
    ).toEqual({
      ok: false,
      error:
        'params.pod: the moment never came: no tuning ADD for default/web-0 started within 300s',
    });
  });

  it('reports what a node lacks instead of throwing', () => {
    const c = oneNode();
    runningPod(c);
    expect(injectFault(c, 'conflist-missing').ok).toBe(true);
    expect(injectFault(c, 'conflist-malformed')).toEqual({
      ok: false,
      error: 'node node-1: containerd has no pod network loaded (CNI is not initialized there)',
    });
    expect(recoverFault(c, 'cache-corrupted', { pod: 'web-0' })).toEqual({
      ok: false,
      error: 'node node-1: containerd has no pod network loaded (CNI is not initialized there)',
    });
  });
});

describe('injected faults', () => {
  it('are a pure function of seed, actions and parameters', () => {
    const run = () => {
      const c = oneNode();
      c.createPod({ name: 'web-0' });
      injectFault(c, 'kubelet-restart-during-add', { pod: 'web-0' });
      injectFault(c, 'silent-ip-leak');
      c.createPod({ name: 'web-1' });
      c.runFor(30_000_000);
      recoverFault(c, 'silent-ip-leak');
      c.runFor(15_000_000);
      return JSON.stringify(c.events);
    };
    expect(run()).toBe(run());
  });
});

describe('faultProblem', () => {
  const view = (c: Cluster) => ({ spec: c.spec, state: c.sim.state });

  it('gives the reason injectFault would give, at any step, changing nothing', () => {
    const c = oneNode();
    expect(faultProblem(view(c), 'cache-corrupted', { pod: 'web-0' })).toBe(
      'params.pod: pods "web-0" not found',
    );
    c.createPod({ name: 'web-0' });
    expect(faultProblem(view(c), 'drift', { pod: 'web-0' })).toBe(
      'params.pod: pod default/web-0 is not Running; fault "drift" needs a running pod',
    );
    c.runFor(3_000_000);
    const running = view(c);
    expect(faultProblem(running, 'cache-corrupted', { pod: 'web-0' })).toBeNull();
    expect(injectFault(c, 'conflist-missing').ok).toBe(true);
    const events = c.events.length;
    expect(faultProblem(view(c), 'conflist-malformed')).toBe(
      'node node-1: containerd has no pod network loaded (CNI is not initialized there)',
    );
    expect(faultProblem(view(c), 'nope')).toMatch(/^fault: no fault "nope" \(known: /);
    expect(c.events.length).toBe(events);
    // An earlier step: the conflist was there.
    expect(faultProblem(running, 'conflist-malformed')).toBeNull();
  });

  it('agrees with injectFault for every fault on a node with a running pod', () => {
    for (const f of FAULTS) {
      if (f.when === 'during-add') continue;
      const c = clusterFor(f.id);
      runningPod(c);
      const params = f.when === 'any' ? { node: NODE } : { pod: 'web-0' };
      expect([f.id, faultProblem(view(c), f.id, params)]).toEqual([f.id, null]);
      const r = injectFault(c, f.id, params);
      expect([f.id, r.ok ? null : r.error]).toEqual([f.id, null]);
    }
  });
});

describe('challengeFaults', () => {
  it('lists the faults a challenge may hide, with parameters that have defaults', () => {
    const list = challengeFaults();
    const ids = list.map((f) => f.id);
    expect(ids).toContain('cache-corrupted');
    expect(ids).toContain('silent-ip-leak');
    expect(ids).toContain('netns-deleted');
    for (const selfHealing of ['node-reboot', 'kubelet-restart', 'containerd-restart'])
      expect(ids).not.toContain(selfHealing);
    for (const f of list) {
      for (const [name, p] of Object.entries(f.params)) {
        // Only the pod (and a node of a multi-node cluster) has to be chosen.
        if (p.default === undefined) expect([f.id, name, p.kind]).toEqual([f.id, name, name]);
      }
    }
  });

  it('each can be injected with its defaults and a pod or node', () => {
    for (const f of challengeFaults()) {
      // Network faults need their network (testing.ts clusterFor); the others take two nodes.
      const network = clusterFor(f.id, {}, 3);
      const c = network.spec.network ? network : new Cluster(undefined, { seed: 3 });
      const on = network.spec.network ? NODE : 'node-2';
      if (f.when === 'during-add') c.createPod({ name: 'web-0', node: on });
      else {
        c.createPod({ name: 'web-0', node: on });
        c.runFor(3_000_000);
      }
      const params = f.params['pod'] ? { pod: 'web-0' } : { node: on };
      const r = injectFault(c, f.id, params);
      expect([f.id, r.ok ? null : r.error]).toEqual([f.id, null]);
    }
  });
});
