/**
 * firewall (iptables backend) against the real v1.1.1 binary: the iptables commands of ADD,
 * CHECK and DEL (in the order logged from the real plugin), the filter table they leave (lines
 * from conformance/local/firewall-*.json), the drift CHECK detects, DEL twice, the ingress
 * policies, the firewalld backend without D-Bus and the error texts of the real binary.
 */
import { describe, expect, it } from 'vitest';
import { resultJSON } from '../cni/result';
import { TestNode } from '../testkit';
import { isKind } from '../trace/trace';

const CONFLIST = `{
  "cniVersion": "1.0.0",
  "name": "fwnet",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": false,
      "ipam": { "type": "host-local", "subnet": "10.22.0.0/24" }
    },
    { "type": "firewall", "backend": "iptables" }
  ]
}
`;

const RT = { containerId: 'c1' };

function node(conflist = CONFLIST): TestNode {
  return new TestNode({
    conflist,
    plugins: ['bridge', 'host-local', 'loopback', 'firewall'],
  });
}

/** The iptables commands the plugin ran, joined by spaces, without the trailing --wait. */
function iptablesCalls(t: TestNode, from: number): string[] {
  return t.sim.events
    .slice(from)
    .filter(isKind('kernel'))
    .filter((e) => e.source === 'firewall')
    .map((e) => e.payload)
    .filter((p) => p.op === 'iptables' || p.op === 'iptables.query')
    .map((p) => {
      const argv = [...p.argv];
      argv[0] = argv[0] === '/usr/sbin/ip6tables' ? 'ip6tables' : 'iptables';
      if (argv[argv.length - 1] === '--wait') argv.pop();
      return argv.join(' ');
    });
}

function errMsg(r: { stdout: string; exitCode: number }): string {
  expect(r.exitCode).toBe(1);
  return (JSON.parse(r.stdout) as { msg: string }).msg;
}

function fwStdin(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    cniVersion: '1.0.0',
    name: 'fwnet',
    type: 'firewall',
    backend: 'iptables',
    ...extra,
  });
}

function addedPrev(t: TestNode): unknown {
  const r = t.add('pod-a', RT);
  expect(r.ok).toBe(true);
  return JSON.parse(JSON.stringify(resultJSON(r.result!)));
}

/** firewall-open.json: the filter table after ADD. */
const FILTER_AFTER_ADD = [
  '*filter',
  ':INPUT ACCEPT',
  ':FORWARD ACCEPT',
  ':OUTPUT ACCEPT',
  ':CNI-ADMIN -',
  ':CNI-FORWARD -',
  '-A FORWARD -m comment --comment "CNI firewall plugin rules" -j CNI-FORWARD',
  '-A CNI-FORWARD -m comment --comment "CNI firewall plugin admin overrides" -j CNI-ADMIN',
  '-A CNI-FORWARD -d 10.22.0.2/32 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
  '-A CNI-FORWARD -s 10.22.0.2/32 -j ACCEPT',
  'COMMIT',
];

const FILTER_AFTER_DEL = [
  '*filter',
  ':INPUT ACCEPT',
  ':FORWARD ACCEPT',
  ':OUTPUT ACCEPT',
  ':CNI-ADMIN -',
  ':CNI-FORWARD -',
  '-A FORWARD -m comment --comment "CNI firewall plugin rules" -j CNI-FORWARD',
  '-A CNI-FORWARD -m comment --comment "CNI firewall plugin admin overrides" -j CNI-ADMIN',
  'COMMIT',
];

const PRIV_RULE = '-m comment --comment CNI firewall plugin rules -j CNI-FORWARD';
const ADMIN_RULE = '-m comment --comment CNI firewall plugin admin overrides -j CNI-ADMIN';
const RULE_D = '-d 10.22.0.2/32 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT';
const RULE_S = '-s 10.22.0.2/32 -j ACCEPT';

describe('firewall ADD', () => {
  it('adds CNI-FORWARD, CNI-ADMIN and the per-address rules (firewall-open.json)', () => {
    const t = node();
    const r = t.add('pod-a', RT);
    expect(r.ok).toBe(true);
    expect(t.iptablesSave('ipv4')).toEqual(FILTER_AFTER_ADD);
    expect(t.iptablesSave('ipv6')).toEqual([]);
  });

  it('runs the iptables commands of the real plugin, in its order', () => {
    const t = node();
    const from = t.sim.events.length;
    t.add('pod-a', RT);
    expect(iptablesCalls(t, from)).toEqual([
      'iptables --version',
      'ip6tables --version',
      'iptables -t filter -S',
      'iptables -t filter -N CNI-FORWARD',
      'iptables -t filter -S',
      'iptables -t filter -N CNI-ADMIN',
      `iptables -t filter -C FORWARD ${PRIV_RULE}`,
      `iptables -t filter -I FORWARD 1 ${PRIV_RULE}`,
      `iptables -t filter -C CNI-FORWARD ${ADMIN_RULE}`,
      `iptables -t filter -I CNI-FORWARD 1 ${ADMIN_RULE}`,
      `iptables -t filter -C CNI-FORWARD ${RULE_D}`,
      `iptables -t filter -A CNI-FORWARD ${RULE_D}`,
      `iptables -t filter -C CNI-FORWARD ${RULE_S}`,
      `iptables -t filter -A CNI-FORWARD ${RULE_S}`,
    ]);
  });

  it('prints the previous result', () => {
    const t = node();
    const prev = addedPrev(t);
    const r = t.invoke('firewall', 'ADD', 'pod-a', fwStdin({ prevResult: prev }));
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(prev);
  });

  it('falls back to iptables for another or no backend (no firewalld)', () => {
    for (const backend of [undefined, 'nosuch']) {
      const t = node(
        CONFLIST.replace('"backend": "iptables"', `"backend": ${JSON.stringify(backend ?? '')}`),
      );
      expect(t.add('pod-a', RT).ok).toBe(true);
      expect(t.iptablesSave()).toEqual(FILTER_AFTER_ADD);
    }
  });

  it('with ingressPolicy same-bridge adds the isolation chains (firewall-same-bridge.json)', () => {
    const t = node(
      CONFLIST.replace(
        '"backend": "iptables"',
        '"backend": "iptables", "ingressPolicy": "same-bridge"',
      ),
    );
    expect(t.add('pod-a', RT).ok).toBe(true);
    const c = '-m comment --comment "CNI firewall plugin rules (ingressPolicy: same-bridge)"';
    expect(t.iptablesSave()).toEqual([
      '*filter',
      ':INPUT ACCEPT',
      ':FORWARD ACCEPT',
      ':OUTPUT ACCEPT',
      ':CNI-ADMIN -',
      ':CNI-FORWARD -',
      ':CNI-ISOLATION-STAGE-1 -',
      ':CNI-ISOLATION-STAGE-2 -',
      `-A FORWARD ${c} -j CNI-ISOLATION-STAGE-1`,
      '-A FORWARD -m comment --comment "CNI firewall plugin rules" -j CNI-FORWARD',
      '-A CNI-FORWARD -m comment --comment "CNI firewall plugin admin overrides" -j CNI-ADMIN',
      '-A CNI-FORWARD -d 10.22.0.2/32 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
      '-A CNI-FORWARD -s 10.22.0.2/32 -j ACCEPT',
      `-A CNI-ISOLATION-STAGE-1 -i cni0 ! -o cni0 ${c} -j CNI-ISOLATION-STAGE-2`,
      `-A CNI-ISOLATION-STAGE-1 ${c} -j RETURN`,
      `-A CNI-ISOLATION-STAGE-2 -o cni0 ${c} -j DROP`,
      `-A CNI-ISOLATION-STAGE-2 ${c} -j RETURN`,
      'COMMIT',
    ]);
    // DEL leaves the isolation chains (the bridge may serve other pods).
    expect(t.del('pod-a', RT).ok).toBe(true);
    expect(t.iptablesSave().filter((l) => l.includes('ISOLATION')).length).toBe(7);
  });

  it('dual stack: rules in both families, IPv4 first; custom admin chain', () => {
    const t = node(
      CONFLIST.replace(
        '"subnet": "10.22.0.0/24"',
        '"ranges": [[{ "subnet": "10.22.0.0/24" }], [{ "subnet": "fd00:22::/64" }]]',
      ).replace('"backend": "iptables"', '"iptablesAdminChainName": "MY-ADMIN"'),
    );
    const from = t.sim.events.length;
    expect(t.add('pod-a', RT).ok).toBe(true);
    expect(t.iptablesSave('ipv6')).toEqual([
      '*filter',
      ':INPUT ACCEPT',
      ':FORWARD ACCEPT',
      ':OUTPUT ACCEPT',
      ':CNI-FORWARD -',
      ':MY-ADMIN -',
      '-A FORWARD -m comment --comment "CNI firewall plugin rules" -j CNI-FORWARD',
      '-A CNI-FORWARD -m comment --comment "CNI firewall plugin admin overrides" -j MY-ADMIN',
      '-A CNI-FORWARD -d fd00:22::2/128 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
      '-A CNI-FORWARD -s fd00:22::2/128 -j ACCEPT',
      'COMMIT',
    ]);
    const calls = iptablesCalls(t, from);
    expect(calls.findIndex((c) => c.startsWith('ip6tables -t'))).toBeGreaterThan(
      calls.findLastIndex((c) => c.startsWith('iptables -t')),
    );
    expect(t.check('pod-a', RT).ok).toBe(true);
    expect(t.del('pod-a', RT).ok).toBe(true);
    expect(t.iptablesSave('ipv6')).not.toContain('-A CNI-FORWARD -s fd00:22::2/128 -j ACCEPT');
  });
});

describe('firewall CHECK', () => {
  it('passes after ADD and changes nothing', () => {
    const t = node();
    t.add('pod-a', RT);
    const from = t.sim.events.length;
    expect(t.check('pod-a', RT).ok).toBe(true);
    expect(t.iptablesSave()).toEqual(FILTER_AFTER_ADD);
    expect(iptablesCalls(t, from)).toEqual([
      'iptables --version',
      'ip6tables --version',
      'iptables -t filter -S',
      'iptables -t filter -S',
      `iptables -t filter -C FORWARD ${PRIV_RULE}`,
      `iptables -t filter -C CNI-FORWARD ${ADMIN_RULE}`,
      `iptables -t filter -C CNI-FORWARD ${RULE_D}`,
      `iptables -t filter -C CNI-FORWARD ${RULE_S}`,
    ]);
  });

  it('detects each missing rule, the deepest first (texts of the real binary)', () => {
    const t = node();
    t.add('pod-a', RT);
    t.iptables(['-D', 'CNI-FORWARD', '-s', '10.22.0.2/32', '-j', 'ACCEPT']);
    expect(t.check('pod-a', RT).error?.message).toBe(
      'expected rule [-s 10.22.0.2/32 -j ACCEPT] not found',
    );
    t.iptables(['-D', 'CNI-FORWARD', '1']);
    expect(t.check('pod-a', RT).error?.message).toBe(
      `expected CNI-FORWARD rule [${ADMIN_RULE}] not found`,
    );
    t.iptables(['-D', 'FORWARD', '1']);
    expect(t.check('pod-a', RT).error?.message).toBe(
      `expected FORWARD rule [${PRIV_RULE}] not found`,
    );
  });

  it('re-creates a deleted CNI-FORWARD chain before reporting the missing jump', () => {
    const t = node();
    t.add('pod-a', RT);
    t.iptables(['-D', 'FORWARD', '1']);
    t.iptables(['-F', 'CNI-FORWARD']);
    expect(t.iptables(['-X', 'CNI-FORWARD']).exitCode).toBe(0);
    expect(t.check('pod-a', RT).error?.message).toBe(
      `expected FORWARD rule [${PRIV_RULE}] not found`,
    );
    expect(t.iptablesSave()).toEqual([
      '*filter',
      ':INPUT ACCEPT',
      ':FORWARD ACCEPT',
      ':OUTPUT ACCEPT',
      ':CNI-ADMIN -',
      ':CNI-FORWARD -',
      'COMMIT',
    ]);
  });

  it('does not look at the ingress policy', () => {
    const t = node();
    const prev = addedPrev(t);
    const r = t.invoke(
      'firewall',
      'CHECK',
      'pod-a',
      fwStdin({ prevResult: prev, ingressPolicy: 'isolated' }),
    );
    expect(r.exitCode).toBe(0);
  });
});

describe('firewall DEL', () => {
  it('removes the per-address rules, keeps the chains; twice is fine', () => {
    const t = node();
    t.add('pod-a', RT);
    const from = t.sim.events.length;
    expect(t.del('pod-a', RT).ok).toBe(true);
    expect(iptablesCalls(t, from)).toEqual([
      'iptables --version',
      'ip6tables --version',
      `iptables -t filter -D CNI-FORWARD ${RULE_D}`,
      `iptables -t filter -D CNI-FORWARD ${RULE_S}`,
    ]);
    expect(t.iptablesSave()).toEqual(FILTER_AFTER_DEL);
    // The second DEL has no cached result: no prevResult, nothing to remove.
    expect(t.del('pod-a', RT).ok).toBe(true);
    expect(t.iptablesSave()).toEqual(FILTER_AFTER_DEL);
  });

  it('ignores rules that are already gone', () => {
    const t = node();
    const prev = addedPrev(t);
    for (let i = 0; i < 2; i++) {
      const r = t.invoke('firewall', 'DEL', 'pod-a', fwStdin({ prevResult: prev }));
      expect(r.exitCode).toBe(0);
    }
    expect(t.iptablesSave()).toEqual(FILTER_AFTER_DEL);
  });
});

describe('firewall errors (texts of the real binary)', () => {
  it('needs a previous result for ADD and CHECK, not for DEL', () => {
    const t = node();
    expect(errMsg(t.invoke('firewall', 'ADD', 'pod-a', fwStdin()))).toBe(
      'missing prevResult from earlier plugin',
    );
    expect(errMsg(t.invoke('firewall', 'CHECK', 'pod-a', fwStdin()))).toBe(
      'missing prevResult from earlier plugin',
    );
    expect(t.invoke('firewall', 'DEL', 'pod-a', fwStdin()).exitCode).toBe(0);
    expect(t.iptablesSave()).toEqual([]);
  });

  it('an unknown ingressPolicy fails after the rules were added, and fails DEL after removing them', () => {
    const t = node();
    const prev = addedPrev(t);
    t.iptables(['-D', 'CNI-FORWARD', '-s', '10.22.0.2/32', '-j', 'ACCEPT']);
    t.iptables([
      '-D',
      'CNI-FORWARD',
      '-d',
      '10.22.0.2/32',
      '-m',
      'conntrack',
      '--ctstate',
      'RELATED,ESTABLISHED',
      '-j',
      'ACCEPT',
    ]);
    const s = fwStdin({ prevResult: prev, ingressPolicy: 'isolated' });
    expect(errMsg(t.invoke('firewall', 'ADD', 'pod-a', s))).toBe(
      'unknown ingress policy: "isolated"',
    );
    expect(t.iptablesSave()).toEqual(FILTER_AFTER_ADD);
    expect(errMsg(t.invoke('firewall', 'DEL', 'pod-a', s))).toBe(
      'unknown ingress policy: "isolated"',
    );
    expect(t.iptablesSave()).toEqual(FILTER_AFTER_DEL);
    // Without a prevResult the DEL removes nothing and fails the same way.
    expect(
      errMsg(t.invoke('firewall', 'DEL', 'pod-a', fwStdin({ ingressPolicy: 'isolated' }))),
    ).toBe('unknown ingress policy: "isolated"');
  });

  it('backend firewalld: no D-Bus system bus on the node', () => {
    const t = node();
    const prev = addedPrev(t);
    const s = fwStdin({ prevResult: prev, backend: 'firewalld' });
    const dial = 'dial unix /var/run/dbus/system_bus_socket: connect: no such file or directory';
    for (const cmd of ['ADD', 'CHECK', 'DEL'])
      expect(errMsg(t.invoke('firewall', cmd, 'pod-a', s))).toBe(dial);
  });

  it.each([
    [
      'backend as a number',
      { backend: 5 },
      'failed to load netconf: json: cannot unmarshal number into Go struct field FirewallNetConf.backend of type string',
    ],
    [
      'a bad prevResult',
      { prevResult: { cniVersion: '1.0.0', ips: [{ address: 'bogus' }] } },
      'could not parse prevResult: could not parse prevResult: invalid CIDR address: bogus',
    ],
  ])('%s', (_n, extra, msg) => {
    const t = node();
    for (const cmd of ['ADD', 'CHECK', 'DEL'])
      expect(errMsg(t.invoke('firewall', cmd, 'pod-a', fwStdin(extra)))).toBe(msg);
  });

  it('supports cniVersion 0.4.0 and later only', () => {
    const t = node();
    const r = t.invoke('firewall', 'ADD', 'pod-a', fwStdin({ cniVersion: '0.3.1' }));
    expect(JSON.parse(r.stdout)).toEqual({
      code: 1,
      msg: 'incompatible CNI versions',
      details: 'config is "0.3.1", plugin supports ["0.4.0" "1.0.0"]',
    });
    const v = t.invoke('firewall', 'VERSION', 'pod-a', '');
    expect(JSON.parse(v.stdout)).toEqual({
      cniVersion: '1.0.0',
      supportedVersions: ['0.4.0', '1.0.0'],
    });
  });

  it.each([
    [
      'no interfaces',
      { cniVersion: '1.0.0', ips: [{ address: '10.22.0.9/24' }] },
      'interface needs to be set for ingress policy "same-bridge", make sure to chain "firewall" plugin with "bridge"',
    ],
    [
      'an empty bridge name',
      { cniVersion: '1.0.0', interfaces: [{ name: '' }], ips: [{ address: '10.22.0.9/24' }] },
      'got empty bridge name',
    ],
    [
      'a null interface',
      { cniVersion: '1.0.0', interfaces: [null], ips: [{ address: '10.22.0.9/24' }] },
      'got nil interface',
    ],
  ])('same-bridge with %s fails after the rules were added', (_n, prev, msg) => {
    const t = node();
    const r = t.invoke(
      'firewall',
      'ADD',
      'pod-a',
      fwStdin({ prevResult: prev, ingressPolicy: 'same-bridge' }),
    );
    expect(errMsg(r)).toBe(msg);
    expect(t.iptablesSave()).toContain('-A CNI-FORWARD -s 10.22.0.9/32 -j ACCEPT');
    expect(t.iptablesSave().some((l) => l.includes('ISOLATION'))).toBe(false);
  });
});
