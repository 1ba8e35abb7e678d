/**
 * What would break on a bundle's node, read from its files and from what the simulated runtime
 * loaded: each finding names its evidence (a file, a step) and its fix.
 */
import { Scanner, SCAN_ERROR } from '../gojson/scanner';
import { jsonSyntaxError } from '../gojson/scanner';
import { goQuoteList } from '../gofmt';
import { confListFromBytes } from '../libcni/conf';
import { hostLocalConfOf } from '../plugins/host-local';
import { type IPNet, ipString, lastOf, networkOf, parseCIDR, cidrString, ipCmp } from '../net/ip';
import type { NodeBundle } from './bundle';
import { SIMULATED_PLUGINS, libcniOf } from './node';

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  severity: Severity;
  /** A short stable id, e.g. `json-syntax`, `plugin-missing`. */
  kind: string;
  /** Where it shows: a file (`/etc/cni/net.d/10-x.conflist:3:7`), a plugin, a step. */
  evidence: string;
  message: string;
  fix: string;
}

/** What the runtime loaded (containerd's go-cni, from the simulated node after boot). */
export interface Loaded {
  networks: Array<{ name: string; ifName: string; file: string; bytes: string }>;
  error: string | null;
}

/** The kubelet's default --max-pods. */
export const MAX_PODS = 110;

const CONF_EXTS = ['.conf', '.conflist', '.json'];
const extOf = (n: string): string => (n.lastIndexOf('.') >= 0 ? n.slice(n.lastIndexOf('.')) : '');

/** Line and column (1-based) of a JSON syntax error, with Go's message; null when valid. */
export function jsonErrorAt(text: string): { line: number; col: number; message: string } | null {
  const message = jsonSyntaxError(text);
  if (message === null) return null;
  const s = new Scanner();
  let at = text.length;
  for (let i = 0; i < text.length; i++) {
    if (s.step(text.charCodeAt(i), i) === SCAN_ERROR) {
      at = i;
      break;
    }
  }
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const col = at - (before.lastIndexOf('\n') + 1) + 1;
  return { line, col, message };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function overlaps(a: IPNet, b: IPNet): boolean {
  if (a.ip.v !== b.ip.v) return false;
  return ipCmp(networkOf(a), lastOf(b)) <= 0 && ipCmp(networkOf(b), lastOf(a)) <= 0;
}

function contains(outer: IPNet, inner: IPNet): boolean {
  return (
    outer.ip.v === inner.ip.v &&
    outer.prefix <= inner.prefix &&
    ipCmp(networkOf(outer), networkOf(inner)) <= 0 &&
    ipCmp(lastOf(inner), lastOf(outer)) <= 0
  );
}

/** Devices that are the CNI's own (their addresses sit in pod ranges by design). */
const CNI_DEVICES =
  /^(cni\d*|veth|cali|lxc|cilium_|flannel|vxlan|tunl|eni|kube-ipvs|kube-bridge|weave|genev)/;

export function analyse(b: NodeBundle, loaded: Loaded): Finding[] {
  const out: Finding[] = [];
  const confDir = b.cni.confDir.replace(/\/+$/, '');
  const libcni = libcniOf(b.runtime);
  const binDirs = `[${b.cni.binDirs.join(' ')}]`;
  const names = Object.keys(b.confFiles).sort();
  const loadedFiles = new Set(loaded.networks.map((n) => n.file));

  // Which file the runtime loads, and the ones it does not.
  if (loaded.error) {
    out.push({
      severity: 'error',
      kind: 'no-network',
      evidence: 'containerd: CNI config load (runtime status NetworkReady)',
      message: `${loaded.error}. The node reports NetworkReady=false and no pod gets a network.`,
      fix: `Fix or remove the file named in the error; containerd loads the .conf, .conflist and .json files of ${confDir} in lexical order and stops at the first it cannot parse.`,
    });
  }
  for (const n of loaded.networks) {
    out.push({
      severity: 'info',
      kind: 'loaded',
      evidence: n.file,
      message: `containerd loads network "${n.name}" from ${n.file} for the pod's ${n.ifName} (lexical order of ${confDir}, maxConfNum ${b.cni.maxConfNum}).`,
      fix: 'Nothing to fix.',
    });
  }
  const configs = names.filter((n) => CONF_EXTS.includes(extOf(n)));
  const multus = loaded.networks.some((n) => /"type":\s*"multus(-shim)?"/.test(n.bytes));
  if (!loaded.error) {
    for (const n of configs) {
      const f = `${confDir}/${n}`;
      if (loadedFiles.has(f)) continue;
      if (multus) {
        out.push({
          severity: 'info',
          kind: 'ignored',
          evidence: f,
          message: `${f} is not loaded by containerd (maxConfNum ${b.cni.maxConfNum}); with multus loaded first, multus may read it as its delegate (clusterNetwork).`,
          fix: 'Nothing to fix if multus delegates to it.',
        });
        continue;
      }
      out.push({
        severity: 'warning',
        kind: 'ignored',
        evidence: f,
        message: `${f} is ignored: containerd stops after ${b.cni.maxConfNum} network${b.cni.maxConfNum === 1 ? '' : 's'} (maxConfNum) and an earlier file in lexical order wins.`,
        fix: 'Remove the stale file, or rename the one you mean to load so that it sorts first (e.g. 05-...).',
      });
    }
  }
  const others = new Set([
    ...names.filter((n) => !CONF_EXTS.includes(extOf(n))),
    ...(b.listing ?? []).filter((n) => !n.endsWith('/') && !CONF_EXTS.includes(extOf(n))),
  ]);
  for (const n of [...others].sort()) {
    out.push({
      severity: 'info',
      kind: 'not-a-config',
      evidence: `${confDir}/${n}`,
      message: `${n} is not read as a network config (only .conf, .conflist and .json are).`,
      fix:
        n.endsWith('.conflist.bak') ||
        n.endsWith('.conf.bak') ||
        /\.(bak|old|orig|disabled)$/.test(n)
          ? 'Nothing to fix (a kept copy).'
          : 'Nothing to fix, unless you meant it to be loaded: give it a .conflist name.',
    });
  }

  // Malformed JSON, with line and column.
  for (const n of configs) {
    const e = jsonErrorAt(b.confFiles[n]!);
    if (!e) continue;
    const f = `${confDir}/${n}`;
    const inPath = loaded.error?.includes(f) ?? false;
    out.push({
      severity: inPath || loadedFiles.has(f) ? 'error' : 'warning',
      kind: 'json-syntax',
      evidence: `${f}:${e.line}:${e.col}`,
      message: `${f} is not valid JSON at line ${e.line}, column ${e.col}: ${e.message}.${inPath ? '' : ' It is not loaded today, but containerd reads it (and fails) if it sorts before the loaded file.'}`,
      fix: `Correct the JSON at line ${e.line}, column ${e.col} (check it with jq . ${f}).`,
    });
  }

  // The loaded lists: plugins, versions, capabilities, IPAM.
  const hostNets: Array<{ dev: string; net: IPNet; cidr: string }> = [];
  const bridges = new Set<string>();
  const ranges: Array<{ file: string; net: IPNet; text: string }> = [];
  for (const n of loaded.networks) {
    let list;
    try {
      list = confListFromBytes(n.bytes, { libcni });
    } catch {
      continue;
    }
    const raw = JSON.parse(n.bytes) as Record<string, unknown>;
    const rawPlugins = Array.isArray(raw['plugins']) ? (raw['plugins'] as unknown[]) : [];
    const v = list.cniVersion;
    const types: string[] = [];
    const ipams: string[] = [];
    list.plugins.forEach((p, i) => {
      const type = p.network.type;
      types.push(type);
      const rp = rawPlugins[i];
      if (isObj(rp) && typeof rp['bridge'] === 'string') bridges.add(rp['bridge']);
      if (type === 'bridge' && !(isObj(rp) && typeof rp['bridge'] === 'string'))
        bridges.add('cni0');
      const ipam =
        isObj(rp) && isObj(rp['ipam']) && typeof rp['ipam']['type'] === 'string'
          ? rp['ipam']['type']
          : null;
      if (ipam) ipams.push(ipam);
      for (const [bin, role] of [
        [type, 'plugin'],
        ...(ipam ? [[ipam, 'IPAM plugin']] : []),
      ] as Array<[string, string]>) {
        const pv = b.plugins[bin];
        const desc = `plugin type=${JSON.stringify(type)}`;
        if (!pv) {
          out.push({
            severity: 'error',
            kind: 'plugin-missing',
            evidence: `${n.file}: plugins[${i}]${role === 'IPAM plugin' ? '.ipam' : ''}`,
            message: `The ${role} "${bin}" is not in the bin dir: ADD fails with: ${desc} failed (add): failed to find plugin "${bin}" in path ${binDirs}`,
            fix: `Install the ${bin} binary into ${b.cni.binDirs[0]} (the containernetworking-plugins package, or the CNI's own installer) before rolling out the config.`,
          });
          continue;
        }
        if (!pv.supportedVersions) {
          out.push({
            severity: 'warning',
            kind: 'version-unknown',
            evidence: `opt-cni-bin/${bin}`,
            message: `${bin} did not answer VERSION with JSON (${JSON.stringify(pv.raw.slice(0, 120))}); its supported versions are unknown.`,
            fix: `Run CNI_COMMAND=VERSION ${b.cni.binDirs[0]}/${bin} </dev/null on the node and check it prints {"cniVersion":...,"supportedVersions":[...]}.`,
          });
          continue;
        }
        if (v !== '' && !pv.supportedVersions.includes(v)) {
          out.push({
            severity: 'error',
            kind: 'cni-version',
            evidence: `${n.file}: cniVersion "${v}" · opt-cni-bin/${bin}`,
            message: `${bin} does not support cniVersion "${v}": ADD fails with: ${desc} failed (add): incompatible CNI versions; config is "${v}", plugin supports ${goQuoteList(pv.supportedVersions)}`,
            fix: `Set the list's cniVersion to one ${bin} supports (${pv.supportedVersions[pv.supportedVersions.length - 1]}), or upgrade ${bin}.`,
          });
        }
      }
    });
    // Capabilities.
    const caps = (i: number): Record<string, unknown> => {
      const rp = rawPlugins[i];
      return isObj(rp) && isObj(rp['capabilities']) ? rp['capabilities'] : {};
    };
    const pmIdx = types.indexOf('portmap');
    const servesPorts = types.some((_, i) => caps(i)['portMappings'] === true);
    const unsimTypes = [...new Set(types.filter((t) => !SIMULATED_PLUGINS.includes(t)))];
    if (!servesPorts && unsimTypes.length) {
      out.push({
        severity: 'info',
        kind: 'capability',
        evidence: n.file,
        message: `No plugin of "${list.name}" asks for the portMappings capability: pods' hostPorts work only if ${unsimTypes.join(', ')} ${unsimTypes.length > 1 ? 'publish' : 'publishes'} them itself.`,
        fix: 'Check that the CNI implements hostPort, or add portmap with "capabilities": {"portMappings": true}.',
      });
    } else if (!servesPorts) {
      out.push({
        severity: 'warning',
        kind: 'capability',
        evidence: n.file,
        message:
          pmIdx >= 0
            ? `portmap is in "${list.name}" without "capabilities": {"portMappings": true}: containerd passes it no port mappings, so pods' hostPorts are silently not published.`
            : `No plugin of "${list.name}" asks for the portMappings capability (no portmap): pods' hostPorts are silently not published.`,
        fix:
          pmIdx >= 0
            ? 'Add "capabilities": {"portMappings": true} to the portmap entry.'
            : 'Add {"type": "portmap", "capabilities": {"portMappings": true}} to the list if any pod uses hostPort (and install portmap).',
      });
    }
    for (const [cap, plugin] of [['bandwidth', 'bandwidth']] as const) {
      const asks = types.some((_, i) => caps(i)[cap] === true);
      if (asks && !b.plugins[plugin])
        out.push({
          severity: 'warning',
          kind: 'capability',
          evidence: n.file,
          message: `"${list.name}" asks for the ${cap} capability but no ${plugin} binary is installed.`,
          fix: `Install ${plugin} or drop it from the list.`,
        });
    }
    // Not simulated.
    const unsim = [...new Set([...types, ...ipams].filter((t) => !SIMULATED_PLUGINS.includes(t)))];
    if (unsim.length)
      out.push({
        severity: 'info',
        kind: 'not-simulated',
        evidence: n.file,
        message: `cnisim does not simulate ${unsim.join(', ')}: that part of "${list.name}" is checked for structure and versions only, and the dry-run of this network is not run.`,
        fix: 'Nothing to fix; test it on a staging node.',
      });
    // libcni generation.
    if (libcni === '1.1' && 'cniVersions' in raw)
      out.push({
        severity: 'warning',
        kind: 'libcni',
        evidence: n.file,
        message: `"cniVersions" is read only by libcni 1.2 (containerd 2.x); ${b.runtime.raw.split('\n')[0] || 'this runtime'} uses libcni 1.1 and takes "cniVersion" ("${v}").`,
        fix: 'Keep "cniVersion" set to a version every plugin supports.',
      });
    if (list.disableCheck && b.runtime.kind === 'containerd')
      out.push({
        severity: 'info',
        kind: 'check',
        evidence: `${n.file}: disableCheck`,
        message: `"disableCheck" changes nothing on containerd, which never runs CHECK; it matters to CRI-O (which runs CHECK after ADD) and to anything else that calls libcni's CheckNetworkList.`,
        fix: 'Nothing to fix.',
      });
    if (libcni === '1.1' && 'disableGC' in raw)
      out.push({
        severity: 'info',
        kind: 'libcni',
        evidence: n.file,
        message:
          '"disableGC" is read only by libcni 1.2 (containerd 2.x); this runtime ignores it.',
        fix: 'Nothing to fix.',
      });
    // STATUS (containerd 2.0.1+ on a 1.1.0 list).
    const rv = b.runtime.version?.split('.').map(Number) ?? [];
    const statusRuns =
      b.runtime.kind === 'containerd' &&
      rv.length === 3 &&
      (rv[0]! > 2 || (rv[0] === 2 && (rv[1]! > 0 || rv[2]! >= 1)));
    if (statusRuns && v === '1.1.0') {
      const old = types.filter(
        (t) =>
          b.plugins[t]?.supportedVersions && !b.plugins[t]!.supportedVersions!.includes('1.1.0'),
      );
      if (old.length)
        out.push({
          severity: 'error',
          kind: 'status',
          evidence: `${n.file}: cniVersion "1.1.0" · containerd ${b.runtime.version}`,
          message: `containerd ${b.runtime.version} runs CNI STATUS on every status poll for a 1.1.0 list; ${old.join(', ')} predate STATUS and refuse it, so NetworkReady turns false and the node goes NotReady.`,
          fix: `Upgrade ${old.join(', ')} to a release that supports 1.1.0, or set the list's cniVersion to 1.0.0.`,
        });
    }
    // IPAM ranges.
    let ipam;
    try {
      ipam = hostLocalConfOf(n.bytes);
    } catch (e) {
      out.push({
        severity: 'error',
        kind: 'ipam',
        evidence: n.file,
        message: `host-local refuses the IPAM config of "${list.name}": ${e instanceof Error ? e.message : String(e)}`,
        fix: 'Correct the ipam section (ranges, subnet, rangeStart/rangeEnd inside the subnet).',
      });
      ipam = null;
    }
    if (ipam) {
      ipam.ranges.forEach((set, si) => {
        let cap = 0n;
        for (const r of set) {
          cap += r.rangeEnd.n - r.rangeStart.n + 1n;
          if (
            r.gateway &&
            r.gateway.v === r.rangeStart.v &&
            r.gateway.n >= r.rangeStart.n &&
            r.gateway.n <= r.rangeEnd.n
          )
            cap -= 1n;
          ranges.push({ file: n.file, net: r.subnet, text: cidrString(r.subnet) });
        }
        const first = set[0]!;
        if (cap < BigInt(MAX_PODS))
          out.push({
            severity: 'warning',
            kind: 'ipam-small',
            evidence: `${n.file}: ipam.ranges[${si}]`,
            message: `The range set ${set.map((r) => cidrString(r.subnet)).join(', ')} holds ${cap} pod addresses, fewer than the kubelet's maxPods (${MAX_PODS}): pod ${cap + 1n} fails with: failed to allocate for range ${si}: no IP addresses available in range set: ${ipString(first.rangeStart)}-${ipString(set[set.length - 1]!.rangeEnd)}`,
            fix: `Give the node a larger range (a /24 holds 253 pods), or lower the kubelet's maxPods to ${cap}.`,
          });
        if (b.podCIDR) {
          const pc = parseCIDR(b.podCIDR);
          for (const r of set)
            if (pc.ok && pc.net.ip.v === r.subnet.ip.v && !contains(pc.net, r.subnet))
              out.push({
                severity: 'warning',
                kind: 'ipam-pod-cidr',
                evidence: `${n.file}: ipam.ranges[${si}] ${cidrString(r.subnet)}`,
                message: `The range ${cidrString(r.subnet)} is not inside the node's pod CIDR ${b.podCIDR}: pods get addresses the cluster's routes to this node do not cover.`,
                fix: `Use the node's pod CIDR (${b.podCIDR}) as the range's subnet.`,
              });
        }
      });
    }
  }
  for (const a of b.hostAddresses) {
    if (bridges.has(a.dev) || CNI_DEVICES.test(a.dev)) continue;
    const c = parseCIDR(a.cidr);
    if (c.ok) hostNets.push({ dev: a.dev, net: c.net, cidr: cidrString(c.net) });
  }
  for (let i = 0; i < ranges.length; i++) {
    for (let j = i + 1; j < ranges.length; j++) {
      if (overlaps(ranges[i]!.net, ranges[j]!.net))
        out.push({
          severity: 'error',
          kind: 'ipam-overlap',
          evidence: `${ranges[i]!.file} ${ranges[i]!.text} · ${ranges[j]!.file} ${ranges[j]!.text}`,
          message: `The IPAM ranges ${ranges[i]!.text} and ${ranges[j]!.text} overlap: two pods can get addresses in one subnet on different interfaces, and routes to them clash.`,
          fix: 'Give each network (and each range) a subnet of its own.',
        });
    }
    for (const h of hostNets)
      if (overlaps(ranges[i]!.net, h.net))
        out.push({
          severity: 'error',
          kind: 'ipam-overlap',
          evidence: `${ranges[i]!.file} ${ranges[i]!.text} · ip-addr.txt ${h.dev} ${h.cidr}`,
          message: `The IPAM range ${ranges[i]!.text} overlaps the node's network ${h.cidr} on ${h.dev}: traffic to those addresses goes to the pods (or the other way round).`,
          fix: `Pick a pod range outside ${h.cidr}.`,
        });
  }
  return out;
}
