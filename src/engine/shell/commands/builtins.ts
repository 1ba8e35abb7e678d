/**
 * Shell builtins and small programs: true false : cd pwd export let (( break continue unset exit
 * history sleep env
 * bash/sh, kill and wait (for the shell's background jobs, shell.ts execBackground), timeout.
 */
import * as vfs from '../../fs/vfs';
import { letCommand } from '../arith';
import { isName } from '../parse';
import type { CommandContext, CommandSpec, Job } from '../types';
import { read } from './read';

function cd(ctx: CommandContext): number {
  const pfx = ctx.shell.errorPrefix();
  const args = ctx.argv
    .slice(1)
    .filter((a, i) => !(i === 0 && (a === '-L' || a === '-P' || a === '--')));
  if (args.length > 1) {
    ctx.err(`${pfx}cd: too many arguments\n`);
    return 1;
  }
  let target = args[0];
  let print = false;
  if (target === undefined) {
    target = ctx.shell.getVar('HOME');
    if (target === undefined) {
      ctx.err(`${pfx}cd: HOME not set\n`);
      return 1;
    }
  } else if (target === '-') {
    target = ctx.shell.getVar('OLDPWD');
    if (target === undefined) {
      ctx.err(`${pfx}cd: OLDPWD not set\n`);
      return 1;
    }
    print = true;
  }
  if (target === '') return 0;
  const abs = ctx.resolve(target);
  const e = vfs.stat(ctx.fs(), abs);
  if (!e) {
    ctx.err(`${pfx}cd: ${target}: No such file or directory\n`);
    return 1;
  }
  if (e.kind !== 'dir') {
    ctx.err(`${pfx}cd: ${target}: Not a directory\n`);
    return 1;
  }
  const shown = vfs.cleanPath(target.startsWith('/') ? target : `${ctx.cwd}/${target}`);
  ctx.shell.setVar('OLDPWD', ctx.cwd);
  ctx.shell.cwd = shown;
  ctx.shell.setVar('PWD', shown);
  if (print) ctx.out(shown + '\n');
  return 0;
}

function exportCmd(ctx: CommandContext): number {
  const pfx = ctx.shell.errorPrefix();
  const args = ctx.argv.slice(1).filter((a) => a !== '--');
  if (args.length === 0 || (args.length === 1 && args[0] === '-p')) {
    const env = ctx.shell.environ();
    for (const k of Object.keys(env).sort()) {
      ctx.out(`declare -x ${k}="${env[k]!.replace(/(["\\$`])/g, '\\$1')}"\n`);
    }
    return 0;
  }
  let status = 0;
  for (const a of args) {
    const eq = a.indexOf('=');
    const name = eq < 0 ? a : a.slice(0, eq);
    if (!isName(name)) {
      ctx.err(`${pfx}export: \`${a}': not a valid identifier\n`);
      status = 1;
      continue;
    }
    if (eq >= 0) ctx.shell.setVar(name, a.slice(eq + 1), true);
    else ctx.shell.exportVar(name);
  }
  return status;
}

/** `break [N]` and `continue [N]`. */
function loopCmd(ctx: CommandContext): number {
  const pfx = ctx.shell.errorPrefix();
  const name = ctx.argv[0] as 'break' | 'continue';
  const args = ctx.argv.slice(1);
  if (args.length > 1) {
    ctx.err(`${pfx}${name}: too many arguments\n`);
    return ctx.shell.fatal(1);
  }
  let n = 1;
  if (args.length === 1) {
    if (!/^[ \t]*[-+]?\d+[ \t]*$/.test(args[0]!)) {
      ctx.err(`${pfx}${name}: ${args[0]}: numeric argument required\n`);
      return ctx.shell.fatal(128);
    }
    n = Number(args[0]);
  }
  if (!ctx.shell.inLoop()) {
    ctx.err(`${pfx}${name}: only meaningful in a \`for', \`while', or \`until' loop\n`);
    return 0;
  }
  if (n < 1) {
    // bash leaves the loop, with status 1.
    ctx.err(`${pfx}${name}: ${args[0]}: loop count out of range\n`);
    return ctx.shell.loopControl('break', 1, 1);
  }
  return ctx.shell.loopControl(name, n);
}

/** `let` and `(( ))`: shell arithmetic on the shell's variables (../arith.ts). */
function arithCmd(ctx: CommandContext): number {
  const pfx = ctx.shell.errorPrefix();
  const vars = {
    getVar: (n: string) => ctx.shell.getVar(n),
    setVar: (n: string, v: string) => ctx.shell.setVar(n, v),
  };
  return letCommand(ctx.argv[0]!, ctx.argv.slice(1), vars, (l) => ctx.err(`${pfx}${l}\n`));
}

function unset(ctx: CommandContext): number {
  const pfx = ctx.shell.errorPrefix();
  let status = 0;
  for (const a of ctx.argv.slice(1)) {
    if (a === '-v' || a === '-f' || a === '--') continue;
    if (!isName(a)) {
      ctx.err(`${pfx}unset: \`${a}': not a valid identifier\n`);
      status = 1;
      continue;
    }
    ctx.shell.unsetVar(a);
  }
  return status;
}

function exit(ctx: CommandContext): number {
  const pfx = ctx.shell.errorPrefix();
  const args = ctx.argv.slice(1);
  if (ctx.shell.interactive) ctx.err('exit\n');
  let code = Number(ctx.shell.getVar('?') ?? '0');
  if (args.length > 0) {
    if (!/^\s*[+-]?[0-9]+\s*$/.test(args[0]!)) {
      ctx.err(`${pfx}exit: ${args[0]}: numeric argument required\n`);
      code = 2;
    } else if (args.length > 1) {
      ctx.err(`${pfx}exit: too many arguments\n`);
      return 1;
    } else code = Number(BigInt(args[0]!.trim()) & 255n);
  }
  ctx.shell.requestExit(code);
  return code;
}

function history(ctx: CommandContext): number {
  ctx.shell.history.forEach((line, i) => ctx.out(`${String(i + 1).padStart(5)}  ${line}\n`));
  return 0;
}

/** GNU sleep's argument: a number with an optional s/m/h/d suffix; seconds, or null. */
export function parseDuration(s: string): number | null {
  const m = /^([0-9]*\.?[0-9]+|[0-9]+\.)([smhd]?)$/.exec(s);
  if (!m) return null;
  const mult = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * mult;
}

function sleep(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  if (args.length === 0) {
    ctx.err("sleep: missing operand\nTry 'sleep --help' for more information.\n");
    return 1;
  }
  let total = 0;
  for (const a of args) {
    const d = parseDuration(a);
    if (d === null) {
      ctx.err(`sleep: invalid time interval ‘${a}’\nTry 'sleep --help' for more information.\n`);
      return 1;
    }
    total += d;
  }
  ctx.sleep(Math.round(total * 1_000_000));
  return 0;
}

function env(ctx: CommandContext): number {
  let args = ctx.argv.slice(1);
  let vars: Record<string, string> = { ...ctx.env };
  while (
    args.length &&
    (args[0] === '-i' || args[0] === '-' || args[0] === '--ignore-environment')
  ) {
    vars = {};
    args = args.slice(1);
  }
  while (args.length && args[0] === '-u' && args[1] !== undefined) {
    delete vars[args[1]];
    args = args.slice(2);
  }
  while (args.length && /^[^=]+=/.test(args[0]!)) {
    const a = args.shift()!;
    const eq = a.indexOf('=');
    vars[a.slice(0, eq)] = a.slice(eq + 1);
  }
  if (args.length === 0) {
    for (const [k, v] of Object.entries(vars)) ctx.out(`${k}=${v}\n`);
    return 0;
  }
  const r = ctx.exec(args, { env: vars });
  if (typeof r === 'number') return r;
  ctx.err(
    `env: ‘${args[0]}’: ${r === 'ENOENT' ? 'No such file or directory' : 'Permission denied'}\n`,
  );
  return r === 'ENOENT' ? 127 : 126;
}

function bash(ctx: CommandContext): number {
  const name = ctx.argv[0]!.slice(ctx.argv[0]!.lastIndexOf('/') + 1);
  const dialect = name === 'sh' || name === 'dash' ? 'dash' : 'bash';
  const args = ctx.argv.slice(1);
  let i = 0;
  let script: string | null = null;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c') {
      if (args[i + 1] === undefined) {
        ctx.err(`${name}: -c: option requires an argument\n`);
        return 2;
      }
      script = args[i + 1]!;
      i += 2;
      break;
    }
    if (a === '--' || !a.startsWith('-') || a === '-') break;
    // Other options (-e, -x, -l, ...) are accepted and ignored.
  }
  if (script !== null) return ctx.shell.runScript(script, ctx, { argv0: args[i] ?? name, dialect });
  const file = args[i];
  if (file === undefined || file === '-')
    return ctx.shell.runScript(ctx.stdin, ctx, { argv0: name, dialect });
  const e = vfs.stat(ctx.fs(), ctx.resolve(file));
  if (!e) {
    ctx.err(`${name}: ${file}: No such file or directory\n`);
    return 127;
  }
  if (e.kind === 'dir') {
    ctx.err(`${name}: ${file}: Is a directory\n`);
    return 126;
  }
  if (e.exec || e.nsfs) {
    ctx.err(`${name}: ${file}: cannot execute binary file\n`);
    return 126;
  }
  return ctx.shell.runScript(e.data, ctx, { argv0: name, scriptName: file, dialect });
}

const SIGNALS: Record<string, number> = { HUP: 1, INT: 2, KILL: 9, TERM: 15, USR1: 10, USR2: 12 };

/** A signal as kill takes it (`9`, `KILL`, `SIGKILL`), or null. */
function signalNumber(s: string): number | null {
  if (/^\d+$/.test(s)) return Number(s) <= 64 ? Number(s) : null;
  const name = s.toUpperCase().replace(/^SIG/, '');
  return SIGNALS[name] ?? null;
}

/** A job by `%N` or by pid, as kill and wait find it. */
function findJob(ctx: CommandContext, spec: string): Job | undefined {
  const jobs = ctx.shell.jobs;
  if (spec.startsWith('%')) return jobs[Number(spec.slice(1)) - 1];
  return jobs.find((j) => String(j.pid) === spec);
}

/**
 * `kill [-s SIG | -SIG] PID|%JOB...` (bash 5.2's builtin): the shell's background jobs are its
 * only processes that can be signalled (the node's daemons are not processes here). `-0` asks
 * whether the job still runs; another signal ends it (a server lets go of what it held).
 */
function kill(ctx: CommandContext): number {
  const pfx = ctx.shell.errorPrefix();
  const args = ctx.argv.slice(1);
  let sig = 15;
  let i = 0;
  if (args[0] === '-s' || args[0] === '-n') {
    const n = args[1] === undefined ? null : signalNumber(args[1]);
    if (n === null) {
      ctx.err(`${pfx}kill: ${args[1] ?? ''}: invalid signal specification\n`);
      return 1;
    }
    sig = n;
    i = 2;
  } else if (args[0] !== undefined && /^-./.test(args[0]) && args[0] !== '--') {
    const n = signalNumber(args[0].slice(1));
    if (n === null) {
      ctx.err(`${pfx}kill: ${args[0].slice(1)}: invalid signal specification\n`);
      return 1;
    }
    sig = n;
    i = 1;
  } else if (args[0] === '--') i = 1;
  const targets = args.slice(i);
  if (targets.length === 0) {
    ctx.err(
      'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n',
    );
    return 2;
  }
  let status = 0;
  for (const t of targets) {
    if (!/^(%\d+|\d+)$/.test(t)) {
      ctx.err(`${pfx}kill: ${t}: arguments must be process or job IDs\n`);
      status = 1;
      continue;
    }
    const job = findJob(ctx, t);
    if (!job || job.state === 'done') {
      ctx.err(
        t.startsWith('%') && !job
          ? `${pfx}kill: ${t}: no such job\n`
          : `${pfx}kill: (${job ? job.pid : t}) - No such process\n`,
      );
      status = 1;
      continue;
    }
    if (sig === 0) continue;
    if (job.state === 'deferred') ctx.shell.finishJob(job);
    else job.onKill?.(ctx);
    job.state = 'done';
    job.status = 128 + sig;
  }
  return status;
}

/**
 * `wait [PID|%JOB...]`: a capture left in the background (tcpdump) ends now and prints what it
 * saw. A server job (nc -l) never ends by itself: bash would wait for it forever; here `wait`
 * does not wait for it. Without operands the status is 0, else the last job's.
 */
function wait(ctx: CommandContext): number {
  const pfx = ctx.shell.errorPrefix();
  const args = ctx.argv.slice(1).filter((a) => a !== '--');
  if (args.length === 0) {
    for (const j of ctx.shell.jobs) ctx.shell.finishJob(j);
    return 0;
  }
  let status = 0;
  for (const a of args) {
    if (!/^(%\d+|\d+)$/.test(a)) {
      ctx.err(`${pfx}wait: \`${a}': not a pid or valid job spec\n`);
      status = 2;
      continue;
    }
    const job = findJob(ctx, a);
    if (!job) {
      ctx.err(
        a.startsWith('%')
          ? `${pfx}wait: ${a}: no such job\n`
          : `${pfx}wait: pid ${a} is not a child of this shell\n`,
      );
      status = 127;
      continue;
    }
    status = ctx.shell.finishJob(job);
  }
  return status;
}

/**
 * `timeout [-s SIG] [-k DUR] [--preserve-status] [--foreground] DURATION COMMAND [ARG]...`
 * (coreutils 9.1): runs COMMAND. Commands here end by themselves (a capture prints what it has
 * seen), so the limit is checked, not waited for.
 */
function timeout(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-s' || a === '-k' || a === '--signal' || a === '--kill-after') i++;
    else if (a === '--preserve-status' || a === '--foreground' || a === '-v' || a === '--verbose')
      continue;
    else if (a === '--') {
      i++;
      break;
    } else break;
  }
  if (args[i] === undefined || args[i + 1] === undefined) {
    ctx.err("timeout: missing operand\nTry 'timeout --help' for more information.\n");
    return 125;
  }
  if (parseDuration(args[i]!) === null) {
    ctx.err(
      `timeout: invalid time interval ‘${args[i]}’\nTry 'timeout --help' for more information.\n`,
    );
    return 125;
  }
  const cmd = args.slice(i + 1);
  const r = ctx.exec(cmd);
  if (typeof r === 'number') return r;
  ctx.err(
    `timeout: failed to run command ‘${cmd[0]}’: ${r === 'ENOENT' ? 'No such file or directory' : 'Permission denied'}\n`,
  );
  return r === 'ENOENT' ? 127 : 126;
}

export const BUILTIN_COMMANDS: CommandSpec[] = [
  { name: 'true', dir: '/usr/bin', builtin: true, run: () => 0 },
  { name: 'false', dir: '/usr/bin', builtin: true, run: () => 1 },
  { name: ':', dir: null, builtin: true, run: () => 0 },
  { name: 'cd', dir: null, builtin: true, run: cd },
  {
    name: 'pwd',
    dir: '/usr/bin',
    builtin: true,
    run: (ctx) => {
      ctx.out(ctx.cwd + '\n');
      return 0;
    },
  },
  { name: 'export', dir: null, builtin: true, run: exportCmd },
  { name: 'let', dir: null, builtin: true, run: arithCmd },
  { name: 'break', dir: null, builtin: true, run: loopCmd },
  { name: 'continue', dir: null, builtin: true, run: loopCmd },
  // What `(( expr ))` runs (parse.ts): no one can type this name as a command word.
  { name: '((', dir: null, builtin: true, run: arithCmd },
  { name: 'unset', dir: null, builtin: true, run: unset },
  { name: 'read', dir: null, builtin: true, run: read },
  { name: 'exit', dir: null, builtin: true, run: exit },
  { name: 'history', dir: null, builtin: true, run: history },
  { name: 'sleep', dir: '/usr/bin', run: sleep },
  { name: 'env', dir: '/usr/bin', run: env },
  { name: 'bash', dir: '/usr/bin', run: bash },
  { name: 'sh', dir: '/usr/bin', run: bash },
  { name: 'kill', dir: '/usr/bin', builtin: true, run: kill },
  { name: 'wait', dir: null, builtin: true, run: wait },
  { name: 'timeout', dir: '/usr/bin', run: timeout },
];
