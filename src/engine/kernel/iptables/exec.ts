/**
 * Running `iptables` / `ip6tables` (iptables-nft 1.8.9) against the model state: the command
 * semantics of xtables.c do_commandx() / nft.c, including which commands create a table or a
 * built-in chain (on demand, like nf_tables), the kernel's rule validation (table/hook
 * restrictions of targets, jump depth), and every error text and exit code.
 */
import { isModelError, OtherError, ParamError, TryHelpError, VersionError } from './errors';
import { findMatch, findTarget } from './ext';
import {
  CMD_APPEND,
  CMD_CHECK,
  CMD_DELETE,
  CMD_DELETE_CHAIN,
  CMD_DELETE_NUM,
  CMD_FLUSH,
  CMD_INSERT,
  CMD_LIST,
  CMD_LIST_RULES,
  CMD_NEW_CHAIN,
  CMD_RENAME_CHAIN,
  CMD_REPLACE,
  CMD_SET_POLICY,
  CMD_ZERO,
  CMD_ZERO_NUM,
  OPT_EXPANDED,
  OPT_LINENUMBERS,
  OPT_NUMERIC,
  OPT_VERBOSE,
  parseCommandLine,
  type ParsedCommand,
} from './parse';
import { listHeader, listRuleLine, ruleKey, ruleSpecText, type ListFormat } from './render';
import { buildRules, postParse, type RuleTemplate } from './rule';
import { emptyTable, tableOf, tget, tscan, withEntry, withoutEntry } from '../../state/table';
import {
  BUILTIN_CHAINS,
  type ChainState,
  type Counters,
  type Family,
  type Hook,
  type IptablesRunResult,
  type IptablesState,
  type Rule,
  TABLE_ORDER,
  type TableName,
  type TableState,
  ZERO_COUNTERS,
} from './types';

/** nft_strerror() failure: "iptables: <message>." exit 1. */
class NftFail {
  constructor(
    readonly message: string,
    readonly einval = false,
  ) {}
}

/** A batch the kernel rejected: exit 4. */
class KernelFail {
  constructor(
    readonly op: string,
    readonly err: string,
    readonly what: string,
  ) {}
}

const NO_CHAIN = 'No chain/target/match by that name';
const BAD_RULE = 'Bad rule (does a matching rule exist in that chain?)';

function isTable(name: string): name is TableName {
  return (TABLE_ORDER as readonly string[]).includes(name);
}

// ------------------------------------------------------------------------------------------------
// Table helpers (all pure).

export function builtins(table: TableName): readonly Hook[] {
  return BUILTIN_CHAINS[table];
}

function isBuiltinName(table: TableName, name: string): boolean {
  return (builtins(table) as readonly string[]).includes(name);
}

/** A chain iptables can see: a user chain, or a built-in base chain under its own name. */
export function visibleChain(
  t: TableState | undefined,
  table: TableName,
  name: string,
): ChainState | undefined {
  const c = chainNamed(t, name);
  return c && (c.hook === undefined || (c.hook === c.name && isBuiltinName(table, c.name)))
    ? c
    : undefined;
}

function userChain(t: TableState | undefined, name: string): ChainState | undefined {
  const c = chainNamed(t, name);
  return c?.hook === undefined ? c : undefined;
}

/** The chain called `name`, whatever its kind. */
export function chainNamed(t: TableState | undefined, name: string): ChainState | undefined {
  return t ? tget(t.chains, name) : undefined;
}

/**
 * Every chain of the table, in no particular order: listings compute theirs (built-ins, then
 * user chains by name), and a sorted copy per table version would cost each step O(chains).
 */
export function chainsOf(t: TableState | undefined): readonly ChainState[] {
  return t ? [...tscan(t.chains)] : [];
}

/** `t` with `c` set under its name (a new table when `t` has none). */
function putChain(t: TableState | undefined, c: ChainState): TableState {
  return { chains: withEntry(t?.chains ?? emptyTable<ChainState>(), c.name, c) };
}

/** `t` with each chain replaced by `f`'s answer (the same table when nothing changes). */
function mapChains(t: TableState, f: (c: ChainState) => ChainState | undefined): TableState {
  let changed = false;
  const out: [string, ChainState][] = [];
  for (const c of tscan(t.chains)) {
    const n = f(c);
    if (n !== c) changed = true;
    if (n) out.push([n.name, n]);
  }
  return changed ? { chains: tableOf(out) } : t;
}

export function hasIncompatible(t: TableState | undefined): boolean {
  return chainsOf(t).some((c) => c.hook !== undefined && c.hook !== c.name);
}

/** User chains sorted by name (strcmp). */
export function sortedUserChains(t: TableState | undefined): ChainState[] {
  return chainsOf(t)
    .filter((c) => c.hook === undefined)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function references(t: TableState | undefined, name: string): number {
  let n = 0;
  for (const c of chainsOf(t))
    for (const r of c.rules) if (r.target?.kind === 'chain' && r.target.chain === name) n++;
  return n;
}

function newBase(hook: Hook): ChainState {
  return { name: hook, hook, policy: 'ACCEPT', counters: ZERO_COUNTERS, rules: [] };
}

function ensureBuiltin(t: TableState | undefined, table: TableName, name: string): TableState {
  const cur = t ?? { chains: emptyTable<ChainState>() };
  if (!isBuiltinName(table, name) || visibleChain(cur, table, name)) return cur;
  return putChain(cur, newBase(name as Hook));
}

function replaceChain(t: TableState, name: string, f: (c: ChainState) => ChainState): TableState {
  const c = chainNamed(t, name);
  if (!c || (c.hook !== undefined && c.hook !== c.name)) return t;
  const n = f(c);
  return n === c ? t : putChain(t, n);
}

function zeroRule(r: Rule): Rule {
  return r.counters === ZERO_COUNTERS || (r.counters.packets === '0' && r.counters.bytes === '0')
    ? r
    : { ...r, counters: ZERO_COUNTERS };
}

function zeroChain(c: ChainState): ChainState {
  return {
    ...c,
    ...(c.hook !== undefined ? { counters: ZERO_COUNTERS } : {}),
    rules: c.rules.map(zeroRule),
  };
}

// ------------------------------------------------------------------------------------------------
// Kernel validation of a table after a rule change.

interface ValidateCtx {
  readonly table: TableName;
  readonly family: Family;
}

/** Checks done when the kernel creates a rule in `chain` (xt checkentry, verdict lookup). */
function creationCheck(
  t: TableState,
  chain: ChainState,
  rule: Rule,
  anyInvert: boolean,
  v: ValidateCtx,
): string | undefined {
  if (anyInvert) return 'Invalid argument';
  const hook = chain.hook;
  const ctx = {
    family: v.family,
    table: v.table,
    hook,
    proto: rule.proto?.num ?? 0,
    protoInvert: rule.proto?.invert ?? false,
  };
  for (const m of rule.matches) {
    const ext = findMatch(m.name, v.family);
    if (ext?.checkEntry && !ext.checkEntry(m.data, ctx)) return 'Invalid argument';
  }
  const tg = rule.target;
  if (tg?.kind === 'verdict' && tg.verdict === 'QUEUE') return 'No such file or directory';
  if (tg?.kind === 'ext') {
    const ext = findTarget(tg.name, v.family);
    if (ext) {
      if (ext.table !== undefined && ext.table !== v.table) return 'Invalid argument';
      if (hook !== undefined && ext.hooks && !ext.hooks.includes(hook)) return 'Invalid argument';
      if (ext.checkEntry && !ext.checkEntry(tg.data, ctx)) return 'Invalid argument';
    }
  }
  if (tg?.kind === 'chain') {
    const dest = chainNamed(t, tg.chain);
    if (isBuiltinName(v.table, tg.chain)) {
      return dest ? 'Operation not supported' : 'No such file or directory';
    }
    if (!dest) return 'No such file or directory';
    if (dest.hook !== undefined) return 'Operation not supported';
  }
  return undefined;
}

/** nft_table_validate(): from every base chain, jump depth < 16 and target hook masks. */
function walkValidate(t: TableState, v: ValidateCtx): string | undefined {
  const byName = {
    get: (name: string): ChainState | undefined => userChain(t, name),
  };
  const heights = new Map<ChainState, number>();
  const onStack = new Set<ChainState>();
  const LOOP = -1;
  const height = (c: ChainState): number => {
    const memo = heights.get(c);
    if (memo !== undefined) return memo;
    if (onStack.has(c)) return LOOP;
    onStack.add(c);
    let h = 0;
    for (const r of c.rules) {
      if (r.target?.kind !== 'chain') continue;
      const next = byName.get(r.target.chain);
      if (!next) continue;
      const sub = height(next);
      if (sub === LOOP) return LOOP;
      h = Math.max(h, sub + 1);
    }
    onStack.delete(c);
    heights.set(c, h);
    return h;
  };
  for (const base of chainsOf(t)) {
    if (base.hook === undefined) continue;
    const hb = height(base);
    if (hb === LOOP || hb >= 16) return 'Too many links';
    const hook = base.hook;
    const seen = new Set<ChainState>([base]);
    const todo: ChainState[] = [base];
    while (todo.length > 0) {
      const c = todo.pop()!;
      for (const r of c.rules) {
        const tg = r.target;
        if (tg?.kind === 'ext') {
          const ext = findTarget(tg.name, v.family);
          if (ext?.hooks && !ext.hooks.includes(hook)) return 'Invalid argument';
        } else if (tg?.kind === 'chain') {
          const next = byName.get(tg.chain);
          if (next && !seen.has(next)) {
            seen.add(next);
            todo.push(next);
          }
        }
      }
    }
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------------
// Listing.

function policyOf(t: TableState | undefined, name: string): { policy: string; counters: Counters } {
  const c = chainNamed(t, name);
  if (c && c.hook !== name) return { policy: 'ACCEPT', counters: ZERO_COUNTERS };
  return { policy: c?.policy ?? 'ACCEPT', counters: c?.counters ?? ZERO_COUNTERS };
}

interface ListedChain {
  readonly name: string;
  readonly builtin: boolean;
  readonly rules: readonly Rule[];
}

/** Chains in listing order: built-ins (fake when absent) then user chains by name. */
export function listedChains(t: TableState | undefined, table: TableName): ListedChain[] {
  const out: ListedChain[] = builtins(table).map((h) => ({
    name: h,
    builtin: true,
    rules: visibleChain(t, table, h)?.rules ?? [],
  }));
  for (const c of sortedUserChains(t)) out.push({ name: c.name, builtin: false, rules: c.rules });
  return out;
}

function incompatibleChainError(name: string, table: string): OtherError {
  return new OtherError(`chain \`${name}' in table \`${table}' is incompatible, use 'nft' tool.`);
}

function listL(
  t: TableState | undefined,
  table: TableName,
  family: Family,
  chain: string | undefined,
  rulenum: number,
  fmt: ListFormat,
): string {
  let chains = listedChains(t, table);
  if (chain !== undefined) {
    chains = chains.filter((c) => c.name === chain);
    if (chains.length === 0) throw incompatibleChainError(chain, table);
  }
  let out =
    chain === undefined && hasIncompatible(t)
      ? `# Table \`${table}' contains incompatible base-chains, use 'nft' tool to list them.\n`
      : '';
  let first = true;
  for (const c of chains) {
    if (rulenum === 0) {
      if (!first) out += '\n';
      out += listHeader(
        c.name,
        c.builtin ? policyOf(t, c.name) : undefined,
        references(t, c.name),
        fmt,
      );
    }
    first = false;
    c.rules.forEach((r, i) => {
      if (rulenum === 0 || rulenum === i + 1) out += listRuleLine(r, family, fmt, i + 1);
    });
  }
  return out;
}

function listS(
  t: TableState | undefined,
  table: TableName,
  family: Family,
  chain: string | undefined,
  rulenum: number,
  verbose: boolean,
): string {
  let chains = listedChains(t, table);
  if (chain !== undefined) {
    chains = chains.filter((c) => c.name === chain);
    if (chains.length === 0) throw incompatibleChainError(chain, table);
  }
  let out =
    chain === undefined && hasIncompatible(t)
      ? `# Table \`${table}' contains incompatible base-chains, use 'nft' tool to list them.\n`
      : '';
  if (rulenum === 0) {
    for (const c of chains) {
      if (c.builtin) {
        const p = policyOf(t, c.name);
        out += `-P ${c.name} ${p.policy}`;
        if (verbose) out += ` -c ${p.counters.packets} ${p.counters.bytes}`;
        out += '\n';
      } else out += newChainLine(c.name);
    }
  }
  for (const c of chains)
    c.rules.forEach((r, i) => {
      if (rulenum === 0 || rulenum === i + 1)
        out += verbose
          ? `-A ${c.name}${ruleSpecText(r, family, r.counters)}\n`
          : appendLine(c.name, r);
    });
  return out;
}

/*
 * The lines of `-S` listings, kept and reused: a plugin lists the whole nat table at every ADD
 * (go-iptables' ChainExists runs `iptables -t nat -S`), and the trace keeps each listing. Built
 * from shared lines, a listing is a rope (V8 concatenates long strings by reference) that costs
 * a pointer pair per line instead of a copy of every line: at 500 pods, tens of megabytes
 * (issue 13 e). Rules are immutable and shared between states, so a rule's line lives as long as
 * the rule; `-N` lines are few per pod and kept in a bounded cache.
 */
const APPEND_LINES = new WeakMap<Rule, { chain: string; line: string }>();

function appendLine(chain: string, r: Rule): string {
  const hit = APPEND_LINES.get(r);
  if (hit && hit.chain === chain) return hit.line;
  const line = r.key === '' ? `-A ${chain}\n` : `-A ${chain} ${r.key}\n`;
  APPEND_LINES.set(r, { chain, line });
  return line;
}

const NEW_CHAIN_LINES = new Map<string, string>();
const NEW_CHAIN_LINES_MAX = 4096;

function newChainLine(chain: string): string {
  let line = NEW_CHAIN_LINES.get(chain);
  if (line === undefined) {
    if (NEW_CHAIN_LINES.size >= NEW_CHAIN_LINES_MAX) NEW_CHAIN_LINES.clear();
    line = `-N ${chain}\n`;
    NEW_CHAIN_LINES.set(chain, line);
  }
  return line;
}

// ------------------------------------------------------------------------------------------------
// Commands.

interface Run {
  readonly family: Family;
  readonly prog: string;
  readonly table: TableName;
  stdout: string;
  stderr: string;
}

function withTable(
  state: IptablesState,
  family: Family,
  table: TableName,
  t: TableState | undefined,
): IptablesState {
  const tables = { ...state[family] };
  if (t === undefined) delete tables[table];
  else tables[table] = t;
  return { ...state, [family]: tables };
}

function execute(
  state: IptablesState,
  p: ParsedCommand,
  tpl: RuleTemplate,
  run: Run,
): IptablesState {
  const { family, table } = run;
  const v: ValidateCtx = { table, family };
  const orig = state[family][table];
  const t = orig;
  const chain = p.chain ?? '';
  const verbose = (p.options & OPT_VERBOSE) !== 0;
  const fmt: ListFormat = {
    numeric: (p.options & OPT_NUMERIC) !== 0,
    verbose,
    exact: (p.options & OPT_EXPANDED) !== 0,
    lineNumbers: (p.options & OPT_LINENUMBERS) !== 0,
  };
  const cmd = p.command;
  const printRule = (r: Rule): void => {
    if (verbose) run.stdout += listRuleLine(r, family, fmt, 0, true);
  };
  const commit = (nt: TableState | undefined): IptablesState =>
    nt === orig ? state : withTable(state, family, table, nt);

  // Rule commands need the rules built first.
  if (cmd & (CMD_APPEND | CMD_INSERT | CMD_REPLACE | CMD_CHECK | CMD_DELETE)) {
    const jump =
      p.target === undefined &&
      p.jumpto !== '' &&
      (p.goto || !['ACCEPT', 'DROP', 'RETURN', 'QUEUE'].includes(p.jumpto));
    if (jump && !isBuiltinName(table, p.jumpto) && !userChain(t, p.jumpto))
      throw new ParamError(`Chain '${p.jumpto}' does not exist`);
    const built = buildRules(p, tpl, family);

    if (cmd === CMD_CHECK) {
      const c = visibleChain(t, table, chain);
      for (const b of built) {
        if (!c || !c.rules.some((r) => r.key === b.rule.key)) throw new NftFail(BAD_RULE);
        printRule(c.rules.find((r) => r.key === b.rule.key)!);
      }
      return state;
    }
    if (cmd === CMD_DELETE) {
      let cur = t;
      for (const b of built) {
        const c = visibleChain(cur, table, chain);
        if (!c) throw new NftFail(BAD_RULE);
        const idx = c.rules.findIndex((r) => r.key === b.rule.key);
        if (idx < 0) throw new NftFail(BAD_RULE);
        printRule(c.rules[idx]!);
        cur = replaceChain(cur!, chain, (x) => ({
          ...x,
          rules: x.rules.filter((_, i) => i !== idx),
        }));
      }
      return commit(cur);
    }
    // APPEND / INSERT / REPLACE
    let cur = t;
    const pending: { op: string; rule: Rule; anyInvert: boolean }[] = [];
    for (const b of built) {
      let op: string;
      if (cmd === CMD_REPLACE) {
        const c = visibleChain(cur, table, chain);
        if (!c) throw new NftFail(NO_CHAIN);
        if (p.rulenum > c.rules.length) throw new NftFail('Index of replacement too big');
        op = 'RULE_REPLACE';
        const idx = p.rulenum - 1;
        cur = replaceChain(cur!, chain, (x) => ({
          ...x,
          rules: x.rules.map((r, i) => (i === idx ? b.rule : r)),
        }));
      } else {
        cur = ensureBuiltin(cur, table, chain);
        const c = visibleChain(cur, table, chain);
        if (!c) throw new NftFail(NO_CHAIN);
        let pos = c.rules.length;
        op = 'RULE_APPEND';
        if (cmd === CMD_INSERT) {
          if (p.rulenum === 1) {
            pos = 0;
            op = 'RULE_INSERT';
          } else if (p.rulenum <= c.rules.length) {
            pos = p.rulenum - 1;
            op = 'RULE_INSERT';
          } else if (p.rulenum !== c.rules.length + 1) {
            throw new NftFail('Index of insertion too big');
          }
        }
        cur = replaceChain(cur, chain, (x) => ({
          ...x,
          rules: [...x.rules.slice(0, pos), b.rule, ...x.rules.slice(pos)],
        }));
      }
      printRule(b.rule);
      pending.push({ op, rule: b.rule, anyInvert: b.invalidAnyInvert });
    }
    const final = cur!;
    for (const pr of pending) {
      const c = visibleChain(final, table, chain)!;
      const err = creationCheck(final, c, pr.rule, pr.anyInvert, v);
      if (err) throw new KernelFail(pr.op, err, `rule in chain ${chain}`);
    }
    // The table was valid before: only a jump or a hook-restricted target can invalidate it.
    const needsWalk = pending.some(
      (pr) =>
        pr.rule.target?.kind === 'chain' ||
        (pr.rule.target?.kind === 'ext' && findTarget(pr.rule.target.name, family)?.hooks),
    );
    const werr = needsWalk ? walkValidate(final, v) : undefined;
    if (werr) throw new KernelFail(pending[0]?.op ?? 'RULE_APPEND', werr, `rule in chain ${chain}`);
    return commit(final);
  }

  if (cmd === CMD_DELETE_NUM) {
    const c = visibleChain(t, table, chain);
    if (!c) throw new NftFail(NO_CHAIN);
    if (p.rulenum > c.rules.length) throw new NftFail('Index of deletion too big');
    return commit(
      replaceChain(t!, chain, (x) => ({
        ...x,
        rules: x.rules.filter((_, i) => i !== p.rulenum - 1),
      })),
    );
  }

  if (cmd === CMD_NEW_CHAIN) {
    if (isBuiltinName(table, chain) || userChain(t, chain))
      throw new NftFail('Chain already exists');
    if (chainNamed(t, chain))
      throw new KernelFail('CHAIN_USER_ADD', 'File exists', `chain ${chain}`);
    return commit(putChain(t, { name: chain, rules: [] }));
  }

  if (cmd === CMD_DELETE_CHAIN) {
    if (p.chain !== undefined) {
      const c = userChain(t, chain);
      if (!c) throw new NftFail(NO_CHAIN);
      if (verbose) run.stdout += `Deleting chain \`${chain}'\n`;
      if (c.rules.length > 0 || references(t, chain) > 0)
        throw new KernelFail('CHAIN_DEL', 'Device or resource busy', `chain ${chain}`);
      return commit({ chains: withoutEntry(t!.chains, c.name) });
    }
    if (!t) return state;
    const users = sortedUserChains(t);
    if (verbose) for (const c of users) run.stdout += `Deleting chain \`${c.name}'\n`;
    const busy = users.find((c) => c.rules.length > 0 || references(t, c.name) > 0);
    if (busy) throw new KernelFail('CHAIN_DEL', 'Device or resource busy', `chain ${busy.name}`);
    return users.length === 0
      ? state
      : commit(mapChains(t, (c) => (c.hook !== undefined ? c : undefined)));
  }

  if (cmd === CMD_RENAME_CHAIN) {
    const newname = p.newname ?? '';
    if (isBuiltinName(table, newname) || userChain(t, newname)) throw new NftFail('File exists');
    const c = visibleChain(t, table, chain);
    if (!c) throw new NftFail(NO_CHAIN);
    if (chainNamed(t, newname))
      throw new KernelFail('CHAIN_RENAME', 'File exists', `chain ${newname}`);
    return commit(
      mapChains(t!, (x) => {
        const renamed = x === c ? { ...x, name: newname } : x;
        if (!renamed.rules.some((r) => r.target?.kind === 'chain' && r.target.chain === chain))
          return renamed;
        return {
          ...renamed,
          rules: renamed.rules.map((r) => {
            if (r.target?.kind !== 'chain' || r.target.chain !== chain) return r;
            const nr = { ...r, target: { ...r.target, chain: newname } };
            return { ...nr, key: ruleKey(nr, family) };
          }),
        };
      }),
    );
  }

  if (cmd === CMD_SET_POLICY) {
    const policy = p.policy ?? '';
    if (policy !== 'ACCEPT' && policy !== 'DROP') throw new NftFail('Bad policy name', true);
    if (!isBuiltinName(table, chain)) throw new NftFail('Bad built-in chain name');
    const cur = ensureBuiltin(t, table, chain);
    return commit(replaceChain(cur, chain, (c) => ({ ...c, policy })));
  }

  if (cmd === CMD_FLUSH) {
    if (p.chain !== undefined) {
      const cur = ensureBuiltin(t, table, chain);
      if (!visibleChain(cur, table, chain)) throw new NftFail(NO_CHAIN);
      if (verbose) run.stdout += `Flushing chain \`${chain}'\n`;
      return commit(replaceChain(cur, chain, (c) => (c.rules.length ? { ...c, rules: [] } : c)));
    }
    if (verbose) {
      let cur: TableState | undefined = t;
      for (const h of builtins(table)) cur = ensureBuiltin(cur, table, h);
      for (const c of listedChains(cur, table)) run.stdout += `Flushing chain \`${c.name}'\n`;
      return commit(mapChains(cur!, (c) => (c.rules.length ? { ...c, rules: [] } : c)));
    }
    if (!t) return state;
    return commit(mapChains(t, (c) => (c.rules.length ? { ...c, rules: [] } : c)));
  }

  // Listing and zeroing (possibly combined).
  const listing = (cmd & (CMD_LIST | CMD_LIST_RULES)) !== 0;
  if (listing) {
    run.stdout +=
      cmd & CMD_LIST
        ? listL(t, table, family, p.chain, p.rulenum, fmt)
        : listS(t, table, family, p.chain, p.rulenum, verbose);
  }
  if (cmd & CMD_ZERO) {
    if (p.chain !== undefined) {
      let cur = t;
      if (listing) {
        if (!isBuiltinName(table, chain) && !userChain(cur, chain)) throw new NftFail(NO_CHAIN);
        if (verbose) run.stdout += `Zeroing chain \`${chain}'\n`;
        if (!cur && isBuiltinName(table, chain))
          throw new KernelFail('CHAIN_ZERO', 'No such file or directory', `chain ${chain}`);
        cur = ensureBuiltin(cur, table, chain);
      } else {
        if (!visibleChain(cur, table, chain)) throw new NftFail(NO_CHAIN);
        if (verbose) run.stdout += `Zeroing chain \`${chain}'\n`;
      }
      return commit(replaceChain(cur!, chain, zeroChain));
    }
    if (listing) {
      const names = listedChains(t, table).map((c) => c.name);
      if (verbose) for (const n of names) run.stdout += `Zeroing chain \`${n}'\n`;
      if (!t)
        throw new KernelFail('CHAIN_ZERO', 'No such file or directory', `chain ${names[0] ?? ''}`);
      let cur: TableState = t;
      for (const h of builtins(table)) cur = ensureBuiltin(cur, table, h);
      return commit(mapChains(cur, zeroChain));
    }
    if (!t) return state;
    if (verbose)
      for (const c of listedChains(t, table))
        if (visibleChain(t, table, c.name)) run.stdout += `Zeroing chain \`${c.name}'\n`;
    return commit(mapChains(t, zeroChain));
  }
  if (cmd & CMD_ZERO_NUM) {
    const c =
      listing && isBuiltinName(table, chain)
        ? { rules: visibleChain(t, table, chain)?.rules ?? [] }
        : visibleChain(t, table, chain);
    if (!c) throw new NftFail(BAD_RULE);
    const idx = p.rulenum - 1;
    if (idx >= c.rules.length || !t) return state;
    return commit(
      replaceChain(t, chain, (x) => ({
        ...x,
        rules: x.rules.map((r, i) => (i === idx ? zeroRule(r) : r)),
      })),
    );
  }
  return state;
}

// ------------------------------------------------------------------------------------------------
// Entry point.

export function runIptablesImpl(
  state: IptablesState,
  family: Family,
  argv: readonly string[],
): IptablesRunResult {
  const prog = family === 'ipv4' ? 'iptables' : 'ip6tables';
  const head = `${prog} v1.8.9 (nf_tables): `;
  const tryHelp = `Try \`${prog} -h' or '${prog} --help' for more information.\n`;
  let stdout = '';
  let stderr = '';
  try {
    const sink = { stderr: '' };
    let p: ParsedCommand;
    try {
      p = parseCommandLine(
        family,
        argv.map((a) => String(a)),
        sink,
      );
    } finally {
      stderr += sink.stderr;
    }
    stdout += p.stdout;
    if (p.early !== undefined) return { state, exitCode: 0, stdout, stderr };
    const tpl = postParse(p, family);
    if (!isTable(p.table)) throw new VersionError(`table '${p.table}' does not exist`);
    const run: Run = { family, prog, table: p.table, stdout: '', stderr: '' };
    try {
      const next = execute(state, p, tpl, run);
      return { state: next, exitCode: 0, stdout: stdout + run.stdout, stderr: stderr + run.stderr };
    } finally {
      stdout += run.stdout;
      stderr += run.stderr;
    }
  } catch (e) {
    if (e instanceof NftFail) {
      const tail = e.einval ? " Run `dmesg' for more information." : '';
      return { state, exitCode: 1, stdout, stderr: stderr + `${prog}: ${e.message}.${tail}\n` };
    }
    if (e instanceof KernelFail)
      return {
        state,
        exitCode: 4,
        stdout,
        stderr: stderr + `${head} ${e.op} failed (${e.err}): ${e.what}\n`,
      };
    if (isModelError(e)) {
      if (e instanceof ParamError)
        return { state, exitCode: 2, stdout, stderr: stderr + head + e.message + '\n' + tryHelp };
      if (e instanceof TryHelpError)
        return { state, exitCode: 2, stdout, stderr: stderr + e.prefix + tryHelp };
      if (e instanceof VersionError)
        return {
          state,
          exitCode: 3,
          stdout,
          stderr:
            stderr + head + e.message + `\nPerhaps ${prog} or your kernel needs to be upgraded.\n`,
        };
      return { state, exitCode: 1, stdout, stderr: stderr + head + e.message + '\n' };
    }
    return {
      state,
      exitCode: 1,
      stdout,
      stderr:
        stderr + `${head}internal simulator error: ${e instanceof Error ? e.message : String(e)}\n`,
    };
  }
}
