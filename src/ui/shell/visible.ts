/**
 * What the terminal may show of the simulation's output. File contents and command output come
 * from the session, which a share link or a scenario file writes: a file holding escape
 * sequences would otherwise clear the screen, draw a fake prompt, colour text or make hidden
 * OSC 8 hyperlinks when `cat` prints it. So every control character of that text is shown as
 * `cat -v` shows it (ESC as ^[, BEL as ^G, DEL as ^?, the C1 controls U+0080–U+009F, which
 * xterm.js also obeys, as M-^@ … M-^_), and only newlines and tabs keep their meaning. The
 * app's own sequences (the dimmed notes, the line editor's redraws) are written around this
 * text, never through it.
 *
 * Pure (no DOM): unit tested in visible.test.ts.
 */

/** What the `clear` command prints (src/engine/shell/commands/misc.ts: tput clear, with E3). */
export const CLEAR_SEQUENCE = '\x1b[H\x1b[2J\x1b[3J';

// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;

function caret(c: string): string {
  const code = c.charCodeAt(0);
  if (code === 0x7f) return '^?';
  if (code >= 0x80) return `M-^${String.fromCharCode(code - 0x80 + 64)}`;
  return `^${String.fromCharCode(code + 64)}`;
}

/** `s` with its control characters made visible, as `cat -v` does (newlines and tabs kept). */
export function visible(s: string): string {
  return s.replace(CONTROL, caret);
}

/** Whether `s` holds a character that `visible` would change. */
export function hasControl(s: string): boolean {
  return new RegExp(CONTROL.source).test(s);
}

/** Text for the terminal: control characters made visible, each newline a CR LF. */
export function terminalText(s: string): string {
  return visible(s).replace(/\r?\n/g, '\r\n');
}

/**
 * The output of a shell line for the terminal. A line that is the `clear` command (first word
 * `clear`) may clear the screen: its output's leading clear sequence is kept, everything else is
 * made visible. The same bytes from `cat` show as ^[[H^[[2J^[[3J.
 */
export function shellOutput(line: string, output: string): string {
  if (/^\s*clear(\s|;|&|\||$)/.test(line) && output.startsWith(CLEAR_SEQUENCE))
    return CLEAR_SEQUENCE + terminalText(output.slice(CLEAR_SEQUENCE.length));
  return terminalText(output);
}
