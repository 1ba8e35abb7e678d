/**
 * /proc/sys as a Go program sees it through os.ReadFile / os.WriteFile (the tuning plugin writes
 * sysctls that way): a path names a sysctl file, a directory or nothing, some files are read-only,
 * and an integer file parses what is written the way proc_dointvec does (base 0, leading blanks,
 * one value per vector slot, trailing garbage after a blank ignored, int range enforced). Errors
 * are Go's *PathError texts (`open /proc/sys/...: no such file or directory`).
 */
import { GoError } from '../../cni/errors';
import * as K from '../../kernel/kernel';
import { GLOBAL_SYSCTL_DEFAULTS, INTERFACE_SYSCTL_DEFAULTS } from '../../kernel/sysctl-defaults';
import type { Gen, Sys } from '../../os/sys';
import * as nl from './netlink';
import type { NsId } from './netlink';

export const PROC_SYS = '/proc/sys';

/** Files that are not writable (mode 0444) in a namespace other than the initial one. */
const READ_ONLY_CHILD_NS = [
  'net.core.rmem_default',
  'net.core.rmem_max',
  'net.core.wmem_default',
  'net.core.wmem_max',
  'net.ipv4.tcp_allowed_congestion_control',
  'net.netfilter.nf_conntrack_buckets',
  'net.netfilter.nf_conntrack_expect_max',
  'net.netfilter.nf_conntrack_max',
];
const READ_ONLY = [
  'net.ipv4.tcp_available_congestion_control',
  'net.ipv4.tcp_ehash_entries',
  'net.ipv4.udp_hash_entries',
  'net.mptcp.available_path_managers',
  'net.mptcp.available_schedulers',
  'net.netfilter.nf_conntrack_count',
];
/** Files that can be written but not read (mode 0200). */
const WRITE_ONLY = ['net.ipv4.route.flush', 'net.ipv6.route.flush'];

/** "/proc/sys/net/core/somaxconn" -> "net.core.somaxconn"; null outside /proc/sys. */
export function procSysKey(file: string): string | null {
  if (!file.startsWith(`${PROC_SYS}/`)) return null;
  return file
    .slice(PROC_SYS.length + 1)
    .split('/')
    .join('.');
}

type Kind = 'file' | 'dir' | 'none';

function kindOf(sys: Sys, ns: NsId, file: string): Kind {
  if (file === PROC_SYS) return 'dir';
  const key = procSysKey(file);
  if (key === null || key === '') return 'none';
  if (K.sysctlGet(sys.kernel, ns, key) !== undefined) return 'file';
  if (WRITE_ONLY.includes(key)) return 'file';
  const prefix = `${key}.`;
  return K.sysctlKeys(sys.kernel, ns).some((k) => k.startsWith(prefix)) ? 'dir' : 'none';
}

function readOnly(sys: Sys, ns: NsId, key: string): boolean {
  if (key.endsWith('.mc_forwarding') || READ_ONLY.includes(key)) return true;
  return ns !== sys.hostNs && READ_ONLY_CHILD_NS.includes(key);
}

/** os.ReadFile of a /proc/sys file: its content without the trailing newline. */
export function readProcSys(sys: Sys, ns: NsId, file: string): string {
  const kind = kindOf(sys, ns, file);
  if (kind === 'none') throw new GoError(`open ${file}: no such file or directory`);
  if (kind === 'dir') throw new GoError(`read ${file}: is a directory`);
  const key = procSysKey(file)!;
  if (WRITE_ONLY.includes(key)) throw new GoError(`open ${file}: permission denied`);
  return K.sysctlGet(sys.kernel, ns, key) ?? '';
}

/** The default value of a sysctl key (per-interface keys by their generic form). */
function defaultOf(key: string): string | undefined {
  const g = GLOBAL_SYSCTL_DEFAULTS[key];
  if (g !== undefined) return g;
  const m = /^net\.(ipv4|ipv6)\.(conf|neigh)\.[^.]+\.(.+)$/.exec(key);
  return m ? INTERFACE_SYSCTL_DEFAULTS[`${m[1]}.${m[2]}.${m[3]}`] : undefined;
}

const INT_MAX = 2 ** 31 - 1;

/** strtoul with base 0 on the start of `s`: [value, characters used]; null without a digit. */
function strtoul0(s: string): [number, number] | null {
  let base = 10;
  let i = 0;
  if (s[0] === '0' && (s[1] === 'x' || s[1] === 'X') && /[0-9a-fA-F]/.test(s[2] ?? '')) {
    base = 16;
    i = 2;
  } else if (s[0] === '0') base = 8;
  const digits = base === 16 ? /[0-9a-fA-F]/ : base === 8 ? /[0-7]/ : /[0-9]/;
  const start = i;
  let v = 0;
  while (i < s.length && digits.test(s[i]!)) {
    v = v * base + parseInt(s[i]!, base);
    i++;
  }
  if (i === start && base !== 8) return null;
  return [v, i];
}

/**
 * proc_dointvec(_minmax) writing `text` into a vector of `n` ints: the values it takes, or null
 * for EINVAL. Ranges of individual keys (minmax) are not modelled.
 */
export function parseProcInts(text: string, n: number): number[] | null {
  const out: number[] = [];
  let p = 0;
  const blank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n';
  while (out.length < n) {
    while (p < text.length && blank(text[p])) p++;
    if (p >= text.length) break;
    // proc_get_long works on at most 21 characters.
    const chunk = text.slice(p, p + 21);
    let neg = false;
    let q = 0;
    if (chunk[0] === '-' && text.length - p > 1) {
      neg = true;
      q = 1;
    }
    if (!/[0-9]/.test(chunk[q] ?? '')) return null;
    const r = strtoul0(chunk.slice(q));
    if (!r) return null;
    const [v, used] = r;
    const len = q + used;
    if (len === 21) return null;
    if (p + len < text.length && !blank(text[p + len])) return null;
    if (neg ? v > INT_MAX + 1 : v > INT_MAX) return null;
    out.push(neg ? -v : v);
    p += len;
  }
  return out.length === 0 ? null : out;
}

/**
 * os.WriteFile(file, value, 0644) on /proc/sys: opening fails for a missing file, a directory
 * or a read-only file; an empty value writes nothing; a value the file refuses is EINVAL.
 */
export function* writeProcSys(sys: Sys, ns: NsId, file: string, value: string): Gen<void> {
  const kind = kindOf(sys, ns, file);
  if (kind === 'none') throw new GoError(`open ${file}: no such file or directory`);
  if (kind === 'dir') throw new GoError(`open ${file}: is a directory`);
  const key = procSysKey(file)!;
  if (readOnly(sys, ns, key)) throw new GoError(`open ${file}: permission denied`);
  if (value === '' || WRITE_ONLY.includes(key)) return;
  const dflt = defaultOf(key);
  let stored: string;
  if (dflt !== undefined && /^-?\d+(\t-?\d+)*$/.test(dflt)) {
    const slots = dflt.split('\t').length;
    const ints = parseProcInts(value, slots);
    if (!ints) throw new GoError(`write ${file}: invalid argument`);
    const cur = (K.sysctlGet(sys.kernel, ns, key) ?? dflt).split('\t');
    ints.forEach((v, i) => (cur[i] = String(v)));
    stored = cur.join('\t');
  } else {
    // A string sysctl keeps the first line.
    stored = value.split('\n')[0]!;
  }
  try {
    yield* nl.sysctlWrite(sys, ns, key, stored);
  } catch (e) {
    throw new GoError(`write ${file}: ${(e as Error).message}`);
  }
}
