/** What the GNU coreutils 9.1 commands share: quoting of names in messages (quotearg), option parsing, errno texts. */
import * as vfs from '../../fs/vfs';
import type { CommandContext } from '../types';

/** coreutils' quote for "cannot remove 'X'"-style messages (shell-escape, always quoted). */
export function quoteAlways(s: string): string {
  if (!s.includes("'")) return `'${s}'`;
  if (!/["$`\\]/.test(s)) return `"${s}"`;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** coreutils' quotef: as is, unless the name needs quoting for a shell. */
export function quoteIfNeeded(s: string): string {
  return /^[A-Za-z0-9_.,:/@%+=^~-]+$/.test(s) ? s : quoteAlways(s);
}

/** The locale's quotes (C.UTF-8): ‘X’. */
export function quoteLocale(s: string): string {
  return `‘${s}’`;
}

export interface Parsed {
  flags: Set<string>;
  values: Map<string, string>;
  operands: string[];
}

/** getopt-style parsing: short flags (combined), flags with a value, `--`, long names mapped. */
export function parseOpts(
  ctx: CommandContext,
  prog: string,
  spec: { flags: string; withValue?: string; long?: Record<string, string> },
): Parsed | null {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const operands: string[] = [];
  const args = ctx.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const [name, val] = a.slice(2).split(/=(.*)/s) as [string, string | undefined];
      const short = spec.long?.[name];
      if (!short) {
        ctx.err(
          `${prog}: unrecognized option '${a}'\nTry '${prog} --help' for more information.\n`,
        );
        return null;
      }
      if (spec.withValue?.includes(short)) {
        const v = val ?? args[++i];
        if (v === undefined) {
          ctx.err(
            `${prog}: option '--${name}' requires an argument\nTry '${prog} --help' for more information.\n`,
          );
          return null;
        }
        values.set(short, v);
      } else flags.add(short);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = a[j]!;
        if (spec.withValue?.includes(f)) {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (v === undefined) {
            ctx.err(
              `${prog}: option requires an argument -- '${f}'\nTry '${prog} --help' for more information.\n`,
            );
            return null;
          }
          values.set(f, v);
          break;
        }
        if (!spec.flags.includes(f)) {
          ctx.err(
            `${prog}: invalid option -- '${f}'\nTry '${prog} --help' for more information.\n`,
          );
          return null;
        }
        flags.add(f);
      }
      continue;
    }
    operands.push(a);
  }
  return { flags, values, operands };
}

export function errnoOf(e: unknown): string {
  if (e instanceof vfs.FsError) return e.errno;
  throw e;
}

// cat
