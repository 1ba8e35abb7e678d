/**
 * The packet walk shown (the `packetWalk` slice of the app's store): the Packets panel makes it,
 * the topology draws its current hop, and both step through its hops. A walk belongs to the step
 * and the trace it was made on: `shownWalk` gives it only there.
 */
import type { WalkResult } from '../../engine';
import { ui } from './commands';
import { get, slice } from './state';

export interface ShownWalk {
  /** The cursor and the trace's revision it was made at. */
  step: number;
  revision: number;
  res: WalkResult;
  /** "ping 10.244.2.2 from pod a (node-1)". */
  what: string;
  /** The verdict, in a sentence. */
  text: string;
}

export interface WalkState {
  walk: ShownWalk | null;
  /** The current hop (an index into walk.res.hops). */
  hop: number;
}

const walkSlice = slice<WalkState>('packetWalk', { walk: null, hop: 0 });

export const useWalkState = walkSlice.use;

/** The walk if it was made at `step` of the trace shown now, else null. */
export function shownWalk(s: WalkState, step: number, revision: number): ShownWalk | null {
  const w = s.walk;
  return w && w.step === step && w.revision === revision ? w : null;
}

export const walkCmd = {
  /** Shows a walk (its first hop) and the topology, where its hops are drawn. */
  show(w: Omit<ShownWalk, 'revision'>): void {
    walkSlice.set({ walk: { ...w, revision: get().revision }, hop: 0 });
    // The hops are drawn on the topology: show it beside the Packets panel.
    if (!get().presenter) ui.leftTab('topology');
  },
  clear(): void {
    walkSlice.set({ walk: null, hop: 0 });
  },
  /** Goes to hop `i` (clamped to the walk's hops). */
  select(i: number): void {
    const w = walkSlice.get().walk;
    if (!w) return;
    const n = w.res.hops.length;
    walkSlice.set({ hop: Math.max(0, Math.min(n - 1, i)) });
  },
  next(): void {
    walkCmd.select(walkSlice.get().hop + 1);
  },
  prev(): void {
    walkCmd.select(walkSlice.get().hop - 1);
  },
};
