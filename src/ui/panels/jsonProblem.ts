/**
 * Where a JSON text first goes wrong, as "line L, column C: reason", or null when it parses.
 * V8's JSON.parse names a position for most errors but not for an unexpected token or an early
 * end; the engine's JSON scanner (gojson) finds the offset in every case.
 */
import { loadEngine } from '../../engine';

export function jsonProblem(text: string): string | null {
  const e = jsonError(text);
  return e && `line ${e.line}, column ${e.column}: ${e.reason}`;
}

export interface JsonError {
  /** Offset of the first character that cannot continue the text (its length if it ends early). */
  offset: number;
  line: number;
  column: number;
  reason: string;
}

/** Why and where a text is not JSON, or null when it parses. */
export function jsonError(text: string): JsonError | null {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    const offset = m ? Number(m[1]) : jsonErrorOffset(text);
    const before = text.slice(0, offset).split('\n');
    const reason = msg
      .replace(/ in JSON at position \d+.*$/, '')
      .replace(/ after JSON at position \d+.*$/, ' after JSON')
      .replace(/, ".*" is not valid JSON$/s, '');
    return { offset, line: before.length, column: before.at(-1)!.length + 1, reason };
  }
}

/** The offset of the first character that cannot continue a JSON text (its length if it ends early). */
export function jsonErrorOffset(text: string): number {
  // The engine's port of Go's JSON scanner, which Go's checkValid runs before json.Unmarshal.
  const { Scanner, SCAN_END } = loadEngine.now();
  const s = new Scanner();
  for (let i = 0; i < text.length; i++)
    if (s.step(text.charCodeAt(i), i) >= SCAN_END && s.errContext !== null) return s.errIndex;
  return text.length;
}
