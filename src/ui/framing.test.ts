import { describe, expect, it } from 'vitest';
import { framedByForeignPage, type FrameView } from './framing';

const APP = 'https://example.org';

function view(top: 'self' | 'same' | 'foreign' | null, ancestors?: string[]): FrameView {
  const self = {};
  const crossOrigin = {
    get location(): { origin: string } {
      throw new DOMException(
        'Blocked a frame from accessing a cross-origin frame.',
        'SecurityError',
      );
    },
  };
  return {
    self,
    top:
      top === 'self'
        ? (self as FrameView['top'])
        : top === 'same'
          ? { location: { origin: APP } }
          : top === 'foreign'
            ? crossOrigin
            : null,
    location: { origin: APP, ...(ancestors ? { ancestorOrigins: ancestors } : {}) },
  };
}

describe('framed by a foreign page', () => {
  it('not in a frame, or in a frame of the same origin: the app as usual', () => {
    expect(framedByForeignPage(view('self'))).toBe(false);
    expect(framedByForeignPage(view(null))).toBe(false);
    expect(framedByForeignPage(view('same'))).toBe(false);
    expect(framedByForeignPage(view('same', [APP]))).toBe(false);
  });

  it('in a frame of another origin (its location unreadable), or below one', () => {
    expect(framedByForeignPage(view('foreign'))).toBe(true);
    expect(framedByForeignPage(view('foreign', ['https://evil.example']))).toBe(true);
    // A page of the app's origin framed by a foreign one, framing the app.
    expect(framedByForeignPage(view('same', [APP, 'https://evil.example']))).toBe(true);
    // A sandboxed frame has an opaque origin.
    expect(framedByForeignPage(view('same', ['null']))).toBe(true);
  });

  it('the real window of a test is not framed', () => {
    const w = { self: globalThis, top: globalThis, location: { origin: APP } } as FrameView;
    expect(framedByForeignPage(w)).toBe(false);
  });
});
