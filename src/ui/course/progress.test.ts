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

  it('copes with no storage at all', () => {
    expect(loadProgress(null)).toEqual({ progress: emptyProgress(), problem: null });
    expect(saveProgress(null, some)).toBe(false);
  });
});
