/**
 * macvlan against the real v1.1.1 binary (/usr/lib/cni/macvlan, Debian 1.1.1+ds1-3+b5), run
 * directly in throw-away namespaces on a 6.18 kernel, with a veth eth0 (peer uplink, both up) in
 * the node as master: what conformance/local/macvlan-*.json do not cover. CHECK without
 * prevResult, with a mode that does not exist (modeFromString's error is dropped and the
 * comparison fails in modeToString with `%q` of an integer), with another mode, against a veth;
 * DEL without a netns and with a path that is no netns; MACs the kernel refuses (8 bytes,
 * multicast); ADD with the master down; the device's txqueuelen 0 and `ip -d link`; the kernel's
 * macvlan on its own (lower MTU, lower deleted, passthru). Expected values are the real outputs,
 * MACs numbered in order of appearance (pt-harness.ts `Norm`).
 */
import { describe, expect, it } from 'vitest';
import * as K from '../kernel/kernel';
import type { Link } from '../kernel/types';
import { Shell } from '../shell/shell';
import { tget } from '../state/table';
import { type Harness, kernelOp } from './harness';
import { NS_A, Norm, OK, POD_A, goErr, ptNode, runPlugin, withPrev } from './pt-harness';

const L2 = '{"cniVersion":"1.0.0","name":"mvl2","type":"macvlan","master":"eth0"}';

function node(build = 'v1.1.1'): Harness {
  const h = ptNode({ build, pods: [POD_A], plugins: ['macvlan', 'static'] });
  sh(
    h,
    'ip link add eth0 type veth peer name uplink && ip link set uplink up && ip link set eth0 up && ip addr add 192.168.50.10/24 dev eth0 && ip route add default via 192.168.50.1 dev eth0',
  );
  return h;
}

function sh(h: Harness, line: string): string {
  const r = new Shell(h.sim, h.node, { actor: 'recorder' }).run(line);
  expect(r.stderr).toBe('');
  return r.stdout;
}

function conf(extra: Record<string, unknown>): string {
  return JSON.stringify({ ...(JSON.parse(L2) as object), ...extra });
}

function podLinks(h: Harness): Link[] {
  const id = tget(h.kernel.mounts, NS_A)!;
  return K.linksOf(tget(h.kernel.netns, id)!);
}

function addL2(h: Harness, n: Norm): void {
  const r = n.out(runPlugin(h, 'macvlan', 'ADD', {}, L2));
  expect(r).toEqual({
    exitCode: 0,
    stdout: `{
    "cniVersion": "1.0.0",
    "interfaces": [
        {
            "name": "eth0",
            "mac": "<mac:1>",
            "sandbox": "${NS_A}"
        }
    ],
    "dns": {}
}`,
    stderr: '',
  });
}

describe('macvlan (v1.1.1) CHECK', () => {
  it('refuses a missing prevResult, an unknown mode, another mode and a veth', () => {
    const h = node();
    const n = new Norm();
    const add = runPlugin(h, 'macvlan', 'ADD', {}, L2);
    expect(add.exitCode).toBe(0);
    n.out(add);
    expect(runPlugin(h, 'macvlan', 'CHECK', {}, L2)).toEqual(goErr('Required prevResult missing'));
    expect(
      runPlugin(h, 'macvlan', 'CHECK', {}, withPrev(conf({ mode: 'foo' }), add.stdout)),
    ).toEqual(goErr("unknown macvlan mode: '\\x00'"));
    expect(
      runPlugin(h, 'macvlan', 'CHECK', {}, withPrev(conf({ mode: 'private' }), add.stdout)),
    ).toEqual(goErr('Container macvlan mode bridge does not match expected value: private'));
    expect(runPlugin(h, 'macvlan', 'CHECK', {}, withPrev(L2, add.stdout))).toEqual(OK);
    expect(runPlugin(h, 'macvlan', 'DEL', { netns: '' }, L2)).toEqual(OK);
    expect(podLinks(h).map((l) => l.name)).toEqual(['lo', 'eth0']);
    expect(runPlugin(h, 'macvlan', 'DEL', {}, L2)).toEqual(OK);
    sh(h, `ip -n ${POD_A} link add eth0 type veth peer name x0`);
    expect(runPlugin(h, 'macvlan', 'CHECK', {}, withPrev(L2, add.stdout))).toEqual(
      goErr('Error: Container interface eth0 not of type macvlan'),
    );
  });
});

describe('macvlan (v1.1.1) ADD and DEL', () => {
  it('L2: the result has only the interface; the link has txqueuelen 0, as ip shows', () => {
    const h = node();
    const n = new Norm();
    addL2(h, n);
    const mac = podLinks(h)[1]!.mac;
    expect(sh(h, `ip -n ${POD_A} -d link show eth0`).replace(mac, '<mac:1>')).toBe(
      '2: eth0@if3: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default \n' +
        '    link/ether <mac:1> brd ff:ff:ff:ff:ff:ff link-netnsid 0 promiscuity 0  allmulti 0 minmtu 68 maxmtu 65535 \n' +
        '    macvlan mode bridge bcqueuelen 1000 usedbcqueuelen 1000 addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 tso_max_size 524280 tso_max_segs 65535 gro_max_size 65536 \n',
    );
    expect(sh(h, 'ip link show eth0')).toContain('eth0@uplink:');
    expect(sh(h, 'ip link show eth0 | head -1')).toBe(
      '3: eth0@uplink: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen 1000\n',
    );
    const master = K.linkByName(tget(h.kernel.netns, h.kernel.root)!, 'eth0')!;
    expect(master.promisc).toBe(1);
  });

  it('MACs the kernel refuses: 8 bytes (EINVAL), multicast (EADDRNOTAVAIL); nothing is left', () => {
    const h = node();
    expect(runPlugin(h, 'macvlan', 'ADD', {}, conf({ mac: '02:42:c0:a8:32:0b:00:01' }))).toEqual(
      goErr('failed to create macvlan: invalid argument'),
    );
    expect(
      runPlugin(h, 'macvlan', 'ADD', { ifname: 'net1' }, conf({ mac: '03:42:c0:a8:32:0b' })),
    ).toEqual(goErr('failed to create macvlan: cannot assign requested address'));
    expect(podLinks(h).map((l) => l.name)).toEqual(['lo']);
  });

  it('a netns path that is no namespace: ADD prints the nil NetNS, DEL returns the error', () => {
    const h = node();
    expect(runPlugin(h, 'macvlan', 'ADD', { netns: '/tmp' }, L2)).toEqual(
      goErr('failed to open netns %!q(<nil>): unknown FS magic on "/tmp": ef53'),
    );
    expect(runPlugin(h, 'macvlan', 'DEL', { netns: '/tmp' }, L2)).toEqual(
      goErr('unknown FS magic on "/tmp": ef53'),
    );
  });

  it('the master down: ADD succeeds, the macvlan is up without carrier (state DOWN)', () => {
    const h = node();
    sh(h, 'ip link set eth0 down');
    expect(runPlugin(h, 'macvlan', 'ADD', { ifname: 'net3' }, L2).exitCode).toBe(0);
    expect(sh(h, `ip -n ${POD_A} link show net3 | head -1`)).toBe(
      '2: net3@if3: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 qdisc noqueue state DOWN mode DEFAULT group default \n',
    );
  });

  it('other builds do not model it: only VERSION', () => {
    const h = node('v1.6.2');
    expect(runPlugin(h, 'macvlan', 'ADD', {}, L2).stdout).toContain(
      'cnisim does not model the macvlan plugin',
    );
  });
});

describe('kernel macvlan', () => {
  it('follows the lower MTU down, cannot go above it, and goes with the lower', () => {
    const h = node();
    expect(runPlugin(h, 'macvlan', 'ADD', {}, L2).exitCode).toBe(0);
    sh(h, 'ip link set eth0 mtu 1400');
    expect(podLinks(h)[1]!.mtu).toBe(1400);
    const r = new Shell(h.sim, h.node, { actor: 'recorder' }).run(
      `ip -n ${POD_A} link set eth0 mtu 1450`,
    );
    expect(r.stderr).toBe('RTNETLINK answers: Invalid argument\n');
    sh(h, 'ip link del eth0');
    expect(podLinks(h).map((l) => l.name)).toEqual(['lo']);
  });

  it('a macvlan on a macvlan is made on its lower device; lo cannot be one', () => {
    const h = node();
    expect(runPlugin(h, 'macvlan', 'ADD', {}, L2).exitCode).toBe(0);
    const add = (name: string, lower: string) =>
      kernelOp(h, (k, rnd) => {
        const id = tget(k.mounts, NS_A)!;
        const l = K.linkByName(tget(k.netns, id)!, lower)!;
        K.linkAdd(
          k,
          id,
          { kind: 'macvlan', name, mode: 'vepa', lowerNs: id, lower: l.ifindex },
          rnd,
        );
      });
    add('mv1', 'eth0');
    expect(podLinks(h)[2]!.macvlan).toEqual({
      mode: 'vepa',
      lower: { ns: h.kernel.root, ifindex: 3 },
    });
    expect(sh(h, `ip -n ${POD_A} link show mv1 | head -1`)).toMatch(/^3: mv1@if3: /);
    expect(() => add('mv2', 'lo')).toThrow('invalid argument');
  });

  it('passthru takes the lower MAC and is alone on its lower; promiscuity goes with the last one', () => {
    const h = node();
    const pass = runPlugin(h, 'macvlan', 'ADD', {}, conf({ mode: 'passthru' }));
    expect(pass.exitCode).toBe(0);
    const root = () => tget(h.kernel.netns, h.kernel.root)!;
    expect(podLinks(h)[1]!.mac).toBe(K.linkByName(root(), 'eth0')!.mac);
    expect(runPlugin(h, 'macvlan', 'ADD', { ifname: 'net1' }, L2)).toEqual(
      goErr('failed to create macvlan: invalid argument'),
    );
    expect(K.linkByName(root(), 'eth0')!.promisc).toBe(1);
    expect(runPlugin(h, 'macvlan', 'DEL', {}, conf({ mode: 'passthru' }))).toEqual(OK);
    expect(K.linkByName(root(), 'eth0')!.promisc).toBe(0);
    expect(K.linkByName(root(), 'eth0')!.macvlanPort).toBeUndefined();
  });
});

describe('ip link add ... type macvlan (iproute2 6.1, checked in namespaces)', () => {
  const run = (h: Harness, line: string) => {
    const r = new Shell(h.sim, h.node, { actor: 'recorder' }).run(line);
    return { exitCode: r.exitCode, stderr: r.stderr };
  };

  it('needs a link; checks the mode and the options; vepa by default, named macvlanN', () => {
    const h = node();
    expect(run(h, 'ip link add mv0 type macvlan')).toEqual({
      exitCode: 2,
      stderr: 'RTNETLINK answers: Invalid argument\n',
    });
    expect(run(h, 'ip link add mv0 link eth0 type macvlan mode foo')).toEqual({
      exitCode: 1,
      stderr:
        'Error: argument of "mode" must be "private", "vepa", "bridge", "passthru" or "source", not "foo"\n',
    });
    expect(run(h, 'ip link add mv0 link eth0 type macvlan mode')).toEqual({
      exitCode: 255,
      stderr: 'Command line is not complete. Try option "help"\n',
    });
    expect(run(h, 'ip link add mv0 link eth0 type macvlan bar').stderr).toMatch(
      /^macvlan: unknown option "bar"\?\nUsage: \.\.\. macvlan mode MODE /,
    );
    expect(run(h, 'ip link add mv0 link nosuch type macvlan')).toEqual({
      exitCode: 1,
      stderr: 'Cannot find device "nosuch"\n',
    });
    expect(run(h, 'ip link add mv0 link eth0 mtu 1600 type macvlan').exitCode).toBe(2);
    expect(run(h, 'ip link add mv3 link lo type macvlan').exitCode).toBe(2);
    expect(run(h, 'ip link add mv0 link eth0 type macvlan')).toEqual({ exitCode: 0, stderr: '' });
    expect(run(h, 'ip link add link eth0 type macvlan')).toEqual({ exitCode: 0, stderr: '' });
    expect(sh(h, 'ip -d link show macvlan0')).toContain('macvlan mode vepa bcqueuelen 1000');
    expect(sh(h, 'ip link show mv0 | head -1')).toMatch(/^\d+: mv0@eth0: <BROADCAST,MULTICAST> /);
    expect(run(h, 'ip link add mv5 link eth0 type macvlan mode passthru').exitCode).toBe(2);
    sh(h, 'ip link set eth0 down');
    expect(sh(h, 'ip link show mv0 | head -1')).toMatch(
      /^\d+: mv0@eth0: <BROADCAST,MULTICAST,M-DOWN> mtu 1500 qdisc noop state DOWN /,
    );
  });

  it('into another namespace: the lower is looked up where ip runs', () => {
    const h = node();
    sh(h, `ip link add mv2 link eth0 netns ${POD_A} type macvlan mode private`);
    expect(sh(h, `ip -n ${POD_A} link show mv2`)).toMatch(
      /^2: mv2@if3: <BROADCAST,MULTICAST> mtu 1500 qdisc noop state DOWN mode DEFAULT group default qlen 1000\n {4}link\/ether \S+ brd ff:ff:ff:ff:ff:ff link-netnsid 0\n$/,
    );
  });
});
