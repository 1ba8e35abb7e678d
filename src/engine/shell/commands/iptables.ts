/**
 * `iptables`, `ip6tables` (every command of the iptables model: a listing changes nothing, `-A`
 * and friends change the namespace's rules) and `iptables-save`, `ip6tables-save`, dated with the
 * virtual clock (iptables-nft 1.8.9). Not modelled: iptables-restore and iptables-legacy.
 */
import { runIptables, runIptablesSave } from '../../kernel/iptables';
import type { Family as IptFamily } from '../../kernel/iptables';
import { BASE_TIME_MS } from '../../trace/time';
import type { CommandContext } from '../types';
import { tget } from '../../state/table';
import { nsOfCtx } from './netcommon';

export function iptables(family: IptFamily) {
  return (ctx: CommandContext): number => {
    const ns = nsOfCtx(ctx, ctx.netns);
    const r = runIptables(ns.iptables, family, ctx.argv.slice(1));
    if (r.state !== ns.iptables) {
      const next = r.state;
      ctx.changeKernel((k) => {
        tget(k.netns, ctx.netns)!.iptables = next as never;
      });
    }
    ctx.out(r.stdout);
    ctx.err(r.stderr);
    return r.exitCode;
  };
}

export function iptablesSave(family: IptFamily) {
  return (ctx: CommandContext): number => {
    const ns = nsOfCtx(ctx, ctx.netns);
    const date = new Date(BASE_TIME_MS + Math.floor(ctx.sim.state.clock / 1000));
    const r = runIptablesSave(ns.iptables, family, ctx.argv.slice(1), { date });
    ctx.out(r.stdout);
    ctx.err(r.stderr);
    return r.exitCode;
  };
}
