import { describe, expect, it } from 'vitest';
import { LineEditor, MAX_INPUT, type EditorEvent } from './lineEditor';

const WORDS = ['journalctl', 'jq', '/var/lib/cni/results/', '/var/lib/cni/networks/'];

function editor(history: string[] = []) {
  const e = new LineEditor((line, pos) => {
    let from = pos;
    while (from > 0 && line[from - 1] !== ' ') from--;
    const w = line.slice(from, pos);
    const candidates = WORDS.filter((c) => c.startsWith(w));
    let common = candidates[0] ?? w;
    for (const c of candidates) while (!c.startsWith(common)) common = common.slice(0, -1);
    return { from, candidates, common: common.length >= w.length ? common : w };
  });
  e.start('# ', history);
  return e;
}

const submitted = (evs: EditorEvent[]) =>
  evs.filter((e) => e.kind === 'submit').map((e) => (e as { line: string }).line);
const written = (evs: EditorEvent[]) => evs.map((e) => (e.kind === 'write' ? e.data : '')).join('');

describe('the terminal line editor', () => {
  it('edits with arrows, Home/End, Ctrl-A/E/U/K/W and backspace', () => {
    const e = editor();
    e.input('ip addr');
    e.input('\x1b[D\x1b[D\x1b[D\x1b[D\x7f\x1b[C'); // "ipaddr", cursor after "ipa"
    expect([e.line, e.pos]).toEqual(['ipaddr', 3]);
    e.input('\x01X\x05Y');
    expect(e.line).toBe('XipaddrY');
    e.input('\x17');
    expect([e.line, e.pos]).toEqual(['', 0]);
    e.input('ls -l /tmp\x1b[H\x1b[C\x1b[C\x0b');
    expect(e.line).toBe('ls');
    e.input('\x1b[D\x15');
    expect([e.line, e.pos]).toEqual(['s', 0]);
  });

  it('submits on Enter, and keeps what a paste had after the newline for the next prompt', () => {
    const e = editor();
    const evs = e.input('ls /var\rcat x\rpwd');
    expect(submitted(evs)).toEqual(['ls /var']);
    expect(e.pending).toBe('cat x\rpwd');
  });

  it('recalls history with up and down, keeping the line being typed', () => {
    const e = editor(['first', 'second']);
    e.input('dra');
    e.input('\x1b[A');
    expect(e.line).toBe('second');
    e.input('\x1b[A\x1b[A');
    expect(e.line).toBe('first');
    e.input('\x1b[B\x1b[B');
    expect(e.line).toBe('dra');
  });

  it('Ctrl-C abandons the line and prints a new prompt', () => {
    const e = editor();
    e.input('rm -rf /var/lib/cni');
    const evs = e.input('\x03');
    expect(submitted(evs)).toEqual([]);
    expect(written(evs)).toContain('^C\r\n# ');
    expect(e.line).toBe('');
  });

  it('Ctrl-C on a continuation line (PS2) comes back to the main prompt and says so', () => {
    const e = editor();
    e.start('> ', []);
    e.cancelPrompt = '# ';
    e.input('{ "cniVersion"');
    const evs = e.input('\x03');
    expect(written(evs)).toContain('^C\r\n# ');
    expect(evs.some((v) => v.kind === 'cancel')).toBe(true);
    expect(e.prompt).toBe('# ');
    expect(e.cancelPrompt).toBeNull();
  });

  it('Tab completes a unique word with a space, a common prefix, and lists on the second Tab', () => {
    const e = editor();
    e.input('jou\t');
    expect(e.line).toBe('journalctl ');
    const f = editor();
    f.input('ls /var/lib/cni/r\t');
    expect(f.line).toBe('ls /var/lib/cni/results/');
    const g = editor();
    g.input('j\t');
    expect(g.line).toBe('j');
    const list = written(g.input('\t'));
    expect(list).toMatch(/journalctl\s+jq\r\n# j/);
  });

  it('redraws a line longer than the terminal on as many rows as it needs', () => {
    const e = editor();
    e.cols = 10;
    e.input('0123456789abcdef'); // prompt + 16 = 18 columns: two rows
    const evs = e.input('\x01');
    // From the second row back up to the prompt's row, then to column 2.
    // eslint-disable-next-line no-control-regex -- terminal escape sequences
    expect(written(evs)).toMatch(/^\x1b\[1A\r# 0123456789abcdef\x1b\[J\x1b\[1A\r\x1b\[2C$/);
  });

  it('a big paste is inserted in one go; one bigger than MAX_INPUT is refused, saying so', () => {
    const e = editor();
    e.input('echo ');
    const evs = e.input('x'.repeat(50_000));
    expect(evs.filter((v) => v.kind === 'write')).toHaveLength(1);
    expect(e.line).toHaveLength(50_005);
    const f = editor();
    f.input('ls');
    const big = written(f.input('y'.repeat(MAX_INPUT + 1)));
    expect(big).toContain(`a paste of ${MAX_INPUT + 1} characters was ignored`);
    expect(f.line).toBe('ls');
  });

  it('never draws a control character of a pasted text or a file name (C1 CSI, ESC)', () => {
    const names = ['evil\x1b[2J\x1b]8;;x\x07', 'evil\x9b31m'];
    const e = new LineEditor(() => ({
      from: 0,
      candidates: names,
      common: 'evil',
    }));
    e.start('# ', []);
    // A paste with a C1 CSI: the controls are dropped from the line.
    e.input('echo \x9b2Jhi\x9d8;;x');
    expect(e.line).toBe('echo 2Jhi8;;x');
    e.input('\x15ev');
    const first = e.input('\t');
    expect(e.line).toBe('evil');
    const listed = written(e.input('\t'));
    // eslint-disable-next-line no-control-regex -- the names' controls are shown, not sent
    const raw = /[\x00-\x1f\x7f-\x9f]/;
    // eslint-disable-next-line no-control-regex -- the editor's own cursor moves are allowed
    expect(listed.replace(/\x1b\[(\d*[A-DJK])/g, '').replace(/[\r\n]/g, '')).not.toMatch(raw);
    expect(listed).toContain('evil^[[2J^[]8;;x^G');
    expect(listed).toContain('evilM-^[31m');
    // A single candidate with controls is listed, never typed into the line.
    const one = new LineEditor(() => ({ from: 0, candidates: [names[0]!], common: names[0]! }));
    one.start('# ', []);
    one.input('ev\t');
    expect(one.line).toBe('ev');
    expect(written(first)).not.toContain('\x1b]');
  });
});
