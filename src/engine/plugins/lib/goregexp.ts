/**
 * Go's regexp.MatchString(pattern, s) (RE2 syntax, unanchored) for the patterns a person writes
 * in a config file: the RE2 subset JavaScript shares is run as a JS RegExp; what RE2 refuses
 * (look-around, back-references) fails with regexp/syntax's error text, as do unbalanced
 * parentheses, an unclosed class and a repetition with nothing to repeat. Leading flag groups
 * `(?i)`, `(?s)`, `(?m)` and `(?P<name>...)` groups are translated. Not modelled: RE2's other
 * flag forms, `\Q...\E`, `\pN` classes and its exact messages for rarer syntax errors (those fall
 * back to `error parsing regexp: ` and JavaScript's reason).
 */

export type MatchOutcome = { match: boolean; error?: undefined } | { error: string };

function parseError(code: string, expr: string): { error: string } {
  return { error: `error parsing regexp: ${code}: \`${expr}\`` };
}

/** The first RE2 syntax error of `p` that JavaScript would not report the same way, or null. */
function re2Error(p: string): { error: string } | null {
  let depth = 0;
  let prevAtom = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\') {
      const n = p[i + 1];
      if (n !== undefined && /[1-9]/.test(n))
        return parseError('invalid escape sequence', `\\${n}`);
      i++;
      prevAtom = true;
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (p[j] === '^') j++;
      if (p[j] === ']') j++;
      while (j < p.length && p[j] !== ']') j += p[j] === '\\' ? 2 : 1;
      if (j >= p.length) return parseError('missing closing ]', p.slice(i));
      i = j;
      prevAtom = true;
      continue;
    }
    if (c === '(') {
      if (p.startsWith('(?=', i) || p.startsWith('(?!', i)) {
        return parseError('invalid or unsupported Perl syntax', p.slice(i, i + 3));
      }
      if (p.startsWith('(?<=', i) || p.startsWith('(?<!', i)) {
        // Go 1.22+ reads `(?<` as a named group: "=..." is not a valid name.
        const end = p.indexOf('>', i);
        return parseError('invalid named capture', end < 0 ? p.slice(i) : p.slice(i, end + 1));
      }
      depth++;
      if (p[i + 1] === '?') i++;
      prevAtom = false;
      continue;
    }
    if (c === ')') {
      if (depth === 0) return parseError('unexpected )', p);
      depth--;
      prevAtom = true;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      if (!prevAtom) {
        const prev = p[i - 1];
        if (prev === '*' || prev === '+' || prev === '?') {
          // `a**` is nested; `a*?` (lazy) is fine and was let through below.
          return parseError('invalid nested repetition operator', p.slice(i - 1, i + 1));
        }
        return parseError('missing argument to repetition operator', c);
      }
      // A lazy `?` after a repetition is part of it.
      if (p[i + 1] === '?') i++;
      prevAtom = false;
      continue;
    }
    if (c === '|' || c === '^' || c === '$') {
      prevAtom = false;
      continue;
    }
    prevAtom = true;
  }
  if (depth > 0) return parseError('missing closing )', p);
  return null;
}

/** regexp.MatchString(pattern, s). */
export function goMatchString(pattern: string, s: string): MatchOutcome {
  const bad = re2Error(pattern);
  if (bad) return bad;
  let src = pattern;
  let flags = '';
  const lead = /^\(\?([imsU]+)\)/.exec(src);
  if (lead) {
    for (const f of lead[1]!) if (f !== 'U' && !flags.includes(f)) flags += f;
    src = src.slice(lead[0].length);
  }
  src = src
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$');
  let re: RegExp;
  try {
    re = new RegExp(src, flags);
  } catch (e) {
    return { error: `error parsing regexp: ${(e as Error).message}` };
  }
  return { match: re.test(s) };
}
