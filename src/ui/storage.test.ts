import { describe, expect, it } from 'vitest';
import { damagedCopyText, isQuotaError, setAside, tryWrite, type Writable } from './storage';

/** A storage of `room` characters at most, which throws as browsers do when full. */
function limited(room: number, error: () => unknown, init: Record<string, string> = {}) {
  const data: Record<string, string> = { ...init };
  const used = () => Object.entries(data).reduce((n, [k, v]) => n + k.length + v.length, 0);
  const store: Writable = {
    setItem(k, v) {
      const before = data[k];
      data[k] = v;
      if (used() > room) {
        if (before === undefined) delete data[k];
        else data[k] = before;
        throw error();
      }
    },
    removeItem(k) {
      delete data[k];
    },
  };
  return { data, store };
}

const quota = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

describe('storage quota', () => {
  it('recognises quota errors of every browser, and nothing else', () => {
    expect(isQuotaError(quota())).toBe(true);
    expect(quota().code).toBe(22);
    expect(isQuotaError({ name: 'NS_ERROR_DOM_QUOTA_REACHED', code: 1014 })).toBe(true);
    expect(isQuotaError({ name: 'Error', code: 22 })).toBe(true);
    expect(isQuotaError(new DOMException('denied', 'SecurityError'))).toBe(false);
    expect(isQuotaError(new Error('x'))).toBe(false);
    expect(isQuotaError(null)).toBe(false);
    expect(isQuotaError('QuotaExceededError')).toBe(false);
  });

  it('tells a full storage from one that refuses', () => {
    expect(tryWrite(limited(100, quota).store, 'k', 'v')).toBe('ok');
    expect(tryWrite(limited(5, quota).store, 'k', 'a long value')).toBe('full');
    const denied = () => new DOMException('denied', 'SecurityError');
    expect(tryWrite(limited(5, denied).store, 'k', 'a long value')).toBe('refused');
    expect(tryWrite(null, 'k', 'v')).toBe('refused');
  });

  it('sets a damaged copy aside when there is room, and says where', () => {
    const { data, store } = limited(1000, quota, { save: 'damaged{' });
    const r = setAside(store, 'save', 'save.damaged', 'damaged{');
    expect(r).toBe('ok');
    expect(data).toEqual({ 'save.damaged': 'damaged{' });
    expect(damagedCopyText(r, 'save.damaged')).toMatch(
      /is kept in this browser's storage under "save\.damaged"/,
    );
  });

  it('when storage is full, keeps the original, and never claims the copy was kept', () => {
    const text = 'x'.repeat(60);
    const { data, store } = limited(80, quota, { save: text });
    const r = setAside(store, 'save', 'save.damaged', text);
    expect(r).toBe('full');
    expect(data).toEqual({ save: text });
    const said = damagedCopyText(r, 'save.damaged');
    expect(said).not.toMatch(/is kept|set aside under/);
    expect(said).toMatch(/could not be kept \(this browser's storage for this site is full\)/);
    expect(said).toMatch(/download it/);
    expect(damagedCopyText('refused', 'k')).toMatch(/could not be kept \(this browser refused/);
  });
});
