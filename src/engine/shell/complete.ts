/**
 * Tab completion for a node's terminal, as bash-completion does it for the commands modelled:
 * the first word of a command completes from the command names (or, with a slash, from paths);
 * other words from paths, except where a tool wants a name: `ip`/`tc`/`bridge` complete
 * interface and network namespace names (`-n NS` and `netns exec|del` namespaces only, `dev`
 * interfaces only, of the namespace `-n` names), `journalctl -u` and `systemctl` units.
 */
import * as vfs from '../fs/vfs';
import type { KernelState } from '../kernel/types';
import { linksOf } from '../kernel/device';
import type { NodeState } from '../sim/world';
import { resolvePath } from './paths';
import { defaultCommands } from './registry';
import { tget, tkeys } from '../state/table';

export interface Completion {
  /** Where the word being completed starts in the line. */
  from: number;
  /** The words it can become, sorted (directories end with "/"). */
  candidates: string[];
  /** The longest prefix every candidate shares (what one Tab inserts). */
  common: string;
}

const SEPARATORS = new Set([' ', '\t', '|', ';', '&', '(', ')', '<', '>', '`']);
const UNITS = ['containerd', 'kubelet'];

let commandNames: string[] | null = null;

/** Completes the word that ends at `pos` in `line`, on node `node` in directory `cwd`. */
export function complete(node: NodeState, cwd: string, line: string, pos: number): Completion {
  let from = pos;
  while (from > 0 && !SEPARATORS.has(line[from - 1]!)) from--;
  const word = line.slice(from, pos);
  // The words of the current command before this one.
  let start = from;
  while (start > 0 && !'|;&(`'.includes(line[start - 1]!)) start--;
  const before = line
    .slice(start, from)
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '' && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) && !/^[<>]/.test(w));
  const candidates = candidatesFor(node, cwd, before, word).sort(vfs.byteCompare);
  return { from, candidates, common: commonPrefix(candidates, word) };
}

function candidatesFor(node: NodeState, cwd: string, before: string[], word: string): string[] {
  const prev = before.at(-1);
  if (before.length === 0) {
    if (word.includes('/')) return paths(node, cwd, word);
    // `((` is what `(( expr ))` runs, not a name anyone types.
    commandNames ??= [...new Set(defaultCommands().names())].filter((c) => c !== '((');
    return commandNames.filter((c) => c.startsWith(word));
  }
  const cmd = before[0]!.split('/').at(-1)!;
  const kernel = node.kernel as KernelState;
  if (cmd === 'ip' || cmd === 'tc' || cmd === 'bridge') {
    const n = before.indexOf('-n');
    const nsName = n >= 0 ? before[n + 1] : undefined;
    if (
      prev === '-n' ||
      prev === '-netns' ||
      (before.includes('netns') && /^(exec|del|delete|set|identify|pids)$/.test(prev ?? ''))
    )
      return namespaces(kernel).filter((c) => c.startsWith(word));
    // After `netns exec NS`, the rest is a command of its own (run in that namespace).
    const ex = before.indexOf('exec');
    if (before.includes('netns') && ex >= 0 && before.length >= ex + 2)
      return candidatesFor(node, cwd, before.slice(ex + 2), word);
    const ifs = interfaces(kernel, nsName).filter((c) => c.startsWith(word));
    if (prev === 'dev' || prev === 'master' || prev === 'link') return ifs;
    return [...new Set([...ifs, ...namespaces(kernel).filter((c) => c.startsWith(word))])];
  }
  if ((cmd === 'journalctl' && (prev === '-u' || prev === '--unit')) || cmd === 'systemctl') {
    if (cmd === 'systemctl' && before.length === 1)
      return ['is-active', 'restart', 'start', 'status', 'stop'].filter((c) => c.startsWith(word));
    return UNITS.filter((c) => c.startsWith(word));
  }
  return paths(node, cwd, word);
}

function namespaces(k: KernelState): string[] {
  const out: string[] = [];
  for (const p of tkeys(k.mounts)) {
    const m = /^\/var\/run\/netns\/([^/]+)$/.exec(p);
    if (m) out.push(m[1]!);
  }
  return out;
}

function interfaces(k: KernelState, nsName: string | undefined): string[] {
  const id = nsName === undefined ? k.root : tget(k.mounts, `/var/run/netns/${nsName}`);
  const ns = id === undefined ? undefined : tget(k.netns, id);
  return ns ? linksOf(ns).map((l) => l.name) : [];
}

function paths(node: NodeState, cwd: string, word: string): string[] {
  const slash = word.lastIndexOf('/');
  const dirPart = slash >= 0 ? word.slice(0, slash + 1) : '';
  const base = slash >= 0 ? word.slice(slash + 1) : word;
  const dir = resolvePath(cwd, dirPart === '' ? '.' : dirPart);
  const fs = node.fs as vfs.FsState;
  let names: string[];
  try {
    names = vfs.readDir(fs, dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const n of names) {
    if (!n.startsWith(base) || (base === '' && n.startsWith('.'))) continue;
    const e = vfs.stat(fs, vfs.joinPath(dir, n));
    out.push(dirPart + n + (e?.kind === 'dir' ? '/' : ''));
  }
  return out;
}

function commonPrefix(cands: readonly string[], word: string): string {
  if (cands.length === 0) return word;
  let p = cands[0]!;
  for (const c of cands) {
    let i = 0;
    while (i < p.length && i < c.length && p[i] === c[i]) i++;
    p = p.slice(0, i);
  }
  return p.length >= word.length ? p : word;
}
