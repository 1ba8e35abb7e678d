/**
 * mv [-f] [-v] [-n] [-T] and cp [-r|-R|-a] [-f] [-p] [-v] [-T], GNU coreutils 9.1 (one file: they
 * share copy.c). A mounted netns mount point cannot be moved.
 */
import * as vfs from '../../fs/vfs';
import type { CommandContext } from '../types';
import { STRERROR } from '../types';
import { quoteAlways, parseOpts } from './coreutils';

function isWithin(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent === '/' ? '/' : parent + '/');
}

export function moveOrCopy(ctx: CommandContext, prog: 'mv' | 'cp'): number {
  const o =
    prog === 'mv'
      ? parseOpts(ctx, 'mv', {
          flags: 'fivnTu',
          long: { force: 'f', verbose: 'v', 'no-clobber': 'n', 'no-target-directory': 'T' },
        })
      : parseOpts(ctx, 'cp', {
          flags: 'rRafpvnTdLPH',
          long: {
            recursive: 'r',
            archive: 'a',
            force: 'f',
            verbose: 'v',
            'no-clobber': 'n',
            'no-target-directory': 'T',
          },
        });
  if (!o) return 1;
  const ops = o.operands;
  if (ops.length === 0) {
    ctx.err(`${prog}: missing file operand\nTry '${prog} --help' for more information.\n`);
    return 1;
  }
  if (ops.length === 1) {
    ctx.err(
      `${prog}: missing destination file operand after ${quoteAlways(ops[0]!)}\nTry '${prog} --help' for more information.\n`,
    );
    return 1;
  }
  const dest = ops[ops.length - 1]!;
  const sources = ops.slice(0, -1);
  const destAbs = ctx.resolve(dest);
  const destIsDir = !o.flags.has('T') && vfs.stat(ctx.fs(), destAbs)?.kind === 'dir';
  if (sources.length > 1 && !destIsDir) {
    const exists = vfs.stat(ctx.fs(), destAbs);
    ctx.err(
      exists || prog === 'mv'
        ? `${prog}: target ${quoteAlways(dest)}: Not a directory\n`
        : `${prog}: target ${quoteAlways(dest)}: No such file or directory\n`,
    );
    return 1;
  }
  const recursive = o.flags.has('r') || o.flags.has('R') || o.flags.has('a');
  let status = 0;
  for (const src of sources) {
    const s = ctx.resolve(src);
    const se = vfs.stat(ctx.fs(), s);
    if (!se) {
      ctx.err(`${prog}: cannot stat ${quoteAlways(src)}: No such file or directory\n`);
      status = 1;
      continue;
    }
    const target = destIsDir ? vfs.joinPath(destAbs, vfs.basename(s)) : destAbs;
    const shownTarget = destIsDir ? `${dest.replace(/\/+$/, '')}/${vfs.basename(s)}` : dest;
    const te = vfs.stat(ctx.fs(), target);
    if (prog === 'cp' && se.kind === 'dir' && !recursive) {
      ctx.err(`cp: -r not specified; omitting directory ${quoteAlways(src)}\n`);
      status = 1;
      continue;
    }
    if (target === s) {
      ctx.err(`${prog}: ${quoteAlways(src)} and ${quoteAlways(shownTarget)} are the same file\n`);
      status = 1;
      continue;
    }
    if (se.kind === 'dir' && isWithin(target, s)) {
      if (prog === 'cp' && !te) {
        // cp makes the copy (of what was there before) and then complains.
        const before = vfs.walk(ctx.fs(), s).filter((q) => !isWithin(q, target));
        for (const q of before) {
          const qe = vfs.stat(ctx.fs(), q)!;
          const to = target + q.slice(s.length);
          if (qe.kind === 'dir') ctx.changeFs((fs) => vfs.mkdirAll(fs, to, qe.mode));
          else if (!qe.nsfs)
            ctx.changeFs((fs) =>
              vfs.writeFile(fs, to, qe.data, {
                mode: qe.mode,
                ...(qe.exec ? { exec: qe.exec } : {}),
              }),
            );
        }
      }
      ctx.err(
        prog === 'mv'
          ? `mv: cannot move ${quoteAlways(src)} to a subdirectory of itself, ${quoteAlways(shownTarget)}\n`
          : `cp: cannot copy a directory, ${quoteAlways(src)}, into itself, ${quoteAlways(shownTarget)}\n`,
      );
      status = 1;
      continue;
    }
    if (te && se.kind === 'dir' && te.kind !== 'dir') {
      ctx.err(
        `${prog}: cannot overwrite non-directory ${quoteAlways(shownTarget)} with directory ${quoteAlways(src)}\n`,
      );
      status = 1;
      continue;
    }
    if (te && se.kind !== 'dir' && te.kind === 'dir') {
      ctx.err(
        `${prog}: cannot overwrite directory ${quoteAlways(shownTarget)} with non-directory\n`,
      );
      status = 1;
      continue;
    }
    if (te && o.flags.has('n')) continue;
    const parent = vfs.stat(ctx.fs(), vfs.dirname(target));
    const parentErr = !parent ? 'ENOENT' : parent.kind !== 'dir' ? 'ENOTDIR' : null;
    if (prog === 'mv') {
      if ((se.kind === 'file' && se.nsfs) || (te?.kind === 'file' && te.nsfs)) {
        ctx.err(
          `mv: cannot move ${quoteAlways(src)} to ${quoteAlways(shownTarget)}: Device or resource busy\n`,
        );
        status = 1;
        continue;
      }
      if (parentErr) {
        ctx.err(
          `mv: cannot move ${quoteAlways(src)} to ${quoteAlways(shownTarget)}: ${STRERROR[parentErr]}\n`,
        );
        status = 1;
        continue;
      }
      if (te?.kind === 'dir') {
        if (vfs.readDir(ctx.fs(), target).length > 0) {
          ctx.err(
            `mv: cannot move ${quoteAlways(src)} to ${quoteAlways(shownTarget)}: Directory not empty\n`,
          );
          status = 1;
          continue;
        }
        ctx.changeFs((fs) => vfs.remove(fs, target));
      }
      ctx.changeFs((fs) => vfs.rename(fs, s, target));
      if (o.flags.has('v')) ctx.out(`renamed ${quoteAlways(src)} -> ${quoteAlways(shownTarget)}\n`);
      continue;
    }
    // cp
    if (se.kind === 'file' && se.nsfs) {
      ctx.err(`cp: error reading ${quoteAlways(src)}: Invalid argument\n`);
      status = 1;
      continue;
    }
    if (te?.kind === 'file' && te.nsfs) {
      ctx.err(
        `cp: cannot create regular file ${quoteAlways(shownTarget)}: Operation not permitted\n`,
      );
      status = 1;
      continue;
    }
    if (parentErr) {
      ctx.err(
        se.kind === 'dir'
          ? `cp: cannot create directory ${quoteAlways(shownTarget)}: ${STRERROR[parentErr]}\n`
          : `cp: cannot create regular file ${quoteAlways(shownTarget)}: ${STRERROR[parentErr]}\n`,
      );
      status = 1;
      continue;
    }
    const copyFile = (from: string, to: string) => {
      const fe = vfs.stat(ctx.fs(), from);
      if (!fe || fe.kind !== 'file' || fe.nsfs) return;
      ctx.changeFs((fs) =>
        vfs.writeFile(fs, to, fe.data, { mode: fe.mode, ...(fe.exec ? { exec: fe.exec } : {}) }),
      );
    };
    if (se.kind === 'file') copyFile(s, target);
    else {
      for (const q of vfs.walk(ctx.fs(), s)) {
        const to = target + q.slice(s.length);
        const qe = vfs.stat(ctx.fs(), q);
        if (qe?.kind === 'dir') ctx.changeFs((fs) => vfs.mkdirAll(fs, to, qe.mode));
        else copyFile(q, to);
      }
    }
    if (o.flags.has('v')) ctx.out(`${quoteAlways(src)} -> ${quoteAlways(shownTarget)}\n`);
  }
  return status;
}

// mkdir, touch
