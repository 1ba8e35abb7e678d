/**
 * `sysctl` (procps-ng 4.0.2) over the network namespace the command runs in (the node's, or the
 * one of `ip netns exec`). Keys are the kernel model's (net.*).
 *
 * Supported: sysctl [-n] [-N] [-e] [-q] [-b] KEY... (a directory key lists everything under it);
 * sysctl [-w] [-q] [-e] KEY=VALUE... (also `KEY = VALUE` in one argument); -a / -A / -X;
 * -p [FILE] (default /etc/sysctl.conf); -o and -x do nothing.
 */
import * as vfs from '../../fs/vfs';
import * as K from '../../kernel/kernel';
import type { CommandContext, CommandSpec } from '../types';
import { SYSCTL_USAGE } from './usage';

/** A key as given (dots or slashes) to its dotted form and its /proc/sys path. */
function normalize(key: string): { dotted: string; path: string } {
  let k = key.trim();
  if (k.startsWith('/proc/sys/')) k = k.slice('/proc/sys/'.length);
  if (k.includes('/')) {
    // Slash form: dots are part of names (eth0.100), shown as slashes.
    const parts = k.split('/').filter(Boolean);
    return {
      dotted: parts.map((p) => p.replace(/\./g, '/')).join('.'),
      path: '/proc/sys/' + parts.join('/'),
    };
  }
  return { dotted: k, path: '/proc/sys/' + k.replace(/\./g, '/') };
}

interface Opts {
  values: boolean;
  names: boolean;
  ignore: boolean;
  quiet: boolean;
  binary: boolean;
  write: boolean;
}

function show(ctx: CommandContext, o: Opts, key: string, value: string): void {
  if (o.names) ctx.out(key + '\n');
  else if (o.values) ctx.out(o.binary ? value : value + '\n');
  else ctx.out(o.binary ? `${key} = ${value}` : `${key} = ${value}\n`);
}

function read(ctx: CommandContext, o: Opts, key: string): number {
  const { dotted, path } = normalize(key);
  const k = ctx.kernel();
  const v = K.sysctlGet(k, ctx.netns, dotted);
  if (v !== undefined) {
    show(ctx, o, dotted, v);
    return 0;
  }
  // A directory: everything under it.
  const under = K.sysctlKeys(k, ctx.netns).filter((x) => x.startsWith(dotted + '.'));
  if (under.length > 0 && dotted !== '') {
    for (const x of under) show(ctx, o, x, K.sysctlGet(k, ctx.netns, x) ?? '');
    return 0;
  }
  if (o.ignore) return 0;
  ctx.err(`sysctl: cannot stat ${path}: No such file or directory\n`);
  return 1;
}

function write(ctx: CommandContext, o: Opts, arg: string): number {
  const eq = arg.indexOf('=');
  if (eq < 0) {
    ctx.err(`sysctl: "${arg}" must be of the form name=value\n`);
    return 1;
  }
  const { dotted, path } = normalize(arg.slice(0, eq));
  const value = arg.slice(eq + 1).trim();
  const k = ctx.kernel();
  if (K.sysctlGet(k, ctx.netns, dotted) === undefined) {
    if (o.ignore) return 0;
    ctx.err(`sysctl: cannot stat ${path}: No such file or directory\n`);
    return 1;
  }
  try {
    ctx.changeKernel((kd) => K.sysctlSet(kd, ctx.netns, dotted, value));
  } catch (e) {
    if (e instanceof K.KernelError) {
      const why =
        e.errno === 'EINVAL'
          ? 'Invalid argument'
          : e.errno === 'ENOENT'
            ? 'No such file or directory'
            : e.message;
      ctx.err(`sysctl: setting key "${dotted}": ${why}\n`);
      return 1;
    }
    throw e;
  }
  if (!o.quiet) show(ctx, o, dotted, value);
  return 0;
}

function sysctl(ctx: CommandContext): number {
  const o: Opts = {
    values: false,
    names: false,
    ignore: false,
    quiet: false,
    binary: false,
    write: false,
  };
  let all = false;
  let load: string | null = null;
  const keys: string[] = [];
  const args = ctx.argv.slice(1);
  const bad = (msg: string) => {
    ctx.err(`sysctl: ${msg}\nTry \`sysctl --help' for more information.\n`);
    return 1;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--')) {
      const [name, val] = a.slice(2).split(/=(.*)/s) as [string, string | undefined];
      if (name === 'all') all = true;
      else if (name === 'values') o.values = true;
      else if (name === 'names') o.names = true;
      else if (name === 'ignore') o.ignore = true;
      else if (name === 'quiet') o.quiet = true;
      else if (name === 'binary') o.binary = o.values = true;
      else if (name === 'write') o.write = true;
      else if (name === 'load') load = val ?? '/etc/sysctl.conf';
      else if (name === 'help') {
        ctx.out(SYSCTL_USAGE);
        return 0;
      } else if (name === 'version') {
        ctx.out('sysctl from procps-ng 4.0.2\n');
        return 0;
      } else return bad(`unrecognized option '${a}'`);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = a[j]!;
        if (f === 'a' || f === 'A' || f === 'X') all = true;
        else if (f === 'n') o.values = true;
        else if (f === 'N') o.names = true;
        else if (f === 'e') o.ignore = true;
        else if (f === 'q') o.quiet = true;
        else if (f === 'b') o.binary = o.values = true;
        else if (f === 'w') o.write = true;
        else if (f === 'o' || f === 'x') continue;
        else if (f === 'p' || f === 'f') {
          load = j + 1 < a.length ? a.slice(j + 1) : '/etc/sysctl.conf';
          break;
        } else if (f === 'h' || f === 'd') {
          ctx.out(SYSCTL_USAGE);
          return 0;
        } else if (f === 'V') {
          ctx.out('sysctl from procps-ng 4.0.2\n');
          return 0;
        } else if (f === 'r') return bad('cnisim: -r is not supported');
        else return bad(`invalid option -- '${f}'`);
      }
      continue;
    }
    if (load !== null && keys.length === 0 && !a.includes('=')) {
      load = a;
      continue;
    }
    keys.push(a);
  }
  if (load !== null) {
    const p = ctx.resolve(load);
    const e = vfs.stat(ctx.fs(), p);
    if (!e || e.kind !== 'file') {
      ctx.err(`sysctl: cannot open "${load}": No such file or directory\n`);
      return 1;
    }
    let status = 0;
    for (const raw of e.data.split('\n')) {
      const line = raw.trim();
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
      const ignore = line.startsWith('-');
      const r = write(ctx, { ...o, ignore: o.ignore || ignore }, ignore ? line.slice(1) : line);
      if (r !== 0) status = r;
    }
    return status;
  }
  if (all) {
    for (const x of K.sysctlKeys(ctx.kernel(), ctx.netns))
      show(ctx, o, x, K.sysctlGet(ctx.kernel(), ctx.netns, x) ?? '');
    return 0;
  }
  if (keys.length === 0) {
    if (args.length === 0) {
      ctx.err(SYSCTL_USAGE);
      return 1;
    }
    return bad('no variables specified');
  }
  let status = 0;
  for (const key of keys) {
    let r: number;
    if (key.includes('=')) r = write(ctx, o, key);
    else if (o.write) {
      ctx.err('sysctl: command line(0): invalid syntax, continuing...\n');
      r = 1;
    } else r = read(ctx, o, key);
    if (r !== 0) status = r;
  }
  return status;
}

export const SYSCTL_COMMANDS: CommandSpec[] = [{ name: 'sysctl', dir: '/usr/sbin', run: sysctl }];
