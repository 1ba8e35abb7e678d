/**
 * What an iptables extension is (struct xtables_match / xtables_target) and the generic checks
 * of xtopt-style options (xtoptions.c).
 */
import { ParamError } from '../errors';
import type { ExtData, Family, Hook, TableName } from '../types';

export interface ExtOption {
  readonly name: string;
  readonly id: number;
  /** getopt has_arg: 0 none, 1 required. */
  readonly hasArg: 0 | 1;
  /** xtopt flags (only for xtopt-style extensions). */
  readonly invert?: boolean;
  readonly mand?: boolean;
  readonly multi?: boolean;
  /** Ids this option excludes (xtopt .excl). */
  readonly excl?: readonly number[];
}

export interface ParseInput {
  readonly id: number;
  readonly arg: string | undefined;
  readonly invert: boolean;
  readonly family: Family;
  /** Protocol given so far with -p (0 = none) and whether it was negated. */
  readonly proto: number;
  readonly protoInvert: boolean;
  /** Ids of this extension instance's options already seen. */
  readonly seen: number;
  /** argv[optind] (the word after the option's argument), if any. */
  peek(): string | undefined;
  /** optind++ */
  advance(): void;
  /** Extra stderr output printed while parsing (warnings). */
  warn(text: string): void;
}

export interface CheckCtx {
  readonly family: Family;
  readonly table: TableName;
  /** The hook of the base chain the rule is added to (creation-time checks), if any. */
  readonly hook: Hook | undefined;
  readonly proto: number;
  readonly protoInvert: boolean;
}

export interface RenderCtx {
  readonly family: Family;
  readonly proto: number;
}

export interface Extension {
  readonly name: string;
  readonly kind: 'match' | 'target';
  readonly families: readonly Family[];
  /** xtopt-style extensions get the generic once/invert/mandatory/exclusion checks. */
  readonly xtopt: boolean;
  readonly options: readonly ExtOption[];
  init(family: Family): ExtData;
  parse(data: ExtData, input: ParseInput): ExtData;
  /** x6_fcheck / final_check (run before the generic xtopt checks). */
  finalCheck?(data: ExtData, seen: number, family: Family): void;
  save(data: ExtData, ctx: RenderCtx): string;
  print(data: ExtData, numeric: boolean, ctx: RenderCtx): string;
  /** Kernel checkentry at rule creation: false = EINVAL. */
  checkEntry?(data: ExtData, ctx: CheckCtx): boolean;
  /** Targets: the xt table restriction (checked at creation). */
  readonly table?: TableName;
  /** Targets: the hooks they are valid in (checked from every base chain that reaches them). */
  readonly hooks?: readonly Hook[];
}

function canonicalName(ext: Extension, id: number): string {
  return ext.options.find((o) => o.id === id)?.name ?? '';
}

/** xtables_option_parse(): the generic checks of xtopt-style options. */
export function xtoptPreParse(ext: Extension, opt: ExtOption, seen: number, invert: boolean): void {
  const name = canonicalName(ext, opt.id);
  const eflag = 1 << opt.id;
  if ((!opt.multi || (opt.excl ?? []).includes(opt.id)) && (seen & eflag) !== 0)
    throw new ParamError(`${ext.name}: option "--${name}" can only be used once.\n`);
  if (invert && !opt.invert)
    throw new ParamError(`${ext.name}: option "--${name}" cannot be inverted.\n`);
}

/** xtables_options_fcheck(). */
export function xtoptFinalCheck(ext: Extension, seen: number): void {
  const done = new Set<number>();
  for (const entry of ext.options) {
    if (done.has(entry.id)) continue;
    done.add(entry.id);
    if (entry.mand && (seen & (1 << entry.id)) === 0)
      throw new ParamError(`${ext.name}: option "--${entry.name}" must be specified\n`);
    if ((seen & (1 << entry.id)) === 0) continue;
    for (const i of [...(entry.excl ?? [])].sort((a, b) => a - b)) {
      if (i === entry.id || (seen & (1 << i)) === 0) continue;
      throw new ParamError(
        `${ext.name}: option "--${entry.name}" cannot be used together with "--${canonicalName(ext, i)}".\n`,
      );
    }
  }
}
