/**
 * Where a JSON text first goes wrong, as "line L, column C: reason", or null when it parses.
 * V8's JSON.parse names a position for most errors but not for an unexpected token or an early
 * end; a small scanner over the JSON grammar finds the offset in every case.
 */
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
      .replace(/, ".*" is not valid JSON$/s, '');
    return { offset, line: before.length, column: before.at(-1)!.length + 1, reason };
  }
}

/** The offset of the first character that cannot continue a JSON text (its length if it ends early). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail();
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 0x5c) {
        i++;
        const esc = text[i];
        if (esc === 'u') {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail();
            i++;
          }
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i++;
        else fail();
      } else i++;
    }
  };
  const digits = () => {
    if (!/[0-9]/.test(text[i] ?? '')) fail();
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail();
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return text.length;
  } catch (at) {
    return Math.min(at as number, text.length);
  }
}
