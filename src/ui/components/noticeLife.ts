import type { Notice } from '../store';

/** How long an info notice stays, in ms (long enough to read twice). */
export const INFO_MS = 8_000;
/** How long a warning stays, in ms. */
export const WARNING_MS = 20_000;
/** At most this many notices are shown: the newest (the store keeps a few more). */
export const SHOWN = 3;

/**
 * How long a notice stays before it goes by itself, or null: until dismissed. Errors stay, and
 * so does a notice that offers a file (a damaged save the user may want to download). The
 * timer stops while the pointer is on the notices or the focus is in them.
 */
export function lifetime(n: Notice): number | null {
  if (n.kind === 'error' || n.download) return null;
  return n.kind === 'info' ? INFO_MS : WARNING_MS;
}

/** The notices shown: the newest SHOWN, oldest first. */
export function shown(notices: readonly Notice[]): readonly Notice[] {
  return notices.slice(-SHOWN);
}
