/**
 * Whether a lesson's handout is prepared, shown and about to be printed (a small store in the
 * course chunk; the handout itself is a further lazy chunk, with Mermaid).
 */
import { create } from 'zustand';

export interface HandoutState {
  /** The lesson whose handout is mounted (drawn, ready for any print), or null. */
  lessonId: string | null;
  /** The handout is on screen instead of the app. */
  preview: boolean;
  /** Print as soon as every diagram is drawn. */
  printWhenReady: boolean;
  /** Every diagram is drawn. */
  ready: boolean;
}

export const useHandout = create<HandoutState>(() => ({
  lessonId: null,
  preview: false,
  printWhenReady: false,
  ready: false,
}));

/** Mounts a lesson's handout (it draws its diagrams when the browser is idle). */
export function prepareHandout(lessonId: string): void {
  if (useHandout.getState().lessonId !== lessonId)
    useHandout.setState({ lessonId, preview: false, printWhenReady: false, ready: false });
}

/** Prints a lesson's handout once it is drawn; `preview` shows it on screen meanwhile. */
export function printHandout(lessonId: string, preview: boolean): void {
  prepareHandout(lessonId);
  useHandout.setState((s) => ({ printWhenReady: true, preview: s.preview || preview }));
}

export function closePreview(): void {
  // The page comes back at once (the handout's root also drops the class when it re-renders).
  document.documentElement.classList.remove('handout-preview');
  useHandout.setState({ preview: false });
}

/** Leaving the lesson: the handout goes. */
export function dropHandout(): void {
  useHandout.setState({ lessonId: null, preview: false, printWhenReady: false, ready: false });
}
