/**
 * A request to put the keyboard focus in the shown node's terminal: the Shell tab was clicked
 * (App.tsx). Kept apart from ShellView (a lazy chunk) so that the app asks without loading it;
 * the terminal takes the focus when it is shown, or at once when it already is.
 */
let pending = false;
const listeners = new Set<() => void>();

/** Asks for the focus in the terminal (now if one is shown, else when it is). */
export function focusTerminal(): void {
  pending = true;
  for (const l of listeners) l();
}

/** Whether the focus was asked for and not yet given (and forgets the request). */
export function takeFocusRequest(): boolean {
  const p = pending;
  pending = false;
  return p;
}

/** Calls `f` at each request while a terminal is shown; returns the unsubscribe. */
export function onFocusRequest(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}
