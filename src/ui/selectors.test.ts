import { describe, expect, it } from 'vitest';
import { cachedRead, shallow, update } from './app/state';
import { selectControls } from './selectors';

describe("a view's selector", () => {
  it('gives the same snapshot until one of its fields changes', () => {
    const read = cachedRead(selectControls, shallow);
    const a = read();
    update({ shareOpen: true }); // not a field of the controls
    expect(read()).toBe(a);
    update({ speed: a.speed === 5 ? 10 : 5 });
    const b = read();
    expect(b).not.toBe(a);
    expect(b.speed).not.toBe(a.speed);
    expect(read()).toBe(b);
  });

  it('without `shallow`, an object selector would be a new snapshot on every change', () => {
    const read = cachedRead(selectControls);
    const a = read();
    update({ shareOpen: false });
    expect(read()).not.toBe(a);
  });
});
