/** reboot: the node restarts through the cluster, and the shell session ends with it. */
import type { CommandContext } from '../types';

export function reboot(ctx: CommandContext): number {
  const hooks = ctx.cluster;
  if (!hooks) {
    ctx.err('cnisim: reboot: a node without a cluster cannot reboot in the simulation\n');
    return 1;
  }
  ctx.outside(() => {
    ctx.note('systemd', 'cluster');
    hooks.reboot(ctx.nodeName);
  });
  // The session ends with the machine.
  ctx.shell.requestExit(0);
  return 0;
}
