import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadEngine } from '../../engine';
import { jsonErrorOffset, jsonProblem } from './jsonProblem';

await loadEngine();

describe('jsonProblem: the editor says where a conflist stops being JSON', () => {
  it('names line and column of an unexpected token, which V8 reports without a position', () => {
    expect(jsonProblem('oops {"a": 1}')).toBe("line 1, column 1: Unexpected token 'o'");
    expect(jsonProblem('{\n  "a": 1,\n  "b": tru\n}')).toMatch(/^line 3, column 11: /);
  });

  it('names where a text ends too early', () => {
    expect(jsonProblem('{\n  "a": [1, 2')).toMatch(/^line 2, column 13: /);
    expect(jsonProblem('{"a": "x')).toBe('line 1, column 9: Unterminated string');
  });

  it('uses the position V8 gives, as line and column', () => {
    expect(jsonProblem('{\n  "a": 1,\n}')).toMatch(/^line 3, column 1: Expected double-quoted/);
  });

  it("says a text going on after the JSON once, without V8's own position", () => {
    // "{} x": V8 says "Unexpected non-whitespace character after JSON at position 3" (Chromium
    // adds "(line 1 column 4)"); the editor says the line and column itself.
    expect(jsonProblem('{}\n x')).toBe(
      'line 2, column 2: Unexpected non-whitespace character after JSON',
    );
  });

  it('is null for valid JSON, and the scanner accepts every JSON.stringify output', () => {
    expect(jsonProblem('{"cniVersion": "1.0.0", "plugins": []}')).toBeNull();
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const t = JSON.stringify(v, null, 1);
        expect(jsonErrorOffset(t)).toBe(t.length);
      }),
      { seed: 5, numRuns: 300 },
    );
  });

  it('agrees with V8 wherever V8 names a position', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.nat(),
        fc.constantFrom('}', ']', ',', ':', 'x', '"'),
        (v, n, ch) => {
          const t = JSON.stringify(v);
          const at = n % (t.length + 1);
          const bad = t.slice(0, at) + ch + t.slice(at);
          let msg: string | null = null;
          try {
            JSON.parse(bad);
          } catch (e) {
            msg = (e as Error).message;
          }
          const m = msg && /position (\d+)/.exec(msg);
          if (m) expect(jsonErrorOffset(bad)).toBe(Number(m[1]));
        },
      ),
      { seed: 5, numRuns: 500 },
    );
  });
});
