/**
 * State snapshots: links/addresses/routes (`ip -j`), bridges, sysctls, iptables (node), tc, and
 * the files of the host-local dataDir, the libcni cache dir and the tuning dataDir. Values are
 * real here; normalise.ts replaces the random ones afterwards.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox } from './sandbox';
import { isObject, run, sleepMs, tryParse, type Json, type JsonObject } from './util';

export const NODE_SYSCTLS = ['net.ipv4.ip_forward', 'net.ipv6.conf.all.forwarding'];

interface IpLink {
  ifindex: number;
  ifname: string;
  flags: string[];
  mtu: number;
  operstate: string;
  link_type?: string;
  address?: string;
  promiscuity?: number;
  master?: string;
  link?: string;
  link_index?: number;
  link_netnsid?: number;
  linkinfo?: {
    info_kind?: string;
    info_data?: { stp_state?: number; vlan_filtering?: number };
    info_slave_kind?: string;
    info_slave_data?: {
      state?: string;
      hairpin?: boolean;
      learning?: boolean;
      flood?: boolean;
      isolated?: boolean;
    };
  };
}

interface IpAddrEntry {
  ifindex: number;
  ifname: string;
  addr_info: {
    family: string;
    local?: string;
    address?: string;
    prefixlen: number;
    scope: string;
    broadcast?: string;
  }[];
}

function ipJson(sb: Sandbox, ns: string, args: string[]): Json[] {
  const r = run(['ip', '-n', sb.ns(ns), '-j', ...args]);
  if (r.exitCode !== 0) return [];
  const v = tryParse(r.stdout.trim() === '' ? '[]' : r.stdout);
  return Array.isArray(v) ? v : [];
}

function rawLinks(sb: Sandbox, ns: string): IpLink[] {
  return ipJson(sb, ns, ['-d', 'link', 'show']) as unknown as IpLink[];
}

/**
 * A link's operstate agrees with its flags: an UP link with carrier (LOWER_UP) is UP or UNKNOWN,
 * an UP link without carrier is DOWN / LOWERLAYERDOWN, a link that is not UP is DOWN. Linkwatch
 * updates operstate asynchronously (up to 1 s for non-urgent events, e.g. a bridge losing or
 * gaining carrier), so the recorder waits for agreement before every snapshot.
 */
function linkSettled(l: IpLink): boolean {
  const up = l.flags.includes('UP');
  const carrier = l.flags.includes('LOWER_UP');
  if (!up) return l.operstate === 'DOWN';
  if (carrier) return l.operstate === 'UP' || l.operstate === 'UNKNOWN';
  return l.operstate === 'DOWN' || l.operstate === 'LOWERLAYERDOWN';
}

/**
 * A bridge that has ports still in operstate UNKNOWN has not seen linkwatch process its carrier
 * change yet (a bridge without ports may stay UNKNOWN for good).
 */
function bridgeSettled(l: IpLink, all: IpLink[]): boolean {
  if (l.linkinfo?.info_kind !== 'bridge' || l.operstate !== 'UNKNOWN') return true;
  return !all.some((p) => p.master === l.ifname);
}

function nsSettled(links: IpLink[]): boolean {
  return links.every((l) => linkSettled(l) && bridgeSettled(l, links));
}

export function waitSettled(sb: Sandbox, namespaces: string[], timeoutMs = 4000): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = namespaces.filter((ns) => sb.netnsExists(ns) && !nsSettled(rawLinks(sb, ns)));
    if (pending.length === 0 || Date.now() > deadline) return;
    sleepMs(100);
  }
}

const ROUTE_KEYS = [
  'type',
  'dst',
  'gateway',
  'via',
  'dev',
  'protocol',
  'scope',
  'prefsrc',
  'metric',
  'flags',
  'pref',
  'metrics',
  'nexthops',
];

function routes(sb: Sandbox, ns: string, family: '-4' | '-6'): Json[] {
  return ipJson(sb, ns, [family, 'route', 'show', 'table', 'main']).map((r) => {
    const out: JsonObject = {};
    if (isObject(r)) for (const k of ROUTE_KEYS) if (k in r) out[k] = r[k] as Json;
    return out;
  });
}

function iptables(sb: Sandbox, ns: string, cmd: string): string[] {
  const r = run(['ip', 'netns', 'exec', sb.ns(ns), cmd]);
  return r.stdout
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => (l.startsWith(':') ? l.replace(/ \[\d+:\d+\]$/, '') : l));
}

function tcLines(sb: Sandbox, ns: string): string[] {
  const exec = (args: string[]) =>
    run(['ip', 'netns', 'exec', sb.ns(ns), 'tc', ...args])
      .stdout.split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l !== '');
  const qdiscs = exec(['qdisc', 'show']);
  const out = [...qdiscs];
  for (const q of qdiscs) {
    const m = /^qdisc ingress ffff: dev (\S+) /.exec(q + ' ');
    if (m?.[1]) {
      out.push(`# tc filter show dev ${m[1]} ingress`);
      out.push(...exec(['filter', 'show', 'dev', m[1], 'ingress']));
    }
  }
  return out;
}

function sysctls(sb: Sandbox, ns: string, keys: string[]): JsonObject {
  if (keys.length === 0) return {};
  const script = keys
    .map((k) => {
      const path = '/proc/sys/' + k.split('.').join('/');
      return `if v=$(cat '${path}' 2>/dev/null); then printf '%s\\0' "$v"; else printf '<unreadable>\\0'; fi`;
    })
    .join('\n');
  const r = run(['ip', 'netns', 'exec', sb.ns(ns), 'bash', '--norc', '--noprofile', '-c', script]);
  const vals = r.stdout.split('\0');
  const out: JsonObject = {};
  keys.forEach((k, i) => (out[k] = vals[i] ?? '<unreadable>'));
  return out;
}

export interface SnapshotOptions {
  namespaces: string[]; // logical names, node first
  sysctls: Record<string, string[]>;
  tc: Set<string>;
}

/** netns state of every namespace; peers resolved across namespaces. */
function namespaces(sb: Sandbox, opts: SnapshotOptions): JsonObject {
  const out: JsonObject = {};
  // per-ns raw data first, to resolve veth peers
  const links = new Map<string, IpLink[]>();
  const nsids = new Map<string, Map<number, string>>();
  const realToLogical = new Map(opts.namespaces.map((n) => [sb.ns(n), n]));
  for (const ns of opts.namespaces) {
    if (!sb.netnsExists(ns)) continue;
    links.set(ns, rawLinks(sb, ns));
    const m = new Map<number, string>();
    for (const e of ipJson(sb, ns, ['netns', 'list-id'])) {
      if (isObject(e) && typeof e.nsid === 'number' && typeof e.name === 'string') {
        m.set(e.nsid, realToLogical.get(e.name) ?? e.name);
      }
    }
    nsids.set(ns, m);
  }
  for (const ns of opts.namespaces) {
    const ls = links.get(ns);
    if (!ls) {
      out[ns] = { exists: false };
      continue;
    }
    const addrs = new Map<number, IpAddrEntry>();
    for (const a of ipJson(sb, ns, ['addr', 'show']) as unknown as IpAddrEntry[]) {
      addrs.set(a.ifindex, a);
    }
    const linkObjs: Json[] = [...ls]
      .sort((a, b) => a.ifindex - b.ifindex)
      .map((l) => {
        const kind = l.linkinfo?.info_kind ?? l.link_type ?? 'unknown';
        const o: JsonObject = {
          ifindex: l.ifindex,
          name: l.ifname,
          kind,
          operstate: l.operstate,
          flags: [...l.flags].sort(),
          mtu: l.mtu,
          mac: l.address ?? '',
          promiscuity: l.promiscuity ?? 0,
          addresses: (addrs.get(l.ifindex)?.addr_info ?? []).map((a) => {
            const ao: JsonObject = {
              family: a.family,
              address: a.local ?? a.address ?? '',
              prefixlen: a.prefixlen,
              scope: a.scope,
            };
            if (a.broadcast !== undefined) ao.broadcast = a.broadcast;
            if (a.local !== undefined && a.address !== undefined && a.address !== a.local) {
              ao.peer = a.address;
            }
            return ao;
          }),
        };
        if (l.master !== undefined) o.master = l.master;
        if (kind === 'veth') {
          let peerNs: string | undefined;
          if (l.link_netnsid !== undefined) peerNs = nsids.get(ns)?.get(l.link_netnsid);
          else if (l.link_index !== undefined || l.link !== undefined) peerNs = ns;
          const peerIdx = l.link_index;
          const peerName =
            peerNs !== undefined
              ? links.get(peerNs)?.find((p) => p.ifindex === peerIdx)?.ifname
              : undefined;
          const peer: JsonObject = {};
          if (peerNs !== undefined) peer.netns = peerNs;
          if (peerIdx !== undefined) peer.ifindex = peerIdx;
          if (peerName !== undefined) peer.name = peerName;
          o.peer = peer;
        }
        if (kind === 'bridge') {
          o.bridge = {
            stp: (l.linkinfo?.info_data?.stp_state ?? 0) !== 0,
            vlanFiltering: (l.linkinfo?.info_data?.vlan_filtering ?? 0) !== 0,
          };
        }
        const sd = l.linkinfo?.info_slave_data;
        if (l.linkinfo?.info_slave_kind === 'bridge' && sd) {
          o.bridgePort = {
            state: sd.state ?? '',
            hairpin: sd.hairpin ?? false,
            learning: sd.learning ?? false,
            flood: sd.flood ?? false,
            isolated: sd.isolated ?? false,
          };
        }
        return o;
      });
    const st: JsonObject = {
      exists: true,
      links: linkObjs,
      routes: { ipv4: routes(sb, ns, '-4'), ipv6: routes(sb, ns, '-6') },
    };
    const bridges = ls
      .filter((l) => l.linkinfo?.info_kind === 'bridge')
      .sort((a, b) => a.ifindex - b.ifindex)
      .map((b) => ({
        name: b.ifname,
        ports: ls
          .filter((p) => p.master === b.ifname)
          .sort((x, y) => x.ifindex - y.ifindex)
          .map((p) => p.ifname),
      }));
    if (bridges.length > 0) st.bridges = bridges;
    const keys = [...(ns === 'node' ? NODE_SYSCTLS : []), ...(opts.sysctls[ns] ?? [])];
    if (keys.length > 0) st.sysctls = sysctls(sb, ns, keys);
    if (ns === 'node') {
      st.iptables = {
        ipv4: iptables(sb, ns, 'iptables-save'),
        ipv6: iptables(sb, ns, 'ip6tables-save'),
      };
    }
    if (opts.tc.has(ns)) st.tc = tcLines(sb, ns);
    out[ns] = st;
  }
  return out;
}

/** relative path -> content of every file below dir. */
export function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      const st = statSync(p);
      if (st.isDirectory()) walk(p, r);
      else if (st.isFile()) out[r] = readFileSync(p, 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

export function snapshot(sb: Sandbox, opts: SnapshotOptions, provenance: JsonObject): JsonObject {
  waitSettled(sb, opts.namespaces);
  const state: JsonObject = {
    namespaces: namespaces(sb, opts),
    hostLocalDataDir: readTree(sb.dataDir),
  };
  const files: JsonObject = {};
  for (const [rel, text] of Object.entries(readTree(sb.cacheDir))) {
    const v = tryParse(text);
    files[rel] = v === undefined ? { unparsable: text } : v;
  }
  state.cacheDir = { ...provenance, files };
  const tuning = readTree(sb.tuningDir);
  if (Object.keys(tuning).length > 0) state.tuningDataDir = tuning;
  return state;
}
