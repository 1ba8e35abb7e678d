import fc from 'fast-check';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { newSandbox } from '../../engine/session';
import {
  checksumOf,
  loadJob,
  saveSession,
  type SavedSession,
} from '../../engine/session/serialize';
import { drain } from '../../engine/session/session';
import { LIMITS, loadEngine } from '../../engine';
import { MAX_STEP, parseRoute, routeHash } from '../route';
import {
  decodeLink,
  encodeLink,
  fromBase64Url,
  inflateBounded,
  LINK_VERSION,
  MAX_BODY_BYTES,
  MAX_LINK_CHARS,
  toBase64Url,
  type SharedState,
} from './link';

/**
 * Links published by earlier codec versions, with what they must keep opening to. Never edit
 * one: a new codec version adds its own golden link.
 */
const GOLDEN: { version: number; payload: string; saved: Omit<SavedSession, 'checksum'> }[] = [
  {
    version: 1,
    payload:
      'AY2QsXKDMBBE_-VqmYCNA6FNmnSZtBkXsnSAJoAcSeCC0b9nZUKfTrO3-7R3K3n23tiJmpVa60YZqCE1GW_Gwz4StLDbTIVAgDU1lSA1zD6wS8nJavbUfOElRwYhCYcCyZvVr-9vn5CKPDuWZVZk-dOxpHiJgqQKoG5BoG7U1LuYqNqmLo5l4A-rAfuD3_l6yClGsaeq039jBWIXVJ-dt2he4b-BFx62peENTiqYV8hTF3pYXgRp07FPh2nrsrienytCedWz-vbzCPlUV6o8SyVrhRX1Y7wYvmOzBGpT1PPPzBPYgpzp-gfNDLhajL8',
    saved: {
      format: 'cnisim-session',
      version: 1,
      seed: 7,
      cluster: { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] },
      actions: [
        { step: 8, action: { do: 'createPod', name: 'web-0' } },
        { step: 73, action: { do: 'createPod', name: 'web-1' } },
      ],
      cursor: 78,
      level: 'cni',
      trace: { length: 79, digest: 'f841b567' },
    },
  },
];

function sign(body: Omit<SavedSession, 'checksum'>): SavedSession {
  return { ...body, checksum: checksumOf(body) };
}

function rawLink(version: number, json: unknown): string {
  const body = deflateSync(new TextEncoder().encode(JSON.stringify(json)));
  return toBase64Url(Uint8Array.of(version, ...body));
}

function errorOf(payload: string): string {
  const r = decodeLink(payload);
  return r.ok ? '(opened)' : r.error;
}

const golden = GOLDEN[0]!;

await loadEngine();

describe('share links', () => {
  it('round-trip a real sandbox: the link replays to the same step, trace and views', () => {
    const s = newSandbox({ seed: 3 });
    s.runUntil({ kind: 'pod-running' });
    s.perform({ do: 'hangPlugin', node: 'node-2', plugin: 'bridge', commands: ['ADD'] });
    s.perform({ do: 'createPod', name: 'web-1', node: 'node-2' });
    s.seek(s.cursor + 30);
    s.seek(s.cursor - 4);
    s.setLevel('runtime');
    const saved = saveSession(s);
    const payload = encodeLink({ saved, views: { left: 'topology', right: 'journal' } });
    expect(payload).not.toBeNull();
    expect(payload!.length).toBeLessThan(600);
    const r = decodeLink(payload!);
    expect(r).toEqual({
      ok: true,
      state: { saved, views: { left: 'topology', right: 'journal' } },
    });
    if (!r.ok) return;
    const copy = newSandbox();
    const report = drain(loadJob(copy, r.state.saved));
    expect(report.warnings.filter((w) => w.includes('replays'))).toEqual([]);
    expect(copy.cursor).toBe(s.cursor);
    expect(copy.level).toBe('runtime');
    expect(copy.events.slice(0, s.cursor + 1).map((e) => e.summary)).toEqual(
      s.events.slice(0, s.cursor + 1).map((e) => e.summary),
    );
  });

  it('round-trip any valid state (property, fixed seed)', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
    const action = fc.oneof(
      fc.record({ do: fc.constant('createPod' as const), name }),
      fc.record({ do: fc.constant('deletePod' as const), pod: name }),
      fc.record({ do: fc.constant('restartKubelet' as const), node: fc.constant('node-1') }),
      fc.record({
        do: fc.constant('writeFile' as const),
        node: fc.constant('node-1'),
        path: fc.string({ maxLength: 30 }).map((p) => `/etc/${p}`),
        data: fc.string({ unit: 'grapheme', maxLength: 200 }),
      }),
      fc.record({
        do: fc.constant('injectFault' as const),
        fault: fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,20}$/),
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.array(fc.tuple(fc.nat(5000), action), { maxLength: 30 }),
        fc.integer({ min: -1, max: 100_000 }),
        fc.constantFrom('cluster', 'runtime', 'cni', 'kernel'),
        fc.record(
          { left: fc.constantFrom('trace', 'sequence'), right: fc.constantFrom('pods', 'files') },
          { requiredKeys: [] },
        ),
        (seed, steps, cursor, level, views) => {
          const actions = steps
            .map(([step, a]) => ({ step, action: a }))
            .sort((a, b) => a.step - b.step);
          const saved = sign({
            format: 'cnisim-session',
            version: 1,
            seed,
            cluster: { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] },
            actions,
            cursor,
            level,
            trace: { length: cursor + 1, digest: '0000abcd' },
          });
          const state: SharedState = { saved, views };
          const payload = encodeLink(state);
          expect(payload).not.toBeNull();
          expect(decodeLink(payload!)).toEqual({ ok: true, state });
        },
      ),
      { seed: 20261129, numRuns: 150 },
    );
  });

  it('links made by every published codec version keep opening', () => {
    expect(LINK_VERSION).toBeGreaterThanOrEqual(GOLDEN.length);
    for (const g of GOLDEN) {
      expect(fromBase64Url(g.payload)![0]).toBe(g.version);
      const r = decodeLink(g.payload);
      expect(r).toEqual({
        ok: true,
        state: { saved: sign(g.saved), views: { left: 'sequence', right: 'files' } },
      });
    }
  });

  it('a tampered link is refused by its checksum, with a clear message', () => {
    const json = { session: sign(golden.saved), views: {} };
    json.session.seed = 8;
    expect(errorOf(rawLink(1, json))).toBe(
      'This link cannot be opened: checksum: the saved state does not match its checksum (it was damaged or edited).',
    );
  });

  it('a truncated or garbled link is refused, never throws', () => {
    for (const cut of [1, 2, 10, 40, golden.payload.length - 3]) {
      expect(errorOf(golden.payload.slice(0, cut))).toMatch(/^This link cannot be opened: /);
    }
    expect(errorOf('')).toBe('This link cannot be opened: it is empty.');
    expect(errorOf('not a link!')).toBe('This link cannot be opened: it is damaged or cut short.');
    fc.assert(
      fc.property(fc.nat(golden.payload.length - 1), fc.constantFrom(...'AZaz09-_'), (at, ch) => {
        const p = golden.payload.slice(0, at) + ch + golden.payload.slice(at + 1);
        const r = decodeLink(p);
        // Either the change did not matter (the same bits), or it was caught.
        if (r.ok) expect(r.state.saved).toEqual(sign(golden.saved));
        else expect(r.error).toMatch(/^This link cannot be opened: /);
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('an oversized link is refused before it is decoded', () => {
    expect(errorOf('A'.repeat(MAX_LINK_CHARS + 1))).toBe(
      'This link cannot be opened: it is too long.',
    );
  });

  it('a decompression bomb is stopped at the size limit', () => {
    const bomb = deflateSync(new Uint8Array(16 * MAX_BODY_BYTES), { level: 9 });
    const payload = toBase64Url(Uint8Array.of(1, ...bomb));
    expect(payload.length).toBeLessThan(MAX_LINK_CHARS);
    expect(errorOf(payload)).toBe('This link cannot be opened: it expands to more than 1024 KiB.');
    expect(inflateBounded(bomb, 1000)).toBe('too-large');
  });

  it('an unknown or newer codec version is named, not guessed at', () => {
    expect(errorOf(rawLink(9, {}))).toBe(
      'This link cannot be opened: it was made by a newer version of cnisim (link format 9).',
    );
    expect(errorOf(rawLink(0, {}))).toBe('This link cannot be opened: unknown link format 0.');
  });

  it('content that is not a sandbox is refused field by field, markup included', () => {
    expect(errorOf(rawLink(1, { session: 1, views: {}, extra: true }))).toBe(
      'This link cannot be opened: it does not hold a cnisim sandbox.',
    );
    const evil = sign({
      ...golden.saved,
      actions: [{ step: 1, action: { do: 'createPod', name: '<img src=x onerror=alert(1)>' } }],
    });
    expect(errorOf(rawLink(1, { session: evil }))).toMatch(
      /^This link cannot be opened: actions\[0\]\.action\.name: expected a pod name/,
    );
    expect(errorOf(rawLink(1, { session: sign(golden.saved), views: { left: '<b>' } }))).toBe(
      'This link cannot be opened: it does not hold a cnisim sandbox.',
    );
  });

  it('an encoding that would be too long gives no link', () => {
    // Pseudo-random text (a fixed xorshift): DEFLATE cannot shrink it much.
    let x = 2463534242;
    const data = Array.from({ length: 60_000 }, () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return String.fromCharCode(33 + ((x >>> 0) % 90));
    });
    const saved = sign({
      ...golden.saved,
      actions: [
        { step: 1, action: { do: 'writeFile', node: 'node-1', path: '/x', data: data.join('') } },
      ],
    });
    expect(encodeLink({ saved, views: {} })).toBeNull();
  });
});

describe('routes', () => {
  it('parse and build the hash routes', () => {
    expect(parseRoute('')).toEqual({ kind: 'sandbox' });
    expect(parseRoute('#/s/AbC')).toEqual({ kind: 'link', payload: 'AbC' });
    expect(parseRoute('#/lesson/first-pod')).toEqual({ kind: 'lesson', id: 'first-pod' });
    expect(parseRoute('#/challenge/leak?seed=12')).toEqual({
      kind: 'challenge',
      id: 'leak',
      seed: 12,
    });
    expect(parseRoute('#/challenge/leak?seed=x')).toEqual({
      kind: 'challenge',
      id: 'leak',
      seed: null,
    });
    expect(parseRoute('#/lesson/<script>')).toEqual({ kind: 'sandbox' });
    // Steps, numbered as on screen; anything but a step number is dropped, not guessed at.
    expect(parseRoute('#/lesson/first-pod?step=12')).toEqual({
      kind: 'lesson',
      id: 'first-pod',
      step: 12,
    });
    expect(parseRoute('#/scenario/silent-ip-leak?step=0')).toEqual({
      kind: 'scenario',
      name: 'silent-ip-leak',
      step: 0,
    });
    // Up to the session's own cursor limit, and not beyond.
    expect(MAX_STEP).toBe(LIMITS.cursor);
    expect(parseRoute('#/scenario/happy-path?step=2000000')).toEqual({
      kind: 'scenario',
      name: 'happy-path',
      step: 2_000_000,
    });
    for (const bad of ['-1', '1e3', '12abc', '99999999', '2000001', ''])
      expect(parseRoute(`#/scenario/happy-path?step=${bad}`)).toEqual({
        kind: 'scenario',
        name: 'happy-path',
      });
    expect(parseRoute('#/scenario/../etc')).toEqual({ kind: 'sandbox' });
    for (const r of [
      { kind: 'link', payload: 'AbC' },
      { kind: 'lesson', id: 'a-1' },
      { kind: 'lesson', id: 'a-1', step: 7 },
      { kind: 'challenge', id: 'b', seed: 3 },
      { kind: 'scenario', name: 'happy-path' },
      { kind: 'scenario', name: 'happy-path', step: 40 },
    ] as const) {
      expect(parseRoute(routeHash(r))).toEqual(r);
    }
  });
});
