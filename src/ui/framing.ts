/**
 * Clickjacking guard of the app (index.html). A foreign site could show the app in an invisible
 * frame and lure clicks onto "Keep as my sandbox" or a course reset; a meta CSP cannot set
 * `frame-ancestors`, and a static host may send no header (docs/embedding.md gives the header
 * for hosts that can). So the app checks for itself: framed by a page of another origin, it
 * shows only a link to open it in its own tab. embed.html is meant to be framed and does not
 * use this.
 */

/** The parts of `window` the check reads (a stand-in in tests). */
export interface FrameView {
  readonly self: unknown;
  readonly top: { readonly location: { readonly origin: string } } | null;
  readonly location: { readonly origin: string; readonly ancestorOrigins?: ArrayLike<string> };
}

/** Whether this window is inside a frame whose page (or any page above it) has another origin. */
export function framedByForeignPage(w: FrameView): boolean {
  if (w.top === null || w.top === w.self) return false;
  const own = w.location.origin;
  // Chromium and WebKit list every ancestor's origin; an opaque origin ("null") is foreign.
  const ancestors = w.location.ancestorOrigins;
  if (ancestors) for (let i = 0; i < ancestors.length; i++) if (ancestors[i] !== own) return true;
  try {
    // Reading a cross-origin window's location throws a SecurityError.
    return w.top.location.origin !== own || own === 'null';
  } catch {
    return true;
  }
}
