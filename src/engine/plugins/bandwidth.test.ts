/**
 * bandwidth against the real v1.1.1 binary (bridge -> bandwidth, run in throw-away namespaces):
 * the qdiscs, filter and ifb device ADD leaves (`tc` lines as in conformance/fixtures/
 * chain-bandwidth.json), CHECK and the drift it does and does not detect, DEL after a partial
 * ADD and DEL twice, config values beating runtimeConfig, and the errors with the real texts.
 */
import { describe, expect, it } from 'vitest';
import { resultJSON } from '../cni/result';
import * as K from '../kernel/kernel';
import { qdiscDel, tbfChange, tcShowLines } from '../kernel/tc';
import type { KernelState } from '../kernel/types';
import { TestNode } from '../testkit';
import { ifbDeviceName, tbfParams } from './bandwidth';
import { tget } from '../state/table';

const CONFLIST = `{
  "cniVersion": "1.0.0",
  "name": "bwnet",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": false,
      "ipam": { "type": "host-local", "subnet": "10.22.0.0/24" }
    },
    { "type": "bandwidth", "capabilities": { "bandwidth": true } }
  ]
}
`;

const BW = { ingressRate: 1000000, ingressBurst: 100000, egressRate: 2000000, egressBurst: 200000 };
const IFB = 'bwp459546d14214'; // sha512("bwnet" + "c1")

function node(conflist = CONFLIST): TestNode {
  return new TestNode({ conflist, plugins: ['bridge', 'host-local', 'bandwidth'] });
}

function rt(bw: object = BW) {
  return { containerId: 'c1', capabilityArgs: { bandwidth: bw } };
}

/** ADDs pod-a (c1) through libcni; returns its result as JSON. */
function addPod(t: TestNode, bw: object = BW): Record<string, unknown> {
  const r = t.add('pod-a', rt(bw));
  expect(r.error).toBeUndefined();
  return resultJSON(r.result!, t.libcni.lib) as Record<string, unknown>;
}

function stdin(prev: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    cniVersion: '1.0.0',
    name: 'bwnet',
    type: 'bandwidth',
    ...(prev ? { prevResult: prev } : {}),
    ...extra,
  });
}

function host(t: TestNode): { k: KernelState; ns: string } {
  const k = t.sim.node(t.node).kernel;
  return { k, ns: k.root };
}

function tc(t: TestNode): string[] {
  const { k, ns } = host(t);
  return tcShowLines(tget(k.netns, ns)!).map((l) => l.replace(/veth[0-9a-f]{8}/g, '<veth>'));
}

function hostVeth(t: TestNode): string {
  const { k, ns } = host(t);
  return K.linksOf(tget(k.netns, ns)!).find((l) => l.kind === 'veth')!.name;
}

/** Changes the node's kernel as `tc` / `ip` run by an operator would. */
function operator(t: TestNode, f: (k: KernelState, ns: string) => void): void {
  t.sim.apply(
    {
      node: t.node,
      source: 'test',
      target: 'kernel',
      kind: 'env',
      level: 'kernel',
      summary: 'operator',
      payload: { op: 'env' },
    },
    (d) => {
      const k = d.nodes[t.node]!.kernel as KernelState;
      f(k, k.root);
    },
  );
}

function ifindexOf(k: KernelState, ns: string, name: string): number {
  return K.linkByName(tget(k.netns, ns)!, name)!.ifindex;
}

function err(msg: string) {
  return { exitCode: 1, stdout: { code: 999, msg }, stderr: '' };
}

/** A run's outcome, stdout parsed (Go escapes < and > in JSON strings). */
function out(r: { exitCode: number; stdout: string; stderr: string }) {
  return {
    exitCode: r.exitCode,
    stdout: r.stdout === '' ? '' : (JSON.parse(r.stdout) as unknown),
    stderr: r.stderr,
  };
}

const FILTER = [
  '# tc filter show dev <veth> ingress',
  'filter parent ffff: protocol all pref 1 u32 chain 0',
  'filter parent ffff: protocol all pref 1 u32 chain 0 fh 800: ht divisor 1',
  'filter parent ffff: protocol all pref 1 u32 chain 0 fh 800::800 order 2048 key ht 800 bkt 0 *flowid 1:1 not_in_hw',
  '  match 00000000/00000000 at 0',
  `\taction order 1: mirred (Egress Redirect to device ${IFB}) stolen`,
  '\tindex 1 ref 1 bind 1',
  `\taction order 2: mirred (Egress Redirect to device ${IFB}) pass`,
  '\tindex 2 ref 1 bind 1',
];

describe('bandwidth ADD', () => {
  it('puts a tbf on the host veth, redirects its ingress to an ifb with a tbf, and reports the ifb', () => {
    const t = node();
    const res = addPod(t);
    expect(ifbDeviceName('bwnet', 'c1')).toBe(IFB);
    const { k, ns } = host(t);
    const ifb = K.linkByName(tget(k.netns, ns)!, IFB)!;
    expect(ifb).toMatchObject({ kind: 'ifb', adminUp: true, mtu: 1500, txqlen: 0 });
    expect((res['interfaces'] as unknown[]).at(-1)).toEqual({ name: IFB, mac: ifb.mac });
    expect(tc(t)).toEqual([
      'qdisc noqueue 0: dev lo root refcnt 2',
      'qdisc noqueue 0: dev cni0 root refcnt 2',
      'qdisc tbf 1: dev <veth> root refcnt 3 rate 1Mbit burst 12500b lat 25ms',
      'qdisc ingress ffff: dev <veth> parent ffff:fff1 ----------------',
      `qdisc tbf 1: dev ${IFB} root refcnt 2 rate 2Mbit burst 25000b lat 25ms`,
      ...FILTER,
    ]);
    // The ifb is one more device in the snapshot: BROADCAST,NOARP, operstate UNKNOWN.
    expect(ifb.operstate).toBe('UNKNOWN');
  });

  it('only limits what is asked: ingress alone is a tbf on the veth, egress alone keeps noqueue', () => {
    const t = node();
    addPod(t, { ingressRate: 1000000, ingressBurst: 100000 });
    expect(tc(t)).toEqual([
      'qdisc noqueue 0: dev lo root refcnt 2',
      'qdisc noqueue 0: dev cni0 root refcnt 2',
      'qdisc tbf 1: dev <veth> root refcnt 3 rate 1Mbit burst 12500b lat 25ms',
    ]);
    const t2 = node();
    addPod(t2, { egressRate: 2000000, egressBurst: 200000 });
    expect(tc(t2).slice(0, 5)).toEqual([
      'qdisc noqueue 0: dev lo root refcnt 2',
      'qdisc noqueue 0: dev cni0 root refcnt 2',
      'qdisc noqueue 0: dev <veth> root refcnt 2',
      'qdisc ingress ffff: dev <veth> parent ffff:fff1 ----------------',
      `qdisc tbf 1: dev ${IFB} root refcnt 2 rate 2Mbit burst 25000b lat 25ms`,
    ]);
  });

  it('passes the result through without limits, and takes config limits over runtimeConfig', () => {
    const t = node();
    const res = addPod(t, {});
    expect(tc(t)).not.toContain(expect.stringContaining('tbf'));
    // A limit key in the config (even 0) hides runtimeConfig: nothing is set up.
    const r = t.invoke(
      'bandwidth',
      'ADD',
      'pod-a',
      stdin(res, { ingressRate: 0, runtimeConfig: { bandwidth: BW } }),
      { CNI_CONTAINERID: 'c1' },
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(res);
    // bwboth (conformance/local/bandwidth-config): config 800 kbit wins over runtimeConfig 3 Mbit.
    t.invoke(
      'bandwidth',
      'ADD',
      'pod-a',
      stdin(res, {
        ingressRate: 800000,
        ingressBurst: 80000,
        runtimeConfig: { bandwidth: { ingressRate: 3000000, ingressBurst: 300000 } },
      }),
      { CNI_CONTAINERID: 'c1' },
    );
    expect(tc(t)).toContain(
      'qdisc tbf 1: dev <veth> root refcnt 3 rate 800Kbit burst 10000b lat 25ms',
    );
  });

  it('fails a second ADD at its first step', () => {
    const t = node();
    const res = addPod(t);
    const again = t.invoke(
      'bandwidth',
      'ADD',
      'pod-a',
      stdin(res, { runtimeConfig: { bandwidth: BW } }),
      {
        CNI_CONTAINERID: 'c1',
      },
    );
    expect(out(again)).toEqual(err('create qdisc: file exists'));
    const egressOnly = t.invoke(
      'bandwidth',
      'ADD',
      'pod-a',
      stdin(res, { egressRate: 2000000, egressBurst: 200000 }),
      { CNI_CONTAINERID: 'c1' },
    );
    expect(out(egressOnly)).toEqual(err('adding link: file exists'));
  });
});

describe('bandwidth DEL', () => {
  it('deletes only the ifb; the veth keeps its qdiscs (and a filter redirecting to "*") until bridge DEL', () => {
    const t = node();
    const res = addPod(t);
    const r = t.invoke(
      'bandwidth',
      'DEL',
      'pod-a',
      stdin(res, { runtimeConfig: { bandwidth: BW } }),
      {
        CNI_CONTAINERID: 'c1',
      },
    );
    expect(out(r)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(tc(t)).toContain('\taction order 1: mirred (Egress Redirect to device *) stolen');
    // DEL twice (libcni's DEL runs bandwidth DEL again, then bridge DEL).
    expect(t.del('pod-a', rt()).error).toBeUndefined();
    expect(t.del('pod-a', rt()).error).toBeUndefined();
    expect(tc(t)).toEqual([
      'qdisc noqueue 0: dev lo root refcnt 2',
      'qdisc noqueue 0: dev cni0 root refcnt 2',
    ]);
  });

  it('cleans up after a partial ADD (the ifb tbf refused after ingress qdisc, filter and ifb exist)', () => {
    const t = node();
    const tiny = {
      ingressRate: 1000000,
      ingressBurst: 100000,
      egressRate: 1000000000,
      egressBurst: 800,
    };
    const r = t.add('pod-a', rt(tiny));
    expect(r.error?.message).toBe(
      'plugin type="bandwidth" failed (add): create ifb qdisc: create qdisc: invalid argument',
    );
    expect(tc(t)).toEqual([
      'qdisc noqueue 0: dev lo root refcnt 2',
      'qdisc noqueue 0: dev cni0 root refcnt 2',
      'qdisc tbf 1: dev <veth> root refcnt 3 rate 1Mbit burst 12500b lat 25ms',
      'qdisc ingress ffff: dev <veth> parent ffff:fff1 ----------------',
      `qdisc noqueue 0: dev ${IFB} root refcnt 2`,
      ...FILTER,
    ]);
    expect(t.del('pod-a', rt(tiny)).error).toBeUndefined();
    const { k, ns } = host(t);
    expect(K.linkByName(tget(k.netns, ns)!, IFB)).toBeUndefined();
    expect(tc(t)).toEqual([
      'qdisc noqueue 0: dev lo root refcnt 2',
      'qdisc noqueue 0: dev cni0 root refcnt 2',
    ]);
  });

  it('needs neither the netns nor a prevResult', () => {
    const t = node();
    addPod(t);
    t.deleteNetns('pod-a');
    const r = t.invoke('bandwidth', 'DEL', 'pod-a', stdin(null), { CNI_CONTAINERID: 'c1' });
    expect(out(r)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const { k, ns } = host(t);
    expect(K.linkByName(tget(k.netns, ns)!, IFB)).toBeUndefined();
  });
});

describe('bandwidth CHECK', () => {
  it('passes after ADD and detects other limits and changed qdiscs', () => {
    const t = node();
    const res = addPod(t);
    expect(t.check('pod-a', rt()).error).toBeUndefined();
    const check = (bw: object) =>
      out(
        t.invoke('bandwidth', 'CHECK', 'pod-a', stdin(res, { runtimeConfig: { bandwidth: bw } }), {
          CNI_CONTAINERID: 'c1',
        }),
      );
    expect(check({ ...BW, egressRate: 3000000 })).toEqual(err("Rate doesn't match"));
    expect(check({ ...BW, egressBurst: 300000 })).toEqual(err("Limit doesn't match"));
    expect(check({ ...BW, ingressBurst: 300000 })).toEqual(err("Limit doesn't match"));
    // The same rate in bytes/s.
    expect(check({ ...BW, egressRate: 2000007 }).exitCode).toBe(0);
    // tc qdisc change dev bwp... root tbf rate 3mbit ...: drift the plugin sees.
    operator(t, (k, ns) => tbfChange(k, ns, ifindexOf(k, ns, IFB), tbfParams(3000000, 200000)));
    expect(t.check('pod-a', rt()).error?.msg).toBe("Rate doesn't match");
  });

  it('does not see a removed tbf: the default noqueue comes back and is not a tbf', () => {
    const t = node();
    addPod(t);
    const veth = hostVeth(t);
    operator(t, (k, ns) => qdiscDel(k, ns, ifindexOf(k, ns, veth), 'root'));
    operator(t, (k, ns) => qdiscDel(k, ns, ifindexOf(k, ns, IFB), 'root'));
    expect(tc(t).slice(2, 5)).toEqual([
      'qdisc noqueue 0: dev <veth> root refcnt 2',
      'qdisc ingress ffff: dev <veth> parent ffff:fff1 ----------------',
      `qdisc noqueue 0: dev ${IFB} root refcnt 2`,
    ]);
    expect(t.check('pod-a', rt()).error).toBeUndefined();
  });

  it('fails once the ifb is gone', () => {
    const t = node();
    addPod(t);
    operator(t, (k, ns) => K.linkDel(k, ns, ifindexOf(k, ns, IFB)));
    expect(t.check('pod-a', rt()).error?.msg).toBe('get ifb device: Link not found');
  });

  it('needs a prevResult and limits (without limits the real binary panics)', () => {
    const t = node();
    const res = addPod(t);
    expect(
      out(t.invoke('bandwidth', 'CHECK', 'pod-a', stdin(null), { CNI_CONTAINERID: 'c1' })),
    ).toEqual(err('must be called as a chained plugin'));
    const r = t.invoke('bandwidth', 'CHECK', 'pod-a', stdin(res), { CNI_CONTAINERID: 'c1' });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^panic: runtime error: invalid memory address or nil pointer dereference\n\[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x536ff6\]\n\ngoroutine 1 \[running\]:\nmain\.cmdCheck\(/,
    );
  });
});

describe('bandwidth errors', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, string>, string]> = [
    ['rate without burst', { ingressRate: 1000000 }, {}, 'if rate is set, burst must also be set'],
    ['burst without rate', { egressBurst: 100000 }, {}, 'if burst is set, rate must also be set'],
    [
      'a burst of 4 GB',
      { egressRate: 2000000, egressBurst: 34359738360 },
      {},
      'burst cannot be more than 4GB',
    ],
    [
      'a negative rate',
      { egressRate: -1, egressBurst: 1 },
      {},
      'failed to parse network configuration: json: cannot unmarshal number -1 into Go struct field PluginConf.egressRate of type uint64',
    ],
    [
      'a fractional rate',
      { egressRate: 1.5, egressBurst: 1 },
      {},
      'failed to parse network configuration: json: cannot unmarshal number 1.5 into Go struct field PluginConf.egressRate of type uint64',
    ],
    [
      'a string in runtimeConfig',
      { runtimeConfig: { bandwidth: { egressRate: 'x' } } },
      {},
      'failed to parse network configuration: json: cannot unmarshal string into Go struct field BandwidthEntry.runtimeConfig.bandwidth.egressRate of type uint64',
    ],
    [
      'a netns that does not exist',
      { egressRate: 2000000, egressBurst: 200000 },
      { CNI_NETNS: '/var/run/netns/nosuch' },
      'failed to open netns %!q(<nil>): failed to Statfs "/var/run/netns/nosuch": no such file or directory',
    ],
    [
      'a container interface that is not a veth',
      { egressRate: 2000000, egressBurst: 200000 },
      { CNI_IFNAME: 'lo' },
      'container interface lo has no veth peer: interface "lo" was not a veth interface',
    ],
    [
      'a container interface that does not exist',
      { egressRate: 2000000, egressBurst: 200000 },
      { CNI_IFNAME: 'eth5' },
      'container interface eth5 has no veth peer: could not look up "eth5": Link not found',
    ],
    [
      'a prevResult without interfaces',
      { ingressRate: 1000000, ingressBurst: 100000, prevResult: { cniVersion: '1.0.0' } },
      {},
      'no interfaces provided',
    ],
    [
      'a prevResult without the host veth',
      {
        ingressRate: 1000000,
        ingressBurst: 100000,
        prevResult: { cniVersion: '1.0.0', interfaces: [{ name: 'eth0', sandbox: '/x' }] },
      },
      {},
      'no veth peer of container interface found in host ns',
    ],
    [
      'a prevResult that does not parse',
      { prevResult: { cniVersion: '1.0.0', ips: [{ address: 'x' }] } },
      {},
      'could not parse prevResult: could not parse prevResult: invalid CIDR address: x',
    ],
  ];
  it.each(cases)('ADD with %s', (_name, extra, env, msg) => {
    const t = node();
    t.createNetns('pod-a');
    const prev = t.add('pod-a', rt({}));
    const res = resultJSON(prev.result!, t.libcni.lib);
    const r = t.invoke('bandwidth', 'ADD', 'pod-a', stdin(res, extra), {
      CNI_CONTAINERID: 'c1',
      ...env,
    });
    expect(out(r)).toEqual(err(msg));
  });

  it('refuses DEL with the same config errors, so nothing is cleaned up', () => {
    const t = node();
    const r = t.invoke('bandwidth', 'DEL', 'pod-a', stdin(null, { ingressRate: 1000000 }));
    expect(out(r)).toEqual(err('if rate is set, burst must also be set'));
  });

  it('must be chained when there are limits; without limits and prevResult it panics', () => {
    const t = node();
    t.createNetns('pod-a');
    expect(out(t.invoke('bandwidth', 'ADD', 'pod-a', stdin(null, BW)))).toEqual(
      err('must be called as chained plugin'),
    );
    const r = t.invoke('bandwidth', 'ADD', 'pod-a', stdin(null));
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').slice(0, 5)).toEqual([
      'panic: runtime error: invalid memory address or nil pointer dereference',
      '[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x508d23]',
      '',
      'goroutine 1 [running]:',
      'github.com/containernetworking/cni/pkg/types.PrintResult({0x0?, 0x0?}, {0xc00001cb18?, 0x0?})',
    ]);
  });

  it('supports spec versions 0.3.0 and later only', () => {
    const t = node();
    const r = t.invoke(
      'bandwidth',
      'ADD',
      'pod-a',
      JSON.stringify({ cniVersion: '0.2.0', name: 'bwnet', type: 'bandwidth' }),
    );
    expect(out(r)).toEqual({
      exitCode: 1,
      stdout: {
        code: 1,
        msg: 'incompatible CNI versions',
        details: 'config is "0.2.0", plugin supports ["0.3.0" "0.3.1" "0.4.0" "1.0.0"]',
      },
      stderr: '',
    });
  });
});
