import { describe, expect, it } from 'vitest';
import { shellScope } from './scope';

describe('shell scopes', () => {
  it('keeps the sandbox, each lesson, each challenge and other sessions apart', () => {
    const a = {} as never;
    const b = {} as never;
    const own = shellScope({ source: 'own', course: null, session: a });
    expect(own).toBe(shellScope({ source: 'own', course: null, session: b }));
    const lesson = shellScope({
      source: 'course',
      course: { kind: 'lesson', id: 'chaining' },
      session: a,
    });
    expect(lesson).not.toBe(own);
    expect(lesson).not.toBe(
      shellScope({ source: 'course', course: { kind: 'lesson', id: 'bridge' }, session: a }),
    );
    expect(
      shellScope({ source: 'course', course: { kind: 'challenge', id: 'x', seed: 3 }, session: a }),
    ).not.toBe(lesson);
    const link = shellScope({ source: 'link', course: null, session: a });
    expect(link).not.toBe(own);
    expect(link).toBe(shellScope({ source: 'link', course: null, session: a }));
    expect(link).not.toBe(shellScope({ source: 'link', course: null, session: b }));
  });
});
