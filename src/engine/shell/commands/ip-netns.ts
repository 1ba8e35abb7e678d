/**
 * `ip netns add | delete | list | exec` (iproute2 6.1). A namespace is a kernel namespace
 * bind-mounted on /run/netns/NAME (the engine names the mount /var/run/netns/NAME, see
 * node/setup.ts; /var/run is a link to /run), so it is both a kernel and a filesystem change.
 */
import * as vfs from '../../fs/vfs';
import { NETNS_DIR, netnsCreate, netnsRemove } from '../../node/setup';
import { nsidOf, nsidTable } from '../nsid';
import { NETNS_RUN_DIR } from '../paths';
import { type IpRun, IpExit, lookupNetnsByName, matches, notSimulated } from './ip-common';
import { IP_NETNS_USAGE } from './usage';
import { tget, tkeys } from '../../state/table';

function invalidName(name: string): boolean {
  return name.includes('/') || name === '.' || name === '..';
}

function netnsAdd(ip: IpRun, argv: readonly string[]): number {
  const name = argv[0];
  if (name === undefined) throw new IpExit('No netns name specified\n', 1);
  const path = `${NETNS_DIR}/${name}`;
  const k = ip.ctx.kernel();
  if (tget(k.mounts, path) || vfs.stat(ip.ctx.fs(), path)) {
    throw new IpExit(`Cannot create namespace file "${NETNS_RUN_DIR}/${name}": File exists\n`, 1);
  }
  ip.ctx.change((n) => void netnsCreate(n, path));
  return 0;
}

function netnsDelete(ip: IpRun, argv: readonly string[]): number {
  const name = argv[0];
  if (name === undefined) throw new IpExit('No netns name specified\n', 1);
  const path = `${NETNS_DIR}/${name}`;
  const e = vfs.stat(ip.ctx.fs(), path);
  if (!e || e.kind === 'dir') {
    const why = e ? 'Is a directory' : 'No such file or directory';
    throw new IpExit(`Cannot remove namespace file "${NETNS_RUN_DIR}/${name}": ${why}\n`, 1);
  }
  ip.ctx.change((n) => netnsRemove(n, path));
  return 0;
}

function netnsList(ip: IpRun): number {
  const dir = vfs.stat(ip.ctx.fs(), NETNS_DIR);
  if (!dir) return 0;
  const k = ip.ctx.kernel();
  // Newest first, as a fresh tmpfs directory lists them; files that are not mounts too.
  const mounted = tkeys(k.mounts)
    .filter((p) => vfs.dirname(p) === NETNS_DIR)
    .map((p) => vfs.basename(p))
    .reverse();
  const names = vfs.readDir(ip.ctx.fs(), NETNS_DIR);
  const order = [
    ...mounted.filter((m) => names.includes(m)),
    ...names.filter((m) => !mounted.includes(m)),
  ];
  // `(id: N)`: the id the current namespace gave that one (RTM_GETNSID, which allocates none).
  const table = nsidTable(ip.ctx.sim, ip.ctx.nodeName, k);
  for (const n of order) {
    const id = tget(k.mounts, `${NETNS_DIR}/${n}`);
    const nsid = id !== undefined ? nsidOf(table, ip.ns, id) : undefined;
    ip.ctx.out(nsid !== undefined ? `${n} (id: ${nsid})\n` : `${n}\n`);
  }
  return 0;
}

function netnsExec(ip: IpRun, argv: readonly string[]): number {
  const name = argv[0];
  if (name === undefined) throw new IpExit('No netns name specified\n', 1);
  if (argv.length < 2) throw new IpExit('No command specified\n', 1);
  const r = lookupNetnsByName(ip.ctx, name);
  if ('errno' in r) {
    if (r.errno === 'ENOENT')
      throw new IpExit(`Cannot open network namespace "${name}": No such file or directory\n`, 255);
    throw new IpExit(`setting the network namespace "${name}" failed: Invalid argument\n`, 255);
  }
  const cmd = argv.slice(1);
  const status = ip.ctx.exec(cmd, { netns: r.id });
  if (typeof status === 'number') return status;
  const why =
    status === 'ENOENT'
      ? 'No such file or directory'
      : status === 'ENOEXEC'
        ? 'Exec format error'
        : 'Permission denied';
  throw new IpExit(`exec of "${cmd[0]}" failed: ${why}\n`, 1);
}

export function doNetns(ip: IpRun, argv: readonly string[]): number {
  if (argv.length === 0) return netnsList(ip);
  const [cmd, ...rest] = argv as [string, ...string[]];
  if (argv.length > 1 && invalidName(argv[1]!))
    throw new IpExit(`Invalid netns name "${argv[1]}"\n`, 255);
  if (matches(cmd, 'list') || matches(cmd, 'show') || matches(cmd, 'lst')) return netnsList(ip);
  if (matches(cmd, 'list-id')) notSimulated('netns list-id');
  if (matches(cmd, 'help')) throw new IpExit(IP_NETNS_USAGE, 255);
  if (matches(cmd, 'add')) return netnsAdd(ip, rest);
  if (matches(cmd, 'set')) notSimulated('netns set');
  if (matches(cmd, 'delete')) return netnsDelete(ip, rest);
  if (
    matches(cmd, 'identify') ||
    matches(cmd, 'pids') ||
    matches(cmd, 'monitor') ||
    matches(cmd, 'attach')
  )
    notSimulated(`netns ${cmd}`);
  if (matches(cmd, 'exec')) return netnsExec(ip, rest);
  throw new IpExit(`Command "${cmd}" is unknown, try "ip netns help".\n`, 255);
}
