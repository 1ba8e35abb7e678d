/**
 * The node bundle format (docs/your-node.md): what a real node's CNI set-up is, read from the
 * files the collection command writes. `bundleFromFiles` checks and parses them; it never throws
 * and never returns half a bundle: either every part is read (missing optional parts named in
 * `notes`) or the whole bundle is refused with one message.
 */
import { strFromU8 } from 'fflate';
import { parseCIDR, cidrString } from '../net/ip';
import { type BundleFile, type Entries, LIMITS, cleanPath, readArchive } from './archive';

/** The files of a bundle, relative to its top folder. */
export const LAYOUT = {
  confDir: 'etc/cni/net.d/',
  listing: 'net.d-listing.txt',
  binDir: 'opt-cni-bin/',
  runtime: 'runtime-version.txt',
  crictlInfo: 'crictl-info.json',
  podCIDR: 'pod-cidr.txt',
  ipAddr: 'ip-addr.txt',
} as const;

/** What a plugin binary answered to `CNI_COMMAND=VERSION`. */
export interface PluginVersion {
  /** The answer as collected (stdout and stderr), trimmed. */
  raw: string;
  /** `cniVersion` of the answer, or null when it is not a VERSION answer. */
  cniVersion: string | null;
  supportedVersions: string[] | null;
}

export interface RuntimeInfo {
  kind: 'containerd' | 'cri-o' | 'unknown';
  /** e.g. `1.7.22`, `2.0.0`; null when the text names no version. */
  version: string | null;
  raw: string;
}

/** The CRI runtime's CNI settings (`crictl info`: config.cni / cniconfig). */
export interface RuntimeCniSettings {
  confDir: string;
  binDirs: string[];
  maxConfNum: number;
  ipPref: 'ipv4' | 'ipv6' | 'cni' | null;
  /** `crictl-info` when read from the bundle, `default` for containerd's defaults. */
  source: 'crictl-info' | 'default';
}

export interface HostAddress {
  dev: string;
  /** The address with its prefix, e.g. 192.168.1.10/24. */
  cidr: string;
}

export interface NodeBundle {
  /** The files of the CNI config directory, by name, as text. */
  confFiles: Record<string, string>;
  /** Every name in the config directory (net.d-listing.txt), or null when not collected. */
  listing: string[] | null;
  /** The binaries of the CNI bin directory, by name. */
  plugins: Record<string, PluginVersion>;
  runtime: RuntimeInfo;
  cni: RuntimeCniSettings;
  /** The node's spec.podCIDR, or null when the bundle has none. */
  podCIDR: string | null;
  /** The node's own addresses (ip-addr.txt), loopback left out. */
  hostAddresses: HostAddress[];
  /** Parts missing or unreadable that have a default, one sentence each. */
  notes: string[];
}

export type BundleLoad = { ok: true; bundle: NodeBundle } | { ok: false; error: string };

export const CONTAINERD_DEFAULT_CNI: RuntimeCniSettings = {
  confDir: '/etc/cni/net.d',
  binDirs: ['/opt/cni/bin'],
  maxConfNum: 1,
  ipPref: null,
  source: 'default',
};

const MARKERS = [LAYOUT.confDir, LAYOUT.binDir, LAYOUT.runtime, LAYOUT.crictlInfo, LAYOUT.podCIDR];

/** Decodes a file as UTF-8 text; binary content (NUL bytes) is refused. */
function text(f: BundleFile): { ok: true; text: string } | { ok: false; error: string } {
  if (f.data.includes(0))
    return { ok: false, error: `${f.path} is binary (it has NUL bytes), not text` };
  return { ok: true, text: strFromU8(f.data) };
}

/** `containerd --version` / `crio --version` output. */
export function parseRuntimeVersion(raw: string): RuntimeInfo {
  const t = raw.trim();
  const c = /^containerd\s+(?:\S+\s+)?v?(\d+\.\d+\.\d+)\S*/m.exec(t);
  if (c) return { kind: 'containerd', version: c[1]!, raw: t };
  const o = /^(?:crio version\s+|Version:\s+)v?(\d+\.\d+\.\d+)/im.exec(t);
  if (o && /crio|cri-o/i.test(t)) return { kind: 'cri-o', version: o[1]!, raw: t };
  return { kind: 'unknown', version: null, raw: t };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A VERSION answer: `{"cniVersion":"1.0.0","supportedVersions":[...]}`. */
export function parsePluginVersion(raw: string): PluginVersion {
  const t = raw.trim();
  const line = t.split('\n').find((l) => l.trim().startsWith('{')) ?? '';
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    v = null;
  }
  if (
    isObj(v) &&
    typeof v['cniVersion'] === 'string' &&
    Array.isArray(v['supportedVersions']) &&
    v['supportedVersions'].every((x) => typeof x === 'string')
  )
    return {
      raw: t,
      cniVersion: v['cniVersion'],
      supportedVersions: v['supportedVersions'] as string[],
    };
  return { raw: t, cniVersion: null, supportedVersions: null };
}

/** `crictl info` (whole, or filtered to config.cni and cniconfig). */
export function parseCrictlInfo(
  raw: string,
): { ok: true; cni: RuntimeCniSettings } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    return { ok: false, error: `it is not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  if (!isObj(v)) return { ok: false, error: 'it is not a JSON object' };
  const config = isObj(v['config'])
    ? v['config']
    : isObj(v['info']) && isObj(v['info']['config'])
      ? v['info']['config']
      : null;
  const cfg = config && isObj(config['cni']) ? config['cni'] : null;
  const cc = isObj(v['cniconfig']) ? v['cniconfig'] : null;
  if (!cfg && !cc) return { ok: false, error: 'it has neither config.cni nor cniconfig' };
  const str = (x: unknown): string | null => (typeof x === 'string' && x !== '' ? x : null);
  const strs = (x: unknown): string[] | null =>
    Array.isArray(x) && x.length > 0 && x.every((y) => typeof y === 'string' && y !== '')
      ? (x as string[])
      : null;
  const int = (x: unknown): number | null =>
    typeof x === 'number' && Number.isInteger(x) && x >= 0 ? x : null;
  const confDir =
    str(cfg?.['confDir']) ?? str(cc?.['PluginConfDir']) ?? CONTAINERD_DEFAULT_CNI.confDir;
  const binDirs =
    strs(cfg?.['binDirs']) ??
    (str(cfg?.['binDir']) ? [str(cfg?.['binDir'])!] : null) ??
    strs(cc?.['PluginDirs']) ??
    CONTAINERD_DEFAULT_CNI.binDirs;
  // containerd: maxConfNum 0 or less means "load them all".
  const maxConfNum = int(cfg?.['maxConfNum']) ?? int(cc?.['PluginMaxConfNum']) ?? 1;
  const pref = str(cfg?.['ipPref']);
  const ipPref = pref === 'ipv4' || pref === 'ipv6' || pref === 'cni' ? pref : null;
  return { ok: true, cni: { confDir, binDirs, maxConfNum, ipPref, source: 'crictl-info' } };
}

/** `ip -o addr show` lines: `2: eth0    inet 10.0.0.5/24 brd ... scope global eth0`. */
export function parseIpAddr(raw: string): HostAddress[] {
  const out: HostAddress[] = [];
  for (const line of raw.split('\n')) {
    const m = /^\s*\d+:\s+(\S+?)(?:@\S+)?\s+inet6?\s+(\S+)/.exec(line);
    if (!m || m[1] === 'lo') continue;
    const c = parseCIDR(m[2]!);
    if (c.ok) out.push({ dev: m[1]!, cidr: m[2]! });
  }
  return out;
}

/** Finds the bundle's top folder: the archive may wrap everything in one directory. */
function rootOf(paths: readonly string[]): string {
  const has = (root: string) =>
    paths.some((p) => MARKERS.some((m) => p.startsWith(root + m) || p === root + m));
  if (has('')) return '';
  const tops = new Set(paths.map((p) => p.split('/')[0]!));
  for (const t of [...tops].sort()) if (has(`${t}/`)) return `${t}/`;
  return '';
}

/** Builds a bundle from its files (an unpacked archive or a folder's files). */
export function bundleFromFiles(
  files: readonly BundleFile[],
  dirs: readonly string[] = [],
): BundleLoad {
  try {
    return fromFiles(files, dirs);
  } catch (e) {
    return {
      ok: false,
      error: `the bundle cannot be read: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

function fromFiles(files: readonly BundleFile[], dirs: readonly string[]): BundleLoad {
  let total = 0;
  const clean: BundleFile[] = [];
  for (const f of files) {
    const p = cleanPath(f.path);
    if (!p.ok) return { ok: false, error: `bundle file refused: ${p.error}` };
    if (f.data.length > LIMITS.fileBytes)
      return {
        ok: false,
        error: `${p.path} is ${f.data.length} bytes: a bundle file may have at most ${LIMITS.fileBytes} (too large)`,
      };
    total += f.data.length;
    if (total > LIMITS.totalBytes)
      return {
        ok: false,
        error: `the files add up to more than ${LIMITS.totalBytes} bytes (too large)`,
      };
    clean.push({ path: p.path, data: f.data });
  }
  const all = [...clean.map((f) => f.path), ...dirs.map((d) => `${d}/`)];
  const root = rootOf(all);
  const rel = (p: string) => (p.startsWith(root) ? p.slice(root.length) : null);
  const byPath = new Map<string, BundleFile>();
  for (const f of clean) {
    const r = rel(f.path);
    if (r !== null) byPath.set(r, f);
  }
  const relDirs = all.map(rel).filter((x): x is string => x !== null);
  const present = MARKERS.filter((m) =>
    relDirs.some((p) => p === m || p.startsWith(m) || `${p}/` === m),
  );
  if (present.length === 0) {
    const names = all.slice(0, 5).join(', ') || 'nothing';
    return {
      ok: false,
      error: `not a node bundle: it has none of ${MARKERS.join(', ')} (it has ${names}${all.length > 5 ? ', ...' : ''}); see docs/your-node.md`,
    };
  }
  const notes: string[] = [];
  const readText = (
    p: string,
  ): { ok: true; text: string | null } | { ok: false; error: string } => {
    const f = byPath.get(p);
    if (!f) return { ok: true, text: null };
    const t = text(f);
    return t.ok ? { ok: true, text: t.text } : t;
  };

  // The config directory: its files as text (a binary one is kept: the runtime would read it).
  const confFiles: Record<string, string> = {};
  for (const [p, f] of byPath) {
    if (!p.startsWith(LAYOUT.confDir)) continue;
    const name = p.slice(LAYOUT.confDir.length);
    if (name.includes('/')) {
      notes.push(
        `${p}: a file in a subdirectory of the config directory; the runtime does not read it`,
      );
      continue;
    }
    confFiles[name] = strFromU8(f.data);
  }
  if (!relDirs.some((p) => p.startsWith(LAYOUT.confDir)))
    notes.push(`${LAYOUT.confDir} is missing: the node is built with an empty config directory`);

  const listing = readText(LAYOUT.listing);
  if (!listing.ok) return listing;

  const plugins: Record<string, PluginVersion> = {};
  for (const [p, f] of byPath) {
    if (!p.startsWith(LAYOUT.binDir)) continue;
    const name = p.slice(LAYOUT.binDir.length);
    if (name.includes('/') || !/^[A-Za-z0-9._+-]+$/.test(name)) {
      return {
        ok: false,
        error: `${p}: not a plugin name (one file per binary of the bin directory)`,
      };
    }
    const t = text(f);
    plugins[name] = t.ok
      ? parsePluginVersion(t.text)
      : { raw: '(binary output)', cniVersion: null, supportedVersions: null };
  }
  if (!relDirs.some((p) => p.startsWith(LAYOUT.binDir)))
    notes.push(`${LAYOUT.binDir} is missing: the node is built with no plugins`);

  const rt = readText(LAYOUT.runtime);
  if (!rt.ok) return rt;
  const runtime = parseRuntimeVersion(rt.text ?? '');
  if (rt.text === null)
    notes.push(`${LAYOUT.runtime} is missing: the runtime's release is unknown`);
  else if (runtime.kind === 'unknown')
    notes.push(
      `${LAYOUT.runtime} names neither containerd nor CRI-O with a version: ${JSON.stringify(runtime.raw.slice(0, 80))}`,
    );

  let cni = CONTAINERD_DEFAULT_CNI;
  const ci = readText(LAYOUT.crictlInfo);
  if (!ci.ok) return ci;
  if (ci.text === null)
    notes.push(
      `${LAYOUT.crictlInfo} is missing: containerd's defaults are assumed (confDir /etc/cni/net.d, binDirs [/opt/cni/bin], maxConfNum 1)`,
    );
  else {
    const r = parseCrictlInfo(ci.text);
    if (r.ok) cni = r.cni;
    else
      notes.push(
        `${LAYOUT.crictlInfo} is unreadable (${r.error}): containerd's defaults are assumed`,
      );
  }

  const pc = readText(LAYOUT.podCIDR);
  if (!pc.ok) return pc;
  let podCIDR: string | null = null;
  const pcText = (pc.text ?? '').trim();
  if (pcText === '')
    notes.push(
      `${LAYOUT.podCIDR} is ${pc.text === null ? 'missing' : 'empty'}: the node has no pod CIDR in the bundle`,
    );
  else {
    const first = pcText.split(/[\s,]+/)[0]!;
    const c = parseCIDR(first);
    if (!c.ok) return { ok: false, error: `${LAYOUT.podCIDR}: ${c.error.slice(0, 120)}` };
    podCIDR = cidrString(c.net);
  }

  const ia = readText(LAYOUT.ipAddr);
  if (!ia.ok) return ia;
  const hostAddresses = parseIpAddr(ia.text ?? '');

  return {
    ok: true,
    bundle: {
      confFiles,
      listing:
        listing.text === null
          ? null
          : listing.text
              .split('\n')
              .map((l) => l.trim())
              .filter(Boolean),
      plugins,
      runtime,
      cni,
      podCIDR,
      hostAddresses,
      notes,
    },
  };
}

/** A bundle from an archive's bytes (`.tar.gz` or `.tar`). */
export function bundleFromArchive(bytes: Uint8Array): BundleLoad {
  const e: Entries = readArchive(bytes);
  if (!e.ok) return e;
  return bundleFromFiles(e.files, e.dirs);
}
