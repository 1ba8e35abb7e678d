/**
 * `modprobe MODULE` and `rmmod MODULE` (kmod 30) for the one loadable module the kernel model
 * knows: br_netfilter, whose /proc/sys/net/bridge keys (bridge-nf-call-iptables, ...) exist only
 * while it is loaded. A module is host-wide: `ip netns exec NS modprobe` loads it for every
 * namespace. Loading it again brings its keys back with the module's defaults (1). Other
 * modules, options and `lsmod` are refused: the model has no list of the kernel's modules.
 */
import * as K from '../../kernel/kernel';
import type { CommandContext, CommandSpec } from '../types';
import { notSimulated } from './netcommon';

function moduleArg(ctx: CommandContext, prog: string): string | number {
  const args = ctx.argv.slice(1);
  const opt = args.find((a) => a.startsWith('-'));
  if (opt) return notSimulated(ctx, prog, `option ${opt}`);
  if (args.length !== 1) {
    if (args.length === 0) return notSimulated(ctx, prog, 'without a module name');
    return notSimulated(ctx, prog, 'more than one module');
  }
  const name = args[0]!.replace(/-/g, '_');
  if (!K.MODULES[name]) return notSimulated(ctx, prog, `module ${args[0]!} (only br_netfilter)`);
  return name;
}

function modprobe(ctx: CommandContext): number {
  const name = moduleArg(ctx, 'modprobe');
  if (typeof name === 'number') return name;
  if (K.moduleLoaded(ctx.kernel(), name)) return 0;
  ctx.changeKernel((k) => K.moduleSet(k, name, true));
  return 0;
}

function rmmod(ctx: CommandContext): number {
  const name = moduleArg(ctx, 'rmmod');
  if (typeof name === 'number') return name;
  if (!K.moduleLoaded(ctx.kernel(), name)) {
    ctx.err(`rmmod: ERROR: Module ${name} is not currently loaded\n`);
    return 1;
  }
  ctx.changeKernel((k) => K.moduleSet(k, name, false));
  return 0;
}

function lsmod(ctx: CommandContext): number {
  return notSimulated(
    ctx,
    'lsmod',
    'the list of loaded modules (br_netfilter is loaded when /proc/sys/net/bridge exists)',
  );
}

export const MODULE_COMMANDS: CommandSpec[] = [
  { name: 'modprobe', dir: '/usr/sbin', run: modprobe },
  { name: 'rmmod', dir: '/usr/sbin', run: rmmod },
  { name: 'lsmod', dir: '/usr/sbin', run: lsmod },
];
