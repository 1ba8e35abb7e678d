/**
 * The Calico-style pair ("calico" + "calico-ipam"). It is MODELLED (no Calico binary exists
 * here), so these tests hold it to its documented behaviour (docs/plugins.md and the header of
 * calico.ts) and, where that documentation is silent, to Calico's own source, read at
 * github.com/projectcalico/calico:
 *  - libcalico-go k8s conversion `VethNameForWorkload`: "cali" + hex(sha1("<ns>.<pod>"))[:11]
 *    (FELIX_INTERFACEPREFIX unset); the expected names below were computed with Python's hashlib;
 *  - cni-plugin/pkg/dataplane/linux/dataplane_linux.go (commit 02b18b5e): DoNetworking (stale host
 *    veth deleted first, host MAC EE:EE:EE:EE:EE:EE, 169.254.1.1/32 scope link + routes via it,
 *    /32 addresses), SetupRoutes (host /32 scope link route; EEXIST on another interface is an
 *    error), configureSysctls (route_localnet=1, proxy_delay=0, proxy_arp=1, forwarding=1),
 *    CleanUpNamespace (no netns: nothing; netns gone: nothing);
 *  - cni-plugin/pkg/k8s/k8s.go (commit 00b9aad1): CmdAddK8s adds ONE interface to the result
 *    {name: host veth, mac: the container veth's MAC, sandbox: CNI_NETNS}; CmdDelK8s cleans the
 *    netns up before releasing the IPAM allocation;
 *  - cni-plugin/pkg/plugin/plugin.go: outside Kubernetes the host veth is "cali" + the first 11
 *    characters of CNI_CONTAINERID; CHECK is cmdDummyCheck (prints "OK", returns nil);
 *  - libcalico-go/lib/ipam/ipam_block.go: a released ordinal is appended to the block's
 *    Unallocated list, so it is handed out again only after the never-used ones.
 * Tests that expect Calico's behaviour where the model differs are listed in the final report.
 */
import { describe, expect, it } from 'vitest';
import { resultJSON } from '../cni/result';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import type { KernelState, Link } from '../kernel/types';
import type { RuntimeConf } from '../libcni/api';
import { TestNode } from '../testkit';
import { kernelOp } from './harness';
import {
  CALICO_GATEWAY,
  CALICO_HOST_MAC,
  CALICO_IPAM_STORE,
  NODE_INFO_FILE,
  vethNameForWorkload,
} from './calico';
import { ptNode, runPlugin } from './pt-harness';
import { tget } from '../state/table';

const CONFLIST = `{
  "cniVersion": "1.0.0",
  "name": "k8s-pod-network",
  "plugins": [
    { "type": "calico", "ipam": { "type": "calico-ipam" } },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}`;

const PLUGINS = ['calico', 'calico-ipam', 'portmap', 'loopback'];

function node(opts: { conflist?: string; nodeJson?: string } = {}): TestNode {
  const t = new TestNode({ conflist: opts.conflist ?? CONFLIST, plugins: PLUGINS });
  if (opts.nodeJson !== undefined) writeFile(t, NODE_INFO_FILE, opts.nodeJson);
  return t;
}

function writeFile(t: TestNode, path: string, data: string): void {
  const n = t.sim.node(t.node);
  const fs = vfs.writeFile(vfs.mkdirAll(n.fs, vfs.dirname(path)), path, data);
  t.sim.state = { ...t.sim.state, nodes: { ...t.sim.state.nodes, [t.node]: { ...n, fs } } };
}

function removeFile(t: TestNode, path: string): void {
  const n = t.sim.node(t.node);
  t.sim.state = {
    ...t.sim.state,
    nodes: { ...t.sim.state.nodes, [t.node]: { ...n, fs: vfs.remove(n.fs, path) } },
  };
}

/** CNI_ARGS as containerd passes them for a pod. */
function k8s(ns: string, pod: string, cid: string): Partial<RuntimeConf> {
  return {
    containerId: cid,
    args: [
      ['IgnoreUnknown', '1'],
      ['K8S_POD_NAMESPACE', ns],
      ['K8S_POD_NAME', pod],
      ['K8S_POD_INFRA_CONTAINER_ID', cid],
      ['K8S_POD_UID', `uid-${pod}`],
    ],
  };
}

function kernel(t: TestNode): KernelState {
  return t.sim.node(t.node).kernel;
}

function hostLinks(t: TestNode): Link[] {
  const k = kernel(t);
  return K.linksOf(tget(k.netns, k.root)!);
}

function hostLink(t: TestNode, name: string): Link | undefined {
  const k = kernel(t);
  return K.linkByName(tget(k.netns, k.root)!, name);
}

function podNsId(t: TestNode, pod: string): string | undefined {
  return tget(kernel(t).mounts, t.netnsPath(pod));
}

function podLink(t: TestNode, pod: string, name = 'eth0'): Link | undefined {
  const k = kernel(t);
  const id = podNsId(t, pod);
  return id ? K.linkByName(tget(k.netns, id)!, name) : undefined;
}

/** `ip route` of a namespace: "<dst> [via <gw>] dev <dev> [scope <scope>]". */
function routes(t: TestNode, pod: string | null): string[] {
  const k = kernel(t);
  const id = pod === null ? k.root : podNsId(t, pod)!;
  const ns = tget(k.netns, id)!;
  return ns.routes
    .filter((r) => r.family === 4)
    .map((r) => {
      const dst = r.prefix === 0 ? 'default' : r.prefix === 32 ? r.dst : `${r.dst}/${r.prefix}`;
      const dev = K.linkByIndex(ns, r.dev)?.name ?? `if${r.dev}`;
      return `${dst}${r.gateway ? ` via ${r.gateway}` : ''} dev ${dev}${r.scope !== 'universe' ? ` scope ${r.scope}` : ''}`;
    })
    .sort();
}

interface Store {
  blocks: Array<{ cidr: string; affinity: string; allocations: Record<string, string> }>;
}

function store(t: TestNode): Store {
  return JSON.parse(vfs.readFile(t.sim.node(t.node).fs, CALICO_IPAM_STORE)) as Store;
}

function caliLinks(t: TestNode): string[] {
  return hostLinks(t)
    .map((l) => l.name)
    .filter((n) => n.startsWith('cali'))
    .sort();
}

describe('vethNameForWorkload (libcalico-go)', () => {
  it.each([
    ['default', 'nginx', 'calic440f455693'],
    ['kube-system', 'coredns-abc', 'cali3d5d6ab04b5'],
    ['default', 'frontend', 'cali9b723216629'],
  ])('%s/%s -> %s (sha1 of "<ns>.<pod>", first 11 hex digits)', (ns, pod, want) => {
    expect(vethNameForWorkload(ns, pod)).toBe(want);
    expect(want).toHaveLength(15); // fits IFNAMSIZ
  });

  it('takes another prefix (FELIX_INTERFACEPREFIX)', () => {
    expect(vethNameForWorkload('default', 'nginx', 'tap')).toBe('tapc440f455693');
  });
});

describe('calico ADD (Kubernetes pod default/nginx)', () => {
  const t = node();
  const out = t.add('pod-a', k8s('default', 'nginx', 'c-nginx'));
  t.settle();
  const cali = 'calic440f455693';

  it('succeeds', () => {
    expect(out.error).toBeUndefined();
    expect(out.ok).toBe(true);
  });

  it('creates the host veth cali<sha1>, with MAC ee:ee:ee:ee:ee:ee, up', () => {
    const l = hostLink(t, cali);
    expect(l?.kind).toBe('veth');
    expect(l?.mac).toBe(CALICO_HOST_MAC);
    expect(l?.adminUp).toBe(true);
    expect(caliLinks(t)).toEqual([cali]);
  });

  it('turns proxy ARP (with no delay) and forwarding on for the host veth', () => {
    const k = kernel(t);
    expect(K.sysctlGet(k, k.root, `net.ipv4.conf.${cali}.proxy_arp`)).toBe('1');
    expect(K.sysctlGet(k, k.root, `net.ipv4.neigh.${cali}.proxy_delay`)).toBe('0');
    expect(K.sysctlGet(k, k.root, `net.ipv4.conf.${cali}.forwarding`)).toBe('1');
  });

  it('also sets route_localnet=1 on the host veth (dataplane_linux.go configureSysctls)', () => {
    const k = kernel(t);
    expect(K.sysctlGet(k, k.root, `net.ipv4.conf.${cali}.route_localnet`)).toBe('1');
  });

  it('gives the pod a /32 from the first /26 block of the default pool, eth0 up', () => {
    const eth0 = podLink(t, 'pod-a')!;
    expect(eth0.adminUp).toBe(true);
    expect(eth0.addrs.filter((a) => a.family === 4).map((a) => `${a.local}/${a.prefix}`)).toEqual([
      '192.168.0.0/32',
    ]);
  });

  it('routes the pod via 169.254.1.1 (a link-scope route, then default via it)', () => {
    expect(routes(t, 'pod-a')).toEqual([
      `${CALICO_GATEWAY} dev eth0 scope link`,
      `default via ${CALICO_GATEWAY} dev eth0`,
    ]);
  });

  it('adds a /32 link-scope host route to the pod', () => {
    expect(routes(t, null)).toEqual([`192.168.0.0 dev ${cali} scope link`]);
  });

  it('records the allocation in a /26 block with the node affinity', () => {
    expect(store(t)).toEqual({
      blocks: [
        {
          cidr: '192.168.0.0/26',
          affinity: 'host:node',
          allocations: { '192.168.0.0': 'k8s-pod-network.c-nginx' },
        },
      ],
    });
  });

  it('returns a /32 address', () => {
    const r = resultJSON(out.result!) as { ips: Array<{ address: string }> };
    expect(r.ips.map((i) => i.address)).toEqual(['192.168.0.0/32']);
  });

  it("returns one interface, the host veth, with the container's MAC and the sandbox (k8s.go CmdAddK8s)", () => {
    const r = resultJSON(out.result!) as {
      interfaces: Array<Record<string, string>>;
      ips: Array<Record<string, unknown>>;
    };
    expect(r.interfaces).toEqual([
      { name: cali, mac: podLink(t, 'pod-a')!.mac, sandbox: t.netnsPath('pod-a') },
    ]);
    expect(r.ips.every((i) => !('interface' in i))).toBe(true);
  });
});

describe('calico-ipam blocks', () => {
  const IPAM_STDIN = (pools?: string[], nodename?: string) =>
    JSON.stringify({
      cniVersion: '1.0.0',
      name: 'k8s-pod-network',
      ...(nodename ? { nodename } : {}),
      ipam: { type: 'calico-ipam', ...(pools ? { ipv4_pools: pools } : {}) },
    });

  function ipamNode(nodeJson?: string) {
    const h = ptNode({ plugins: ['calico', 'calico-ipam'] });
    if (nodeJson !== undefined) h.writeFile(NODE_INFO_FILE, nodeJson);
    return h;
  }

  function ipamAdd(h: ReturnType<typeof ipamNode>, cid: string, stdin = IPAM_STDIN()) {
    const r = runPlugin(h, 'calico-ipam', 'ADD', { cid }, stdin);
    if (r.exitCode !== 0) return { exitCode: r.exitCode, stdout: r.stdout, address: null };
    const j = JSON.parse(r.stdout) as { ips: Array<{ address: string }> };
    return { exitCode: 0, stdout: r.stdout, address: j.ips[0]!.address };
  }

  function hStore(h: ReturnType<typeof ipamNode>): Store {
    return JSON.parse(vfs.readFile(h.fs, CALICO_IPAM_STORE)) as Store;
  }

  it("carves blocks from the node's pod CIDR (/etc/cnisim/node.json) with that node's affinity", () => {
    const h = ipamNode('{"name":"worker-1","podCIDR":"10.244.1.0/24"}');
    expect(ipamAdd(h, 'c1').address).toBe('10.244.1.0/32');
    expect(ipamAdd(h, 'c2').address).toBe('10.244.1.1/32');
    expect(hStore(h).blocks).toEqual([
      {
        cidr: '10.244.1.0/26',
        affinity: 'host:worker-1',
        allocations: {
          '10.244.1.0': 'k8s-pod-network.c1',
          '10.244.1.1': 'k8s-pod-network.c2',
        },
      },
    ]);
  });

  it('ipam.ipv4_pools wins over the node pod CIDR; "nodename" names the affinity', () => {
    const h = ipamNode('{"name":"worker-1","podCIDR":"10.244.1.0/24"}');
    expect(ipamAdd(h, 'c1', IPAM_STDIN(['10.50.0.0/16'], 'edge-7')).address).toBe('10.50.0.0/32');
    expect(hStore(h).blocks.map((b) => [b.cidr, b.affinity])).toEqual([
      ['10.50.0.0/26', 'host:edge-7'],
    ]);
  });

  it('claims a second block when the first is full', () => {
    const h = ipamNode('{"name":"worker-1","podCIDR":"10.244.1.0/24"}');
    const got: string[] = [];
    for (let i = 0; i < 65; i++) got.push(ipamAdd(h, `c${i}`).address!);
    expect(got[0]).toBe('10.244.1.0/32');
    expect(got[63]).toBe('10.244.1.63/32');
    expect(got[64]).toBe('10.244.1.64/32');
    expect(
      hStore(h).blocks.map((b) => [b.cidr, b.affinity, Object.keys(b.allocations).length]),
    ).toEqual([
      ['10.244.1.0/26', 'host:worker-1', 64],
      ['10.244.1.64/26', 'host:worker-1', 1],
    ]);
  });

  it("does not allocate from another node's block; it claims the next free one", () => {
    const h = ipamNode('{"name":"worker-1","podCIDR":"10.244.1.0/24"}');
    h.writeFile(
      CALICO_IPAM_STORE,
      JSON.stringify({
        blocks: [{ cidr: '10.244.1.0/26', affinity: 'host:worker-2', allocations: {} }],
      }),
    );
    expect(ipamAdd(h, 'c1').address).toBe('10.244.1.64/32');
    expect(hStore(h).blocks.map((b) => [b.cidr, b.affinity])).toEqual([
      ['10.244.1.0/26', 'host:worker-2'],
      ['10.244.1.64/26', 'host:worker-1'],
    ]);
  });

  it('fails when the pool has no free block left, and allocates nothing', () => {
    const h = ipamNode();
    const stdin = IPAM_STDIN(['10.9.0.0/26']);
    for (let i = 0; i < 64; i++) expect(ipamAdd(h, `c${i}`, stdin).exitCode).toBe(0);
    const before = hStore(h);
    const r = ipamAdd(h, 'c64', stdin);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('10.9.0.0/26');
    expect(hStore(h)).toEqual(before);
  });

  it('DEL releases the handle; the block (and its affinity) stays', () => {
    const h = ipamNode('{"name":"worker-1","podCIDR":"10.244.1.0/24"}');
    ipamAdd(h, 'c1');
    const del = runPlugin(h, 'calico-ipam', 'DEL', { cid: 'c1' }, IPAM_STDIN());
    expect(del).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(hStore(h).blocks).toEqual([
      { cidr: '10.244.1.0/26', affinity: 'host:worker-1', allocations: {} },
    ]);
    expect(runPlugin(h, 'calico-ipam', 'DEL', { cid: 'c1' }, IPAM_STDIN()).exitCode).toBe(0);
  });

  it('a released address goes to the end of the free list (ipam_block.go release)', () => {
    const h = ipamNode('{"name":"worker-1","podCIDR":"10.244.1.0/24"}');
    expect(ipamAdd(h, 'c1').address).toBe('10.244.1.0/32');
    expect(ipamAdd(h, 'c2').address).toBe('10.244.1.1/32');
    runPlugin(h, 'calico-ipam', 'DEL', { cid: 'c1' }, IPAM_STDIN());
    // Calico pops ordinals from the front of Unallocated and appends released ones at its end.
    expect(ipamAdd(h, 'c3').address).toBe('10.244.1.2/32');
  });
});

describe('calico DEL', () => {
  it('removes the veth pair, the host route and releases the address; DEL again is fine', () => {
    const t = node();
    expect(t.add('pod-a', k8s('default', 'nginx', 'c1')).ok).toBe(true);
    const del = t.del('pod-a', k8s('default', 'nginx', 'c1'));
    expect(del.error).toBeUndefined();
    expect(caliLinks(t)).toEqual([]);
    expect(podLink(t, 'pod-a')).toBeUndefined();
    expect(routes(t, null)).toEqual([]);
    expect(store(t).blocks[0]!.allocations).toEqual({});
    expect(t.del('pod-a', k8s('default', 'nginx', 'c1')).ok).toBe(true);
  });

  it("with the pod's netns gone: succeeds and releases the address (the veth went with the netns)", () => {
    const t = node();
    expect(t.add('pod-a', k8s('default', 'nginx', 'c1')).ok).toBe(true);
    t.deleteNetns('pod-a');
    expect(caliLinks(t)).toEqual([]);
    const del = t.del('pod-a', k8s('default', 'nginx', 'c1'));
    expect(del.ok).toBe(true);
    expect(store(t).blocks[0]!.allocations).toEqual({});
  });

  it('without CNI_NETNS: only the address is released', () => {
    const t = node();
    expect(t.add('pod-a', k8s('default', 'nginx', 'c1')).ok).toBe(true);
    expect(t.del('pod-a', { ...k8s('default', 'nginx', 'c1'), netns: '' }).ok).toBe(true);
    expect(store(t).blocks[0]!.allocations).toEqual({});
    expect(caliLinks(t)).toEqual(['calic440f455693']);
  });

  it('a failed DEL while the pod netns survives leaves an orphan cali* link on the host', () => {
    const t = node();
    expect(t.add('pod-a', k8s('default', 'nginx', 'c1')).ok).toBe(true);
    expect(t.add('pod-b', k8s('default', 'frontend', 'c2')).ok).toBe(true);
    // portmap (run first on DEL) is gone: DEL fails before calico runs.
    removeFile(t, '/opt/cni/bin/portmap');
    const del = t.del('pod-a', k8s('default', 'nginx', 'c1'));
    expect(del.ok).toBe(false);
    expect(del.failedPluginIndex).toBe(1);
    expect(caliLinks(t)).toEqual(['cali9b723216629', 'calic440f455693']);
    expect(Object.values(store(t).blocks[0]!.allocations)).toContain('k8s-pod-network.c1');
    // Once the runtime removes the sandbox, the kernel takes the veth pair with it.
    t.deleteNetns('pod-a');
    expect(caliLinks(t)).toEqual(['cali9b723216629']);
  });

  it('a new sandbox of the same pod deletes the stale host veth first', () => {
    const t = node();
    expect(t.add('pod-a', k8s('default', 'nginx', 'c1')).ok).toBe(true);
    expect(t.add('pod-a2', k8s('default', 'nginx', 'c2')).ok).toBe(true);
    expect(caliLinks(t)).toEqual(['calic440f455693']);
    expect(podLink(t, 'pod-a')).toBeUndefined();
    expect(podLink(t, 'pod-a2')?.kind).toBe('veth');
  });
});

describe('calico outside Kubernetes and CHECK (plugin.go)', () => {
  const STDIN =
    '{"cniVersion":"1.0.0","name":"k8s-pod-network","type":"calico","ipam":{"type":"calico-ipam"}}';

  it('without K8S_* args the host veth is "cali" + the first 11 characters of the container id', () => {
    const h = ptNode({ plugins: ['calico', 'calico-ipam'] });
    const r = runPlugin(h, 'calico', 'ADD', { cid: '0123456789abcdef' }, STDIN);
    expect(r.exitCode).toBe(0);
    const names = Object.values(h.ns('node').links).map((l) => l.name);
    expect(names).toContain('cali0123456789a');
  });

  it('CHECK is a dummy: it prints "OK" and passes even after the host veth is gone', () => {
    const h = ptNode({ plugins: ['calico', 'calico-ipam'] });
    const args = 'IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=nginx';
    expect(runPlugin(h, 'calico', 'ADD', { cid: 'c1', args }, STDIN).exitCode).toBe(0);
    kernelOp(h, (k) => {
      const l = K.linkByName(tget(k.netns, k.root)!, 'calic440f455693')!;
      K.linkDel(k, k.root, l.ifindex);
    });
    expect(runPlugin(h, 'calico', 'CHECK', { cid: 'c1', args }, STDIN)).toEqual({
      exitCode: 0,
      stdout: 'OK\n',
      stderr: '',
    });
  });

  it("ADD fails when the pod's /32 host route already exists on another interface (SetupRoutes)", () => {
    const h = ptNode({ plugins: ['calico', 'calico-ipam'] });
    kernelOp(h, (k) => {
      K.routeAdd(k, k.root, {
        family: 4,
        dst: { v: 4, n: 0xc0a80000n },
        prefix: 32,
        dev: 1,
        scope: 'link',
      });
    });
    const args = 'IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=nginx';
    const r = runPlugin(h, 'calico', 'ADD', { cid: 'c1', args }, STDIN);
    expect(r.exitCode).toBe(1);
  });
});
