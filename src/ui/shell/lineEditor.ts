/**
 * The terminal's line editing, as readline does it for bash (the subset a person uses): typing,
 * moving, deleting, history, completion, Ctrl-C. Pure: it turns the terminal's input into the
 * new line and the escape sequences that redraw it; the caller writes them and runs lines.
 */

import { hasControl, visible } from './visible';

/** A character the line may not hold: C0 and C1 controls, DEL (typed keys arrive as those). */
const isControl = (ch: string) => ch < ' ' || (ch >= '\x7f' && ch <= '\x9f');

export interface Completer {
  (line: string, pos: number): { from: number; candidates: string[]; common: string };
}

export type EditorEvent =
  /** Write this to the terminal. */
  | { kind: 'write'; data: string }
  /** Enter: run this line (the prompt and the line are already on screen, with a newline). */
  | { kind: 'submit'; line: string }
  /** Ctrl-L. */
  | { kind: 'clear' }
  /** Ctrl-C: the line was abandoned (a new prompt is already written). */
  | { kind: 'cancel' };

/** The most a single input (a paste) may hold. */
export const MAX_INPUT = 100_000;

export class LineEditor {
  line = '';
  pos = 0;
  cols = 80;
  prompt = '$ ';
  /** The prompt Ctrl-C comes back to, when not this one (PS1, on a continuation line). */
  cancelPrompt: string | null = null;
  private history: readonly string[] = [];
  /** Index into history while browsing it (history.length: the line being typed). */
  private hIndex = 0;
  private draft = '';
  /** Row of the cursor below the prompt's first row, as last drawn. */
  private cursorRow = 0;
  private lastTab = false;

  constructor(private readonly completer: Completer) {}

  /** Starts a new line after `prompt` (written here) with this history. */
  start(prompt: string, history: readonly string[]): string {
    this.prompt = prompt;
    this.history = history;
    this.hIndex = history.length;
    this.line = '';
    this.pos = 0;
    this.cursorRow = 0;
    this.lastTab = false;
    return prompt;
  }

  /** Handles input from the terminal (keys or a paste); returns what to do, in order. */
  input(data: string): EditorEvent[] {
    const out: EditorEvent[] = [];
    if (data.length > MAX_INPUT) {
      // A paste this big is a mistake (a whole file): refuse it rather than freeze the page.
      const msg = `\r\ncnisim: a paste of ${data.length} characters was ignored (at most ${MAX_INPUT})\r\n`;
      out.push({ kind: 'write', data: this.moveToEnd() + msg + this.redrawFresh() });
      return out;
    }
    let i = 0;
    const redraw = () => out.push({ kind: 'write', data: this.redraw() });
    while (i < data.length) {
      const ch = data[i]!;
      const wasTab = this.lastTab;
      this.lastTab = false;
      if (ch === '\x1b') {
        // eslint-disable-next-line no-control-regex -- terminal escape sequences
        const m = /^\x1b(?:\[([0-9;]*)([A-Za-z~])|O([A-Za-z])|.)?/.exec(data.slice(i))!;
        i += m[0].length;
        const key = (m[1] ?? '') + (m[2] ?? m[3] ?? '');
        if (key === 'A') this.historyMove(-1);
        else if (key === 'B') this.historyMove(1);
        else if (key === 'C') this.pos = Math.min(this.line.length, this.pos + 1);
        else if (key === 'D') this.pos = Math.max(0, this.pos - 1);
        else if (key === 'H' || key === '1~') this.pos = 0;
        else if (key === 'F' || key === '4~') this.pos = this.line.length;
        else if (key === '3~') this.deleteAt(this.pos);
        else continue;
        redraw();
        continue;
      }
      i++;
      switch (ch) {
        case '\r':
        case '\n': {
          // A pasted CRLF is one Enter.
          if (ch === '\r' && data[i] === '\n') i++;
          this.pos = this.line.length;
          out.push({ kind: 'write', data: this.redraw() + '\r\n' });
          out.push({ kind: 'submit', line: this.line });
          // Anything after it (a pasted script) is typed at the next prompt: the caller
          // feeds it back once the line has run.
          if (i < data.length) this.pending = data.slice(i);
          return out;
        }
        case '\x7f':
        case '\b':
          if (this.pos > 0) {
            this.line = this.line.slice(0, this.pos - 1) + this.line.slice(this.pos);
            this.pos--;
          }
          break;
        case '\x03': // Ctrl-C: abandon the line, as readline does.
          this.pos = this.line.length;
          out.push({ kind: 'write', data: this.redraw() + '^C\r\n' });
          // On a continuation line (PS2), bash drops the whole command and prompts with PS1.
          out.push({
            kind: 'write',
            data: this.start(this.cancelPrompt ?? this.prompt, this.history),
          });
          this.cancelPrompt = null;
          out.push({ kind: 'cancel' });
          continue;
        case '\x01':
          this.pos = 0;
          break;
        case '\x05':
          this.pos = this.line.length;
          break;
        case '\x02':
          this.pos = Math.max(0, this.pos - 1);
          break;
        case '\x06':
          this.pos = Math.min(this.line.length, this.pos + 1);
          break;
        case '\x04':
          this.deleteAt(this.pos);
          break;
        case '\x15':
          this.line = this.line.slice(this.pos);
          this.pos = 0;
          break;
        case '\x0b':
          this.line = this.line.slice(0, this.pos);
          break;
        case '\x17': {
          let j = this.pos;
          while (j > 0 && this.line[j - 1] === ' ') j--;
          while (j > 0 && this.line[j - 1] !== ' ') j--;
          this.line = this.line.slice(0, j) + this.line.slice(this.pos);
          this.pos = j;
          break;
        }
        case '\x0c':
          out.push({ kind: 'clear' });
          out.push({ kind: 'write', data: this.redrawFresh() });
          continue;
        case '\x10':
          this.historyMove(-1);
          break;
        case '\x0e':
          this.historyMove(1);
          break;
        case '\t': {
          const listed = this.tab(wasTab);
          if (listed !== null) {
            out.push({ kind: 'write', data: listed });
            continue;
          }
          this.lastTab = true;
          break;
        }
        default: {
          if (isControl(ch)) continue;
          // A run of printable characters (typed fast or pasted) is inserted, and drawn, at once.
          let j = i;
          while (j < data.length && !isControl(data[j]!)) j++;
          const text = ch + data.slice(i, j);
          i = j;
          this.line = this.line.slice(0, this.pos) + text + this.line.slice(this.pos);
          this.pos += text.length;
        }
      }
      redraw();
    }
    return out;
  }

  /** Input that followed an Enter in a paste: type it once the line has run. */
  pending = '';

  private deleteAt(p: number): void {
    if (p < this.line.length) this.line = this.line.slice(0, p) + this.line.slice(p + 1);
  }

  private historyMove(d: number): void {
    const next = this.hIndex + d;
    if (next < 0 || next > this.history.length) return;
    if (this.hIndex === this.history.length) this.draft = this.line;
    this.hIndex = next;
    this.line = next === this.history.length ? this.draft : this.history[next]!;
    this.pos = this.line.length;
  }

  /** Tab: inserts the common prefix; a second Tab lists the choices (returned to write). */
  private tab(second: boolean): string | null {
    const c = this.completer(this.line, this.pos);
    if (c.candidates.length === 0) return null;
    const word = this.line.slice(c.from, this.pos);
    let insert = c.common.length > word.length ? c.common.slice(word.length) : '';
    if (c.candidates.length === 1 && !c.common.endsWith('/')) insert += ' ';
    // A name with control characters (a file a share link made) is never typed into the line,
    // where it would be drawn raw: it is only listed, made visible.
    if (hasControl(insert)) insert = '';
    if (insert !== '') {
      this.line = this.line.slice(0, this.pos) + insert + this.line.slice(this.pos);
      this.pos += insert.length;
      return null;
    }
    if (!second) return null;
    const names = c.candidates.map((n) =>
      visible(n.replace(/\/$/, '').split('/').pop()! + (n.endsWith('/') ? '/' : '')),
    );
    const w = Math.max(...names.map((n) => n.length)) + 2;
    const per = Math.max(1, Math.floor(this.cols / w));
    let list = '';
    names.forEach((n, k) => {
      list +=
        (k % per === per - 1 || k === names.length - 1 ? n : n.padEnd(w)) +
        (k % per === per - 1 ? '\r\n' : '');
    });
    if (!list.endsWith('\r\n')) list += '\r\n';
    return this.moveToEnd() + '\r\n' + list + this.redrawFresh();
  }

  private moveToEnd(): string {
    const end = this.prompt.length + this.line.length;
    const endRow = Math.floor(end / this.cols);
    const down = endRow - this.cursorRow;
    return down > 0 ? `\x1b[${down}B` : '';
  }

  /** Draws prompt and line again from where they start, leaving the cursor at `pos`. */
  redraw(): string {
    const up = this.cursorRow > 0 ? `\x1b[${this.cursorRow}A` : '';
    return up + '\r' + this.draw();
  }

  /** Draws prompt and line on a fresh row (after a listing or a clear). */
  redrawFresh(): string {
    this.cursorRow = 0;
    return this.draw();
  }

  private draw(): string {
    let s = this.prompt + this.line + '\x1b[J';
    const end = this.prompt.length + this.line.length;
    // At the right margin the cursor waits to wrap: make it wrap, so that rows count right.
    if (end > 0 && end % this.cols === 0) s += ' \r\x1b[K';
    const endRow = Math.floor(end / this.cols);
    const at = this.prompt.length + this.pos;
    const row = Math.floor(at / this.cols);
    const col = at % this.cols;
    if (endRow > row) s += `\x1b[${endRow - row}A`;
    s += '\r' + (col > 0 ? `\x1b[${col}C` : '');
    this.cursorRow = row;
    return s;
  }
}
