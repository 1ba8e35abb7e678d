/**
 * The streams and the frame a command runs with (shared by the interpreter, redirections and
 * dispatch).
 */
import type { Tx } from './tx';

export type Sink = (s: string) => void;

/**
 * A command's standard input: one stream that the commands reading it share, so that each
 * `read` in `while read l; do …; done < file` takes the next line, and a command that reads
 * its input (cat, grep, a plugin) takes what is left, as processes sharing a file descriptor do.
 */
export class Input {
  private pos = 0;
  constructor(
    private readonly text: string,
    /** The terminal (a prompt's own input), where `read -p` shows its prompt. */
    readonly tty = false,
  ) {}

  /** Everything not read yet; the stream is at its end afterwards. */
  rest(): string {
    const r = this.pos === 0 ? this.text : this.text.slice(this.pos);
    this.pos = this.text.length;
    return r;
  }

  /** The next character, or null at the end of the stream. */
  next(): string | null {
    return this.pos < this.text.length ? this.text[this.pos++]! : null;
  }

  /** Whether anything is left to read. */
  get pending(): boolean {
    return this.pos < this.text.length;
  }
}

/** An input with nothing in it (a terminal that gives no input, a command substitution). */
export function noInput(): Input {
  return new Input('');
}

export interface IO {
  stdin: Input;
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
