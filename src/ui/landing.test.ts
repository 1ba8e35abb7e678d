import { describe, expect, it } from 'vitest';
import { SAVED_SANDBOX_KEY } from './landing-fetch';
import { STORAGE_KEY } from './store';

describe('the landing', () => {
  it('looks for the saved sandbox under the key the store saves it under', () => {
    expect(SAVED_SANDBOX_KEY).toBe(STORAGE_KEY);
  });
});
