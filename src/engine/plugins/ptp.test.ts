/**
 * ptp against the real v1.1.1 binary (/usr/lib/cni/ptp with the real host-local / static as IPAM),
 * run as pt-harness.ts describes, in throw-away namespaces: what conformance/local/ptp-*.json do
 * not cover. CHECK and every drift it detects (MAC, route, address, reservation, host veth gone,
 * eth0 replaced by a bridge, wrong ifname / netns, no prevResult); DEL twice, DEL without a netns
 * or with a missing one, DEL after the host veth was deleted (the nat chain leaks); DEL after a
 * partial ADD (eth0 already there: DEL then deletes that foreign eth0 and fails in the ipMasq
 * teardown; a gateway the pod cannot reach: the veth pair stays behind); static IPAM without a
 * gateway; a missing netns on ADD (the reservation is released); result versions 0.2.0, 0.3.1
 * with dns and 0.4.0 dual stack; and configuration errors. Expected values are the real outputs,
 * with MACs and veth names numbered in order of appearance (pt-harness.ts `Norm`).
 */
import { describe, expect, it } from 'vitest';
import * as vfs from '../fs/vfs';
import { ipCommand } from './harness';
import {
  DATA,
  NS_A,
  NS_B,
  NS_NONE,
  Norm,
  OK,
  POD_A,
  dataFiles,
  goErr,
  natRules,
  nsView,
  ptNode,
  runPlugin,
  withPrev,
} from './pt-harness';

const CONF = `{"cniVersion":"1.0.0","name":"ptpnet","type":"ptp","ipMasq":true,"ipam":{"type":"host-local","dataDir":"${DATA}","subnet":"10.60.0.0/24","routes":[{"dst":"0.0.0.0/0"}]}}`;
const CHAIN = 'CNI-433deaf27475368eb8add2db'; // ptpnet / c-a
const COMMENT = '"name: \\"ptpnet\\" id: \\"c-a\\""';

/** The result text ptp printed for ADD of c-a in pod-a (10.60.0.2), MACs / veth numbered. */
function addResult(ip: string, opts: { routes?: boolean } = {}): string {
  return `{
    "cniVersion": "1.0.0",
    "interfaces": [
        {
            "name": "<veth:1>",
            "mac": "<mac:1>"
        },
        {
            "name": "eth0",
            "mac": "<mac:2>",
            "sandbox": "${NS_A}"
        }
    ],
    "ips": [
        {
            "interface": 1,
            "address": "${ip}/24",
            "gateway": "${ip.replace(/\.\d+$/, '.1')}"
        }
    ],${
      opts.routes === false
        ? ''
        : `
    "routes": [
        {
            "dst": "0.0.0.0/0"
        }
    ],`
    }
    "dns": {}
}`;
}

const NODE_LO = [
  'link lo - mtu 65536',
  'addr lo inet 127.0.0.1/8 host',
  'addr lo inet6 ::1/128 host',
];
const POD_LO = ['link lo - mtu 65536'];

function iptablesMissing(ip: string, chain: string, name: string, cid: string): string {
  return `running [/usr/sbin/iptables -t nat -D POSTROUTING -s ${ip} -j ${chain} -m comment --comment name: "${name}" id: "${cid}" --wait]: exit status 2: iptables v1.8.9 (nf_tables): Chain '${chain}' does not exist\nTry \`iptables -h' or 'iptables --help' for more information.\n`;
}

describe('ptp: ADD with ipMasq, CHECK and the drift it detects, DEL, DEL again', () => {
  const h = ptNode();
  const n = new Norm();
  const ptp = (cmd: string, o: Parameters<typeof runPlugin>[3], stdin: string) =>
    n.out(runPlugin(h, 'ptp', cmd, o, stdin));
  const got: unknown[] = [];
  const add = runPlugin(h, 'ptp', 'ADD', { cid: 'c-a' }, CONF);
  got.push(n.out(add));
  const prev = withPrev(CONF, add.stdout);
  const res = JSON.parse(add.stdout) as { interfaces: Array<{ name: string; mac: string }> };
  const hostVeth = res.interfaces[0]!.name;
  const eth0Mac = res.interfaces[1]!.mac;
  h.settle();
  got.push({
    node: n.lines(nsView(h, 'node')),
    pod: nsView(h, POD_A),
    files: dataFiles(h),
    nat: natRules(h),
  });
  const a = { cid: 'c-a' };
  got.push(ptp('CHECK', a, prev));
  got.push(ptp('CHECK', a, CONF));
  got.push(ptp('CHECK', { ...a, ifname: 'eth1' }, prev));
  got.push(ptp('CHECK', { ...a, netns: NS_B }, prev));
  got.push(ptp('CHECK', { ...a, netns: NS_NONE }, prev));
  ipCommand(h, POD_A, 'link set eth0 address 02:00:00:00:00:aa');
  got.push(ptp('CHECK', a, prev));
  ipCommand(h, POD_A, `link set eth0 address ${eth0Mac}`);
  got.push(ptp('CHECK', a, prev));
  ipCommand(h, POD_A, 'route del default');
  got.push(ptp('CHECK', a, prev));
  ipCommand(h, POD_A, 'route add default via 10.60.0.1');
  got.push(ptp('CHECK', a, prev));
  ipCommand(h, POD_A, 'addr del 10.60.0.2/24 dev eth0');
  got.push({ out: ptp('CHECK', a, prev), pod: nsView(h, POD_A) });
  ipCommand(h, POD_A, 'addr add 10.60.0.2/24 dev eth0');
  got.push({ out: ptp('CHECK', a, prev), pod: nsView(h, POD_A) });
  ipCommand(h, POD_A, 'route add default via 10.60.0.1');
  got.push(ptp('CHECK', a, prev));
  const resv = `${DATA}/ptpnet/10.60.0.2`;
  const saved = vfs.readFile(h.fs, resv);
  h.sim.state = {
    ...h.sim.state,
    nodes: {
      ...h.sim.state.nodes,
      [h.node]: { ...h.sim.node(h.node), fs: vfs.remove(h.fs, resv) },
    },
  };
  got.push(ptp('CHECK', a, prev));
  h.writeFile(resv, saved);
  ipCommand(h, 'node', `link del ${hostVeth}`);
  got.push({
    out: ptp('CHECK', a, prev),
    node: n.lines(nsView(h, 'node')),
    pod: nsView(h, POD_A),
  });
  got.push({
    out: ptp('DEL', a, prev),
    node: nsView(h, 'node'),
    pod: nsView(h, POD_A),
    files: dataFiles(h),
    nat: natRules(h),
  });
  got.push(ptp('DEL', a, prev));
  got.push(ptp('DEL', { ...a, netns: '' }, CONF));
  got.push(ptp('DEL', { ...a, netns: NS_NONE }, CONF));
  got.push(ptp('CHECK', a, prev));

  const natAfterAdd = [
    `:${CHAIN} -`,
    `-A POSTROUTING -s 10.60.0.2/32 -m comment --comment ${COMMENT} -j ${CHAIN}`,
    `-A ${CHAIN} -d 10.60.0.0/24 -m comment --comment ${COMMENT} -j ACCEPT`,
    `-A ${CHAIN} ! -d 224.0.0.0/4 -m comment --comment ${COMMENT} -j MASQUERADE`,
  ];
  const want: Array<[string, unknown]> = [
    ['ADD prints the result', { exitCode: 0, stdout: addResult('10.60.0.2'), stderr: '' }],
    [
      'ADD: gateway /32 on the host veth with a host route; subnet via the gateway in the pod; nat chain',
      {
        node: [
          'link lo - mtu 65536',
          'link <veth:1> veth mtu 1500',
          'addr lo inet 127.0.0.1/8 host',
          'addr lo inet6 ::1/128 host',
          'addr <veth:1> inet 10.60.0.1/32 global',
          '10.60.0.2 dev <veth:1> scope host',
        ],
        pod: [
          'link lo - mtu 65536',
          'link eth0 veth mtu 1500',
          'addr eth0 inet 10.60.0.2/24 global',
          'default via 10.60.0.1 dev eth0',
          '10.60.0.0/24 via 10.60.0.1 dev eth0 src 10.60.0.2',
          '10.60.0.1 dev eth0 scope link src 10.60.0.2',
        ],
        files: [
          'ptpnet/10.60.0.2: "c-a\\r\\neth0"',
          'ptpnet/last_reserved_ip.0: "10.60.0.2"',
          'ptpnet/lock: ""',
        ],
        nat: natAfterAdd,
      },
    ],
    ['CHECK with the ADD result passes', OK],
    ['CHECK without prevResult', goErr('ptp: Required prevResult missing')],
    [
      'CHECK with another ifname: host-local finds no reservation first',
      goErr('host-local: Failed to find address added by container c-a'),
    ],
    [
      'CHECK in another netns: no interface of the prevResult matches',
      goErr(`Sandbox in prevResult  doesn't match configured netns: ${NS_B}`),
    ],
    [
      'CHECK with a missing netns',
      goErr(
        `failed to open netns "${NS_NONE}": failed to Statfs "${NS_NONE}": no such file or directory`,
      ),
    ],
    [
      'CHECK after eth0 got another MAC',
      goErr("ptp: Interface eth0 Mac <mac:2> doesn't match container Mac: 02:00:00:00:00:aa"),
    ],
    ['CHECK after the MAC is put back', OK],
    [
      'CHECK after the default route was deleted',
      goErr('Expected Route {Dst:{IP:0.0.0.0 Mask:00000000} GW:<nil>} not found in routing table'),
    ],
    ['CHECK after the default route is back', OK],
    [
      "CHECK after eth0's address was deleted (its routes went with it)",
      {
        out: goErr('Failed to match addr 10.60.0.2/24 on interface eth0'),
        pod: ['link lo - mtu 65536', 'link eth0 veth mtu 1500'],
      },
    ],
    [
      'CHECK after the address is added back: the default route is still missing',
      {
        out: goErr(
          'Expected Route {Dst:{IP:0.0.0.0 Mask:00000000} GW:<nil>} not found in routing table',
        ),
        pod: [
          'link lo - mtu 65536',
          'link eth0 veth mtu 1500',
          'addr eth0 inet 10.60.0.2/24 global',
          '10.60.0.0/24 dev eth0 proto kernel scope link src 10.60.0.2',
        ],
      },
    ],
    ['CHECK after the default route is added again', OK],
    [
      "CHECK after host-local's reservation file was removed",
      goErr('host-local: Failed to find address added by container c-a'),
    ],
    [
      'CHECK after the host veth was deleted (eth0 went with it)',
      {
        out: goErr('ptp: Container Interface name in prevResult: eth0 not found'),
        node: NODE_LO,
        pod: POD_LO,
      },
    ],
    [
      'DEL after that: the reservation is released but the nat chain stays (no address to tear down)',
      {
        out: OK,
        node: NODE_LO,
        pod: POD_LO,
        files: ['ptpnet/last_reserved_ip.0: "10.60.0.2"', 'ptpnet/lock: ""'],
        nat: natAfterAdd,
      },
    ],
    ['DEL again', OK],
    ['DEL without CNI_NETNS', OK],
    ['DEL with a netns that does not exist', OK],
    ['CHECK after DEL', goErr('host-local: Failed to find address added by container c-a')],
  ];

  it('ran every step', () => {
    expect(got).toHaveLength(want.length);
  });
  it.each(want.map(([label, w], i) => [`${i}. ${label}`, i, w] as const))('%s', (_l, i, w) => {
    expect(got[i]).toEqual(w);
  });
});

describe('ptp: DEL after a partial ADD (eth0 already exists in the pod)', () => {
  const h = ptNode();
  const n = new Norm();
  ipCommand(h, POD_A, 'link add eth0 type veth peer name xeth0');
  ipCommand(h, POD_A, 'addr add 192.168.77.7/24 dev eth0');
  const add = n.out(runPlugin(h, 'ptp', 'ADD', { cid: 'c-a' }, CONF));
  h.settle();
  const afterAdd = {
    node: nsView(h, 'node'),
    pod: nsView(h, POD_A),
    files: dataFiles(h),
    nat: natRules(h),
  };
  const del = n.out(runPlugin(h, 'ptp', 'DEL', { cid: 'c-a' }, CONF));
  const afterDel = { pod: nsView(h, POD_A), files: dataFiles(h), nat: natRules(h) };
  const del2 = n.out(runPlugin(h, 'ptp', 'DEL', { cid: 'c-a' }, CONF));

  it('ADD fails: the container veth name is taken', () => {
    expect(add).toEqual(goErr('container veth name provided (eth0) already exists'));
  });

  it("ADD released its reservation (deferred IPAM DEL) and left the pod's links alone", () => {
    expect(afterAdd).toEqual({
      node: NODE_LO,
      pod: [
        'link lo - mtu 65536',
        'link xeth0 veth mtu 1500',
        'link eth0 veth mtu 1500',
        'addr eth0 inet 192.168.77.7/24 global',
      ],
      files: ['ptpnet/last_reserved_ip.0: "10.60.0.2"', 'ptpnet/lock: ""'],
      nat: [],
    });
  });

  it("DEL deletes the pod's (foreign) eth0, then fails tearing down a nat chain that never existed", () => {
    expect(del).toEqual(goErr(iptablesMissing('192.168.77.7', CHAIN, 'ptpnet', 'c-a')));
    expect(afterDel).toEqual({
      pod: POD_LO,
      files: ['ptpnet/last_reserved_ip.0: "10.60.0.2"', 'ptpnet/lock: ""'],
      nat: [],
    });
  });

  it('DEL again succeeds (no eth0, so no teardown)', () => {
    expect(del2).toEqual(OK);
  });
});

describe('ptp: DEL after a partial ADD (static gateway outside the subnet)', () => {
  const SC = (masq: boolean) =>
    `{"cniVersion":"1.0.0","name":"ptpst","type":"ptp",${masq ? '"ipMasq":true,' : ''}"ipam":{"type":"static","addresses":[{"address":"10.61.0.5/24","gateway":"10.99.0.1"}],"routes":[{"dst":"0.0.0.0/0"}]}}`;
  const ROUTE_ERR =
    "failed to add route '{0.0.0.0 00000000} via 10.99.0.1 dev eth0': network is unreachable";

  it('ADD fails in ConfigureIface and leaves the veth pair (eth0 with its address) behind', () => {
    const h = ptNode();
    const n = new Norm();
    const add = n.out(runPlugin(h, 'ptp', 'ADD', { cid: 'c-s' }, SC(true)));
    h.settle();
    expect(add).toEqual(goErr(ROUTE_ERR));
    expect({ node: n.lines(nsView(h, 'node')), pod: nsView(h, POD_A), nat: natRules(h) }).toEqual({
      node: [
        'link lo - mtu 65536',
        'link <veth:1> veth mtu 1500',
        'addr lo inet 127.0.0.1/8 host',
        'addr lo inet6 ::1/128 host',
      ],
      pod: [
        'link lo - mtu 65536',
        'link eth0 veth mtu 1500',
        'addr eth0 inet 10.61.0.5/24 global',
        '10.61.0.0/24 dev eth0 proto kernel scope link src 10.61.0.5',
      ],
      nat: [],
    });
    const del = runPlugin(h, 'ptp', 'DEL', { cid: 'c-s' }, SC(true));
    expect(del).toEqual(
      goErr(iptablesMissing('10.61.0.5', 'CNI-c0095f5fae03ba7b7710d222', 'ptpst', 'c-s')),
    );
    expect({ node: nsView(h, 'node'), pod: nsView(h, POD_A) }).toEqual({
      node: NODE_LO,
      pod: POD_LO,
    });
    expect(runPlugin(h, 'ptp', 'DEL', { cid: 'c-s' }, SC(true))).toEqual(OK);
  });

  it('without ipMasq the DEL after it succeeds and cleans up', () => {
    const h = ptNode();
    expect(runPlugin(h, 'ptp', 'ADD', { cid: 'c-s' }, SC(false))).toEqual(goErr(ROUTE_ERR));
    expect(runPlugin(h, 'ptp', 'DEL', { cid: 'c-s' }, SC(false))).toEqual(OK);
    expect({ node: nsView(h, 'node'), pod: nsView(h, POD_A) }).toEqual({
      node: NODE_LO,
      pod: POD_LO,
    });
  });
});

describe('ptp: static IPAM without a gateway', () => {
  const NG =
    '{"cniVersion":"1.0.0","name":"ptpng","type":"ptp","ipam":{"type":"static","addresses":[{"address":"10.62.0.5/24"}]}}';

  it('ADD puts routes with a nil gateway in the pod, then fails adding a nil address to the host veth', () => {
    const h = ptNode();
    const n = new Norm();
    const add = runPlugin(h, 'ptp', 'ADD', { cid: 'c-n' }, NG);
    h.settle();
    expect(add).toEqual(
      goErr(
        'failed to add IP addr (&net.IPNet{IP:net.IP(nil), Mask:net.IPMask{0xff, 0xff, 0xff, 0xff}}) to veth: numerical result out of range',
      ),
    );
    expect({ node: n.lines(nsView(h, 'node')), pod: nsView(h, POD_A) }).toEqual({
      node: [
        'link lo - mtu 65536',
        'link <veth:1> veth mtu 1500',
        'addr lo inet 127.0.0.1/8 host',
        'addr lo inet6 ::1/128 host',
      ],
      pod: [
        'link lo - mtu 65536',
        'link eth0 veth mtu 1500',
        'addr eth0 inet 10.62.0.5/24 global',
        'default dev eth0 scope link src 10.62.0.5',
        '10.62.0.0/24 dev eth0 src 10.62.0.5',
      ],
    });
    expect(runPlugin(h, 'ptp', 'DEL', { cid: 'c-n' }, NG)).toEqual(OK);
    expect({ node: nsView(h, 'node'), pod: nsView(h, POD_A) }).toEqual({
      node: NODE_LO,
      pod: POD_LO,
    });
  });
});

describe('ptp: ADD with a netns that does not exist', () => {
  it('fails after IPAM, and the deferred IPAM DEL releases the address', () => {
    const h = ptNode();
    const r = runPlugin(h, 'ptp', 'ADD', { cid: 'c-x', netns: NS_NONE }, CONF);
    expect(r).toEqual(
      goErr(
        `failed to open netns "${NS_NONE}": failed to Statfs "${NS_NONE}": no such file or directory`,
      ),
    );
    expect({ files: dataFiles(h), node: nsView(h, 'node'), nat: natRules(h) }).toEqual({
      files: ['ptpnet/last_reserved_ip.0: "10.60.0.2"', 'ptpnet/lock: ""'],
      node: NODE_LO,
      nat: [],
    });
  });
});

describe('ptp: CHECK when eth0 was replaced by a bridge', () => {
  const C = `{"cniVersion":"1.0.0","name":"ptpnet","type":"ptp","ipam":{"type":"host-local","dataDir":"${DATA}","subnet":"10.60.0.0/24","routes":[{"dst":"0.0.0.0/0"}]}}`;

  it('CHECK says it is not a veth; DEL deletes the bridge and releases the address', () => {
    const h = ptNode();
    const add = runPlugin(h, 'ptp', 'ADD', { cid: 'c-a' }, C);
    expect(add.exitCode).toBe(0);
    const prev = withPrev(C, add.stdout);
    ipCommand(h, POD_A, 'link del eth0');
    ipCommand(h, POD_A, 'link add eth0 type bridge');
    ipCommand(h, POD_A, 'addr add 10.60.0.2/24 dev eth0');
    ipCommand(h, POD_A, 'link set eth0 up');
    h.settle();
    expect(runPlugin(h, 'ptp', 'CHECK', { cid: 'c-a' }, prev)).toEqual(
      goErr('Error: Container interface eth0 not of type veth/p2p'),
    );
    expect(nsView(h, POD_A)).toEqual([
      'link lo - mtu 65536',
      'link eth0 bridge mtu 1500',
      'addr eth0 inet 10.60.0.2/24 global',
      '10.60.0.0/24 dev eth0 proto kernel scope link src 10.60.0.2',
    ]);
    expect(runPlugin(h, 'ptp', 'DEL', { cid: 'c-a' }, prev)).toEqual(OK);
    expect({ node: nsView(h, 'node'), pod: nsView(h, POD_A), files: dataFiles(h) }).toEqual({
      node: NODE_LO,
      pod: POD_LO,
      files: ['ptpnet/last_reserved_ip.0: "10.60.0.2"', 'ptpnet/lock: ""'],
    });
  });
});

describe('ptp: result versions', () => {
  it('0.2.0: ip4 with the routes, no interfaces', () => {
    const h = ptNode();
    const c = `{"cniVersion":"0.2.0","name":"ptpv","type":"ptp","ipam":{"type":"host-local","dataDir":"${DATA}","subnet":"10.65.0.0/24","routes":[{"dst":"0.0.0.0/0"}]}}`;
    expect(runPlugin(h, 'ptp', 'ADD', { cid: 'c-v' }, c)).toEqual({
      exitCode: 0,
      stdout: `{
    "cniVersion": "0.2.0",
    "ip4": {
        "ip": "10.65.0.2/24",
        "gateway": "10.65.0.1",
        "routes": [
            {
                "dst": "0.0.0.0/0"
            }
        ]
    },
    "dns": {}
}`,
      stderr: '',
    });
    expect(runPlugin(h, 'ptp', 'DEL', { cid: 'c-v' }, c)).toEqual(OK);
  });

  it("0.3.1 with the config's dns", () => {
    const h = ptNode();
    const c = `{"cniVersion":"0.3.1","name":"ptpv","type":"ptp","dns":{"nameservers":["10.65.0.53"],"search":["svc.local"]},"ipam":{"type":"host-local","dataDir":"${DATA}","subnet":"10.65.0.0/24","routes":[{"dst":"0.0.0.0/0"}]}}`;
    const n = new Norm();
    expect(n.out(runPlugin(h, 'ptp', 'ADD', { cid: 'c-v' }, c))).toEqual({
      exitCode: 0,
      stdout: `{
    "cniVersion": "0.3.1",
    "interfaces": [
        {
            "name": "<veth:1>",
            "mac": "<mac:1>"
        },
        {
            "name": "eth0",
            "mac": "<mac:2>",
            "sandbox": "${NS_A}"
        }
    ],
    "ips": [
        {
            "version": "4",
            "interface": 1,
            "address": "10.65.0.2/24",
            "gateway": "10.65.0.1"
        }
    ],
    "routes": [
        {
            "dst": "0.0.0.0/0"
        }
    ],
    "dns": {
        "nameservers": [
            "10.65.0.53"
        ],
        "search": [
            "svc.local"
        ]
    }
}`,
      stderr: '',
    });
  });

  it('0.4.0 dual stack: both gateways on the host veth, CHECK, DEL', () => {
    const h = ptNode();
    const c = `{"cniVersion":"0.4.0","name":"ptpv","type":"ptp","dns":{"domain":"example"},"ipam":{"type":"host-local","dataDir":"${DATA}","ranges":[[{"subnet":"10.65.0.0/24"}],[{"subnet":"fd00:65::/64"}]]}}`;
    const n = new Norm();
    const add = runPlugin(h, 'ptp', 'ADD', { cid: 'c-v' }, c);
    h.settle();
    expect(n.out(add)).toEqual({
      exitCode: 0,
      stdout: `{
    "cniVersion": "0.4.0",
    "interfaces": [
        {
            "name": "<veth:1>",
            "mac": "<mac:1>"
        },
        {
            "name": "eth0",
            "mac": "<mac:2>",
            "sandbox": "${NS_A}"
        }
    ],
    "ips": [
        {
            "version": "4",
            "interface": 1,
            "address": "10.65.0.2/24",
            "gateway": "10.65.0.1"
        },
        {
            "version": "6",
            "interface": 1,
            "address": "fd00:65::2/64",
            "gateway": "fd00:65::1"
        }
    ],
    "dns": {
        "domain": "example"
    }
}`,
      stderr: '',
    });
    expect({ node: n.lines(nsView(h, 'node')), pod: nsView(h, POD_A) }).toEqual({
      node: [
        'link lo - mtu 65536',
        'link <veth:1> veth mtu 1500',
        'addr lo inet 127.0.0.1/8 host',
        'addr lo inet6 ::1/128 host',
        'addr <veth:1> inet 10.65.0.1/32 global',
        'addr <veth:1> inet6 fd00:65::1/128 global',
        '10.65.0.2 dev <veth:1> scope host',
        'fd00:65::1 dev <veth:1> proto kernel metric 256 pref medium',
        'fd00:65::2 dev <veth:1> metric 1024 pref medium',
      ],
      pod: [
        'link lo - mtu 65536',
        'link eth0 veth mtu 1500',
        'addr eth0 inet 10.65.0.2/24 global',
        'addr eth0 inet6 fd00:65::2/64 global',
        '10.65.0.0/24 via 10.65.0.1 dev eth0 src 10.65.0.2',
        '10.65.0.1 dev eth0 scope link src 10.65.0.2',
        'fd00:65::1 dev eth0 src fd00:65::2 metric 1024 pref medium',
        'fd00:65::/64 via fd00:65::1 dev eth0 src fd00:65::2 metric 1024 pref medium',
      ],
    });
    expect(runPlugin(h, 'ptp', 'CHECK', { cid: 'c-v' }, withPrev(c, add.stdout))).toEqual(OK);
    expect(runPlugin(h, 'ptp', 'DEL', { cid: 'c-v' }, c)).toEqual(OK);
    expect({ node: nsView(h, 'node'), pod: nsView(h, POD_A), files: dataFiles(h) }).toEqual({
      node: NODE_LO,
      pod: POD_LO,
      files: [
        'ptpv/last_reserved_ip.0: "10.65.0.2"',
        'ptpv/last_reserved_ip.1: "fd00:65::2"',
        'ptpv/lock: ""',
      ],
    });
  });
});

describe('ptp: configuration errors', () => {
  const HL = `"ipam":{"type":"host-local","dataDir":"${DATA}","subnet":"10.63.0.0/24"}`;
  const ST =
    '"ipam":{"type":"static","addresses":[{"address":"10.64.0.5/24","gateway":"10.64.0.1"}]}';
  const base = '"cniVersion":"1.0.0","name":"ptperr","type":"ptp"';
  const cases: Array<[string, string, string, ReturnType<typeof goErr>]> = [
    [
      'ipMasq is a string',
      'ADD',
      `{${base},"ipMasq":"yes",${HL}}`,
      goErr(
        'failed to load netconf: json: cannot unmarshal string into Go struct field NetConf.ipMasq of type bool',
      ),
    ],
    [
      'mtu is a string',
      'ADD',
      `{${base},"mtu":"1400",${HL}}`,
      goErr(
        'failed to load netconf: json: cannot unmarshal string into Go struct field NetConf.mtu of type int',
      ),
    ],
    ['no ipam', 'ADD', `{${base}}`, goErr('no plugin name provided')],
    ['ipam without a type', 'ADD', `{${base},"ipam":{}}`, goErr('no plugin name provided')],
    [
      'unknown ipam plugin (ADD)',
      'ADD',
      `{${base},"ipam":{"type":"nope"}}`,
      goErr('failed to find plugin "nope" in path [/usr/lib/cni]'),
    ],
    [
      'unknown ipam plugin (DEL)',
      'DEL',
      `{${base},"ipam":{"type":"nope"}}`,
      goErr('failed to find plugin "nope" in path [/usr/lib/cni]'),
    ],
    [
      'unknown ipam plugin (CHECK)',
      'CHECK',
      `{${base},"ipam":{"type":"nope"}}`,
      goErr('failed to find plugin "nope" in path [/usr/lib/cni]'),
    ],
    ['no ipam (DEL)', 'DEL', `{${base}}`, goErr('no plugin name provided')],
    [
      "host-local's error is passed on",
      'ADD',
      `{${base},"ipam":{"type":"host-local","dataDir":"${DATA}","subnet":"10.63.0.0"}}`,
      goErr('invalid CIDR address: 10.63.0.0'),
    ],
    [
      'IPAM returns no address',
      'ADD',
      `{${base},"ipam":{"type":"static"}}`,
      goErr('IPAM plugin returned missing IP config'),
    ],
    [
      'IPAM returns no address (empty list)',
      'ADD',
      `{${base},"ipam":{"type":"static","addresses":[]}}`,
      goErr('IPAM plugin returned missing IP config'),
    ],
    [
      'mtu too large for a veth',
      'ADD',
      `{${base},"mtu":70000,${ST}}`,
      goErr('failed to make veth pair: invalid argument'),
    ],
    [
      'CHECK with a prevResult that has no interfaces',
      'CHECK',
      `{${base},${ST},"prevResult":{"cniVersion":"1.0.0","ips":[{"address":"10.64.0.5/24","gateway":"10.64.0.1"}]}}`,
      goErr(`Sandbox in prevResult  doesn't match configured netns: ${NS_A}`),
    ],
  ];

  it.each(cases)('%s', (_l, cmd, stdin, want) => {
    const h = ptNode();
    expect(runPlugin(h, 'ptp', cmd, { cid: 'c-e' }, stdin)).toEqual(want);
    expect({ node: nsView(h, 'node'), pod: nsView(h, POD_A), nat: natRules(h) }).toEqual({
      node: NODE_LO,
      pod: POD_LO,
      nat: [],
    });
  });

  it('a negative mtu is ignored (the veth gets 1500)', () => {
    const h = ptNode();
    const n = new Norm();
    const c = `{${base},"mtu":-5,${ST}}`;
    expect(n.out(runPlugin(h, 'ptp', 'ADD', { cid: 'c-e' }, c))).toEqual({
      exitCode: 0,
      stdout: addResult('10.64.0.5', { routes: false }),
      stderr: '',
    });
    expect(nsView(h, POD_A)).toContain('link eth0 veth mtu 1500');
    expect(runPlugin(h, 'ptp', 'DEL', { cid: 'c-e' }, c)).toEqual(OK);
  });

  it('mtu too large while eth0 exists: the kernel refuses the mtu before the name', () => {
    const h = ptNode();
    ipCommand(h, POD_A, 'link add eth0 type veth peer name xeth0');
    expect(runPlugin(h, 'ptp', 'ADD', { cid: 'c-e' }, `{${base},"mtu":70000,${ST}}`)).toEqual(
      goErr('failed to make veth pair: invalid argument'),
    );
    expect(runPlugin(h, 'ptp', 'ADD', { cid: 'c-e' }, `{${base},"mtu":1400,${ST}}`)).toEqual(
      goErr('container veth name provided (eth0) already exists'),
    );
  });
});

describe('ptp: v1.1.1 knows neither GC nor STATUS', () => {
  it.each(['GC', 'STATUS'])('%s is an unknown command', (cmd) => {
    const h = ptNode();
    expect(runPlugin(h, 'ptp', cmd, { cid: 'c1' }, '{"cniVersion":"1.1.0","name":"n"}')).toEqual(
      goErr(`unknown CNI_COMMAND: ${cmd}`, 4),
    );
  });
});
