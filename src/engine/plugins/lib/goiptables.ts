/**
 * coreos/go-iptables as the CNI plugins use it: every method runs the iptables binary with
 * `--wait` in the host namespace; a failure is an *iptables.Error whose text is
 * `running [/usr/sbin/iptables -t nat -N X --wait]: exit status 1: iptables: Chain already exists.\n`.
 */
import { GoError } from '../../cni/errors';
import { iptablesModule } from '../../kernel/iptables/provider';
import type { Gen, Sys } from '../../os/sys';
import { freezeFresh } from '../../state/freeze';
import { tget } from '../../state/table';

export type Proto = 'ipv4' | 'ipv6';

export class IptablesError extends GoError {
  constructor(
    readonly argv: string[],
    readonly exitStatus: number,
    readonly msg: string,
  ) {
    super(`running [${argv.join(' ')}]: exit status ${exitStatus}: ${msg}`);
  }
  isNotExist(): boolean {
    if (this.exitStatus !== 1) return false;
    return (
      this.msg.includes('Bad rule (does a matching rule exist in that chain?).\n') ||
      this.msg.includes('No chain/target/match by that name.\n')
    );
  }
}

export function isNotExist(e: unknown): boolean {
  return e instanceof IptablesError && e.isNotExist();
}

/** How the binary exited. */
interface Exit {
  argv: string[];
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** stdout of a run that exited 0; else the *iptables.Error go-iptables returns. */
function ok(r: Exit): string {
  if (r.exitCode !== 0) throw new IptablesError(r.argv, r.exitCode, r.stderr);
  return r.stdout;
}

const READ_ONLY = new Set(['-C', '-S', '-L', '--check', '--list', '--list-rules']);

export class IPTables {
  readonly path: string;
  constructor(
    readonly sys: Sys,
    readonly proto: Proto,
  ) {
    this.path = proto === 'ipv4' ? '/usr/sbin/iptables' : '/usr/sbin/ip6tables';
  }

  /** Runs the binary; returns stdout or throws IptablesError. */
  *run(args: string[]): Gen<string> {
    return ok(yield* this.runStatus(args));
  }

  /** Runs the binary; returns how it exited, a failure included. */
  private *runStatus(args: string[]): Gen<Exit> {
    return yield* this.exec(
      [...args, '--wait'],
      args.some((a) => READ_ONLY.has(a)),
    );
  }

  /**
   * `iptables --version`, which go-iptables' New() / NewWithProtocol() runs (without `--wait`)
   * to learn the version and mode before any other command: one step of its own.
   */
  *version(): Gen<string> {
    return ok(yield* this.exec(['--version'], true));
  }

  private *exec(argv: string[], readOnly: boolean): Gen<Exit> {
    const full = [this.path, ...argv];
    const ns = this.sys.hostNs;
    const before = tget(this.sys.kernel.netns, ns)!.iptables;
    const r = iptablesModule().run(before, this.proto, argv);
    yield* this.sys.kernelOp(
      readOnly ? 'iptables.query' : 'iptables',
      `${full.map(shellQuote).join(' ')}${r.exitCode !== 0 ? `  -> exit ${r.exitCode}: ${r.stderr.trim()}` : ''}`,
      { argv: full, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, readOnly },
      (k) => {
        if (!readOnly && r.state !== before) tget(k.netns, ns)!.iptables = freezeFresh(r.state);
      },
    );
    // A listing is a rope of lines shared with the other listings the trace keeps
    // (kernel/iptables/exec.ts); reading it would flatten the trace's copy in place, so the caller
    // parses a flat copy of its own.
    const stdout = r.exitCode === 0 && readOnly ? flatCopy(r.stdout) : r.stdout;
    return { argv: full, exitCode: r.exitCode, stdout, stderr: r.stderr };
  }

  /**
   * go-iptables' Exists: `-C`, true when it exits 0, false when it exits 1 (no such rule), the
   * error otherwise. The expected miss builds no error object (a stack trace per `-C`).
   */
  *exists(table: string, chain: string, rule: string[]): Gen<boolean> {
    const r = yield* this.runStatus(['-t', table, '-C', chain, ...rule]);
    if (r.exitCode === 1) return false;
    ok(r);
    return true;
  }

  *append(table: string, chain: string, rule: string[]): Gen<void> {
    yield* this.run(['-t', table, '-A', chain, ...rule]);
  }

  *insert(table: string, chain: string, pos: number, rule: string[]): Gen<void> {
    yield* this.run(['-t', table, '-I', chain, String(pos), ...rule]);
  }

  *appendUnique(table: string, chain: string, rule: string[]): Gen<void> {
    if (!(yield* this.exists(table, chain, rule))) yield* this.append(table, chain, rule);
  }

  *insertUnique(table: string, chain: string, pos: number, rule: string[]): Gen<void> {
    if (!(yield* this.exists(table, chain, rule))) yield* this.insert(table, chain, pos, rule);
  }

  *delete(table: string, chain: string, rule: string[]): Gen<void> {
    yield* this.run(['-t', table, '-D', chain, ...rule]);
  }

  *deleteIfExists(table: string, chain: string, rule: string[]): Gen<void> {
    if (yield* this.exists(table, chain, rule)) yield* this.delete(table, chain, rule);
  }

  *list(table: string, chain: string): Gen<string[]> {
    const out = yield* this.run(['-t', table, '-S', chain]);
    return splitLines(out);
  }

  *listChains(table: string): Gen<string[]> {
    const lines = splitLines(yield* this.run(['-t', table, '-S']));
    const chains: string[] = [];
    for (const l of lines) {
      if (l.startsWith('-P') || l.startsWith('-N')) chains.push(l.split(/\s+/)[1] ?? '');
      else break;
    }
    return chains;
  }

  *chainExists(table: string, chain: string): Gen<boolean> {
    try {
      yield* this.run(['-t', table, '-S', chain, '1']);
      return true;
    } catch (e) {
      if (e instanceof IptablesError && e.exitStatus === 1) return false;
      throw e;
    }
  }

  *newChain(table: string, chain: string): Gen<void> {
    yield* this.run(['-t', table, '-N', chain]);
  }

  *clearChain(table: string, chain: string): Gen<void> {
    try {
      yield* this.newChain(table, chain);
    } catch (e) {
      if (e instanceof IptablesError && e.exitStatus === 1) {
        yield* this.run(['-t', table, '-F', chain]);
        return;
      }
      throw e;
    }
  }

  *deleteChain(table: string, chain: string): Gen<void> {
    yield* this.run(['-t', table, '-X', chain]);
  }

  *clearAndDeleteChain(table: string, chain: string): Gen<void> {
    if (!(yield* this.chainExists(table, chain))) return;
    yield* this.run(['-t', table, '-F', chain]);
    yield* this.run(['-t', table, '-X', chain]);
  }
}

/**
 * go-iptables' `iptables.NewWithProtocol(proto)`: runs `<binary> --version` (one step) and
 * returns the handle. The plugins call it each time they need a handle.
 */
export function* newWithProtocol(sys: Sys, proto: Proto): Gen<IPTables> {
  const ipt = new IPTables(sys, proto);
  yield* ipt.version();
  return ipt;
}

/** Quotes an argument for display the way a shell user would type it. */
export function shellQuote(a: string): string {
  if (a !== '' && /^[A-Za-z0-9_\-+=/.:,@%!^]+$/.test(a)) return a;
  return `'${a.replace(/'/g, `'\\''`)}'`;
}

function splitLines(out: string): string[] {
  const lines = out.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The same text in a string of its own: `' ' + s` is a new rope over `s`, and slicing flattens
 * that new rope, not `s`.
 */
export function flatCopy(s: string): string {
  return (' ' + s).slice(1);
}
