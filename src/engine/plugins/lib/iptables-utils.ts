/**
 * pkg/utils/iptables.go of the plugins (v1.1.1): idempotent chain and rule helpers on top of
 * go-iptables, shared by portmap and firewall. Each iptables run is one step (lib/goiptables.ts).
 */
import { GoError } from '../../cni/errors';
import type { Gen } from '../../os/sys';
import { type IPTables, IptablesError } from './goiptables';

/** The exit status iptables gives for "Chain already exists". */
const STATUS_CHAIN_EXISTS = 1;

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** utils.ChainExists: ListChains (`-S`) and look for the name. */
export function* chainExists(ipt: IPTables, table: string, chain: string): Gen<boolean> {
  const chains = yield* ipt.listChains(table);
  return chains.includes(chain);
}

/** utils.EnsureChain: creates the chain unless ListChains shows it (exit 1 from -N is fine). */
export function* ensureChain(ipt: IPTables, table: string, chain: string): Gen<void> {
  let exists: boolean;
  try {
    exists = yield* chainExists(ipt, table, chain);
  } catch (e) {
    throw new GoError(`failed to list iptables chains: ${errText(e)}`);
  }
  if (exists) return;
  try {
    yield* ipt.newChain(table, chain);
  } catch (e) {
    // Only an *iptables.Error with another exit status is returned (as Go does).
    if (e instanceof IptablesError && e.exitStatus !== STATUS_CHAIN_EXISTS) throw e;
  }
}

/** utils.DeleteRule: a missing rule or chain (or a bad command line, exit 2) is no error. */
export function* deleteRule(
  ipt: IPTables,
  table: string,
  chain: string,
  rulespec: string[],
): Gen<void> {
  try {
    yield* ipt.delete(table, chain, rulespec);
  } catch (e) {
    if (e instanceof IptablesError && (e.isNotExist() || e.exitStatus === 2)) return;
    throw new GoError(`Failed to delete referring rule ${table} ${chain}: ${errText(e)}`);
  }
}

/** utils.DeleteChain: a chain that does not exist is no error. */
export function* deleteChain(ipt: IPTables, table: string, chain: string): Gen<void> {
  try {
    yield* ipt.deleteChain(table, chain);
  } catch (e) {
    if (e instanceof IptablesError && e.isNotExist()) return;
    throw e;
  }
}

/** utils.ClearChain: go-iptables ClearChain (`-N`, then `-F` when it exists). */
export function* clearChain(ipt: IPTables, table: string, chain: string): Gen<void> {
  try {
    yield* ipt.clearChain(table, chain);
  } catch (e) {
    if (e instanceof IptablesError && e.isNotExist()) {
      yield* ensureChain(ipt, table, chain);
      return;
    }
    throw e;
  }
}

/** utils.InsertUnique: Exists (`-C`), then `-I chain 1` (prepend) or `-A`. */
export function* insertUnique(
  ipt: IPTables,
  table: string,
  chain: string,
  prepend: boolean,
  rule: string[],
): Gen<void> {
  if (yield* ipt.exists(table, chain, rule)) return;
  if (prepend) yield* ipt.insert(table, chain, 1, rule);
  else yield* ipt.append(table, chain, rule);
}

/** fmt's %v / %s of a []string: `[a b c]`. */
export function goFmtStrings(s: readonly string[]): string {
  return `[${s.join(' ')}]`;
}

/** fmt's %v / %s of a [][]string: `[[a b] [c d]]`. */
export function goFmtStringSlices(s: readonly (readonly string[])[]): string {
  return `[${s.map(goFmtStrings).join(' ')}]`;
}
