/**
 * host-local's disk layout (plugins/ipam/host-local/backend/disk), and read-only readers of it for
 * whoever looks at a node from outside the plugin: the fault catalogue, the cluster's audit, the
 * shell, the views. The plugin's own store (host-local.ts) writes it.
 *
 * <dataDir, default /var/lib/cni/networks>/<network>/
 *   <ip>                   a reservation: "<containerID>\r\n<ifname>" (older versions: the id only)
 *   last_reserved_ip.<N>   the last address handed out from range set N
 *   lock                   go-filemutex's lock file
 */
import * as vfs from '../fs/vfs';
import { type IP, parseIP } from '../net/ip';

export const DEFAULT_DATA_DIR = '/var/lib/cni/networks';
/** disk.LineBreak: between the container id and the ifname in a reservation file. */
export const LINE_BREAK = '\r\n';
export const LOCK_FILE = 'lock';
const LAST_RESERVED_IP = 'last_reserved_ip';

/** disk.New's directory: <dataDir>/<network>. */
export function networkDir(network: string, dataDir = ''): string {
  return vfs.joinPath(dataDir || DEFAULT_DATA_DIR, network);
}

/** The file with the last address handed out from range set `rangeID`. */
export function lastReservedIPPath(dir: string, rangeID: string | number): string {
  return vfs.joinPath(dir, `${LAST_RESERVED_IP}.${rangeID}`);
}

/** Whether a name in a network directory is a reservation (not the lock, not a last_reserved_ip). */
export function isReservationName(name: string): boolean {
  return name !== LOCK_FILE && !name.startsWith(LAST_RESERVED_IP);
}

/** disk.GetByID's match and the older form without the ifname. */
export function reservationKeys(id: string, ifname: string): [string, string] {
  return [id.trim() + LINE_BREAK + ifname, id.trim()];
}

export interface Reservation {
  /** The network (the directory's name). */
  network: string;
  /** The reservation file. */
  path: string;
  /** The address as the file is named. */
  ip: string;
  /** First line of the file: the container id holding the address. */
  containerId: string;
  /** Second line: the interface (empty in the older format). */
  ifName: string;
}

function parseReservation(data: string): { containerId: string; ifName: string } {
  const lines = data.split(/\r?\n/);
  return { containerId: lines[0]!.trim(), ifName: (lines[1] ?? '').trim() };
}

function isDir(fs: vfs.FsState, path: string): boolean {
  return vfs.stat(fs, path)?.kind === 'dir';
}

/** The networks with a directory under `dataDir`, sorted. */
export function networks(fs: vfs.FsState, dataDir = DEFAULT_DATA_DIR): string[] {
  if (!isDir(fs, dataDir)) return [];
  return vfs.readDir(fs, dataDir).filter((n) => isDir(fs, vfs.joinPath(dataDir, n)));
}

/** The reservations of one network directory, by file name. */
export function reservationsIn(fs: vfs.FsState, dir: string): Reservation[] {
  if (!isDir(fs, dir)) return [];
  const network = vfs.basename(dir);
  const out: Reservation[] = [];
  for (const f of vfs.readDir(fs, dir)) {
    if (!isReservationName(f)) continue;
    const path = vfs.joinPath(dir, f);
    const e = vfs.stat(fs, path);
    if (e?.kind !== 'file') continue;
    out.push({ network, path, ip: f, ...parseReservation(e.data) });
  }
  return out;
}

/** The reservations of every network under `dataDir`, network by network. */
export function reservations(fs: vfs.FsState, dataDir = DEFAULT_DATA_DIR): Reservation[] {
  return networks(fs, dataDir).flatMap((n) => reservationsIn(fs, vfs.joinPath(dataDir, n)));
}

/** The reservation of `ip` in any network under `dataDir`, network by network. */
export function reservationsOf(
  fs: vfs.FsState,
  ip: string,
  dataDir = DEFAULT_DATA_DIR,
): Reservation[] {
  const out: Reservation[] = [];
  for (const network of networks(fs, dataDir)) {
    const path = vfs.joinPath(dataDir, network, ip);
    const e = vfs.stat(fs, path);
    if (e?.kind === 'file') out.push({ network, path, ip, ...parseReservation(e.data) });
  }
  return out;
}

/** disk.LastReservedIP: the address in last_reserved_ip.<rangeID>, if it parses. */
export function lastReservedIP(fs: vfs.FsState, dir: string, rangeID: string | number): IP | null {
  const e = vfs.stat(fs, lastReservedIPPath(dir, rangeID));
  if (!e || e.kind !== 'file') return null;
  return parseIP(e.data);
}
