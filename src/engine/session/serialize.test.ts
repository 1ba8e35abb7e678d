import { describe, expect, it } from 'vitest';
import type { ClusterSpec } from '../cluster/cluster';
import { newSandbox } from './index';
import {
  actionProblems,
  checksumOf,
  loadJob,
  parseSavedSession,
  saveSession,
  serializeSession,
  type SavedSession,
} from './serialize';
import { Session, drain } from './session';

const ONE_NODE: ClusterSpec = { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] };

function sample(): Session {
  const s = newSandbox({ cluster: ONE_NODE, seed: 4 });
  s.runUntil({ kind: 'pod-running' });
  s.perform({ do: 'writeFile', node: 'node-1', path: '/tmp/note', data: 'a "quoted"\r\nline' });
  s.perform({ do: 'createPod', name: 'web-1' });
  s.seek(s.cursor + 12);
  s.setLevel('cni');
  return s;
}

/** A saved session with a change, re-signed (what a newer writer or a careful editor makes). */
function resigned(saved: SavedSession, change: (s: SavedSession) => void): SavedSession {
  const copy = structuredClone(saved);
  change(copy);
  const { checksum: _, ...body } = copy;
  return { ...copy, checksum: checksumOf(body) };
}

function errorsOf(input: unknown): string[] {
  const r = parseSavedSession(input);
  return r.ok ? [] : r.errors;
}

describe('saving and loading a session', () => {
  it('round-trips: the loaded session replays to the same step, trace and level', () => {
    const s = sample();
    const text = serializeSession(s);
    const parsed = parseSavedSession(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.saved).toMatchObject({
      format: 'cnisim-session',
      version: 1,
      seed: 4,
      cursor: s.cursor,
      level: 'cni',
    });
    const loaded = newSandbox();
    const report = drain(loadJob(loaded, parsed.saved));
    expect(report.warnings).toEqual([]);
    expect(loaded.cursor).toBe(s.cursor);
    expect(loaded.level).toBe('cni');
    expect(loaded.revision).toBe(1);
    expect(JSON.stringify(loaded.events.slice(0, s.cursor + 1))).toBe(
      JSON.stringify(s.events.slice(0, s.cursor + 1)),
    );
    expect(loaded.loggedActions()).toEqual(s.loggedActions());
  });

  it('keys in another order are the same save (the checksum is over canonical JSON)', () => {
    const saved = saveSession(sample());
    const reordered = Object.fromEntries(Object.entries(saved).reverse());
    expect(parseSavedSession(JSON.stringify(reordered)).ok).toBe(true);
  });

  it('detects damage: truncated text, a changed byte, a wrong type, an unknown field', () => {
    const text = serializeSession(sample());
    expect(errorsOf(text.slice(0, text.length - 20))[0]).toMatch(/^not JSON: /);
    expect(errorsOf('')[0]).toMatch(/^not JSON/);
    expect(errorsOf('[]')).toEqual(['expected a saved cnisim session (a JSON object)']);
    expect(errorsOf('{"format":"something"}')).toEqual(['format: expected "cnisim-session"']);

    const flipped = text.replace('"cursor":', '"cursor":1');
    expect(errorsOf(flipped)).toEqual([
      'checksum: the saved state does not match its checksum (it was damaged or edited)',
    ]);
    const saved = JSON.parse(text) as SavedSession;
    expect(errorsOf({ ...saved, seed: 'x' })).toEqual(['seed: expected a number, got "x"']);
    expect(errorsOf({ ...saved, extra: 1 })).toEqual(['(top level): unknown field(s) extra']);
    const badAction = structuredClone(saved);
    (badAction.actions[1]!.action as { path: string }).path = 'relative';
    expect(errorsOf(badAction)).toEqual(['actions[1].action.path: expected an absolute path']);
    const badCidr = structuredClone(saved);
    badCidr.cluster.nodes[0]!.podCIDR = '10.244.1.0';
    expect(errorsOf(badCidr)).toEqual([
      'cluster.nodes[0].podCIDR: expected a CIDR like 10.244.1.0/24',
    ]);
  });

  it('refuses a newer version, actions out of order, duplicate nodes', () => {
    const saved = saveSession(sample());
    expect(errorsOf({ ...saved, version: 2 })).toEqual([
      'version: 2 was saved by a newer cnisim (this one reads version 1)',
    ]);
    const swapped = resigned(saved, (s) => s.actions.reverse());
    expect(errorsOf(swapped)[0]).toMatch(
      /^actions\[1\]\.step: \d+ is before the previous action's step \d+$/,
    );
    const twice = resigned(saved, (s) => s.cluster.nodes.push({ ...s.cluster.nodes[0]! }));
    expect(errorsOf(twice)).toEqual(['cluster.nodes[1].name: duplicate node "node-1"']);
  });

  it('warns, and still loads, when the replay differs from what was saved', () => {
    const saved = saveSession(sample());
    const other = resigned(saved, (s) => {
      s.trace.digest = '00000000';
    });
    const r = parseSavedSession(other);
    expect(r.ok).toBe(true);
    const s = newSandbox();
    const report = drain(loadJob(s, (r as { saved: SavedSession }).saved));
    expect(report.warnings).toEqual([
      'this version of cnisim replays the saved actions differently: the steps may not match what you saw',
    ]);
    expect(s.cursor).toBe(saved.cursor);
  });

  it('reports actions the cluster refused during the replay', () => {
    const saved = resigned(saveSession(sample()), (s) => {
      s.actions.push({ step: s.cursor + 1, action: { do: 'deletePod', pod: 'ghost' } });
    });
    const r = parseSavedSession(saved);
    expect(r.ok).toBe(true);
    const s = newSandbox();
    const report = drain(loadJob(s, (r as { saved: SavedSession }).saved));
    expect(report.warnings).toContain(
      `deletePod at step ${saved.cursor + 1}: pods "ghost" not found`,
    );
  });

  it('validates actions coming from a form', () => {
    expect(actionProblems({ do: 'createPod', name: 'web-1' })).toEqual([]);
    expect(actionProblems({ do: 'createPod', name: 'Web_1' })).toEqual([
      'name: expected a pod name or namespace/name (lower-case letters, digits, - and .)',
    ]);
    expect(actionProblems({ do: 'scale', deployment: 'web', replicas: 5000 })).toEqual([
      'replicas: expected at most 250, got 5000',
    ]);
    expect(actionProblems({ do: 'explode' })).toEqual([
      expect.stringMatching(/^do: expected one of createPod, deletePod, /),
    ]);
  });
});
