/**
 * Evaluates `[[ … ]]` (parse.ts CondExpr) as bash 5.2's execute_cond_node does: words are
 * expanded without splitting or globbing; `==`, `=` and `!=` match the right side as a pattern,
 * `=~` as a POSIX extended regular expression (an invalid one gives status 2); `-eq` and the
 * other arithmetic operators evaluate both sides as arithmetic; `<` and `>` compare strings.
 * The unary primaries are test's (commands/test.ts).
 */
import { arithValue, type ArithVars } from './arith';
import { expandPattern, expandRegex, expandWordNoSplit, globMatch, type ExpandEnv } from './expand';
import { unary, type TestHost } from './commands/test';
import type { CondExpr } from './parse';

/** Thrown for a regular expression that does not compile: the status is 2. */
export class CondRegexError {}

const ARITH: Record<string, (a: bigint, b: bigint) => boolean> = {
  '-eq': (a, b) => a === b,
  '-ne': (a, b) => a !== b,
  '-lt': (a, b) => a < b,
  '-le': (a, b) => a <= b,
  '-gt': (a, b) => a > b,
  '-ge': (a, b) => a >= b,
};

/**
 * Whether `e` holds. An operand of an arithmetic comparison in error is reported through
 * `arithError` (bash prints it) and makes that comparison false: `[[ ! x/0 -eq 1 ]]` holds.
 */
export function evalCond(
  e: CondExpr,
  env: ExpandEnv & ArithVars,
  host: TestHost & { arithError(message: string): void },
): boolean {
  switch (e.t) {
    case 'and':
      return evalCond(e.a, env, host) && evalCond(e.b, env, host);
    case 'or':
      return evalCond(e.a, env, host) || evalCond(e.b, env, host);
    case 'not':
      return !evalCond(e.e, env, host);
    case 'word':
      return expandWordNoSplit(e.w, env) !== '';
    case 'unary':
      return unary(host, e.op, expandWordNoSplit(e.w, env));
    case 'binary': {
      const a = expandWordNoSplit(e.a, env);
      switch (e.op) {
        case '=':
        case '==':
          return globMatch(expandPattern(e.b, env), a);
        case '!=':
          return !globMatch(expandPattern(e.b, env), a);
        case '=~': {
          let re: RegExp;
          try {
            re = new RegExp(expandRegex(e.b, env));
          } catch {
            throw new CondRegexError();
          }
          return re.test(a);
        }
        case '<':
          return a < expandWordNoSplit(e.b, env);
        case '>':
          return a > expandWordNoSplit(e.b, env);
      }
      const cmp = ARITH[e.op];
      if (cmp) {
        const x = arithValue(a, env);
        if (!x.ok) {
          host.arithError(x.message);
          return false;
        }
        const y = arithValue(expandWordNoSplit(e.b, env), env);
        if (!y.ok) {
          host.arithError(y.message);
          return false;
        }
        return cmp(x.value, y.value);
      }
      return false; // -nt, -ot, -ef: files' times and identities are not modelled
    }
  }
}
