import { describe, expect, it } from 'vitest';
import {
  emptyProgress,
  loadProgress,
  parseProgress,
  PROGRESS_DAMAGED_KEY,
  PROGRESS_KEY,
  saveProgress,
  serializeProgress,
  type Store,
} from './progress';

function memory(init: Record<string, string> = {}): Store & { data: Record<string, string> } {
  const data = { ...init };
  return {
    data,
    getItem: (k) => data[k] ?? null,
    setItem: (k, v) => {
      data[k] = v;
    },
    removeItem: (k) => {
      delete data[k];
    },
  };
}

const some = {
  ...emptyProgress(),
  lessons: {
    'add-step-by-step': { goals: ['running'], quiz: { q1: true }, hints: 1, done: false },
  },
  challenges: { 'node-notready': { attempts: 2, solved: true, best: 85, seed: 7 } },
};

describe('course progress', () => {
  it('round-trips through storage and through an exported file', () => {
    const s = memory();
    expect(saveProgress(s, some)).toBe(true);
    expect(loadProgress(s)).toEqual({ progress: some, problem: null });
    expect(parseProgress(serializeProgress(some))).toEqual({ ok: true, progress: some });
  });

  it("keeps the learner's quiz seed, and progress saved before it existed still loads", () => {
    const withSeed = { ...some, learner: 123456 };
    expect(parseProgress(serializeProgress(withSeed))).toEqual({ ok: true, progress: withSeed });
    expect(parseProgress(serializeProgress(some)).ok).toBe(true);
    expect(parseProgress(serializeProgress({ ...some, learner: 0 })).ok).toBe(false);
  });

  it('sets corrupted progress aside with a notice, and starts afresh', () => {
    const s = memory({ [PROGRESS_KEY]: '{"app":"cnisim-course","version":1,"lessons":' });
    const r = loadProgress(s);
    expect(r.progress).toEqual(emptyProgress());
    expect(r.problem).toMatch(/could not be read \(not valid JSON/);
    expect(s.data[PROGRESS_DAMAGED_KEY]).toBe('{"app":"cnisim-course","version":1,"lessons":');
    expect(s.data[PROGRESS_KEY]).toBeUndefined();
  });

  it('storage full: the notice says the damaged copy was not kept, and offers it', () => {
    const bad = '{"app":"cnisim-course","version":1,"lessons":';
    const s = memory({ [PROGRESS_KEY]: bad });
    s.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const r = loadProgress(s);
    expect(r.progress).toEqual(emptyProgress());
    expect(r.problem).not.toMatch(/set aside under|is kept/);
    expect(r.problem).toMatch(/could not be kept \(this browser's storage for this site is full\)/);
    expect(r.damaged).toBe(bad);
    // Nothing was copied, so nothing was deleted.
    expect(s.data).toEqual({ [PROGRESS_KEY]: bad });
  });

  it('refuses a file of the wrong shape, naming where', () => {
    const bad = { ...some, challenges: { x: { attempts: -1, solved: true } } };
    const r = parseProgress(JSON.stringify(bad));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^challenges\.x\.attempts: /);
    expect(parseProgress('[]')).toMatchObject({ ok: false });
    expect(parseProgress(JSON.stringify({ ...some, version: 2 }))).toMatchObject({ ok: false });
  });

  it('keeps a challenge attempt; progress saved before attempts were kept still loads', () => {
    const attempt = {
      seed: 7,
      opened: 1_764_680_000_000,
      steps: 12,
      hints: 2,
      refused: 1,
      status: 'open' as const,
    };
    const withAttempt = {
      ...some,
      challenges: { 'node-notready': { ...some.challenges['node-notready'], attempt } },
    };
    const s = memory();
    saveProgress(s, withAttempt);
    expect(loadProgress(s)).toEqual({ progress: withAttempt, problem: null });
    const solved = { ...attempt, status: 'solved' as const, ended: 1_764_680_600_000 };
    const p = { ...some, challenges: { x: { attempts: 1, solved: true, attempt: solved } } };
    expect(parseProgress(serializeProgress(p))).toEqual({ ok: true, progress: p });
    // Saved by the previous release: no attempt field.
    const old =
      '{"app":"cnisim-course","version":1,"lessons":{},"challenges":{"node-notready":{"attempts":2,"solved":false,"seed":7}}}';
    expect(loadProgress(memory({ [PROGRESS_KEY]: old }))).toEqual({
      progress: {
        ...emptyProgress(),
        challenges: { 'node-notready': { attempts: 2, solved: false, seed: 7 } },
      },
      problem: null,
    });
  });

  it('drops a tampered attempt with a notice, keeping the rest of the progress', () => {
    const attempt = { seed: 7, opened: 1, steps: 1, hints: -3, refused: 0, status: 'open' };
    const bad = {
      ...some,
      challenges: {
        'node-notready': { ...some.challenges['node-notready'], attempt },
        other: { attempts: 0, solved: false, attempt: { status: 'won', hints: 'all' } },
        fine: { attempts: 0, solved: false, attempt: { ...attempt, hints: 1 } },
      },
    };
    const text = JSON.stringify(bad);
    const s = memory({ [PROGRESS_KEY]: text });
    const r = loadProgress(s);
    expect(r.progress.lessons).toEqual(some.lessons);
    expect(r.progress.challenges).toEqual({
      'node-notready': some.challenges['node-notready'],
      other: { attempts: 0, solved: false },
      fine: { attempts: 0, solved: false, attempt: { ...attempt, hints: 1 } },
    });
    expect(r.problem).toMatch(
      /^A saved challenge attempt could not be read \(challenges\.node-notready\.attempt\.hints: .*; challenges\.other\.attempt\.\w+: .*\): it was left out, and the rest of your progress is kept\.$/,
    );
    expect(r.damaged).toBe(text);
    // Nothing set aside: the progress itself was read.
    expect(s.data[PROGRESS_DAMAGED_KEY]).toBeUndefined();
    // An attempt that is not an object at all, or has a field of its own, is dropped too.
    for (const attempt of [null, 'x', [], { ...bad.challenges.fine.attempt, extra: 1 }]) {
      const p = parseProgress(
        JSON.stringify({ ...some, challenges: { c: { attempts: 0, solved: false, attempt } } }),
      );
      expect(p).toMatchObject({ ok: true, progress: { challenges: { c: { solved: false } } } });
      if (p.ok)
        expect([p.progress.challenges['c']?.attempt, p.dropped?.length]).toEqual([undefined, 1]);
    }
    // The rest still has to be right: a bad attempt never excuses a bad challenge entry.
    const worse = { ...bad, challenges: { x: { attempts: -1, solved: true, attempt } } };
    expect(parseProgress(JSON.stringify(worse))).toMatchObject({ ok: false });
  });

  it('copes with no storage at all', () => {
    expect(loadProgress(null)).toEqual({ progress: emptyProgress(), problem: null });
    expect(saveProgress(null, some)).toBe(false);
  });
});
