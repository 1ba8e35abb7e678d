/**
 * File commands with GNU coreutils 9.1 messages (as on Debian bookworm, LANG=C.UTF-8), one file
 * each: cat, rm, mv and cp, mkdir, touch, truncate. Paths are the node's filesystem. Network
 * namespace mount points (/var/run/netns/NAME, nsfs) behave as on a real node: they cannot be
 * read, written, removed or moved while mounted.
 */
import type { CommandSpec } from '../types';
import { cat } from './cat';
import { rm } from './rm';
import { moveOrCopy } from './cp-mv';
import { mkdir } from './mkdir';
import { touch } from './touch';
import { truncate } from './truncate';

export const FILE_COMMANDS: CommandSpec[] = [
  { name: 'cat', dir: '/usr/bin', run: cat },
  { name: 'rm', dir: '/usr/bin', run: rm },
  { name: 'mv', dir: '/usr/bin', run: (ctx) => moveOrCopy(ctx, 'mv') },
  { name: 'cp', dir: '/usr/bin', run: (ctx) => moveOrCopy(ctx, 'cp') },
  { name: 'mkdir', dir: '/usr/bin', run: mkdir },
  { name: 'touch', dir: '/usr/bin', run: touch },
  { name: 'truncate', dir: '/usr/bin', run: truncate },
];
