/**
 * The commands' answers, spelled out: each expected string is what the real tool printed on
 * Debian bookworm (iproute2 6.1.0, kernel 6.18, procps-ng 4.0.2, coreutils 9.1, sed 4.9, jq 1.6)
 * for the same command in a throw-away network namespace set up the same way. golden.test.ts
 * replays the full recording; this file keeps the essential cases readable.
 */
import { describe, expect, it } from 'vitest';
import * as K from '../kernel/kernel';
import { addNode, netnsAdd } from '../node/setup';
import { Simulation, newWorld } from '../sim/world';
import { IP_LINK_BRIDGE_USAGE } from './commands/usage';
import { Shell } from './shell';
import { tget } from '../state/table';

function node() {
  const sim = new Simulation(addNode(newWorld(1), { name: 'node', plugins: ['bridge'] }));
  netnsAdd(sim, 'node', '/var/run/netns/t');
  netnsAdd(sim, 'node', '/var/run/netns/u');
  const sh = new Shell(sim, 'node');
  // The namespace the cases run in: br0 (up, 10.1.0.1/24, fd00:1::1/64) with port ve0 (peer ve1),
  // vd (down, 10.9.0.1/24) with peer vd2.
  for (const line of [
    'ip -n t link add br0 type bridge && ip -n t link set br0 up && ip -n t addr add 10.1.0.1/24 dev br0 && ip -n t addr add fd00:1::1/64 dev br0 nodad',
    'ip -n t link add ve0 type veth peer name ve1 && ip -n t link set ve0 master br0 && ip -n t link set ve0 up && ip -n t link set ve1 up',
    'ip -n t link add vd type veth peer name vd2 && ip -n t addr add 10.9.0.1/24 dev vd',
  ]) {
    expect(sh.run(line).exitCode).toBe(0);
  }
  const t = () => {
    const k = sim.node('node').kernel;
    return tget(k.netns, tget(k.mounts, '/var/run/netns/t')!)!;
  };
  return {
    sim,
    sh,
    t,
    run: (line: string) => sh.run(`ip netns exec t bash -c '${line.replace(/'/g, `'\\''`)}'`),
  };
}

type Row = [command: string, stderr: string, exitCode: number];

function table(rows: Row[]) {
  for (const [cmd, stderr, code] of rows) {
    it(cmd, () => {
      const r = node().run(cmd);
      expect({ stderr: r.stderr, exitCode: r.exitCode }).toEqual({ stderr, exitCode: code });
    });
  }
}

describe('ip link', () => {
  table([
    ['ip link add br1 type bridge', '', 0],
    ['ip link add br0 type bridge', 'RTNETLINK answers: File exists\n', 2],
    ['ip link add br1', 'Not enough information: "type" argument is required\n', 1],
    ['ip link add b2 type foo', 'Error: Unknown device type.\n', 2],
    ['ip link add b2 mtu 10 type bridge', 'Error: mtu less than device minimum.\n', 2],
    ['ip link add b2 mtu 70000 type bridge', 'Error: mtu greater than device maximum.\n', 2],
    [
      'ip link add b2 mtu abc type bridge',
      'Error: argument "abc" is wrong: Invalid "mtu" value\n\n',
      255,
    ],
    [
      'ip link add b2 address 01:00:00:00:00:01 type bridge',
      'RTNETLINK answers: Cannot assign requested address\n',
      2,
    ],
    ['ip link add b2 address zz type bridge', '"zz" is invalid lladdr.\n', 1],
    [
      'ip link add a/b type bridge',
      'Error: argument "a/b" is wrong: "dev" not a valid ifname\n',
      255,
    ],
    ['ip link add a:b type bridge', 'RTNETLINK answers: Invalid argument\n', 2],
    ['ip link add 0123456789abcdef type bridge', 'Error: Attribute failed policy validation.\n', 2],
    [
      'ip link add name 0123456789abcdefg type bridge',
      'Error: argument "0123456789abcdefg" is wrong: "name" not a valid ifname\n',
      255,
    ],
    [
      'ip link add b5 type bridge extra',
      `bridge: unknown command "extra"?\n${IP_LINK_BRIDGE_USAGE}`,
      1,
    ],
    ['ip link add x1 type veth peer name ve1', 'RTNETLINK answers: File exists\n', 2],
    [
      'ip link add x1 type veth peer name x2 netns nope',
      'Error: argument "nope" is wrong: Invalid "netns" value\n\n',
      255,
    ],
    [
      'ip link add b6 mtu 1400 mtu 1300 type bridge',
      'Error: duplicate "mtu": "1300" is the second value.\n',
      255,
    ],
    ['ip link add a type bridge', '"type" is invalid lladdr.\n', 1],
    [
      'ip link add t type bridge',
      'Error: argument "type" is wrong: Invalid "txqueuelen" value\n\n',
      255,
    ],
    ['ip link del nope', 'Cannot find device "nope"\n', 1],
    ['ip link del lo', 'RTNETLINK answers: Operation not supported\n', 2],
    ['ip link del', 'Not enough information: "dev" argument is required.\n', 255],
    ['ip link set nope up', 'Cannot find device "nope"\n', 1],
    ['ip link set br0 mtu 10', 'Error: mtu less than device minimum.\n', 2],
    ['ip link set ve0 mtu 70000', 'Error: mtu greater than device maximum.\n', 2],
    // lo has no MTU bounds (min_mtu 0, max_mtu 0 in `ip -d link` on the recording kernel)
    ['ip link set lo mtu 70000', '', 0],
    ['ip link set br0 address 02:00:00:00:00', 'Invalid address length 5 - must be 6 bytes\n', 1],
    [
      'ip link set vd master nope',
      'Error: argument "nope" is wrong: Device does not exist\n\n',
      255,
    ],
    ['ip link set vd master ve0', 'RTNETLINK answers: Operation not supported\n', 2],
    ['ip link set br0 master br0', 'Error: Can not enslave a bridge to a bridge.\n', 2],
    ['ip link set lo master br0', 'RTNETLINK answers: Invalid argument\n', 2],
    ['ip link set vd name ve1', 'RTNETLINK answers: File exists\n', 2],
    [
      'ip link set vd promisc maybe',
      'Error: argument of "promisc" must be "on" or "off", not "maybe"\n',
      1,
    ],
    ['ip link set br0 netns u', 'Error: The interface netns is immutable.\n', 2],
    ['ip link set vd foo', 'Error: either "dev" is duplicate, or "foo" is a garbage.\n', 255],
    ['ip link set vd mtu', 'Command line is not complete. Try option "help"\n', 255],
    ['ip link foo', 'Command "foo" is unknown, try "ip link help".\n', 255],
  ]);

  it('add/set apply what they say, in the kernel order (netns first, then name)', () => {
    const { run, sim, t } = node();
    expect(
      run('ip link add x1 mtu 9000 type veth peer name x2 mtu 1400 address 02:00:00:00:00:08')
        .exitCode,
    ).toBe(0);
    expect(K.linkByName(t(), 'x1')!.mtu).toBe(9000);
    expect(K.linkByName(t(), 'x2')!).toMatchObject({ mtu: 1400, mac: '02:00:00:00:00:08' });
    expect(run('ip link set x2 netns u name qq').exitCode).toBe(0);
    const k = sim.node('node').kernel;
    expect(K.linkByName(tget(k.netns, tget(k.mounts, '/var/run/netns/u')!)!, 'qq')).toBeDefined();
    expect(run('ip link set vd up master br0').exitCode).toBe(0);
    expect(K.linkByName(t(), 'vd')).toMatchObject({
      adminUp: true,
      master: K.linkByName(t(), 'br0')!.ifindex,
    });
    expect(run('ip link add type bridge').exitCode).toBe(0);
    expect(K.linkByName(t(), 'bridge0')).toBeDefined();
  });
});

describe('ip address', () => {
  table([
    ['ip addr add 10.1.0.1/24 dev br0', 'Error: ipv4: Address already assigned.\n', 2],
    ['ip addr add 10.1.0.1/25 dev br0', '', 0],
    ['ip addr add 10.1.0.9/24 dev br0 scope link', 'Error: ipv4: Invalid scope value.\n', 2],
    ['ip addr add 10.1.0.1/24 dev nope', 'Cannot find device "nope"\n', 1],
    ['ip addr add 10.1.0.1/24', 'Not enough information: "dev" argument is required.\n', 1],
    [
      'ip addr add foo/24 dev br0',
      'Error: any valid prefix is expected rather than "foo/24".\n',
      1,
    ],
    ['ip addr add fd00:1::1/64 dev br0 nodad', 'Error: ipv6: address already assigned.\n', 2],
    [
      'ip addr add 10.1.0.5/24 dev br0 nodad',
      'Warning: nodad option can be set only for IPv6 addresses\n',
      0,
    ],
    [
      'ip addr add 10.7.0.7/24 dev br0 scope foo',
      'Error: argument "foo" is wrong: invalid scope value.\n',
      255,
    ],
    [
      'ip -4 addr add fd00::9/64 dev br0',
      'Error: inet prefix is expected rather than "fd00::9/64".\n',
      1,
    ],
    ['ip addr del 10.1.0.99/24 dev br0', 'Error: ipv4: Address not found.\n', 2],
    ['ip addr del fd00:1::99/64 dev br0', 'Error: ipv6: address not found.\n', 2],
    ['ip addr del 10.1.0.1/24 dev br0', '', 0],
    [
      'ip addr del 10.1.0.1 dev br0',
      'Warning: Executing wildcard deletion to stay compatible with old scripts.\n         Explicitly specify the prefix length (10.1.0.1/32) to avoid this warning.\n         This special behaviour is likely to disappear in further releases,\n         fix your scripts!\n',
      0,
    ],
    [
      'ip addr add 10.7.9.2/24 brd foo dev br0',
      'Error: inet address is expected rather than "foo".\n',
      1,
    ],
    [
      'sysctl -q -w net.ipv6.conf.br0.disable_ipv6=1; ip addr add fd00:77::1/64 dev br0',
      'Error: ipv6: IPv6 is disabled on this device.\n',
      2,
    ],
  ]);

  it('adds with the broadcast asked for, scope host for 127.x', () => {
    const { run, t } = node();
    run(
      'ip addr add 10.1.0.3/24 brd + dev br0; ip addr add 10.2.0.4/16 broadcast 10.2.9.9 dev br0; ip addr add 127.0.0.5/8 dev br0',
    );
    const addrs = K.linkByName(t(), 'br0')!.addrs;
    expect(addrs.find((a) => a.local === '10.1.0.3')!.broadcast).toBe('10.1.0.255');
    expect(addrs.find((a) => a.local === '10.2.0.4')!.broadcast).toBe('10.2.9.9');
    expect(addrs.find((a) => a.local === '10.1.0.1')!.broadcast).toBeNull();
    expect(addrs.find((a) => a.local === '127.0.0.5')!.scope).toBe('host');
  });
});

describe('ip address flush', () => {
  // Checked against iproute2 6.1 in a throw-away namespace: exit 0 and no output when a primary
  // took its secondary; the fe80::/64 route goes with the last link-local address.
  it('deletes the addresses the filter picks; a primary takes its secondaries with it', () => {
    const { run, t } = node();
    const r = run(
      'ip addr add 10.1.0.7/24 dev br0 && ip addr add 10.3.0.1/16 dev br0 && ip -4 addr flush dev br0',
    );
    expect(r).toMatchObject({ stderr: '', exitCode: 0 });
    const addrs = K.linkByName(t(), 'br0')!.addrs.map((a) => `${a.local}/${a.prefix}`);
    expect(addrs).toEqual(['fd00:1::1/64', expect.stringMatching(/^fe80::/)]);
    expect(run('ip addr flush br0 scope link').exitCode).toBe(0);
    expect(K.linkByName(t(), 'br0')!.addrs.map((a) => a.local)).toEqual(['fd00:1::1']);
    expect(
      t().routes.some((x) => x.dst === 'fe80::' && x.dev === K.linkByName(t(), 'br0')!.ifindex),
    ).toBe(false);
  });
  table([
    ['ip addr flush', 'Flush requires arguments.\n', 1],
    ['ip addr flush dev nope', 'Device "nope" does not exist.\n', 1],
    ['ip addr flush dev vd2', '', 0],
    ['ip addr flush dev br0 scope foo', 'Error: argument "foo" is wrong: invalid "scope"\n', 255],
  ]);
});

describe('ip route flush', () => {
  // Checked against iproute2 6.1 in a throw-away namespace: without -6 only IPv4 routes go, the
  // connected one included; -6 takes every IPv6 route of the device, fe80::/64 included.
  it('flushes the main-table routes of one family through the device', () => {
    const { run, t } = node();
    const br0 = () => K.linkByName(t(), 'br0')!.ifindex;
    expect(run('ip route add 10.9.0.0/16 via 10.1.0.254 && ip route flush dev br0')).toMatchObject({
      stderr: '',
      exitCode: 0,
    });
    const left = () => t().routes.filter((r) => r.dev === br0());
    expect(left().map((r) => r.family)).toEqual(left().map(() => 6));
    expect(left().length).toBeGreaterThan(0);
    expect(run('ip -6 route flush dev br0').exitCode).toBe(0);
    expect(left()).toEqual([]);
  });
  table([
    ['ip route flush', '"ip route flush" requires arguments.\n', 1],
    ['ip route flush dev nope', 'Cannot find device "nope"\n', 1],
  ]);
});

describe('ip route', () => {
  table([
    ['ip route add 10.50.0.0/16 via 10.1.0.99', '', 0],
    [
      'ip route add 10.50.0.0/16 via 10.1.0.99; ip route add 10.50.0.0/16 via 10.1.0.99',
      'RTNETLINK answers: File exists\n',
      2,
    ],
    ['ip route add 10.51.0.0/16 via 10.77.0.1', 'Error: Nexthop has invalid gateway.\n', 2],
    ['ip route add 10.52.0.0/16 dev vd', 'Error: Device for nexthop is not up.\n', 2],
    ['ip route add 10.53.0.0/16 dev nope', 'Cannot find device "nope"\n', 1],
    ['ip route add 10.54.0.1/16 dev br0', 'Error: Invalid prefix for given prefix length.\n', 2],
    ['ip route del default', 'RTNETLINK answers: No such process\n', 2],
    ['ip -6 route del default', 'RTNETLINK answers: No such file or directory\n', 2],
    ['ip route add 10.55.0.0/16', 'RTNETLINK answers: No such device\n', 2],
    [
      'ip route add 10.58.0.0/16 dev br0 metric x',
      'Error: argument "x" is wrong: "metric" value is invalid\n\n',
      255,
    ],
    ['ip route add 10.62.0.0/16 dev br0 src 10.200.0.1', 'Error: Invalid prefsrc address.\n', 2],
    ['ip route add fd00:5::/64 via fd00:9::1', 'RTNETLINK answers: No route to host\n', 2],
    ['ip route add fd00:6::/64 dev vd', 'Error: Nexthop device is not up.\n', 2],
    [
      'ip route add 10.73.0.0/16 dev br0 proto foo',
      'Error: argument "foo" is wrong: "protocol" value is invalid\n\n',
      255,
    ],
    ['ip route change 10.79.0.0/16 dev br0', 'RTNETLINK answers: No such file or directory\n', 2],
    [
      'ip route add 10.62.0.0/16 via 10.1.0.2 dev br0 scope host',
      'Error: Route with host scope can not have a gateway.\n',
      2,
    ],
    ['ip route add 10.63.0.0/16 dev vd scope host', '', 0],
    ['ip route add 10.64.0.0/16 via 10.1.0.255', 'Error: Nexthop has invalid gateway.\n', 2],
    ['ip route add 10.65.0.0/16 via 10.9.0.1', 'RTNETLINK answers: Network is down\n', 2],
    ['ip route add 10.66.0.0/16 dev br0 src 10.9.0.1', '', 0],
    ['ip route replace 10.67.0.0/16 dev vd', 'Error: Device for nexthop is not up.\n', 2],
    ['ip -6 route add 2001:db8::/64 via fe80::1', 'Error: Egress device not specified.\n', 2],
    [
      'ip -6 route change 2001:db8:1::/64 dev br0',
      'Error: Can not replace route - no match found.\n',
      2,
    ],
    [
      'ip -6 route add fd00:7::/64 via fd00:1::1',
      'Error: Gateway can not be a local address.\n',
      2,
    ],
    ['ip route foo', 'Command "foo" is unknown, try "ip route help".\n', 255],
  ]);

  it('replace, append and del pick the routes the kernel picks', () => {
    const { run, t } = node();
    const routes = () =>
      t()
        .routes.filter((r) => r.origin === 'user')
        .map((r) => `${r.dst}/${r.prefix} ${r.gateway ?? '-'} ${r.metric}`);
    run('ip route add default via 10.1.0.2; ip route replace default via 10.1.0.3');
    expect(routes()).toEqual(['0.0.0.0/0 10.1.0.3 0']);
    run(
      'ip route add 10.57.0.0/16 dev br0 metric 200; ip route add 10.57.0.0/16 dev br0 metric 100; ip route del 10.57.0.0/16',
    );
    expect(routes()).toEqual(['0.0.0.0/0 10.1.0.3 0', '10.57.0.0/16 - 200']);
    run('ip route add fd00:8::1/64 dev br0');
    expect(
      t().routes.some((r) => r.dst === 'fd00:8::' && r.prefix === 64 && r.metric === 1024),
    ).toBe(true);
  });
});

describe('ip netns and global options', () => {
  it.each([
    [
      'ip -n nope link add x type bridge',
      'Cannot open network namespace "nope": No such file or directory\n',
      255,
    ],
    ['ip -n', 'Cannot open network namespace "(null)": No such file or directory\n', 255],
    ['ip -x link', 'Option "-x" is unknown, try "ip -help".\n', 255],
    ['ip foo', 'Object "foo" is unknown, try "ip help".\n', 1],
    [
      'ip netns exec nope true',
      'Cannot open network namespace "nope": No such file or directory\n',
      255,
    ],
    ['ip netns exec u', 'No command specified\n', 1],
    ['ip netns exec', 'No netns name specified\n', 1],
    ['ip netns add', 'No netns name specified\n', 1],
    ['ip netns add a/b', 'Invalid netns name "a/b"\n', 255],
    ['ip netns add u', 'Cannot create namespace file "/run/netns/u": File exists\n', 1],
    [
      'ip netns del nope',
      'Cannot remove namespace file "/run/netns/nope": No such file or directory\n',
      1,
    ],
    ['ip netns foo', 'Command "foo" is unknown, try "ip netns help".\n', 255],
  ])('%s', (cmd, stderr, code) => {
    const r = node().sh.run(cmd);
    expect({ stderr: r.stderr, exitCode: r.exitCode }).toEqual({ stderr, exitCode: code });
  });

  it('ip -V', () =>
    expect(node().sh.run('ip -V').stdout).toBe('ip utility, iproute2-6.1.0, libbpf 1.1.2\n'));
  it('ip netns exec passes the status through', () =>
    expect(node().sh.run("ip netns exec u sh -c 'exit 7'").exitCode).toBe(7));
  it('ip prints its usage', () =>
    expect(node().sh.run('ip').stderr).toMatch(
      /^Usage: ip \[ OPTIONS \] OBJECT \{ COMMAND \| help \}\n/,
    ));
  it('what ip does not simulate says so', () => {
    expect(node().sh.run('ip route get 10.1.0.1')).toMatchObject({
      stderr: 'cnisim: ip: route get: not simulated\n',
      exitCode: 2,
    });
    expect(node().sh.run('ip -s route show')).toMatchObject({
      stderr: 'cnisim: ip: -s (statistics of this object): not simulated\n',
      exitCode: 2,
    });
  });
});

describe('sysctl', () => {
  it.each([
    ['sysctl net.ipv4.ip_forward', 'net.ipv4.ip_forward = 0\n', '', 0],
    ['sysctl -w net.ipv4.ip_forward=1', 'net.ipv4.ip_forward = 1\n', '', 0],
    ['sysctl -q -w net.ipv4.ip_forward=0', '', '', 0],
    ['sysctl -n net.ipv4.ip_forward', '0\n', '', 0],
    ['sysctl net/ipv4/ip_forward', 'net.ipv4.ip_forward = 0\n', '', 0],
    ["sysctl -w 'net.ipv4.ip_forward = 1'", 'net.ipv4.ip_forward = 1\n', '', 0],
    [
      'sysctl net.ipv4.nope',
      '',
      'sysctl: cannot stat /proc/sys/net/ipv4/nope: No such file or directory\n',
      1,
    ],
    [
      'sysctl -w net.ipv4.ip_forward=abc',
      '',
      'sysctl: setting key "net.ipv4.ip_forward": Invalid argument\n',
      1,
    ],
    [
      'sysctl -w net.ipv4.ip_forward',
      '',
      'sysctl: command line(0): invalid syntax, continuing...\n',
      1,
    ],
    [
      'sysctl -w net.ipv4.conf.nope.arp_ignore=2',
      '',
      'sysctl: cannot stat /proc/sys/net/ipv4/conf/nope/arp_ignore: No such file or directory\n',
      1,
    ],
    [
      'sysctl -x',
      '',
      "sysctl: no variables specified\nTry `sysctl --help' for more information.\n",
      1,
    ],
    ['sysctl -e net.ipv4.nope', '', '', 0],
  ])('%s', (cmd, stdout, stderr, code) => {
    const r = node().run(cmd);
    expect({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }).toEqual({
      stdout,
      stderr,
      exitCode: code,
    });
  });
});

describe('text and file commands', () => {
  it.each([
    ["printf '%s-%s\\n' a b c", 'a-b\nc-\n', '', 0],
    ["printf '%d\\n' 12 x 3", '12\n0\n3\n', 'bash: line 1: printf: x: invalid number\n', 1],
    ["printf '%5s|%-5s|%05d\\n' ab cd 42", '   ab|cd   |00042\n', '', 0],
    ['printf', '', 'printf: usage: printf [-v var] format [arguments]\n', 2],
    ["echo -e 'a\\tb'", 'a\tb\n', '', 0],
    ['[ 1 -lt x ]', '', 'bash: line 1: [: x: integer expression expected\n', 2],
    ['[ a', '', "bash: line 1: [: missing `]'\n", 2],
    ['cat nope', '', 'cat: nope: No such file or directory\n', 1],
    ['rm /tmp', '', "rm: cannot remove '/tmp': Is a directory\n", 1],
    ['rm', '', "rm: missing operand\nTry 'rm --help' for more information.\n", 1],
    ['mv nope x', '', "mv: cannot stat 'nope': No such file or directory\n", 1],
    ['cp /tmp x', '', "cp: -r not specified; omitting directory '/tmp'\n", 1],
    ['mkdir /tmp', '', 'mkdir: cannot create directory ‘/tmp’: File exists\n', 1],
    ['mkdir /a/b', '', 'mkdir: cannot create directory ‘/a/b’: No such file or directory\n', 1],
    ['touch /a/b', '', "touch: cannot touch '/a/b': No such file or directory\n", 1],
    ['truncate -s x /tmp/f', '', 'truncate: Invalid number: ‘x’\n', 1],
    [
      'truncate /tmp/f',
      '',
      "truncate: you must specify either ‘--size’ or ‘--reference’\nTry 'truncate --help' for more information.\n",
      1,
    ],
    ["sed 's/a/b' /tmp/f", '', "sed: -e expression #1, char 5: unterminated `s' command\n", 1],
    ['sed k', '', "sed: -e expression #1, char 1: unknown command: `k'\n", 1],
    ['sed s/a/b/ nope', '', "sed: can't read nope: No such file or directory\n", 2],
    ['jq .a nope', '', 'jq: error: Could not open file nope: No such file or directory\n', 2],
    ["echo '[1]' | jq .a", '', 'jq: error (at <stdin>:1): Cannot index array with string "a"\n', 5],
    [
      'printf \'{"a":1\' | jq .',
      '',
      'parse error: Unfinished JSON term at EOF at line 1, column 6\n',
      4,
    ],
    ['echo 1e17 | jq .', '1e+17\n', '', 0],
    [
      'sleep x',
      '',
      "sleep: invalid time interval ‘x’\nTry 'sleep --help' for more information.\n",
      1,
    ],
    ['echo hi > /nodir/x', '', 'bash: line 1: /nodir/x: No such file or directory\n', 1],
  ])('%s', (cmd, stdout, stderr, code) => {
    const r = node().sh.run(`bash -c '${cmd.replace(/'/g, `'\\''`)}'`);
    expect({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }).toEqual({
      stdout,
      stderr,
      exitCode: code,
    });
  });
});
