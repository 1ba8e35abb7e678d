/**
 * find PATH... [-name PAT] [-iname PAT] [-type f|d] [-maxdepth N] [-mindepth N] [-print],
 * findutils 4.9. Directories are listed in byte order where the real tool follows the
 * filesystem's (unsorted) order.
 */
import * as vfs from '../../fs/vfs';
import { globMatch } from '../expand';
import { FsView, type ViewEntry } from '../fsview';
import type { CommandContext } from '../types';

type FindTest =
  | { t: 'name'; pat: string; ci: boolean }
  | { t: 'type'; kind: 'file' | 'dir' | 'link' | 'other' }
  | { t: 'true' };

export function find(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  const roots: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('-') || a === '!' || a === '(') break;
    roots.push(a);
  }
  if (roots.length === 0) roots.push('.');
  const tests: FindTest[] = [];
  let maxDepth = Infinity;
  let minDepth = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    const arg = (): string | null => {
      const v = args[i + 1];
      if (v === undefined) {
        ctx.err(`find: missing argument to \`${a}'\n`);
        return null;
      }
      i++;
      return v;
    };
    if (a === '-name' || a === '-iname') {
      const v = arg();
      if (v === null) return 1;
      tests.push({ t: 'name', pat: v, ci: a === '-iname' });
    } else if (a === '-type') {
      const v = arg();
      if (v === null) return 1;
      if (v === 'f') tests.push({ t: 'type', kind: 'file' });
      else if (v === 'd') tests.push({ t: 'type', kind: 'dir' });
      else if (v === 'l') tests.push({ t: 'type', kind: 'link' });
      else if (['b', 'c', 'p', 's', 'D'].includes(v)) tests.push({ t: 'type', kind: 'other' });
      else {
        ctx.err(`find: Unknown argument to -type: ${v}\n`);
        return 1;
      }
    } else if (a === '-maxdepth' || a === '-mindepth') {
      const v = arg();
      if (v === null) return 1;
      if (!/^\d+$/.test(v)) {
        ctx.err(`find: Expected a positive decimal integer argument to ${a}, but got ‘${v}’\n`);
        return 1;
      }
      if (a === '-maxdepth') maxDepth = Number(v);
      else minDepth = Number(v);
    } else if (a === '-print') tests.push({ t: 'true' });
    else if (
      [
        '-o',
        '-or',
        '!',
        '-not',
        '(',
        ')',
        '-exec',
        '-delete',
        '-path',
        '-newer',
        '-mtime',
        '-size',
        '-regex',
        '-prune',
        '-print0',
        '-ls',
      ].includes(a)
    ) {
      ctx.err(`find: cnisim: ${a} is not supported\n`);
      return 1;
    } else if (a.startsWith('-')) {
      ctx.err(`find: unknown predicate \`${a}'\n`);
      return 1;
    } else {
      ctx.err(`find: paths must precede expression: \`${a}'\n`);
      return 1;
    }
  }
  const view = new FsView(ctx);
  let status = 0;
  const matchesAll = (name: string, e: ViewEntry): boolean =>
    tests.every((t) => {
      if (t.t === 'true') return true;
      if (t.t === 'type') return e.kind === t.kind;
      return t.ci ? globMatch(t.pat.toLowerCase(), name.toLowerCase()) : globMatch(t.pat, name);
    });
  const walk = (shown: string, abs: string, e: ViewEntry, depth: number): void => {
    // -name looks at the last component of the path as find prints it.
    const trimmed = shown.replace(/\/+$/, '');
    const name = trimmed === '' ? '/' : trimmed.slice(trimmed.lastIndexOf('/') + 1);
    if (depth >= minDepth && matchesAll(name, e)) ctx.out(shown + '\n');
    if (e.kind !== 'dir' || depth >= maxDepth) return;
    // find -P (the default): symbolic links are looked at, not followed.
    for (const n of view.readDir(abs)) {
      const p = vfs.joinPath(abs, n);
      const ce = view.lstat(p);
      if (!ce) continue;
      walk(shown.endsWith('/') ? shown + n : `${shown}/${n}`, p, ce, depth + 1);
    }
  };
  for (const r of roots) {
    const p = ctx.resolve(r);
    const e = r.endsWith('/') ? view.stat(p) : view.lstat(p);
    if (!e) {
      ctx.err(`find: ‘${r}’: No such file or directory\n`);
      status = 1;
      continue;
    }
    walk(r, p, e, 0);
  }
  return status;
}

// cut
