/**
 * The fix steps a challenge offers, as operations an operator performs on a node. A candidate
 * picks the steps of their fix; each step turns into ordinary session actions computed from the
 * node's state at that moment (which files to remove, which binaries to install), performed one
 * after the other, then the simulation shows whether the node recovers. A step is the remedy
 * the candidate chose, carried out faithfully: it diagnoses nothing for them, and a wrong step
 * is performed as faithfully as a right one.
 */
import { podKey, podStatusText } from '../apiserver/apiserver';
import { defaultConflist, type ClusterSpec } from '../cluster/cluster';
import * as vfs from '../fs/vfs';
import { resultsDir } from '../node/inspect';
import type { SessionAction } from '../session/actions';
import type { WorldState } from '../sim/world';
import type { NodeAudit } from '../cluster/cluster';
import { tget, tvalues } from '../state/table';

export interface FixContext {
  state: WorldState;
  node: string;
  /** The cluster as it was built (the node's intended conflists and plugin build). */
  spec: ClusterSpec;
  audit: (state: WorldState) => NodeAudit[];
}

/** A step of a fix: an action, or a wait until the world is so (or `timeoutUs` passed). */
export type FixStep =
  | { action: SessionAction }
  | { wait: string; until: (state: WorldState) => boolean; timeoutUs: number }
  /** Computed when reached (after the steps before it took effect). */
  | { later: (ctx: FixContext) => FixStep[] };

export interface Fix {
  id: string;
  /** What the candidate reads. */
  label: string;
  plan: (ctx: FixContext) => FixStep[];
}

const CONF_DIR = '/etc/cni/net.d';
const BIN_DIR = '/opt/cni/bin';
const RESULTS = resultsDir();

function nodeSpec(ctx: FixContext) {
  const n = ctx.spec.nodes.find((x) => x.name === ctx.node);
  if (!n) throw new Error(`no node ${ctx.node}`);
  return n;
}

function intendedConfigs(ctx: FixContext): Record<string, string> {
  const n = nodeSpec(ctx);
  return n.cniConfigs ?? { '10-containerd-net.conflist': defaultConflist(n.podCIDR) };
}

function files(state: WorldState, node: string, dir: string): string[] {
  const fs = state.nodes[node]!.fs;
  if (vfs.stat(fs, dir)?.kind !== 'dir') return [];
  return vfs.readDir(fs, dir).filter((f) => vfs.stat(fs, vfs.joinPath(dir, f))?.kind === 'file');
}

/** Plugin types a conflist text names (plugins and their IPAM). */
function pluginTypes(text: string): string[] {
  const out = new Set<string>();
  try {
    const conf = JSON.parse(text) as { plugins?: { type?: string; ipam?: { type?: string } }[] };
    for (const p of conf.plugins ?? []) {
      if (p.type) out.add(p.type);
      if (p.ipam?.type) out.add(p.ipam.type);
    }
  } catch {
    // an unreadable conflist names nothing
  }
  return [...out];
}

function podsOn(state: WorldState, node: string) {
  return (state.api ? tvalues(state.api.pods) : [])
    .filter((p) => p.spec.nodeName === node)
    .sort((a, b) => (a.spec.name < b.spec.name ? -1 : 1));
}

function unblock(plugin: string): Fix {
  return {
    id: `unblock-${plugin}`,
    label: `Release what ${plugin} is stuck on, so that its ADD and DEL return again`,
    plan: (ctx) => [{ action: { do: 'hangPlugin', node: ctx.node, plugin, commands: [] } }],
  };
}

const LIST: Fix[] = [
  {
    id: 'restore-conflist',
    label:
      "Restore the node's pod network conflist in /etc/cni/net.d from configuration management",
    plan: (ctx) =>
      Object.entries(intendedConfigs(ctx)).map(([f, data]) => ({
        action: { do: 'writeFile', node: ctx.node, path: `${CONF_DIR}/${f}`, data },
      })),
  },
  {
    id: 'remove-extra-conflists',
    label: 'Remove every file from /etc/cni/net.d except the pod network conflist',
    plan: (ctx) => {
      const keep = Object.keys(intendedConfigs(ctx));
      return files(ctx.state, ctx.node, CONF_DIR)
        .filter((f) => !keep.includes(f))
        .map((f) => ({ action: { do: 'removeFile', node: ctx.node, path: `${CONF_DIR}/${f}` } }));
    },
  },
  {
    id: 'install-missing-plugins',
    label: 'Install the CNI plugin binaries the conflist names that are missing from /opt/cni/bin',
    plan: (ctx) => {
      const n = nodeSpec(ctx);
      const have = new Set(files(ctx.state, ctx.node, BIN_DIR));
      const want = new Set(Object.values(intendedConfigs(ctx)).flatMap(pluginTypes));
      return [...want]
        .filter((p) => !have.has(p))
        .sort()
        .map((p) => ({
          action: {
            do: 'installPlugin',
            node: ctx.node,
            plugin: p,
            build: n.pluginBuilds?.[p] ?? n.pluginBuild ?? 'v1.1.1',
          },
        }));
    },
  },
  {
    id: 'upgrade-old-plugins',
    label: "Replace plugin binaries whose version differs from the node's CNI plugins package",
    plan: (ctx) => {
      const n = nodeSpec(ctx);
      const build = n.pluginBuild ?? 'v1.1.1';
      const fs = ctx.state.nodes[ctx.node]!.fs;
      return files(ctx.state, ctx.node, BIN_DIR)
        .filter((p) => {
          const e = vfs.stat(fs, `${BIN_DIR}/${p}`);
          return e?.kind === 'file' && e.exec && e.exec.build !== build;
        })
        .map((p) => ({ action: { do: 'installPlugin', node: ctx.node, plugin: p, build } }));
    },
  },
  {
    id: 'reinstall-plugins',
    label:
      "Reinstall every CNI plugin binary in /opt/cni/bin from the node's CNI plugins package, as the package ships them",
    plan: (ctx) => {
      const n = nodeSpec(ctx);
      const build = n.pluginBuild ?? 'v1.1.1';
      return files(ctx.state, ctx.node, BIN_DIR)
        .filter((p) => {
          const e = vfs.stat(ctx.state.nodes[ctx.node]!.fs, `${BIN_DIR}/${p}`);
          return e?.kind === 'file' && !!e.exec;
        })
        .map((p) => ({
          action: {
            do: 'installPlugin',
            node: ctx.node,
            plugin: p,
            build: n.pluginBuilds?.[p] ?? build,
          },
        }));
    },
  },
  unblock('bridge'),
  unblock('host-local'),
  unblock('portmap'),
  {
    id: 'remove-unreadable-cache',
    label: 'Remove result cache files in /var/lib/cni/results that are not valid JSON',
    plan: (ctx) => {
      const fs = ctx.state.nodes[ctx.node]!.fs;
      return files(ctx.state, ctx.node, RESULTS)
        .filter((f) => {
          try {
            JSON.parse(vfs.readFile(fs, `${RESULTS}/${f}`));
            return false;
          } catch {
            return true;
          }
        })
        .map((f) => ({ action: { do: 'removeFile', node: ctx.node, path: `${RESULTS}/${f}` } }));
    },
  },
  {
    id: 'release-orphans',
    label:
      'Remove what the audit lists as left behind: host-local reservations and result cache files of sandboxes that no longer exist',
    plan: (ctx) => {
      const a = ctx.audit(ctx.state).find((x) => x.node === ctx.node);
      const out: FixStep[] = [];
      for (const f of a?.findings ?? []) {
        if (f.kind === 'orphan-reservation' || f.kind === 'orphan-cache') {
          const path = f.detail.split(' ')[0]!;
          out.push({ action: { do: 'removeFile', node: ctx.node, path } });
        }
        if (f.kind === 'orphan-veth')
          out.push({
            action: { do: 'shell', node: ctx.node, line: `ip link del ${f.detail.split(' ')[0]}` },
          });
      }
      return out;
    },
  },
  {
    id: 'delete-portless-bridge',
    label:
      'Delete the bridge cni0 if no pod is plugged into it (ip link del cni0; the next ADD creates it again)',
    plan: (ctx) => {
      const k = ctx.state.nodes[ctx.node]!.kernel;
      const host = tget(k.netns, k.root)!;
      const br = Object.values(host.links).find((l) => l.name === 'cni0' && l.kind === 'bridge');
      if (!br) return [];
      const ports = Object.values(host.links).filter((l) => l.master === br.ifindex);
      if (ports.length) return [];
      return [{ action: { do: 'shell', node: ctx.node, line: 'ip link del cni0' } }];
    },
  },
  {
    id: 'recreate-pods',
    label: "Delete the node's pods and create them again (new sandboxes, new ADDs)",
    plan: (ctx) => {
      const mine = podsOn(ctx.state, ctx.node).filter((p) => p.deletionTimestamp === null);
      const keys = mine.map((p) => podKey(p.spec.namespace, p.spec.name));
      const steps: FixStep[] = keys.map((pod) => ({ action: { do: 'deletePod', pod } }));
      steps.push({
        wait: 'the pods are gone',
        until: (s) => keys.every((k) => !tget(s.api?.pods, k)),
        timeoutUs: 120_000_000,
      });
      for (const p of mine)
        steps.push({
          action: {
            do: 'createPod',
            name: p.spec.name,
            namespace: p.spec.namespace,
            node: ctx.node,
          },
        });
      return steps;
    },
  },
  {
    id: 'delete-some-pods',
    label: 'Delete half of the Running pods on the node to free addresses',
    plan: (ctx) => {
      const running = podsOn(ctx.state, ctx.node).filter((p) => podStatusText(p) === 'Running');
      return running
        .slice(0, Math.ceil(running.length / 2))
        .map((p) => ({ action: { do: 'deletePod', pod: podKey(p.spec.namespace, p.spec.name) } }));
    },
  },
  {
    id: 'restore-pod-routes',
    label: "Add the missing default route back in each pod's namespace (via the cni0 gateway)",
    plan: (ctx) => {
      const n = nodeSpec(ctx);
      const gw = n.podCIDR.replace(/\.0\/\d+$/, '.1');
      return [
        {
          action: {
            do: 'shell',
            node: ctx.node,
            line: `for n in $(ls /var/run/netns); do ip -n $n route show default | grep -q default || ip -n $n route add default via ${gw} dev eth0; done`,
          },
        },
      ];
    },
  },
  {
    id: 'enable-ip-forward',
    label: 'Turn IP forwarding back on (sysctl -w net.ipv4.ip_forward=1)',
    plan: (ctx) => [
      { action: { do: 'shell', node: ctx.node, line: 'sysctl -w net.ipv4.ip_forward=1' } },
    ],
  },
  {
    id: 'add-pod-cidr-routes',
    label:
      "Add the missing routes to the other nodes' pod CIDRs via their node addresses (ip route add <pod CIDR> via <node IP> dev eth0)",
    plan: (ctx) => {
      if (ctx.state.underlay?.mode !== 'host-gw') return [];
      const k = ctx.state.nodes[ctx.node]!.kernel;
      const root = tget(k.netns, k.root)!;
      const have = new Set(root.routes.map((r) => `${r.dst}/${r.prefix}`));
      return ctx.spec.nodes
        .filter((n) => n.name !== ctx.node && !have.has(n.podCIDR))
        .flatMap((n) => {
          const ok = ctx.state.nodes[n.name]?.kernel;
          const other = ok && tget(ok.netns, ok.root);
          const eth0 = other && Object.values(other.links).find((l) => l.name === 'eth0');
          const ip = eth0?.addrs.find((a) => a.family === 4)?.local;
          if (!ip) return [];
          const line = `ip route add ${n.podCIDR} via ${ip} dev eth0`;
          return [{ action: { do: 'shell', node: ctx.node, line } }];
        });
    },
  },
  {
    id: 'forward-policy-accept',
    label: "Set the filter table's FORWARD policy back to ACCEPT (iptables -P FORWARD ACCEPT)",
    plan: (ctx) => [
      { action: { do: 'shell', node: ctx.node, line: 'iptables -P FORWARD ACCEPT' } },
    ],
  },
  {
    id: 'load-br-netfilter',
    label: 'Load br_netfilter (modprobe br_netfilter) and set net.bridge.bridge-nf-call-iptables=1',
    plan: (ctx) => [
      {
        action: {
          do: 'shell',
          node: ctx.node,
          line: 'modprobe br_netfilter && sysctl -w net.bridge.bridge-nf-call-iptables=1',
        },
      },
    ],
  },
  {
    id: 'restart-containerd',
    label: 'Restart containerd (systemctl restart containerd)',
    plan: (ctx) => [{ action: { do: 'restartContainerd', node: ctx.node } }],
  },
  {
    id: 'restart-kubelet',
    label: 'Restart the kubelet (systemctl restart kubelet)',
    plan: (ctx) => [{ action: { do: 'restartKubelet', node: ctx.node } }],
  },
  {
    id: 'reboot-node',
    label: 'Reboot the node',
    plan: (ctx) => [{ action: { do: 'reboot', node: ctx.node } }],
  },
];

export const FIXES: Readonly<Record<string, Fix>> = Object.fromEntries(LIST.map((f) => [f.id, f]));
