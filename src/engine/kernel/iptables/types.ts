/**
 * State of the iptables model: immutable, JSON-serialisable plain data (one value per simulation
 * step). It is the nf_tables view that iptables-nft 1.8.9 manipulates: per family, the tables that
 * exist in the kernel, their chains as the kernel has them (built-in base chains are created only
 * on demand, like iptables-nft does), and the rules in a canonical, already-validated form.
 */
import type { Table } from '../../state/table';

export type Family = 'ipv4' | 'ipv6';

export type TableName = 'filter' | 'nat' | 'mangle' | 'raw' | 'security';

export type Hook = 'PREROUTING' | 'INPUT' | 'FORWARD' | 'OUTPUT' | 'POSTROUTING';

/** Packet and byte counters, as exact unsigned 64-bit decimal strings. */
export interface Counters {
  readonly packets: string;
  readonly bytes: string;
}

/** A `-s`/`-d` address: canonical (masked) address text and mask text ("24" or "255.0.255.0"). */
export interface AddrSpec {
  readonly addr: string;
  readonly mask: string;
  readonly invert: boolean;
}

/** A `-i`/`-o` interface, exactly as given (a trailing `+` is a wildcard). */
export interface IfaceSpec {
  readonly name: string;
  readonly invert: boolean;
}

/** JSON-serialisable extension data (see ext/ for each extension's shape). */
export type ExtData = { readonly [key: string]: ExtValue };
export type ExtValue = string | number | boolean | null | readonly ExtValue[] | ExtData;

/** One `-m` match of a rule. */
export interface MatchInst {
  readonly name: string;
  readonly data: ExtData;
}

/** What a rule does when it matches. */
export type TargetInst =
  | { readonly kind: 'verdict'; readonly verdict: 'ACCEPT' | 'DROP' | 'RETURN' | 'QUEUE' }
  | { readonly kind: 'chain'; readonly chain: string; readonly goto: boolean }
  | { readonly kind: 'ext'; readonly name: string; readonly data: ExtData };

export interface Rule {
  readonly src?: AddrSpec;
  readonly dst?: AddrSpec;
  readonly inIface?: IfaceSpec;
  readonly outIface?: IfaceSpec;
  /** Protocol number (absent = all). */
  readonly proto?: { readonly num: number; readonly invert: boolean };
  /** IPv4 `-f`. */
  readonly fragment?: { readonly invert: boolean };
  readonly matches: readonly MatchInst[];
  readonly target?: TargetInst;
  readonly counters: Counters;
  /** Canonical `iptables -S` text of the rule after `-A <chain>` (used for -C / -D). */
  readonly key: string;
}

export interface ChainState {
  readonly name: string;
  /** Set for base chains (built-in chains, or one renamed by -E, which iptables then hides). */
  readonly hook?: Hook;
  /** Base chains only. */
  readonly policy?: 'ACCEPT' | 'DROP';
  /** Base chains only: the policy counters. */
  readonly counters?: Counters;
  readonly rules: readonly Rule[];
}

export interface TableState {
  /**
   * The kernel's chains by name (names are unique in a table: -N and -E refuse a taken one). A
   * Table, so that one more pod's chain costs the same at 10 pods as at 1,000, in time and in each
   * trace step's memory. Listing order is computed (built-ins, then user chains by name).
   */
  readonly chains: Table<ChainState>;
}

export type FamilyTables = { readonly [T in TableName]?: TableState };

export interface IptablesState {
  readonly ipv4: FamilyTables;
  readonly ipv6: FamilyTables;
}

export interface IptablesRunResult {
  readonly state: IptablesState;
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export const TABLE_ORDER: readonly TableName[] = ['mangle', 'security', 'raw', 'filter', 'nat'];

export const BUILTIN_CHAINS: { readonly [T in TableName]: readonly Hook[] } = {
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
  mangle: ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'],
  raw: ['PREROUTING', 'OUTPUT'],
  security: ['INPUT', 'FORWARD', 'OUTPUT'],
};

export const ZERO_COUNTERS: Counters = { packets: '0', bytes: '0' };
