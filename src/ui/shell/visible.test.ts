import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcParams } from '../../engine/properties/config';
import { CLEAR_SEQUENCE as ENGINE_CLEAR } from '../../engine/shell/commands/misc';
import { CLEAR_SEQUENCE, hasControl, shellOutput, terminalText, visible } from './visible';

const ESC = '\x1b';

describe('terminal output filter', () => {
  it('shows control characters as cat -v does', () => {
    expect(visible(`${ESC}[2J${ESC}[H`)).toBe('^[[2J^[[H');
    expect(visible('bell\x07 nul\x00 bs\b del\x7f')).toBe('bell^G nul^@ bs^H del^?');
    expect(visible('\x9b31m \x9d8;;x\x9c \x80')).toBe('M-^[31m M-^]8;;xM-^\\ M-^@');
    expect(visible('a\x0bb\x0cc')).toBe('a^Kb^Lc');
  });

  it('keeps newlines, tabs, CR LF and printable Unicode', () => {
    expect(visible('a\tb\nc\r\nd')).toBe('a\tb\nc\r\nd');
    expect(visible('✓ 名前 é ÿ \u00a0')).toBe('✓ 名前 é ÿ \u00a0');
    // A lone CR would overwrite the line: it is shown.
    expect(visible('rm -rf /\rls     ')).toBe('rm -rf /^Mls     ');
  });

  it('a file that draws a fake prompt, colours text or links reaches the terminal inert', () => {
    const evil =
      `${ESC}[H${ESC}[2J${ESC}[3Jroot@node-1:~# ${ESC}[31mred${ESC}[0m ` +
      `${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\ ${ESC}P+q${ESC}\\ \x1b_apc\x07\n`;
    const out = terminalText(evil);
    // eslint-disable-next-line no-control-regex -- none may remain but CR LF
    expect(out.replace(/\r\n/g, '')).not.toMatch(/[\x00-\x08\x0a-\x1f\x7f-\x9f]/);
    expect(out).toBe(
      '^[[H^[[2J^[[3Jroot@node-1:~# ^[[31mred^[[0m ^[]8;;https://evil.example/^[\\click^[]8;;^[\\ ^[P+q^[\\ ^[_apc^G\r\n',
    );
  });

  it('turns newlines into CR LF for the terminal', () => {
    expect(terminalText('a\nb\r\nc\n')).toBe('a\r\nb\r\nc\r\n');
  });

  it('honours the clear command, and only the clear command', () => {
    expect(CLEAR_SEQUENCE).toBe(ENGINE_CLEAR);
    expect(shellOutput('clear', CLEAR_SEQUENCE)).toBe(CLEAR_SEQUENCE);
    expect(shellOutput('  clear ', CLEAR_SEQUENCE)).toBe(CLEAR_SEQUENCE);
    expect(shellOutput(`clear; cat /tmp/x`, `${CLEAR_SEQUENCE}${ESC}[31mx\n`)).toBe(
      `${CLEAR_SEQUENCE}^[[31mx\r\n`,
    );
    expect(shellOutput('cat /tmp/clear', CLEAR_SEQUENCE)).toBe('^[[H^[[2J^[[3J');
    expect(shellOutput('clearly', CLEAR_SEQUENCE)).toBe('^[[H^[[2J^[[3J');
  });

  it('no output of any content carries a control character but CR LF and tab (property, fixed seed)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc
        .array(
          fc.constantFrom(ESC, '\x9b', '\x9d', '\x07', '\r', '\n', '[', ']', '8;;', 'a', '\\'),
          {
            maxLength: 80,
          },
        )
        .map((a) => a.join('')),
    );
    fc.assert(
      fc.property(fc.constantFrom('cat f', 'clear', 'ls'), text, (line, s) => {
        let out = shellOutput(line, s);
        if (line === 'clear' && out.startsWith(CLEAR_SEQUENCE))
          out = out.slice(CLEAR_SEQUENCE.length);
        expect(hasControl(out.replace(/\r\n/g, '\n'))).toBe(false);
        expect(out.replace(/\r\n/g, '')).not.toMatch(/[\x00-\x08\x0a-\x1f\x7f-\x9f]/); // eslint-disable-line no-control-regex
        // Printable text passes unchanged.
        if (!hasControl(s)) expect(out).toBe(s.replace(/\r?\n/g, '\r\n'));
      }),
      fcParams(1000),
    );
  });
});
