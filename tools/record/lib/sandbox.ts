/**
 * The sandbox of one recording: a unique netns prefix, a temp root with the dirs the plugins
 * use, the golden shims (CNI_PATH), the tap links of the Go driver, and the namespaces.
 *
 * SAFETY: every plugin process runs inside `ip netns exec <prefix>-node`; pods are namespaces
 * `<prefix>-<pod>`; nothing here touches the machine's own namespace, /var/lib/cni, /etc/cni or
 * the host's iptables. `destroy()` deletes every namespace created (call it in `finally`).
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, runOk } from './util';

export const REAL_PLUGIN_DIR = '/usr/lib/cni';
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Every live sandbox, so that a signal handler can clean up. */
const live = new Set<Sandbox>();
let handlersInstalled = false;
function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  const cleanup = (sig: NodeJS.Signals) => {
    for (const sb of live) sb.destroy();
    process.kill(process.pid, sig);
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, cleanup);
  process.on('exit', () => {
    for (const sb of live) sb.destroy();
  });
}

export class Sandbox {
  readonly prefix: string;
  readonly root: string;
  readonly cniPath: string; // golden shims (CNI_PATH)
  readonly dataDir: string; // host-local dataDir
  readonly cacheDir: string; // libcni cache dir
  readonly tuningDir: string; // tuning dataDir
  readonly confDir: string; // conflist files
  readonly tmpDir: string; // scratch (<tmp>)
  readonly tapDir: string; // tap links -> driver binary (not visible to plugins)
  readonly tapLog: string;
  readonly shimLog: string;
  readonly work: string; // recorder's own files (requests)
  private readonly namespaces: string[] = [];
  private destroyed = false;

  constructor(
    readonly driverBin: string,
    keep = false,
    /** Plugins that are not in REAL_PLUGIN_DIR: name -> binary (e.g. flannel). */
    readonly extraPlugins: Record<string, string> = {},
  ) {
    this.prefix = `cnr${randomBytes(3).toString('hex')}-`;
    this.root = mkdtempSync('/tmp/cnirec-run.');
    this.keep = keep;
    const d = (n: string) => {
      const p = join(this.root, n);
      mkdirSync(p, { recursive: true });
      return p;
    };
    this.cniPath = d('cni');
    this.dataDir = d('data');
    this.cacheDir = d('cache');
    this.tuningDir = d('tuning');
    this.confDir = d('conf');
    this.tmpDir = d('tmp');
    this.tapDir = d('rec/tap');
    this.tapLog = d('rec/taplog');
    this.shimLog = d('rec/shimlog');
    this.work = d('rec/work');
    this.writeShims();
    live.add(this);
    installHandlers();
  }
  private readonly keep: boolean;

  /** One bash golden shim per plugin name, and one tap link per plugin name. */
  private writeShims(): void {
    const bins: Record<string, string> = {};
    for (const name of readdirSync(REAL_PLUGIN_DIR)) bins[name] = join(REAL_PLUGIN_DIR, name);
    Object.assign(bins, this.extraPlugins);
    for (const name of Object.keys(bins).sort()) {
      const bin = bins[name] ?? '';
      const shim = join(this.cniPath, name);
      writeFileSync(
        shim,
        [
          '#!/bin/bash',
          `# golden shim: records this call of ${name}, then runs ${bin} transparently`,
          `d=$(mktemp -d "${this.shimLog}/$(date +%s%N)-$$-XXXXXX")`,
          'cat > "$d/stdin"',
          'printf %s "$PPID" > "$d/ppid"',
          'printf %s "$0" > "$d/argv0"',
          'env -0 > "$d/env"',
          // in the background so that its pid is known: the calls it delegates (flannel ->
          // bridge -> host-local) name it as their parent
          `${bin} < "$d/stdin" > "$d/stdout" 2> "$d/stderr" &`,
          'printf %s "$!" > "$d/pid"',
          'wait $!',
          'rc=$?',
          'printf %s "$rc" > "$d/rc"',
          'cat "$d/stdout"',
          'cat "$d/stderr" >&2',
          'exit $rc',
          '',
        ].join('\n'),
      );
      chmodSync(shim, 0o755);
      symlinkSync(this.driverBin, join(this.tapDir, name));
      if (name in this.extraPlugins) {
        // the tap runs /usr/lib/cni/<name>, or <tapDir>/.real/<name> when that exists
        mkdirSync(join(this.tapDir, '.real'), { recursive: true });
        symlinkSync(bin, join(this.tapDir, '.real', name));
      }
    }
  }

  /** Real netns name of a logical one. */
  ns(logical: string): string {
    return this.prefix + logical;
  }

  addNetns(logical: string, loUp: boolean): void {
    const real = this.ns(logical);
    runOk(['ip', 'netns', 'add', real]);
    this.namespaces.push(real);
    if (loUp) runOk(['ip', '-n', real, 'link', 'set', 'lo', 'up']);
  }

  netnsExists(logical: string): boolean {
    return existsSync(`/run/netns/${this.ns(logical)}`);
  }

  /** Command prefix that runs argv inside the node netns with exactly `env`. */
  inNode(argv: string[], env: Record<string, string>): string[] {
    const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    return ['ip', 'netns', 'exec', this.ns('node'), 'env', '-i', ...envArgs, ...argv];
  }

  /** Placeholder -> real path pairs (longest real path first when normalising). */
  pathMap(): [string, string][] {
    return [
      ['<cniPath>', this.cniPath],
      ['<dataDir>', this.dataDir],
      ['<cacheDir>', this.cacheDir],
      ['<tuningDir>', this.tuningDir],
      ['<confDir>', this.confDir],
      ['<tmp>', this.tmpDir],
    ];
  }

  /** Logical text (placeholders, logical netns paths) -> real text. */
  denormalise(text: string): string {
    let out = text;
    for (const [ph, real] of this.pathMap()) out = out.split(ph).join(real);
    out = out.replace(/\/var\/run\/netns\/([A-Za-z0-9_.-]+)/g, (_m, n: string) =>
      n.startsWith(this.prefix) ? `/var/run/netns/${n}` : `/var/run/netns/${this.prefix}${n}`,
    );
    return out;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    live.delete(this);
    // also catch namespaces created by env steps (e.g. re-created pods)
    const all = run(['ip', 'netns', 'list']).stdout.split('\n');
    for (const line of all) {
      const name = line.split(' ')[0] ?? '';
      if (name.startsWith(this.prefix) && !this.namespaces.includes(name))
        this.namespaces.push(name);
    }
    for (const real of this.namespaces) {
      if (existsSync(`/run/netns/${real}`)) run(['ip', 'netns', 'del', real]);
    }
    if (!this.keep) rmSync(this.root, { recursive: true, force: true });
  }
}
