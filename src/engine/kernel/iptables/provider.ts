/**
 * Where the kernel and the plugins find the iptables binary's model (exec.ts, its parser, help
 * texts, extensions and iptables-save) without importing it: the landing's engine (landing.ts)
 * leaves that code out, and the default sandbox's first iptables command comes many steps after
 * the first one (landing.test.ts checks how many). `kernel/iptables/late.ts` provides it; the
 * facade (index.ts) and the whole engine (app.ts) import that module. Running iptables before
 * throws: never a rule that behaves otherwise.
 */
import type { runIptablesImpl } from './exec';
import type { iptablesSaveLines } from './save';
import type { IptablesState } from './types';

export interface IptablesModule {
  run: typeof runIptablesImpl;
  saveLines: typeof iptablesSaveLines;
}

let provided: IptablesModule | null = null;

export function provideIptables(m: IptablesModule): void {
  provided = m;
}

/** Whether the iptables model is loaded (the landing's engine steps without it). */
export function iptablesLoaded(): boolean {
  return provided !== null;
}

export function iptablesModule(): IptablesModule {
  if (!provided) throw new Error('cnisim: iptables is not loaded (import kernel/iptables/late.ts)');
  return provided;
}

const EMPTY: IptablesState = { ipv4: {}, ipv6: {} };

/** A network namespace's iptables state before anything ran: no tables at all. */
export function emptyIptables(): IptablesState {
  return EMPTY;
}
