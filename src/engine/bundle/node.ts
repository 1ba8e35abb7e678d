/**
 * A simulated node made from a bundle: the scenario node (scenario/) with the bundle's config
 * files, the plugins cnisim models at the builds that match their VERSION answers, and the
 * runtime's CNI settings and libcni generation. What cannot be made faithfully is named in
 * `notes`, never invented.
 */
import { LIBCNI_SHORTHAND, parseRelease, type Release } from '../runtime/releases';
import { BUILDS } from '../plugins/lib/build';
import { PLUGIN_FACTORIES, UNMODELLED_PLUGINS } from '../plugins/registry';
import '../plugins/late';
import '../runtime/crio-late';
import { parseCIDR } from '../net/ip';
import type { NodeBundle, PluginVersion } from './bundle';

export const NODE_NAME = 'node-1';
/** The pod CIDR the simulated node gets when the bundle has none (host-local does not read it). */
export const FALLBACK_POD_CIDR = '10.244.0.0/24';

/**
 * Plugins cnisim models, as they behave on a real node. calico is modelled for lessons only (its
 * IPAM carves blocks from the pod CIDR instead of Calico's IP pools and datastore), so a real
 * node's calico is treated as not simulated. flannel is modelled (v1.1.2), but a bundle carries
 * neither flanneld's /run/flannel/subnet.env nor which flannel build the node runs, so a drill
 * would invent both: it counts as not simulated too. macvlan is modelled as the v1.1.1 build
 * only (plugins/registry.ts), so a node's macvlan, whatever its build, counts as not simulated.
 */
export const SIMULATED_PLUGINS: readonly string[] = Object.keys(PLUGIN_FACTORIES).filter(
  (p) =>
    !UNMODELLED_PLUGINS.includes(p) &&
    p !== 'calico' &&
    p !== 'calico-ipam' &&
    p !== 'flannel' &&
    p !== 'macvlan',
);

/** The containerd release the bundle names, if cnisim knows it (runtime/releases.ts). */
export function releaseOfBundle(runtime: NodeBundle['runtime']): Release | null {
  if (runtime.kind !== 'containerd' || !runtime.version) return null;
  const r = parseRelease(runtime.version);
  return r.ok ? r.release : null;
}

/** libcni generation of a runtime release: containerd 2.x vendors libcni 1.2, 1.6/1.7 libcni 1.1. */
export function libcniOf(runtime: NodeBundle['runtime']): '1.1' | '1.2' {
  const rel = releaseOfBundle(runtime);
  if (rel) return rel.libcni;
  if (
    runtime.kind === 'containerd' &&
    runtime.version &&
    Number(runtime.version.split('.')[0]) >= 2
  )
    return '1.2';
  return '1.1';
}

/**
 * The modelled build whose spec versions match a VERSION answer: the highest version it
 * supports picks it (1.1.0 → v1.6.2, 1.0.0 → v1.1.1, 0.4.0 → v0.8.7, 0.3.x → v0.7.6).
 */
export function buildFor(v: PluginVersion): { build: string; exact: boolean } | null {
  const s = v.supportedVersions;
  if (!s || s.length === 0) return null;
  const has = (x: string) => s.includes(x);
  const pick = has('1.1.0')
    ? 'v1.6.2'
    : has('1.0.0')
      ? 'v1.1.1'
      : has('0.4.0')
        ? 'v0.8.7'
        : has('0.3.1') || has('0.3.0')
          ? 'v0.7.6'
          : null;
  if (!pick) return null;
  const b = BUILDS[pick]!;
  const top = b.all[b.all.length - 1]!;
  const exact = s.every((x) => b.all.includes(x)) && s.includes(top);
  return { build: pick, exact };
}

export interface NodePlan {
  /** The scenario node (docs/scenarios.md). */
  node: Record<string, unknown>;
  /** Plugins installed in the simulated bin dir, with their build. */
  installed: Record<string, string>;
  /** Binaries of the bundle that are not simulated (not installed). */
  notSimulated: string[];
  notes: string[];
}

export function planNode(b: NodeBundle): NodePlan {
  const notes: string[] = [];
  const installed: Record<string, string> = {};
  const notSimulated: string[] = [];
  for (const [name, v] of Object.entries(b.plugins).sort(([a], [c]) => (a < c ? -1 : 1))) {
    if (!SIMULATED_PLUGINS.includes(name)) {
      notSimulated.push(name);
      continue;
    }
    const m = buildFor(v);
    if (!m) {
      notes.push(
        `${name}: its VERSION answer names no spec version cnisim has a build for; it is installed as v1.1.1`,
      );
      installed[name] = 'v1.1.1';
      continue;
    }
    installed[name] = m.build;
    if (!m.exact)
      notes.push(
        `${name}: supports ${JSON.stringify(v.supportedVersions)}; simulated with the closest build, ${m.build} (${JSON.stringify(BUILDS[m.build]!.all)})`,
      );
  }
  let podCIDR = b.podCIDR;
  const c = podCIDR ? parseCIDR(podCIDR) : null;
  if (!c || !c.ok || c.net.ip.v !== 4 || c.net.prefix < 8 || c.net.prefix > 30) {
    if (podCIDR)
      notes.push(
        `the pod CIDR ${podCIDR} is not an IPv4 /8-/30 network; the simulated node's spec.podCIDR is ${FALLBACK_POD_CIDR}`,
      );
    else
      notes.push(
        `no pod CIDR: the simulated node's spec.podCIDR is ${FALLBACK_POD_CIDR} (host-local does not read it)`,
      );
    podCIDR = FALLBACK_POD_CIDR;
  }
  const confDir = b.cni.confDir.replace(/\/+$/, '') || '/etc/cni/net.d';
  const files: Record<string, string> = {};
  for (const [f, t] of Object.entries(b.confFiles)) files[`${confDir}/${f}`] = t;
  if (b.cni.binDirs.join(' ') !== '/opt/cni/bin')
    notes.push(
      `the runtime's bin dirs are [${b.cni.binDirs.join(' ')}]; the simulated node has its plugins in /opt/cni/bin`,
    );
  const maxConfNum = b.cni.maxConfNum >= 1 ? b.cni.maxConfNum : 1000;
  const libcni = libcniOf(b.runtime);
  const release = releaseOfBundle(b.runtime);
  if (b.runtime.kind === 'containerd' && b.runtime.version && !release)
    notes.push(
      `containerd ${b.runtime.version} is not a release cnisim knows; the node runs the behaviour of containerd ${LIBCNI_SHORTHAND[libcni]} (libcni ${libcni})`,
    );
  if (b.runtime.kind === 'cri-o')
    notes.push(
      "the runtime is CRI-O, which cnisim does not simulate: what is loaded follows containerd's rules; CRI-O also rejects at load a list whose plugins do not support its cniVersion",
    );
  const node: Record<string, unknown> = {
    name: NODE_NAME,
    podCIDR,
    cniConfigs: {},
    plugins: Object.keys(installed),
    pluginBuilds: installed,
    files,
    containerd: {
      // A known release decides the behaviour (and its libcni); otherwise the libcni generation.
      ...(release ? { version: release.version } : { libcni }),
      confDir,
      binDirs: ['/opt/cni/bin'],
      maxConfNum,
      ...(b.cni.ipPref ? { ipPref: b.cni.ipPref } : {}),
    },
  };
  return { node, installed, notSimulated, notes };
}
