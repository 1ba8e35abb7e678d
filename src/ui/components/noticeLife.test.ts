import { describe, expect, it } from 'vitest';
import type { Notice } from '../store';
import { INFO_MS, lifetime, shown, SHOWN, WARNING_MS } from './noticeLife';

const n = (id: number, kind: Notice['kind'], extra: Partial<Notice> = {}): Notice => ({
  id,
  kind,
  text: `notice ${id}`,
  ...extra,
});

describe('notices', () => {
  it('info and warnings expire, errors and offered files stay', () => {
    expect(lifetime(n(1, 'info'))).toBe(INFO_MS);
    expect(lifetime(n(2, 'warning'))).toBe(WARNING_MS);
    expect(INFO_MS).toBeLessThan(WARNING_MS);
    expect(lifetime(n(3, 'error'))).toBeNull();
    expect(
      lifetime(n(4, 'warning', { download: { label: 'Download', name: 'x.json', text: '{}' } })),
    ).toBeNull();
  });

  it('at most three show, the newest', () => {
    const all = [1, 2, 3, 4, 5].map((i) => n(i, 'info'));
    expect(SHOWN).toBe(3);
    expect(shown(all).map((x) => x.id)).toEqual([3, 4, 5]);
    expect(shown(all.slice(0, 2)).map((x) => x.id)).toEqual([1, 2]);
  });
});
