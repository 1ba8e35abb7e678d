/** What the read commands over the kernel's tables share: the namespace of `-n NS`, and the refusal of what is not simulated. */
import type { Netns } from '../../kernel/types';
import type { CommandContext } from '../types';
import { lookupNetnsByName } from './ip-common';
import { tget } from '../../state/table';

export function nsOfCtx(ctx: CommandContext, id: string): Netns {
  return tget(ctx.kernel().netns, id)!;
}

/** `-n NAME` of tc and bridge: the namespace id, or an error text (exit 255 / 1). */
export function netnsOption(
  ctx: CommandContext,
  name: string | undefined,
): { id: string } | string {
  if (name === undefined) return 'Command line is not complete. Try option "help"\n';
  const r = lookupNetnsByName(ctx, name);
  if ('errno' in r) {
    return r.errno === 'ENOENT'
      ? `Cannot open network namespace "${name}": No such file or directory\n`
      : `setting the network namespace "${name}" failed: Invalid argument\n`;
  }
  return r;
}

export function notSimulated(ctx: CommandContext, prog: string, what: string): number {
  ctx.err(`cnisim: ${prog}: ${what}: not simulated\n`);
  return 2;
}

// bridge
