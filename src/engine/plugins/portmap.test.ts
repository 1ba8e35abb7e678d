/**
 * portmap against the real v1.1.1 binary: the iptables commands ADD, CHECK and DEL run (in order,
 * as logged from the real plugin through a wrapper in a throw-away namespace), the nat table they
 * leave (lines from conformance/local/portmap-*.json), the drift CHECK detects, DEL after a
 * partial ADD and DEL twice, and the configuration errors with the real binary's texts.
 */
import { describe, expect, it } from 'vitest';
import { resultJSON } from '../cni/result';
import { sysctlGet } from '../kernel/kernel';
import { TestNode } from '../testkit';
import { parseShellwords } from './lib/shellwords';
import { isKind } from '../trace/trace';

const CONFLIST = `{
  "cniVersion": "1.0.0",
  "name": "pmnet",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": false,
      "ipam": { "type": "host-local", "subnet": "10.22.0.0/24" }
    },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
`;

const MAPS = [
  { hostPort: 8080, containerPort: 80, protocol: 'tcp' },
  { hostPort: 5353, containerPort: 53, protocol: 'udp' },
];
const DN = 'CNI-DN-0e9965f3b290e853e3753'; // sha512("pmnet" + "c1")
const COMMENT = 'dnat name: "pmnet" id: "c1"';
const RT = { containerId: 'c1', capabilityArgs: { portMappings: MAPS } };

function node(conflist = CONFLIST): TestNode {
  return new TestNode({
    conflist,
    plugins: ['bridge', 'host-local', 'loopback', 'portmap'],
  });
}

/** The iptables commands a plugin ran (argv after the binary, without the trailing --wait). */
function iptablesCalls(t: TestNode, from: number, plugin = 'portmap'): string[][] {
  return t.sim.events
    .slice(from)
    .filter(isKind('kernel'))
    .filter((e) => e.source === plugin)
    .map((e) => e.payload)
    .filter((p) => p.op === 'iptables' || p.op === 'iptables.query')
    .map((p) => {
      const argv = p.argv;
      const bin = argv[0] === '/usr/sbin/ip6tables' ? ['ip6tables'] : ['iptables'];
      const rest = argv.slice(1);
      return [...bin, ...(rest[rest.length - 1] === '--wait' ? rest.slice(0, -1) : rest)];
    });
}

function addPod(t: TestNode) {
  const r = t.add('pod-a', RT);
  expect(r.error).toBeUndefined();
  return r;
}

/** A portmap stdin as libcni builds it, with `prev` (an ADD result) as prevResult. */
function stdin(prev: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    cniVersion: '1.0.0',
    name: 'pmnet',
    type: 'portmap',
    ...(prev ? { prevResult: prev } : {}),
    runtimeConfig: { portMappings: MAPS },
    ...extra,
  });
}

/** ADDs pod-a (c1) through libcni and returns its result as JSON. */
function addedPrev(t: TestNode): unknown {
  return JSON.parse(JSON.stringify(resultJSON(addPod(t).result!)));
}

function errMsg(r: { stdout: string; exitCode: number }): string {
  expect(r.exitCode).toBe(1);
  return (JSON.parse(r.stdout) as { msg: string }).msg;
}

/** portmap-basic.json: the nat table after ADD of tcp 8080 / udp 5353 (bridge ipMasq off). */
const NAT_AFTER_ADD = [
  '*nat',
  ':PREROUTING ACCEPT',
  ':INPUT ACCEPT',
  ':OUTPUT ACCEPT',
  ':POSTROUTING ACCEPT',
  `:${DN} -`,
  ':CNI-HOSTPORT-DNAT -',
  ':CNI-HOSTPORT-MASQ -',
  ':CNI-HOSTPORT-SETMARK -',
  '-A PREROUTING -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT',
  '-A OUTPUT -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT',
  '-A POSTROUTING -m comment --comment "CNI portfwd requiring masquerade" -j CNI-HOSTPORT-MASQ',
  `-A ${DN} -s 10.22.0.0/24 -p tcp -m tcp --dport 8080 -j CNI-HOSTPORT-SETMARK`,
  `-A ${DN} -s 127.0.0.1/32 -p tcp -m tcp --dport 8080 -j CNI-HOSTPORT-SETMARK`,
  `-A ${DN} -p tcp -m tcp --dport 8080 -j DNAT --to-destination 10.22.0.2:80`,
  `-A ${DN} -s 10.22.0.0/24 -p udp -m udp --dport 5353 -j CNI-HOSTPORT-SETMARK`,
  `-A ${DN} -s 127.0.0.1/32 -p udp -m udp --dport 5353 -j CNI-HOSTPORT-SETMARK`,
  `-A ${DN} -p udp -m udp --dport 5353 -j DNAT --to-destination 10.22.0.2:53`,
  `-A CNI-HOSTPORT-DNAT -p tcp -m comment --comment "dnat name: \\"pmnet\\" id: \\"c1\\"" -m multiport --dports 8080 -j ${DN}`,
  `-A CNI-HOSTPORT-DNAT -p udp -m comment --comment "dnat name: \\"pmnet\\" id: \\"c1\\"" -m multiport --dports 5353 -j ${DN}`,
  '-A CNI-HOSTPORT-MASQ -m mark --mark 0x2000/0x2000 -j MASQUERADE',
  '-A CNI-HOSTPORT-SETMARK -m comment --comment "CNI portfwd masquerade mark" -j MARK --set-xmark 0x2000/0x2000',
  'COMMIT',
];

/** What DEL leaves: the shared chains and their jumps. */
const NAT_AFTER_DEL = [
  '*nat',
  ':PREROUTING ACCEPT',
  ':INPUT ACCEPT',
  ':OUTPUT ACCEPT',
  ':POSTROUTING ACCEPT',
  ':CNI-HOSTPORT-DNAT -',
  ':CNI-HOSTPORT-MASQ -',
  ':CNI-HOSTPORT-SETMARK -',
  '-A PREROUTING -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT',
  '-A OUTPUT -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT',
  '-A POSTROUTING -m comment --comment "CNI portfwd requiring masquerade" -j CNI-HOSTPORT-MASQ',
  '-A CNI-HOSTPORT-MASQ -m mark --mark 0x2000/0x2000 -j MASQUERADE',
  '-A CNI-HOSTPORT-SETMARK -m comment --comment "CNI portfwd masquerade mark" -j MARK --set-xmark 0x2000/0x2000',
  'COMMIT',
];

const EMPTY_NAT = [
  '*nat',
  ':PREROUTING ACCEPT',
  ':INPUT ACCEPT',
  ':OUTPUT ACCEPT',
  ':POSTROUTING ACCEPT',
  'COMMIT',
];

const RULES_MSG =
  '[[-p tcp --dport 8080 -s 10.22.0.2/24 -j CNI-HOSTPORT-SETMARK] [-p tcp --dport 8080 -s 127.0.0.1 -j CNI-HOSTPORT-SETMARK] [-p tcp --dport 8080 -j DNAT --to-destination 10.22.0.2:80] [-p udp --dport 5353 -s 10.22.0.2/24 -j CNI-HOSTPORT-SETMARK] [-p udp --dport 5353 -s 127.0.0.1 -j CNI-HOSTPORT-SETMARK] [-p udp --dport 5353 -j DNAT --to-destination 10.22.0.2:53]]';

describe('portmap ADD', () => {
  it('creates the shared and per-container nat chains (portmap-basic.json)', () => {
    const t = node();
    const r = addPod(t);
    expect(r.ok).toBe(true);
    expect(t.iptablesSave('ipv4')).toEqual(NAT_AFTER_ADD);
    expect(t.iptablesSave('ipv6')).toEqual([]);
  });

  it('runs the iptables commands of the real plugin, in its order', () => {
    const t = node();
    const from = t.sim.events.length;
    addPod(t);
    const rule = (proto: string, port: number, tail: string[]) => [
      '-p',
      proto,
      '--dport',
      String(port),
      ...tail,
    ];
    const dnRules = [
      rule('tcp', 8080, ['-s', '10.22.0.2/24', '-j', 'CNI-HOSTPORT-SETMARK']),
      rule('tcp', 8080, ['-s', '127.0.0.1', '-j', 'CNI-HOSTPORT-SETMARK']),
      rule('tcp', 8080, ['-j', 'DNAT', '--to-destination', '10.22.0.2:80']),
      rule('udp', 5353, ['-s', '10.22.0.2/24', '-j', 'CNI-HOSTPORT-SETMARK']),
      rule('udp', 5353, ['-s', '127.0.0.1', '-j', 'CNI-HOSTPORT-SETMARK']),
      rule('udp', 5353, ['-j', 'DNAT', '--to-destination', '10.22.0.2:53']),
    ];
    const entry = (proto: string, ports: string) => [
      '-m',
      'comment',
      '--comment',
      COMMENT,
      '-m',
      'multiport',
      '-p',
      proto,
      '--destination-ports',
      ports,
      '-j',
      DN,
    ];
    const setmark = [
      '-m',
      'comment',
      '--comment',
      'CNI portfwd masquerade mark',
      '-j',
      'MARK',
      '--set-xmark',
      '0x2000/0x2000',
    ];
    const masq = ['-m', 'mark', '--mark', '0x2000/0x2000', '-j', 'MASQUERADE'];
    const masqEntry = [
      '-m',
      'comment',
      '--comment',
      'CNI portfwd requiring masquerade',
      '-j',
      'CNI-HOSTPORT-MASQ',
    ];
    const local = ['-m', 'addrtype', '--dst-type', 'LOCAL', '-j', 'CNI-HOSTPORT-DNAT'];
    const nat = (...a: string[]) => ['iptables', '-t', 'nat', ...a];
    expect(iptablesCalls(t, from)).toEqual([
      ['iptables', '--version'],
      nat('-S'),
      nat('-N', 'CNI-HOSTPORT-SETMARK'),
      nat('-C', 'CNI-HOSTPORT-SETMARK', ...setmark),
      nat('-A', 'CNI-HOSTPORT-SETMARK', ...setmark),
      nat('-S'),
      nat('-N', 'CNI-HOSTPORT-MASQ'),
      nat('-C', 'CNI-HOSTPORT-MASQ', ...masq),
      nat('-A', 'CNI-HOSTPORT-MASQ', ...masq),
      nat('-C', 'POSTROUTING', ...masqEntry),
      nat('-I', 'POSTROUTING', '1', ...masqEntry),
      nat('-S'),
      nat('-N', 'CNI-HOSTPORT-DNAT'),
      nat('-C', 'PREROUTING', ...local),
      nat('-A', 'PREROUTING', ...local),
      nat('-C', 'OUTPUT', ...local),
      nat('-A', 'OUTPUT', ...local),
      nat('-S'),
      nat('-N', DN),
      ...dnRules.flatMap((r) => [nat('-C', DN, ...r), nat('-A', DN, ...r)]),
      nat('-C', 'CNI-HOSTPORT-DNAT', ...entry('tcp', '8080')),
      nat('-A', 'CNI-HOSTPORT-DNAT', ...entry('tcp', '8080')),
      nat('-C', 'CNI-HOSTPORT-DNAT', ...entry('udp', '5353')),
      nat('-A', 'CNI-HOSTPORT-DNAT', ...entry('udp', '5353')),
    ]);
  });

  it('sets route_localnet on the interface routing to the pod, between the MASQ and DNAT chains', () => {
    const t = node();
    const from = t.sim.events.length;
    addPod(t);
    const k = t.sim.node(t.node).kernel;
    expect(sysctlGet(k, k.root, 'net.ipv4.conf.cni0.route_localnet')).toBe('1');
    const steps = t.sim.events
      .slice(from)
      .filter((e) => e.source === 'portmap' && e.kind === 'kernel')
      .map((e) => e.summary);
    const i = steps.indexOf('sysctl -w net.ipv4.conf.cni0.route_localnet=1');
    expect(i).toBeGreaterThan(0);
    expect(steps[i - 1]).toContain('-I POSTROUTING 1');
    expect(steps[i + 1]).toBe('/usr/sbin/iptables -t nat -S --wait');
  });

  it('passes the previous result through unchanged', () => {
    const t = node();
    const prev = addedPrev(t);
    const r = t.invoke('portmap', 'ADD', 'pod-a', stdin(prev));
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(prev);
  });

  it('with snat false: no mark chains, no route_localnet (portmap-snat-false.json)', () => {
    const t = node(CONFLIST.replace('"capabilities"', '"snat": false, "capabilities"'));
    t.add('pod-a', { containerId: 'c1', capabilityArgs: { portMappings: [MAPS[0]] } });
    const k = t.sim.node(t.node).kernel;
    expect(sysctlGet(k, k.root, 'net.ipv4.conf.cni0.route_localnet')).toBe('0');
    expect(t.iptablesSave()).toEqual([
      '*nat',
      ':PREROUTING ACCEPT',
      ':INPUT ACCEPT',
      ':OUTPUT ACCEPT',
      ':POSTROUTING ACCEPT',
      `:${DN} -`,
      ':CNI-HOSTPORT-DNAT -',
      '-A PREROUTING -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT',
      '-A OUTPUT -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT',
      `-A ${DN} -p tcp -m tcp --dport 8080 -j DNAT --to-destination 10.22.0.2:80`,
      `-A CNI-HOSTPORT-DNAT -p tcp -m comment --comment "dnat name: \\"pmnet\\" id: \\"c1\\"" -m multiport --dports 8080 -j ${DN}`,
      'COMMIT',
    ]);
  });

  it('without mappings does nothing at all (portmap-no-mappings.json)', () => {
    const t = node();
    const r = t.add('pod-a', { containerId: 'c1' });
    expect(r.ok).toBe(true);
    expect(t.iptablesSave()).toEqual([]);
    expect(t.check('pod-a', { containerId: 'c1' }).ok).toBe(true);
    expect(t.del('pod-a', { containerId: 'c1' }).ok).toBe(true);
    expect(t.iptablesSave()).toEqual([]);
  });

  it('stops at a failing iptables call and leaves what it made (protocol foo)', () => {
    const t = node();
    const maps = [
      { hostPort: 9090, containerPort: 90, protocol: 'tcp' },
      { hostPort: 9091, containerPort: 91, protocol: 'foo' },
    ];
    const r = t.invoke(
      'portmap',
      'ADD',
      'pod-a',
      stdin(addedPrev(t), { runtimeConfig: { portMappings: maps } }),
      { CNI_CONTAINERID: 'c2' },
    );
    const c2 = 'CNI-DN-a21a3e37cf4bc7c127e58';
    expect(errMsg(r)).toBe(
      `unable to setup DNAT: running [/usr/sbin/iptables -t nat -C ${c2} -p foo --dport 9091 -s 10.22.0.2/24 -j CNI-HOSTPORT-SETMARK --wait]: exit status 2: iptables v1.8.9 (nf_tables): unknown protocol "foo" specified\nTry \`iptables -h' or 'iptables --help' for more information.\n`,
    );
    const left = t.iptablesSave().filter((l) => l.includes(c2));
    expect(left).toEqual([
      `:${c2} -`,
      `-A ${c2} -s 10.22.0.0/24 -p tcp -m tcp --dport 9090 -j CNI-HOSTPORT-SETMARK`,
      `-A ${c2} -s 127.0.0.1/32 -p tcp -m tcp --dport 9090 -j CNI-HOSTPORT-SETMARK`,
      `-A ${c2} -p tcp -m tcp --dport 9090 -j DNAT --to-destination 10.22.0.2:90`,
    ]);
    // DEL after the partial ADD removes it; a second DEL is fine too.
    for (let i = 0; i < 2; i++) {
      const d = t.invoke(
        'portmap',
        'DEL',
        'pod-a',
        stdin(null, { runtimeConfig: { portMappings: maps } }),
        { CNI_CONTAINERID: 'c2' },
      );
      expect(d.exitCode).toBe(0);
      expect(t.iptablesSave().filter((l) => l.includes(c2))).toEqual([]);
    }
  });

  it('fails when externalSetMarkChain does not exist, leaving an empty chain', () => {
    const t = node();
    const r = t.invoke(
      'portmap',
      'ADD',
      'pod-a',
      stdin(addedPrev(t), { externalSetMarkChain: 'KUBE-MARK-MASQ' }),
      { CNI_CONTAINERID: 'c3' },
    );
    const c3 = 'CNI-DN-84a63c9a87a94972c0b47';
    expect(errMsg(r)).toBe(
      `unable to setup DNAT: running [/usr/sbin/iptables -t nat -C ${c3} -p tcp --dport 8080 -s 10.22.0.2/24 -j KUBE-MARK-MASQ --wait]: exit status 2: iptables v1.8.9 (nf_tables): Chain 'KUBE-MARK-MASQ' does not exist\nTry \`iptables -h' or 'iptables --help' for more information.\n`,
    );
    expect(t.iptablesSave().filter((l) => l.includes(c3))).toEqual([`:${c3} -`]);
  });
});

describe('portmap CHECK', () => {
  it('fails for an IPv4-only pod: the IPv6 chain is looked for too (v1.1.1)', () => {
    const t = node();
    addPod(t);
    const r = t.check('pod-a', RT);
    expect(r.error?.message).toBe(
      `could not check ipv6 dnat: chain ${DN} not found in iptables table nat`,
    );
    expect(r.failedPluginIndex).toBe(1);
    expect(t.iptablesSave()).toEqual(NAT_AFTER_ADD);
  });

  it('reports a deleted rule with the whole rule list', () => {
    const t = node();
    addPod(t);
    t.iptables([
      '-t',
      'nat',
      '-D',
      DN,
      '-p',
      'udp',
      '--dport',
      '5353',
      '-s',
      '127.0.0.1',
      '-j',
      'CNI-HOSTPORT-SETMARK',
    ]);
    expect(t.check('pod-a', RT).error?.message).toBe(
      `could not check ipv4 dnat: rule ${RULES_MSG} in chain ${DN} not found in table nat`,
    );
  });

  it('reports a deleted entry rule with the entry rule list', () => {
    const t = node();
    addPod(t);
    t.iptables(['-t', 'nat', '-D', 'CNI-HOSTPORT-DNAT', '1']);
    expect(t.check('pod-a', RT).error?.message).toBe(
      `could not check ipv4 dnat: rule [[-m comment --comment ${COMMENT} -m multiport -p tcp --destination-ports 8080] [-m comment --comment ${COMMENT} -m multiport -p udp --destination-ports 5353]] in chain CNI-HOSTPORT-DNAT not found in table nat`,
    );
  });

  it('reports a deleted chain', () => {
    const t = node();
    addPod(t);
    t.iptables(['-t', 'nat', '-F', 'CNI-HOSTPORT-DNAT']);
    t.iptables(['-t', 'nat', '-F', DN]);
    expect(t.iptables(['-t', 'nat', '-X', DN]).exitCode).toBe(0);
    expect(t.check('pod-a', RT).error?.message).toBe(
      `could not check ipv4 dnat: chain ${DN} not found in iptables table nat`,
    );
  });

  it('runs the checks in the real plugin order (rules from the last, then entry rules)', () => {
    const t = node();
    addPod(t);
    const from = t.sim.events.length;
    t.check('pod-a', RT);
    // As logged from the real binary (arguments joined by spaces, --wait dropped).
    expect(iptablesCalls(t, from).map((c) => c.join(' '))).toEqual([
      'iptables --version',
      'iptables -t nat -S OUTPUT',
      'ip6tables --version',
      'ip6tables -t nat -S OUTPUT',
      'iptables -t nat -S',
      `iptables -t nat -C ${DN} -p udp --dport 5353 -j DNAT --to-destination 10.22.0.2:53`,
      `iptables -t nat -C ${DN} -p udp --dport 5353 -s 127.0.0.1 -j CNI-HOSTPORT-SETMARK`,
      `iptables -t nat -C ${DN} -p udp --dport 5353 -s 10.22.0.2/24 -j CNI-HOSTPORT-SETMARK`,
      `iptables -t nat -C ${DN} -p tcp --dport 8080 -j DNAT --to-destination 10.22.0.2:80`,
      `iptables -t nat -C ${DN} -p tcp --dport 8080 -s 127.0.0.1 -j CNI-HOSTPORT-SETMARK`,
      `iptables -t nat -C ${DN} -p tcp --dport 8080 -s 10.22.0.2/24 -j CNI-HOSTPORT-SETMARK`,
      `iptables -t nat -C CNI-HOSTPORT-DNAT -m comment --comment ${COMMENT} -m multiport -p udp --destination-ports 5353 -j ${DN}`,
      `iptables -t nat -C CNI-HOSTPORT-DNAT -m comment --comment ${COMMENT} -m multiport -p tcp --destination-ports 8080 -j ${DN}`,
      'ip6tables -t nat -S',
    ]);
  });

  it('looks for the IPv4 rules in ip6tables for a dual-stack pod (portmap-ipv6.json)', () => {
    const t = node(
      CONFLIST.replace(
        '"subnet": "10.22.0.0/24"',
        '"ranges": [[{ "subnet": "10.22.0.0/24" }], [{ "subnet": "fd00:22::/64" }]]',
      ).replace(/"pmnet"/, '"pm6"'),
    );
    const maps = [
      { hostPort: 8080, containerPort: 80, protocol: 'tcp' },
      { hostPort: 8443, containerPort: 443, protocol: 'tcp', hostIP: '::1' },
    ];
    const rt = { containerId: 'c1', capabilityArgs: { portMappings: maps } };
    expect(t.add('pod-a', rt).ok).toBe(true);
    const dn = 'CNI-DN-8400df98694740a298002';
    expect(t.iptablesSave('ipv6')).toContain(
      `-A ${dn} -d ::1/128 -p tcp -m tcp --dport 8443 -j DNAT --to-destination [fd00:22::2]:443`,
    );
    expect(t.check('pod-a', rt).error?.message).toBe(
      `could not check ipv6 dnat: rule [[-p tcp --dport 8080 -s 10.22.0.2/24 -j CNI-HOSTPORT-SETMARK] [-p tcp --dport 8080 -s 127.0.0.1 -j CNI-HOSTPORT-SETMARK] [-p tcp --dport 8080 -j DNAT --to-destination 10.22.0.2:80]] in chain ${dn} not found in table nat`,
    );
  });
});

describe('portmap DEL', () => {
  it('removes the per-container chain and its jumps; the shared chains stay', () => {
    const t = node();
    addPod(t);
    expect(t.del('pod-a', RT).ok).toBe(true);
    expect(t.iptablesSave('ipv4')).toEqual(NAT_AFTER_DEL);
    // The ip6tables teardown creates (then deletes) the chain: the nat table appears.
    expect(t.iptablesSave('ipv6')).toEqual(EMPTY_NAT);
  });

  it('runs the teardown of the real plugin (also the CNI-SN chain of old versions)', () => {
    const t = node();
    addPod(t);
    const from = t.sim.events.length;
    t.del('pod-a', RT);
    const sn = 'CNI-SN-0e9965f3b290e853e3753';
    const del = (proto: string, port: string) => [
      'iptables',
      '-t',
      'nat',
      '-D',
      'CNI-HOSTPORT-DNAT',
      '-p',
      proto,
      '-m',
      'comment',
      '--comment',
      COMMENT,
      '-m',
      'multiport',
      '--dports',
      port,
      '-j',
      DN,
    ];
    const teardown = (bin: string, chain: string, entry: string, dels: string[][] = []) => [
      [bin, '-t', 'nat', '-N', chain],
      ...(bin === 'iptables' && chain === DN ? [[bin, '-t', 'nat', '-F', chain]] : []),
      [bin, '-t', 'nat', '-S', entry],
      ...dels,
      [bin, '-t', 'nat', '-X', chain],
    ];
    expect(iptablesCalls(t, from)).toEqual([
      ['iptables', '--version'],
      ['iptables', '-t', 'nat', '-S', 'OUTPUT'],
      ['ip6tables', '--version'],
      ['ip6tables', '-t', 'nat', '-S', 'OUTPUT'],
      ...teardown('iptables', DN, 'CNI-HOSTPORT-DNAT', [del('tcp', '8080'), del('udp', '5353')]),
      ...teardown('iptables', sn, 'CNI-HOSTPORT-SNAT'),
      ...teardown('ip6tables', DN, 'CNI-HOSTPORT-DNAT'),
      ...teardown('ip6tables', sn, 'CNI-HOSTPORT-SNAT'),
    ]);
  });

  it('twice is fine and changes nothing more', () => {
    const t = node();
    addPod(t);
    expect(t.del('pod-a', RT).ok).toBe(true);
    expect(t.del('pod-a', RT).ok).toBe(true);
    expect(t.iptablesSave('ipv4')).toEqual(NAT_AFTER_DEL);
    expect(t.iptablesSave('ipv6')).toEqual(EMPTY_NAT);
  });

  it('without mappings in runtimeConfig does nothing, whatever ADD did', () => {
    const t = node();
    addPod(t);
    const from = t.sim.events.length;
    const s = JSON.stringify({ cniVersion: '1.0.0', name: 'pmnet', type: 'portmap' });
    expect(t.invoke('portmap', 'DEL', 'pod-a', s).exitCode).toBe(0);
    expect(iptablesCalls(t, from)).toEqual([]);
    expect(t.iptablesSave()).toEqual(NAT_AFTER_ADD);
  });
});

describe('portmap configuration errors (texts of the real binary)', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'hostPort 0',
      { runtimeConfig: { portMappings: [{ hostPort: 0, containerPort: 80, protocol: 'tcp' }] } },
      'Invalid host port number: 0',
    ],
    [
      'containerPort -1',
      { runtimeConfig: { portMappings: [{ hostPort: 80, containerPort: -1, protocol: 'tcp' }] } },
      'Invalid container port number: -1',
    ],
    ['markMasqBit 32', { markMasqBit: 32 }, 'MasqMarkBit must be between 0 and 31'],
    ['markMasqBit -1', { markMasqBit: -1 }, 'MasqMarkBit must be between 0 and 31'],
    [
      'markMasqBit with externalSetMarkChain',
      { markMasqBit: 3, externalSetMarkChain: 'X' },
      'Cannot specify externalSetMarkChain and markMasqBit',
    ],
    [
      'hostPort as a string',
      {
        runtimeConfig: { portMappings: [{ hostPort: '80', containerPort: 80, protocol: 'tcp' }] },
      },
      'failed to parse network configuration: json: cannot unmarshal string into Go struct field PortMapEntry.runtimeConfig.portMappings.hostPort of type int',
    ],
    [
      'markMasqBit as a string',
      { markMasqBit: '1' },
      'failed to parse network configuration: json: cannot unmarshal string into Go struct field PortMapConf.markMasqBit of type int',
    ],
    [
      'conditionsV4 as a string',
      { conditionsV4: 'x' },
      'failed to parse network configuration: json: cannot unmarshal string into Go struct field PortMapConf.conditionsV4 of type []string',
    ],
    [
      'snat as a string',
      { snat: 'no' },
      'failed to parse network configuration: json: cannot unmarshal string into Go struct field PortMapConf.snat of type bool',
    ],
    [
      'portMappings as an object',
      { runtimeConfig: { portMappings: {} } },
      'failed to parse network configuration: json: cannot unmarshal object into Go struct field .runtimeConfig.portMappings of type []main.PortMapEntry',
    ],
  ];
  const prev = {
    cniVersion: '1.0.0',
    interfaces: [{ name: 'eth0', sandbox: '/var/run/netns/pod-a' }],
    ips: [{ interface: 0, address: '10.22.0.2/24' }],
  };
  it.each(cases)('%s', (_name, extra, msg) => {
    const t = node();
    const s = JSON.stringify({
      cniVersion: '1.0.0',
      name: 'pmnet',
      type: 'portmap',
      prevResult: prev,
      runtimeConfig: { portMappings: MAPS },
      ...extra,
    });
    // ADD and DEL wrap the error, CHECK does not; nothing touches iptables.
    expect(errMsg(t.invoke('portmap', 'ADD', 'pod-a', s))).toBe(`failed to parse config: ${msg}`);
    expect(errMsg(t.invoke('portmap', 'CHECK', 'pod-a', s))).toBe(msg);
    expect(errMsg(t.invoke('portmap', 'DEL', 'pod-a', s))).toBe(`failed to parse config: ${msg}`);
    expect(t.iptablesSave()).toEqual([]);
  });

  it('needs a previous result for ADD and CHECK', () => {
    const t = node();
    const s = stdin(null);
    expect(errMsg(t.invoke('portmap', 'ADD', 'pod-a', s))).toBe('must be called as chained plugin');
    expect(errMsg(t.invoke('portmap', 'CHECK', 'pod-a', s))).toBe('Required prevResult missing');
  });

  it('reports a bad prevResult twice wrapped', () => {
    const t = node();
    const s = JSON.stringify({
      cniVersion: '1.0.0',
      name: 'pmnet',
      type: 'portmap',
      prevResult: { ...prev, ips: [{ address: 'bogus' }] },
      runtimeConfig: { portMappings: MAPS },
    });
    expect(errMsg(t.invoke('portmap', 'ADD', 'pod-a', s))).toBe(
      'failed to parse config: could not parse prevResult: could not parse prevResult: invalid CIDR address: bogus',
    );
  });
});

describe('go-shellwords on iptables -S lines', () => {
  it('unquotes the comment and keeps the words', () => {
    expect(
      parseShellwords(
        `-A CNI-HOSTPORT-DNAT -p tcp -m comment --comment "dnat name: \\"pmnet\\" id: \\"c1\\"" -m multiport --dports 8080 -j ${DN}`,
      ),
    ).toEqual([
      '-A',
      'CNI-HOSTPORT-DNAT',
      '-p',
      'tcp',
      '-m',
      'comment',
      '--comment',
      COMMENT,
      '-m',
      'multiport',
      '--dports',
      '8080',
      '-j',
      DN,
    ]);
  });

  it('stops at an unquoted ; and rejects an unquoted ( or an open quote', () => {
    expect(parseShellwords('a b;c d')).toEqual(['a', 'b']);
    expect(() => parseShellwords('a (b)')).toThrow('invalid command line string');
    expect(() => parseShellwords('a "b')).toThrow('invalid command line string');
    expect(parseShellwords(`'a\\b' ""`)).toEqual(['a\\b', '']);
  });
});
