/**
 * The coreos/go-iptables API (v0.6.0, Debian bookworm's golang-github-coreos-go-iptables-dev,
 * the version the CNI plugins 1.1.1 are built with) on top of the iptables model.
 *
 * Each method runs the binary the way go-iptables does (`/usr/sbin/iptables <args> --wait`, the
 * path exec.LookPath finds on Debian) and, when the command fails, returns the Go error text
 * `running [<argv joined by spaces>]: exit status <n>: <stderr>` (Error.Error() formats cmd.Args
 * with %v, so arguments containing spaces are not quoted).
 *
 * InsertUnique does not exist in v0.6.0; it is provided with the semantics it has in later
 * go-iptables versions (Exists, then Insert).
 */
import { runIptablesImpl } from './exec';
import type { Family, IptablesState } from './types';

/** One iptables invocation made by a helper. `argv[0]` is the binary path. */
export interface GoIptablesRun {
  readonly argv: readonly string[];
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface GoIptablesResult<T = undefined> {
  readonly state: IptablesState;
  /** go-iptables' error text, or null. */
  readonly error: string | null;
  /** The exit status carried by the error (iptables.Error.ExitStatus()), when there is one. */
  readonly exitStatus: number | null;
  readonly value: T;
  /** The command lines run, in order (argv arrays including the binary path). */
  readonly commands: readonly (readonly string[])[];
  /** Every run with its outcome, for showing each invocation as a simulation step. */
  readonly runs: readonly GoIptablesRun[];
}

export interface GoIptablesOptions {
  /** Binary path (exec.LookPath result); default /usr/sbin/iptables or /usr/sbin/ip6tables. */
  readonly path?: string;
}

/** (*Error).IsNotExist(): exit status 1 and a "does not exist" message. */
export function isNotExist(errText: string | null | undefined): boolean {
  if (!errText) return false;
  const m = /\]: exit status (\d+): ([\s\S]*)$/.exec(errText);
  if (!m || m[1] !== '1') return false;
  const msg = m[2] ?? '';
  return (
    msg.includes('Bad rule (does a matching rule exist in that chain?).\n') ||
    msg.includes('No chain/target/match by that name.\n')
  );
}

class Runner {
  state: IptablesState;
  readonly runs: GoIptablesRun[] = [];
  constructor(
    state: IptablesState,
    readonly family: Family,
    readonly path: string,
  ) {
    this.state = state;
  }

  /** runWithOutput(): returns the error text (or null) and stdout. */
  run(args: readonly string[]): { error: string | null; status: number | null; stdout: string } {
    const argv = [this.path, ...args, '--wait'];
    const r = runIptablesImpl(this.state, this.family, argv.slice(1));
    this.state = r.state;
    this.runs.push({ argv, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });
    if (r.exitCode === 0) return { error: null, status: null, stdout: r.stdout };
    return {
      error: `running [${argv.join(' ')}]: exit status ${r.exitCode}: ${r.stderr}`,
      status: r.exitCode,
      stdout: r.stdout,
    };
  }

  result<T>(
    value: T,
    error: string | null = null,
    status: number | null = null,
  ): GoIptablesResult<T> {
    return {
      state: this.state,
      error,
      exitStatus: error === null ? null : status,
      value,
      commands: this.runs.map((r) => r.argv),
      runs: this.runs,
    };
  }
}

/** executeList(): stdout split in lines, trailing empty line dropped, nft counter fix-up. */
function splitList(stdout: string): string[] {
  const lines = stdout.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => {
    if (l[0] !== '[') return l;
    const m = /^\[([0-9]+):([0-9]+)\] /.exec(l);
    return m ? `${l.slice(m[0].length)} -c ${m[1]} ${m[2]}` : l;
  });
}

/**
 * A go-iptables handle (`iptables.NewWithProtocol(proto)`). All methods are pure: they take the
 * state and return the new one.
 */
export function goIptables(family: Family, opts: GoIptablesOptions = {}) {
  const path = opts.path ?? (family === 'ipv4' ? '/usr/sbin/iptables' : '/usr/sbin/ip6tables');
  const runner = (s: IptablesState): Runner => new Runner(s, family, path);

  const exists = (s: IptablesState, table: string, chain: string, rulespec: readonly string[]) => {
    const r = runner(s);
    const o = r.run(['-t', table, '-C', chain, ...rulespec]);
    if (o.error === null) return r.result(true);
    if (o.status === 1) return r.result(false);
    return r.result(false, o.error, o.status);
  };

  const simple = (s: IptablesState, args: readonly string[]): GoIptablesResult => {
    const r = runner(s);
    const o = r.run(args);
    return r.result(undefined, o.error, o.status);
  };

  /** Runs `first`, then (with its resulting state) `then`, concatenating the runs. */
  const chain = <A, B>(
    first: GoIptablesResult<A>,
    then: (s: IptablesState, a: A) => GoIptablesResult<B>,
  ): GoIptablesResult<B> => {
    const second = then(first.state, first.value);
    return {
      ...second,
      commands: [...first.commands, ...second.commands],
      runs: [...first.runs, ...second.runs],
    };
  };

  const api = {
    /** Exists(table, chain, rulespec...): `-C`; exit status 1 means false, not an error. */
    exists: (s: IptablesState, table: string, chain: string, ...rulespec: string[]) =>
      exists(s, table, chain, rulespec),

    /** Append(table, chain, rulespec...): `-A`. */
    append: (s: IptablesState, table: string, chain: string, ...rulespec: string[]) =>
      simple(s, ['-t', table, '-A', chain, ...rulespec]),

    /** AppendUnique(): Exists, then Append if missing. */
    appendUnique(s: IptablesState, table: string, chain: string, ...rulespec: string[]) {
      const e = exists(s, table, chain, rulespec);
      if (e.error !== null || e.value) return { ...e, value: undefined };
      return chain_(e, (st) => api.append(st, table, chain, ...rulespec));
    },

    /** Insert(table, chain, pos, rulespec...): `-I chain pos`. */
    insert: (s: IptablesState, table: string, chain: string, pos: number, ...rulespec: string[]) =>
      simple(s, ['-t', table, '-I', chain, String(pos), ...rulespec]),

    /** InsertUnique (later go-iptables): Exists, then Insert if missing. */
    insertUnique(
      s: IptablesState,
      table: string,
      chain: string,
      pos: number,
      ...rulespec: string[]
    ) {
      const e = exists(s, table, chain, rulespec);
      if (e.error !== null || e.value) return { ...e, value: undefined };
      return chain_(e, (st) => api.insert(st, table, chain, pos, ...rulespec));
    },

    /** Delete(table, chain, rulespec...): `-D`. */
    delete: (s: IptablesState, table: string, chain: string, ...rulespec: string[]) =>
      simple(s, ['-t', table, '-D', chain, ...rulespec]),

    /** DeleteIfExists(): Exists, then Delete if present. */
    deleteIfExists(s: IptablesState, table: string, chain: string, ...rulespec: string[]) {
      const e = exists(s, table, chain, rulespec);
      if (e.error !== null || !e.value) return { ...e, value: undefined };
      return chain_(e, (st) => api.delete(st, table, chain, ...rulespec));
    },

    /** List(table, chain): `-S chain`, one string per line. */
    list(s: IptablesState, table: string, chain: string): GoIptablesResult<string[] | null> {
      const r = runner(s);
      const o = r.run(['-t', table, '-S', chain]);
      if (o.error !== null) return r.result(null, o.error, o.status);
      return r.result(splitList(o.stdout));
    },

    /** ListWithCounters(table, chain): `-v -S chain`. */
    listWithCounters(
      s: IptablesState,
      table: string,
      chain: string,
    ): GoIptablesResult<string[] | null> {
      const r = runner(s);
      const o = r.run(['-t', table, '-v', '-S', chain]);
      if (o.error !== null) return r.result(null, o.error, o.status);
      return r.result(splitList(o.stdout));
    },

    /** ListChains(table): `-S`, the names of the -P and -N lines. */
    listChains(s: IptablesState, table: string): GoIptablesResult<string[] | null> {
      const r = runner(s);
      const o = r.run(['-t', table, '-S']);
      if (o.error !== null) return r.result(null, o.error, o.status);
      const chains: string[] = [];
      for (const line of splitList(o.stdout)) {
        if (!line.startsWith('-P') && !line.startsWith('-N')) break;
        chains.push(line.split(/\s+/)[1] ?? '');
      }
      return r.result(chains);
    },

    /** ChainExists(table, chain): `-S chain 1`; exit status 1 means false. */
    chainExists(s: IptablesState, table: string, chain: string): GoIptablesResult<boolean> {
      const r = runner(s);
      const o = r.run(['-t', table, '-S', chain, '1']);
      if (o.error === null) return r.result(true);
      if (o.status === 1) return r.result(false);
      return r.result(false, o.error, o.status);
    },

    /** NewChain(table, chain): `-N`. */
    newChain: (s: IptablesState, table: string, chain: string) =>
      simple(s, ['-t', table, '-N', chain]),

    /** ClearChain(table, chain): `-N`, and `-F` when it exists (exit status 1). */
    clearChain(s: IptablesState, table: string, chain: string): GoIptablesResult {
      const n = api.newChain(s, table, chain);
      if (n.error === null || n.exitStatus !== 1) return n;
      return chain_(n, (st) => simple(st, ['-t', table, '-F', chain]));
    },

    /** RenameChain(table, old, new): `-E`. */
    renameChain: (s: IptablesState, table: string, oldChain: string, newChain: string) =>
      simple(s, ['-t', table, '-E', oldChain, newChain]),

    /** DeleteChain(table, chain): `-X`. */
    deleteChain: (s: IptablesState, table: string, chain: string) =>
      simple(s, ['-t', table, '-X', chain]),

    /** ClearAndDeleteChain(): ChainExists, then `-F` and `-X`. */
    clearAndDeleteChain(s: IptablesState, table: string, chain: string): GoIptablesResult {
      const e = api.chainExists(s, table, chain);
      if (e.error !== null || !e.value) return { ...e, value: undefined };
      const f = chain_(e, (st) => simple(st, ['-t', table, '-F', chain]));
      if (f.error !== null) return f;
      return chain_(f, (st) => simple(st, ['-t', table, '-X', chain]));
    },

    /** ChangePolicy(table, chain, target): `-P`. */
    changePolicy: (s: IptablesState, table: string, chain: string, target: string) =>
      simple(s, ['-t', table, '-P', chain, target]),

    /** ClearAll(): `-F`. */
    clearAll: (s: IptablesState) => simple(s, ['-F']),

    /** DeleteAll(): `-X`. */
    deleteAll: (s: IptablesState) => simple(s, ['-X']),
  };
  const chain_ = chain;
  return api;
}

export type GoIptables = ReturnType<typeof goIptables>;
