/**
 * Installing another containerd release from a session (the Actions panel's release picker):
 * the daemon that runs keeps its release until containerd restarts, then the new one runs.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterSpec } from '../cluster/cluster';
import * as vfs from '../fs/vfs';
import { resultsDir } from '../libcni/cache';
import { newSandbox } from './index';
import { actionProblems, loadJob, parseSavedSession, serializeSession } from './serialize';
import { SessionError, drain, type Session } from './session';
import { describeAction } from './actions';
import { clusterReport, formatReport } from '../scenario/report';
import { runScenario } from '../scenario/run';
import { parseScenario } from '../scenario/schema';
import { tvalues } from '../state/table';

const NODE = 'node-1';
const ONE_NODE: ClusterSpec = { nodes: [{ name: NODE, podCIDR: '10.244.1.0/24' }] };

function sh(s: Session, line: string): string {
  return s.perform({ do: 'shell', node: NODE, line }).output?.shell?.stdout ?? '';
}

function containerd(s: Session) {
  return s.stateAt(s.cursor).nodes[NODE]!.containerd!;
}

/**
 * Whether libcni cached the netns path with a pod's result: libcni v1.2 (containerd 2.x) does,
 * v1.1 (containerd 1.6, 1.7) does not (libcni api.go cacheAdd, `NetNS` in cachedInfo from v1.2).
 */
function cachesNetns(s: Session, pod: string): boolean {
  const st = s.stateAt(s.cursor);
  const sb = tvalues(st.nodes[NODE]!.containerd!.sandboxes).find((x) => x.pod.name === pod)!;
  const dir = resultsDir();
  const file = vfs
    .namesIn(st.nodes[NODE]!.fs, dir)
    .find((f) => f.includes(sb.id) && f.endsWith('eth0'))!;
  return 'netns' in JSON.parse(vfs.readFile(st.nodes[NODE]!.fs, vfs.joinPath(dir, file)));
}

function runPod(s: Session, name: string): void {
  s.perform({ do: 'createPod', name });
  expect(s.runUntil({ kind: 'pod-running', pod: name })).not.toBeNull();
}

describe('setContainerdVersion', () => {
  it('installs a release that runs only from the next containerd restart', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    expect(s.runUntil({ kind: 'pod-running' })).not.toBeNull();
    const r = s.perform({ do: 'setContainerdVersion', node: NODE, version: '2.0.0' });
    expect(r.error).toBeNull();
    expect(s.events[r.first!]!.summary).toBe(
      "containerd 2.0.0 installed: it runs from containerd's next start (1.7.22 runs until then)",
    );

    // Before the restart: the daemon runs 1.7.22 (crictl asks it), with libcni v1.1; the binary
    // on disk is 2.0.0 already, and says so.
    expect(containerd(s)).toMatchObject({
      installed: '2.0.0',
      settings: { version: '1.7.22', libcni: '1.1' },
    });
    expect(sh(s, 'crictl version')).toContain('RuntimeVersion:  v1.7.22\n');
    expect(sh(s, 'containerd --version')).toBe(
      'containerd github.com/containerd/containerd/v2 v2.0.0 207ad711eabd375a01713109a8a197d197ff6542\n',
    );
    runPod(s, 'web-1');
    expect(cachesNetns(s, 'web-1')).toBe(false);

    // The restart runs 2.0.0: libcni v1.2 from then on.
    s.perform({ do: 'restartContainerd', node: NODE });
    const started = s.runUntil({
      kind: 'predicate',
      test: (e) => e.source === 'systemd' && e.target === 'containerd',
    });
    expect(started).not.toBeNull();
    expect(s.events[started!]!.summary).toMatch(
      /^containerd 2\.0\.0 started \(pid \d+\), was 1\.7\.22$/,
    );
    expect(containerd(s).installed).toBeUndefined();
    expect(containerd(s).settings).toMatchObject({ version: '2.0.0', libcni: '1.2' });
    expect(sh(s, 'crictl version')).toContain('RuntimeVersion:  v2.0.0\n');
    expect(sh(s, 'containerd --version')).toContain(' v2.0.0 ');
    runPod(s, 'web-2');
    expect(cachesNetns(s, 'web-2')).toBe(true);
  });

  it('installing the release that runs cancels a pending one', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    s.runUntil({ kind: 'pod-running' });
    s.perform({ do: 'setContainerdVersion', node: NODE, version: '1.6.8' });
    expect(containerd(s).installed).toBe('1.6.8');
    s.perform({ do: 'setContainerdVersion', node: NODE, version: 'v1.7.22' });
    expect(containerd(s).installed).toBeUndefined();
    s.perform({ do: 'restartContainerd', node: NODE });
    s.runUntil({
      kind: 'predicate',
      test: (e) => e.source === 'systemd' && e.target === 'containerd',
    });
    expect(containerd(s).settings.version).toBe('1.7.22');
  });

  it('a reboot also starts the installed release', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    s.runUntil({ kind: 'pod-running' });
    s.perform({ do: 'setContainerdVersion', node: NODE, version: '1.6.20' });
    s.perform({ do: 'reboot', node: NODE });
    s.runUntil({
      kind: 'predicate',
      test: (e) => e.source === 'systemd' && e.target === 'containerd',
    });
    expect(containerd(s).settings).toMatchObject({ version: '1.6.20', libcni: '1.1' });
  });

  it('refuses a number that is no release with the list of releases and ranges', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    s.runUntil({ kind: 'pod-running' });
    const length = s.events.length;
    const bad = { do: 'setContainerdVersion', node: NODE, version: '1.8.0' } as const;
    expect(actionProblems(bad)).toEqual([
      expect.stringMatching(
        /^version: unknown containerd release "1\.8\.0": expected a release number like "1\.7\.22" \(releases 1\.6\.0–1\.6\.39, .*behaviour ranges 1\.6\.0–1\.6\.8, /,
      ),
    ]);
    expect(() => s.perform(bad)).toThrow(SessionError);
    expect(() => s.perform(bad)).toThrow(/unknown containerd release "1\.8\.0"/);
    expect(s.events.length).toBe(length);
    expect(actionProblems({ do: 'setContainerdVersion', node: NODE, version: '2.1.0' })).toEqual(
      [],
    );
  });

  it('is described, saved and replayed with the session', () => {
    const a = { do: 'setContainerdVersion', node: NODE, version: '2.0.0' } as const;
    expect(describeAction(a)).toBe(
      'install containerd 2.0.0 on node-1 (runs from the next containerd restart)',
    );
    const s = newSandbox({ cluster: ONE_NODE, seed: 3 });
    s.runUntil({ kind: 'pod-running' });
    s.perform(a);
    s.perform({ do: 'restartContainerd', node: NODE });
    s.seek(s.cursor + 40);
    const parsed = parseSavedSession(serializeSession(s));
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    expect(parsed.saved.actions.map((x) => x.action.do)).toContain('setContainerdVersion');
    const loaded = newSandbox();
    expect(drain(loadJob(loaded, parsed.saved)).warnings).toEqual([]);
    expect(loaded.cursor).toBe(s.cursor);
    expect(JSON.stringify(loaded.events.slice(0, s.cursor + 1))).toBe(
      JSON.stringify(s.events.slice(0, s.cursor + 1)),
    );
    expect(loaded.stateAt(loaded.cursor).nodes[NODE]!.containerd!.settings.version).toBe('2.0.0');
  });
});

describe('setContainerdVersion in a scenario', () => {
  const scenario = (restart: boolean) => ({
    version: 1,
    nodes: [{ name: NODE, podCIDR: '10.244.1.0/24' }],
    actions: [
      { do: 'setContainerdVersion', version: '2.1.0' },
      ...(restart ? [{ do: 'restartContainerd' }] : []),
      { do: 'wait', for: '5s' },
    ],
  });

  it('runs the installed release after a restart, and reports it as installed before', () => {
    const before = runScenario(scenario(false));
    if (!before.ok) throw new Error(before.errors.join('; '));
    const r0 = clusterReport(before.cluster);
    expect(r0.nodes[0]!.containerd).toMatchObject({ version: '1.7.22', installed: '2.1.0' });
    expect(formatReport(before.summary, r0, before.cluster)).toContain(
      'up (pid 1000) (2.1.0 installed: runs from the next start), kubelet',
    );
    const after = runScenario(scenario(true));
    if (!after.ok) throw new Error(after.errors.join('; '));
    const r1 = clusterReport(after.cluster).nodes[0]!.containerd;
    expect(r1).toMatchObject({ version: '2.1.0', range: '2.0.1+', libcni: '1.2', up: true });
    expect(r1.installed).toBeUndefined();
  });

  it('refuses a bad release in the scenario with the release error', () => {
    const bad = parseScenario({
      version: 1,
      nodes: [{ name: NODE, podCIDR: '10.244.1.0/24' }],
      actions: [{ do: 'setContainerdVersion', version: '1.7.99' }],
    });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors.join('\n')).toContain('unknown containerd release "1.7.99"');
  });
});
