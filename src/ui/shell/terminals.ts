/**
 * The app's terminals: one xterm.js terminal per node, kept for the page's life (switching
 * tabs or replaying the session keeps their screens and sessions). This module and xterm.js
 * form a lazy chunk fetched when the Shell tab first opens.
 *
 * Lines run through the session's terminal (src/engine/session/terminal.ts): a read answers at
 * the cursor at once; a line that changes the node is performed as a `shell` action through
 * the store (so it is a step, replays and is saved), and its output is what it printed then.
 */
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { loadTerminal, type TermState } from '../../engine';
import { cancelJob, cmd, get, publish } from '../store';
import { actionEnd } from './actionEnd';
import { LineEditor, MAX_INPUT } from './lineEditor';
import { shellOutput, terminalText, visible } from './visible';

/** The root font size in px (the app's zoom: rem-based sizes and the browser's zoom follow it). */
function appFontSize(): number {
  const px = parseFloat(getComputedStyle(document.documentElement).fontSize);
  return Number.isFinite(px) && px > 0 ? Math.round(px) : 15;
}

// Everything from the session (file contents, command output, messages) is written through
// visible.ts: its escape sequences show as ^[… instead of acting on the terminal.
const toTerminal = terminalText;

export class NodeTerminal {
  readonly term: Terminal;
  private readonly fit = new FitAddon();
  private readonly editor: LineEditor;
  private state: TermState = loadTerminal.now().newTermState();
  private busy = false;
  private opened = false;
  /**
   * The lines typed so far of a command that goes on (a here-document, an open quote, `if`
   * without `fi`): bash's PS2 prompt `> ` asks for the next, and the whole text runs at once.
   */
  private more: string | null = null;
  /** Escape was pressed: the next Tab leaves the terminal instead of completing. */
  private releaseTab = false;

  constructor(readonly node: string) {
    this.term = new Terminal({
      fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
      fontSize: appFontSize(),
      scrollback: 5000,
      cursorBlink: false,
      screenReaderMode: true,
      allowProposedApi: false,
      theme: { background: '#111418', foreground: '#e6e8eb', cursor: '#e6e8eb' },
    });
    this.term.loadAddon(this.fit);
    // No OSC 8 hyperlinks, whatever reaches the terminal (session text never carries ESC: see
    // visible.ts): the sequence is swallowed, its text shown plain.
    this.term.parser.registerOscHandler(8, () => true);
    this.editor = new LineEditor((line, pos) => {
      const s = get().session;
      const n = s?.stateAt(s.cursor).nodes[this.node];
      return n
        ? loadTerminal.now().complete(n, this.state.shell.cwd, line, pos)
        : { from: pos, candidates: [], common: '' };
    });
    this.term.attachCustomKeyEventHandler((e) => this.onKey(e));
    this.term.onData((d) => this.onData(d));
  }

  /** Shows the terminal in `container` (the first time: opens it there, with a prompt). */
  attach(container: HTMLElement): void {
    // One terminal at a time in the container: another node's (or another sandbox's) terminal
    // shown there before is taken out (it is kept, and comes back when its tab is chosen).
    for (const child of [...container.children])
      if (child !== this.term.element) container.removeChild(child);
    if (!this.opened) {
      this.term.open(container);
      this.opened = true;
      this.resize();
      this.term.write(
        `\x1b[2m${toTerminal(`cnisim: a shell on ${this.node}. Type help for the commands.`)}\x1b[0m\r\n`,
      );
      this.term.write(this.editor.start(this.prompt(), this.state.history));
    } else if (this.term.element && this.term.element.parentElement !== container) {
      container.appendChild(this.term.element);
      this.resize();
    }
  }

  /** Fits the terminal to its container, with the app's font size. */
  resize(): void {
    const size = appFontSize();
    if (this.term.options.fontSize !== size) this.term.options.fontSize = size;
    try {
      this.fit.fit();
    } catch {
      // Not laid out (hidden): keep the size.
    }
    this.editor.cols = this.term.cols;
  }

  focus(): void {
    this.term.focus();
  }

  /** Types `text` as if pasted: a newline runs the line (a recovery step's one click). */
  type(text: string): void {
    this.onData(text);
  }

  private prompt(): string {
    const cwd = this.state.shell.cwd;
    const home = this.state.shell.env['HOME'] ?? '/root';
    const shown =
      cwd === home ? '~' : cwd.startsWith(home + '/') ? '~' + cwd.slice(home.length) : cwd;
    return visible(`root@${this.node}:${shown}# `);
  }

  private onKey(e: KeyboardEvent): boolean {
    if (e.type !== 'keydown') return true;
    if (e.key === 'Escape') {
      this.releaseTab = true;
      return false;
    }
    if (e.key === 'Tab' && this.releaseTab) {
      // Leave the terminal: the browser moves the focus.
      this.releaseTab = false;
      return false;
    }
    this.releaseTab = false;
    const copy =
      (e.ctrlKey && e.shiftKey && e.code === 'KeyC') ||
      (e.ctrlKey && !e.shiftKey && e.code === 'KeyC' && this.term.hasSelection());
    if (copy) {
      void navigator.clipboard?.writeText(this.term.getSelection()).catch(() => undefined);
      e.preventDefault();
      return false;
    }
    // Ctrl-Shift-V: the browser pastes into xterm's input, which arrives as data.
    if (e.ctrlKey && e.shiftKey && e.code === 'KeyV') return false;
    return true;
  }

  private onData(data: string): void {
    if (this.busy) {
      // Ctrl-C while a changing line replays: stop the computation (the store keeps the trace).
      if (data.includes('\x03')) cancelJob();
      return;
    }
    for (const ev of this.editor.input(data)) {
      if (ev.kind === 'write') this.term.write(ev.data);
      else if (ev.kind === 'clear') this.term.write('\x1b[H\x1b[2J\x1b[3J');
      else if (ev.kind === 'cancel') this.more = null;
      else void this.run(ev.line);
    }
  }

  /** Runs a submitted line, then shows the next prompt (and types what a paste left). */
  private async run(line: string): Promise<void> {
    const text = this.more === null ? line : `${this.more}\n${line}`;
    this.more = null;
    this.editor.cancelPrompt = null;
    if (text.length > MAX_INPUT) {
      this.term.write(
        toTerminal(`cnisim: a command of more than ${MAX_INPUT} characters was not run\n`),
      );
    } else if (loadTerminal.now().needsMoreInput(text)) {
      this.more = text;
      this.editor.cancelPrompt = this.prompt();
      this.term.write(this.editor.start('> ', this.state.history));
      this.typePending();
      return;
    } else {
      this.busy = true;
      try {
        await this.execute(text);
      } catch (e) {
        this.term.write(toTerminal(`cnisim: ${(e as Error).message}\n`));
      }
      this.busy = false;
    }
    this.term.write(this.editor.start(this.prompt(), this.state.history));
    this.typePending();
  }

  /** Types what a paste left after the line that ran (its next lines). */
  private typePending(): void {
    const rest = this.editor.pending;
    this.editor.pending = '';
    if (rest) this.onData(rest);
  }

  private async execute(line: string): Promise<void> {
    if (line.trim() === '') return;
    const { session, phase } = get();
    if (!session || phase !== 'ready') {
      this.term.write('cnisim: the simulation is still loading\r\n');
      return;
    }
    if (!session.nodeNames.includes(this.node)) {
      this.term.write(toTerminal(`cnisim: this sandbox has no node ${this.node}\n`));
      return;
    }
    const o = loadTerminal.now().tryLine(session, this.node, line, this.state);
    if (o.kind === 'read') {
      this.term.write(shellOutput(line, o.result.output));
      this.state = o.state;
      if (o.result.exited) this.term.write('\x1b[2m(a new shell session starts)\x1b[0m\r\n');
      return;
    }
    const r = await cmd.perform(o.action);
    if (!r) {
      this.term.write('\x1b[2mcnisim: the line was not run (see the notice above)\x1b[0m\r\n');
      this.state = loadTerminal.now().afterAction(this.state, line, undefined);
      return;
    }
    // The prompt comes back after the line, as on a node: the cursor moves to the last step the
    // line recorded, so that the next line reads what it left (see actionEnd.ts).
    const s = get().session;
    const end = s ? actionEnd(s, r) : null;
    if (s && end !== null) {
      s.seek(end);
      publish();
    }
    const out = r.output?.shell;
    if (out) this.term.write(shellOutput(line, out.output));
    else if (r.error) this.term.write(toTerminal(`cnisim: ${r.error}\n`));
    this.state = loadTerminal.now().afterAction(this.state, line, out);
    if (out?.exited) this.term.write('\x1b[2m(a new shell session starts)\x1b[0m\r\n');
  }
}

const terminals = new Map<string, NodeTerminal>();

/**
 * The node's terminal in a scope (made the first time): the user's sandbox, a lesson, a
 * challenge and a shared link each have their own terminals, so that what was typed in one
 * never shows in another (see `shellScope`).
 */
export function terminalFor(scope: string, node: string): NodeTerminal {
  const key = `${scope}\u0000${node}`;
  let t = terminals.get(key);
  if (!t) {
    t = new NodeTerminal(node);
    terminals.set(key, t);
  }
  return t;
}
