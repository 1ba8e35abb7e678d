/**
 * Whether a lesson's handout is prepared, shown and about to be printed (the `handout` slice of
 * the app's store, ../../app/state.ts; the handout itself is a further lazy chunk).
 */
import { slice } from '../../app/state';

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

const handout = slice<HandoutState>('handout', {
  lessonId: null,
  preview: false,
  printWhenReady: false,
  ready: false,
});

/** Reads the handout's state in a component. */
export const useHandout = handout.use;

/** Mounts a lesson's handout (it draws its diagrams when the browser is idle). */
export function prepareHandout(lessonId: string): void {
  if (handout.get().lessonId !== lessonId)
    handout.set({ lessonId, preview: false, printWhenReady: false, ready: false });
}

/** Prints a lesson's handout once it is drawn; `preview` shows it on screen meanwhile. */
export function printHandout(lessonId: string, preview: boolean): void {
  prepareHandout(lessonId);
  handout.set((s) => ({ printWhenReady: true, preview: s.preview || preview }));
}

export function closePreview(): void {
  // The page comes back at once (the handout's root also drops the class when it re-renders).
  document.documentElement.classList.remove('handout-preview');
  handout.set({ preview: false });
}

/** Leaving the lesson: the handout goes. */
export function dropHandout(): void {
  handout.set({ lessonId: null, preview: false, printWhenReady: false, ready: false });
}

/** Every diagram is drawn (or the handout is redrawn: not yet). */
export function setHandoutReady(ready: boolean): void {
  if (handout.get().ready !== ready) handout.set({ ready });
}

/** The print that waited for the diagrams has been made. */
export function printed(): void {
  handout.set({ printWhenReady: false });
}
