import { describe, expect, it } from 'vitest';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import { addNode, netnsAdd } from '../node/setup';
import { Simulation, newWorld } from '../sim/world';
import type { TraceEvent } from '../trace/trace';
import { Shell } from './shell';
import type { CommandSpec } from './types';
import { tget } from '../state/table';

function setup(opts: ConstructorParameters<typeof Shell>[2] = {}) {
  const sim = new Simulation(
    addNode(newWorld(1), { name: 'node', plugins: ['bridge', 'host-local', 'loopback'] }),
  );
  netnsAdd(sim, 'node', '/var/run/netns/pod-a');
  const sh = new Shell(sim, 'node', opts);
  /** Runs a line; returns its result and the events it recorded. */
  const run = (line: string, stdin?: string) => {
    const before = sim.events.length;
    const r = sh.run(line, stdin === undefined ? {} : { stdin });
    return { ...r, events: sim.events.slice(before) as TraceEvent[] };
  };
  const kernel = () => sim.node('node').kernel;
  const ns = (name?: string) => {
    const k = kernel();
    return tget(k.netns, name ? tget(k.mounts, `/var/run/netns/${name}`)! : k.root)!;
  };
  const file = (p: string) => {
    const e = vfs.stat(sim.node('node').fs, p);
    return e?.kind === 'file' ? e.data : undefined;
  };
  return { sim, sh, run, kernel, ns, file };
}

describe('trace: one event per state-changing command', () => {
  it('records one env event per changing command of a line, with the command as its summary', () => {
    const { run } = setup({ hostNetnsAliases: ['node'] });
    const r = run(
      'ip -n node link add cni0 type bridge && ip -n node addr add 10.22.0.99/24 dev cni0 && ip -n node link set cni0 up',
    );
    expect(r.exitCode).toBe(0);
    expect(r.events.map((e) => [e.kind, e.source, e.target, e.level, e.summary])).toEqual([
      ['env', 'shell', 'kernel', 'kernel', 'ip -n node link add cni0 type bridge'],
      ['env', 'shell', 'kernel', 'kernel', 'ip -n node addr add 10.22.0.99/24 dev cni0'],
      ['env', 'shell', 'kernel', 'kernel', 'ip -n node link set cni0 up'],
    ]);
    expect(r.events[0]!.node).toBe('node');
    expect(r.events[0]!.payload).toMatchObject({
      command: 'ip -n node link add cni0 type bridge',
      exitCode: 0,
    });
  });

  it('records nothing for reads, no-ops and failures', () => {
    const { run } = setup();
    const reads = [
      'echo hi',
      'sysctl net.ipv4.ip_forward',
      'cat /etc/cni/net.d/none',
      'true',
      'false',
      'ip link add lo type bridge',
      'ip link set lo up',
      'ip route del 10.0.0.0/8',
      'foo',
      'x=1',
      'test -d /tmp',
      'sleep 1',
      'ip netns list',
      'rm -f /nope',
    ];
    for (const line of reads) expect(run(line).events, line).toEqual([]);
  });

  it('one event for a pipeline part that writes, one for a redirection with its command', () => {
    const { run, file } = setup();
    const r = run('echo \'{"result":{"a":1}}\' | jq -c .result > /tmp/r && mv /tmp/r /tmp/s');
    expect(r.events.map((e) => [e.target, e.summary])).toEqual([
      ['fs', 'jq -c .result > /tmp/r'],
      ['fs', 'mv /tmp/r /tmp/s'],
    ]);
    expect(file('/tmp/s')).toBe('{"a":1}\n');
  });

  it('summarises a command with its variables expanded', () => {
    const { run, file } = setup();
    const r = run(
      "mkdir -p /tmp/d/small; for ip in 10.22.0.2 10.22.0.3; do printf 'other\\r\\neth0' > /tmp/d/small/$ip; done",
    );
    expect(r.events.map((e) => e.summary)).toEqual([
      'mkdir -p /tmp/d/small',
      "printf 'other\\r\\neth0' > /tmp/d/small/10.22.0.2",
      "printf 'other\\r\\neth0' > /tmp/d/small/10.22.0.3",
    ]);
    expect(file('/tmp/d/small/10.22.0.3')).toBe('other\r\neth0');
    expect(r.events[1]!.payload).toMatchObject({
      source: "printf 'other\\r\\neth0' > /tmp/d/small/$ip",
    });
  });

  it('a command run by another (ip netns exec, bash -c) is part of its event', () => {
    const { run, ns } = setup();
    const r = run(
      "ip netns exec pod-a bash -c 'ip link set lo up; sysctl -q -w net.ipv4.conf.lo.arp_ignore=2'",
    );
    expect(r.events.map((e) => e.summary)).toEqual([
      "ip netns exec pod-a bash -c 'ip link set lo up; sysctl -q -w net.ipv4.conf.lo.arp_ignore=2'",
    ]);
    expect(K.linkByName(ns('pod-a'), 'lo')!.adminUp).toBe(true);
  });

  it('a partly failing command records what it did, with its status', () => {
    const { run } = setup();
    run('touch /tmp/a');
    const r = run('rm /tmp/a /tmp/b');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe("rm: cannot remove '/tmp/b': No such file or directory\n");
    expect(r.events).toHaveLength(1);
    expect(r.events[0]!.payload).toMatchObject({
      exitCode: 1,
      stderr: "rm: cannot remove '/tmp/b': No such file or directory\n",
    });
  });

  it('uses the actor and parent it is given; `ip netns` changes are kernel events', () => {
    const { run } = setup({ actor: 'recorder', parentSeq: 0 });
    const r = run('ip netns add pod-b');
    expect(r.events.map((e) => [e.source, e.target, e.parent])).toEqual([
      ['recorder', 'kernel', 0],
    ]);
  });

  it('output redirections truncate first, like bash (`cmd f > f` reads an empty file)', () => {
    const { run, file } = setup();
    run("printf 'abc' > /tmp/f");
    const r = run('cat /tmp/f > /tmp/f');
    expect(r.events).toHaveLength(1);
    expect(file('/tmp/f')).toBe('');
  });
});

describe('time', () => {
  it('sleep advances the virtual clock and lets linkwatch run, with no event', () => {
    const { run, sim } = setup();
    const t0 = sim.state.clock;
    const r = run('sleep 3');
    expect(r.events).toEqual([]);
    expect(sim.state.clock - t0).toBe(3_000_000);
    run('sleep 0.5s 1m');
    expect(sim.state.clock - t0).toBe(3_000_000 + 60_500_000);
  });
});

describe('shell state', () => {
  it('keeps variables, exports, cwd, $? and history', () => {
    const { sh, run } = setup();
    expect(run('pwd').stdout).toBe('/root\n');
    run('X=1; export Y=2');
    expect(run('echo $X $Y; bash -c \'echo "[$X][$Y]"\'').stdout).toBe('1 2\n[][2]\n');
    run('cd /tmp');
    expect(run('pwd; echo $OLDPWD').stdout).toBe('/tmp\n/root\n');
    run('false');
    expect(run('echo $?').stdout).toBe('1\n');
    expect(sh.history).toEqual([
      'pwd',
      'X=1; export Y=2',
      'echo $X $Y; bash -c \'echo "[$X][$Y]"\'',
      'cd /tmp',
      'pwd; echo $OLDPWD',
      'false',
      'echo $?',
    ]);
    expect(run('history').stdout).toContain('    8  history\n');
  });

  it('runs pipeline parts and ( ) in subshells', () => {
    const { run } = setup();
    expect(run('cd /tmp | true; pwd; (cd /etc; pwd); pwd; X=1 | true; echo "[$X]"').stdout).toBe(
      '/root\n/etc\n/root\n[]\n',
    );
  });

  it('answers unknown commands and paths like bash', () => {
    const { run } = setup();
    expect(run('foo')).toMatchObject({ stderr: 'bash: foo: command not found\n', exitCode: 127 });
    expect(run('/nope/x')).toMatchObject({
      stderr: 'bash: /nope/x: No such file or directory\n',
      exitCode: 127,
    });
    expect(run('/etc')).toMatchObject({ stderr: 'bash: /etc: Is a directory\n', exitCode: 126 });
    expect(run(';')).toMatchObject({
      stderr: "bash: syntax error near unexpected token `;'\n",
      exitCode: 2,
    });
    expect(run('ip netns exec pod-a nosuchcmd')).toMatchObject({
      stderr: 'exec of "nosuchcmd" failed: No such file or directory\n',
      exitCode: 1,
    });
  });

  it('finds commands by their Debian paths (/sbin/ip is /usr/sbin/ip)', () => {
    const { run } = setup();
    expect(run('/sbin/ip link add d0 type dummy; /usr/bin/printf ok').stdout).toBe('ok');
    expect(run('/usr/bin/ip link').exitCode).toBe(127);
  });

  it('exit stops the input and sets the status', () => {
    const { run } = setup();
    expect(run('echo a; exit 3; echo b')).toMatchObject({
      stdout: 'a\n',
      stderr: 'exit\n',
      exitCode: 3,
    });
  });

  it('stops runaway loops', () => {
    const { run } = setup();
    const r = run('while true; do :; done');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('loop stopped after 10000 iterations');
  });

  it('takes stdin', () => {
    const { run } = setup();
    expect(run('sed s/a/b/', 'aaa\n').stdout).toBe('baa\n');
  });

  it('lets more commands be registered', () => {
    const { sh, run } = setup();
    const hello: CommandSpec = {
      name: 'hello',
      dir: '/usr/bin',
      run: (ctx) => (
        ctx.out(`hello ${ctx.argv[1]} in ${ctx.netns === ctx.kernel().root ? 'host' : 'pod'}\n`),
        0
      ),
    };
    sh.commands.register(hello);
    expect(run('hello a; ip netns exec pod-a hello b').stdout).toBe(
      'hello a in host\nhello b in pod\n',
    );
  });
});

describe('namespaces', () => {
  it('ip netns add / list / del: a mount file and a namespace', () => {
    const { run, kernel, file } = setup();
    expect(run('ip netns add pod-b').exitCode).toBe(0);
    expect(tget(kernel().mounts, '/var/run/netns/pod-b')).toBeDefined();
    expect(file('/var/run/netns/pod-b')).toBe('');
    expect(run('ip netns add pod-b')).toMatchObject({
      stderr: 'Cannot create namespace file "/run/netns/pod-b": File exists\n',
      exitCode: 1,
    });
    expect(run('ip netns list').stdout).toBe('pod-b\npod-a\n');
    expect(run('ip netns del pod-b').exitCode).toBe(0);
    expect(tget(kernel().mounts, '/var/run/netns/pod-b')).toBeUndefined();
    expect(run('ip netns del pod-b')).toMatchObject({
      stderr: 'Cannot remove namespace file "/run/netns/pod-b": No such file or directory\n',
      exitCode: 1,
    });
    expect(run('ls /run/netns/x; cat /run/netns/pod-a')).toMatchObject({
      stderr:
        "ls: cannot access '/run/netns/x': No such file or directory\ncat: /run/netns/pod-a: Invalid argument\n",
    });
  });

  it('namespace mount points cannot be removed, written or moved', () => {
    const { run } = setup();
    expect(run('rm -f /var/run/netns/pod-a').stderr).toBe(
      "rm: cannot remove '/var/run/netns/pod-a': Device or resource busy\n",
    );
    expect(run('echo x > /run/netns/pod-a').stderr).toBe(
      'bash: /run/netns/pod-a: Operation not permitted\n',
    );
    expect(run('truncate -s 0 /run/netns/pod-a').stderr).toBe(
      "truncate: cannot open '/run/netns/pod-a' for writing: Operation not permitted\n",
    );
    expect(run('mv /run/netns/pod-a /tmp/x').stderr).toBe(
      "mv: cannot move '/run/netns/pod-a' to '/tmp/x': Device or resource busy\n",
    );
    expect(run('touch /var/run/netns/plain; ip -n plain link')).toMatchObject({
      stderr: 'setting the network namespace "plain" failed: Invalid argument\n',
      exitCode: 255,
    });
  });

  it('/var/run is a symbolic link to /run, shown as one by ls -l and find', () => {
    const { run } = setup();
    expect(run('ls -l /var').stdout).toMatch(/^lrwxrwxrwx 1 root root\s+4 .* run -> \/run$/m);
    expect(run('ls -l /var/run').stdout).toMatch(/^lrwxrwxrwx .* \/var\/run -> \/run\n$/);
    expect(run('ls /var/run/netns /run/netns').stdout).toBe(
      '/run/netns:\npod-a\n\n/var/run/netns:\npod-a\n',
    );
    expect(run('find /var -type l').stdout).toBe('/var/run\n');
    expect(
      run('ip netns add pod-b && ls /var/run/netns && ip -n pod-b link show lo').exitCode,
    ).toBe(0);
  });

  it('host aliases name the node itself', () => {
    const { run, ns } = setup({ hostNetnsAliases: ['node'] });
    expect(run('ip -n node link add cni0 type veth peer name cni0-peer').exitCode).toBe(0);
    expect(K.linkByName(ns(), 'cni0')).toBeDefined();
    expect(run('ip netns exec node sysctl -w net.ipv4.ip_forward=1').stdout).toBe(
      'net.ipv4.ip_forward = 1\n',
    );
    expect(K.sysctlGet(setup().kernel(), setup().kernel().root, 'net.ipv4.ip_forward')).toBe('0');
  });

  it('sysctl works in the namespace of ip netns exec, else the host', () => {
    const { run, kernel, ns } = setup();
    run('ip -n pod-a link add eth0 type dummy');
    expect(run('ip netns exec pod-a sysctl -q -w net.ipv4.conf.eth0.arp_ignore=2').exitCode).toBe(
      0,
    );
    expect(
      K.interfaceSysctl(ns('pod-a'), K.linkByName(ns('pod-a'), 'eth0')!, 'ipv4.conf.arp_ignore'),
    ).toBe('2');
    expect(run('sysctl net.ipv4.conf.eth0.arp_ignore')).toMatchObject({
      stderr:
        'sysctl: cannot stat /proc/sys/net/ipv4/conf/eth0/arp_ignore: No such file or directory\n',
      exitCode: 1,
    });
    expect(kernel()).toBeDefined();
  });
});

describe('programs', () => {
  it('runs a CNI plugin binary with the environment and stdin it is given (its own events)', () => {
    const { run } = setup();
    run('echo \'{"cniVersion":"1.0.0"}\' > /tmp/v.json');
    const r = run('CNI_COMMAND=VERSION /opt/cni/bin/bridge < /tmp/v.json');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ cniVersion: '1.0.0' });
    expect(r.events.map((e) => e.kind)).toEqual(['exec', 'exit']);
    expect(r.events[0]!.payload).toMatchObject({
      env: expect.objectContaining({ CNI_COMMAND: 'VERSION', HOME: '/root' }),
      stdin: '{"cniVersion":"1.0.0"}\n',
    });
  });

  it('runs a text file as a script', () => {
    const { run, sim } = setup();
    run("printf 'echo in script\\nnosuch\\n' > /tmp/s.sh");
    expect(run('/tmp/s.sh')).toMatchObject({
      stderr: 'bash: /tmp/s.sh: Permission denied\n',
      exitCode: 126,
    });
    expect(run('bash /tmp/s.sh')).toMatchObject({
      stdout: 'in script\n',
      stderr: '/tmp/s.sh: line 2: nosuch: command not found\n',
      exitCode: 127,
    });
    expect(run("sh -c 'nosuch'")).toMatchObject({
      stderr: 'sh: 1: nosuch: not found\n',
      exitCode: 127,
    });
    expect(sim.events.length).toBeGreaterThan(0);
  });
});

describe('the environment commands of the conformance recordings', () => {
  // The recorder called the namespace that played the node "node" (hostNetnsAliases).
  const C = '/var/lib/cni';
  it('apply as they did on the real node', () => {
    const { run, ns, file } = setup({ actor: 'recorder', hostNetnsAliases: ['node'] });
    const ok = (line: string) => {
      const r = run(line);
      expect({ line, stderr: r.stderr, exitCode: r.exitCode }).toEqual({
        line,
        stderr: '',
        exitCode: 0,
      });
      return r;
    };
    // State a CNI ADD would have left.
    ok(
      `mkdir -p ${C}/results && printf '{"kind":"cniCacheV1","result":{"cniVersion":"1.0.0"}}' > ${C}/results/mynet-c1-eth0`,
    );
    ok(
      'ip -n node link add cni0 type bridge && ip -n node addr add 10.22.0.1/24 dev cni0 && ip -n node link set cni0 up',
    );
    ok(
      'ip -n node link add vethab12cd34 type veth peer name eth0 netns pod-a && ip -n node link set vethab12cd34 master cni0 up',
    );
    ok(
      'ip -n pod-a link set eth0 up && ip -n pod-a addr add 10.22.0.2/24 dev eth0 && ip -n pod-a route add default via 10.22.0.1',
    );

    ok('ip netns exec pod-a sysctl -q -w net.ipv4.conf.eth0.arp_ignore=2');
    ok('ip -n node link set vethab12cd34 address 0a:58:0a:f4:00:05');
    expect(K.linkByName(ns(), 'vethab12cd34')!.mac).toBe('0a:58:0a:f4:00:05');
    ok(`sed -i 's/"kind":"cniCacheV1"/"kind":"otherKind"/' ${C}/results/mynet-c1-eth0`);
    expect(file(`${C}/results/mynet-c1-eth0`)).toBe(
      '{"kind":"otherKind","result":{"cniVersion":"1.0.0"}}',
    );
    ok(`jq -c .result ${C}/results/mynet-c1-eth0 > /tmp/r && mv /tmp/r ${C}/results/mynet-c1-eth0`);
    expect(file(`${C}/results/mynet-c1-eth0`)).toBe('{"cniVersion":"1.0.0"}\n');
    ok(`truncate -s 10 ${C}/results/mynet-c1-eth0`);
    expect(file(`${C}/results/mynet-c1-eth0`)).toBe('{"cniVersi');
    ok(`printf 'garbage' > ${C}/results/mynet-c1-eth0`);
    ok(`rm ${C}/results/mynet-c1-eth0`);
    ok(
      "mkdir -p /tmp/x && printf 'nameserver 10.22.0.53\\nnameserver 10.22.0.54\\n' > /tmp/x/resolv.conf",
    );
    expect(file('/tmp/x/resolv.conf')).toBe('nameserver 10.22.0.53\nnameserver 10.22.0.54\n');
    ok('ip -n pod-a addr del 10.22.0.2/24 dev eth0');
    ok(
      'ip -n pod-a route add default via 10.22.0.1 2>/dev/null; ip -n pod-a addr add 10.22.0.2/24 dev eth0 && ip -n pod-a route add default via 10.22.0.1 && ip -n pod-a route del default',
    );
    ok('ip -n pod-a link set eth0 down');
    ok('ip -n node addr add fd00:22::99/64 dev cni0 nodad');
    ok('ip -n node link del cni0');
    ok('ip -n node link add cni0 type veth peer name cni0-peer');
    ok('sleep 3');
    ok('ip netns del pod-a');
    expect(K.linkByName(ns(), 'vethab12cd34')).toBeUndefined();
  });
});
