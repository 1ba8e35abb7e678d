/**
 * Read-only file commands with the behaviour and messages of GNU coreutils 9.1 and findutils 4.9
 * (Debian bookworm, LANG=C.UTF-8), one file each: ls, head and tail, wc, sort, uniq, find, cut.
 * They read the node's files through FsView (/proc/sys included, from the command's network
 * namespace).
 */
import type { CommandSpec } from '../types';
import { ls } from './ls';
import { headTail } from './head-tail';
import { wc } from './wc';
import { sort } from './sort';
import { uniq } from './uniq';
import { find } from './find';
import { cut } from './cut';

export const READER_COMMANDS: CommandSpec[] = [
  { name: 'cut', dir: '/usr/bin', run: cut },
  { name: 'ls', dir: '/usr/bin', run: ls },
  { name: 'head', dir: '/usr/bin', run: (ctx) => headTail(ctx, 'head') },
  { name: 'tail', dir: '/usr/bin', run: (ctx) => headTail(ctx, 'tail') },
  { name: 'wc', dir: '/usr/bin', run: wc },
  { name: 'sort', dir: '/usr/bin', run: sort },
  { name: 'uniq', dir: '/usr/bin', run: uniq },
  { name: 'find', dir: '/usr/bin', run: find },
];
