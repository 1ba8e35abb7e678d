/**
 * The streams and the frame a command runs with (shared by the interpreter, redirections and
 * dispatch).
 */
import type { Tx } from './tx';

export type Sink = (s: string) => void;

export interface IO {
  stdin: string;
  out: Sink;
  err: Sink;
  /** stdout is the terminal (not a pipe, a file or a command substitution). */
  tty?: boolean;
}

/** Where a simple command runs: its network namespace and the change it joins, if any. */
export interface Frame {
  netns: string;
  tx: Tx | null;
}

/**
 * Thrown after an expansion error in an interactive shell (a bad substitution, `${x?}`,
 * arithmetic): bash abandons the rest of the line, and a subshell exits.
 */
export class LineAbort {
  constructor(readonly code: number) {}
}

/** Thrown by `break` and `continue` to unwind to their loop. */
export class LoopSignal {
  constructor(
    readonly kind: 'break' | 'continue',
    public levels: number,
    /** The loop's status after it (`break 0` leaves with 1). */
    readonly status = 0,
  ) {}
}

/** Thrown by `exit` to unwind to the shell's top. */
export class ExitSignal {
  constructor(readonly code: number) {}
}
