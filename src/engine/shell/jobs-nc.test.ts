/**
 * Background jobs (`cmd &`, `$!`, `kill`, `wait`, `timeout`), `nc` as a client, a capture in the
 * background, and the shell's VXLAN setup commands (`ip link add type vxlan`, `ip neigh`,
 * `bridge fdb`, `ip route ... onlink`, `ip -d link show`), on one node with a namespace `a`
 * joined to it by a veth pair (10.0.0.1 on the node, 10.0.0.2 in `a`).
 */
import { describe, expect, it } from 'vitest';
import { addNode, netnsAdd } from '../node/setup';
import { Simulation, newWorld } from '../sim/world';
import { Shell } from './shell';

function node() {
  const sim = new Simulation(addNode(newWorld(1), { name: 'node', plugins: ['bridge'] }));
  netnsAdd(sim, 'node', '/var/run/netns/a');
  const sh = new Shell(sim, 'node');
  for (const line of [
    'ip link set lo up && ip netns exec a ip link set lo up',
    'ip link add v0 type veth peer name v1 netns a && ip addr add 10.0.0.1/24 dev v0 && ip link set v0 up',
    'ip -n a addr add 10.0.0.2/24 dev v1 && ip -n a link set v1 up',
  ])
    expect(sh.run(line)).toMatchObject({ exitCode: 0, stderr: '' });
  return { sim, sh };
}

describe('background jobs', () => {
  it('nc -l in the background runs until killed: $!, kill -0, kill, then no such process', () => {
    const { sh } = node();
    const start = sh.run('ip netns exec a nc -lk 80 </dev/null & echo $!');
    expect(start.exitCode).toBe(0);
    const pid = start.stdout.trim();
    expect(pid).toMatch(/^\d+$/);
    expect(sh.run('kill -0 $! && echo listening')).toMatchObject({ stdout: 'listening\n' });
    expect(sh.run('nc -v -z -w 2 10.0.0.2 80')).toMatchObject({
      exitCode: 0,
      stderr: 'Connection to 10.0.0.2 80 port [tcp/http] succeeded!\n',
    });
    expect(sh.run(`kill ${pid}`).exitCode).toBe(0);
    expect(sh.run(`kill -0 ${pid}`)).toMatchObject({
      exitCode: 1,
      stderr: `bash: kill: (${pid}) - No such process\n`,
    });
    // Killing the job closed its socket: the port is closed now.
    expect(sh.run('nc -v -z -w 2 10.0.0.2 80')).toMatchObject({
      exitCode: 1,
      stderr: 'nc: connect to 10.0.0.2 port 80 (tcp) failed: Connection refused\n',
    });
  });

  it("kill and wait refuse what is not a job, with bash's messages", () => {
    const { sh } = node();
    expect(sh.run('kill')).toMatchObject({
      exitCode: 2,
      stderr:
        'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n',
    });
    expect(sh.run('kill abc')).toMatchObject({
      exitCode: 1,
      stderr: 'bash: kill: abc: arguments must be process or job IDs\n',
    });
    expect(sh.run('kill %1')).toMatchObject({
      exitCode: 1,
      stderr: 'bash: kill: %1: no such job\n',
    });
    expect(sh.run('wait 4242')).toMatchObject({
      exitCode: 127,
      stderr: 'bash: wait: pid 4242 is not a child of this shell\n',
    });
    expect(sh.run('wait')).toMatchObject({ exitCode: 0, stderr: '' });
    // A job that is done: wait gives its status.
    expect(sh.run('false & wait $!').exitCode).toBe(1);
  });

  it('timeout runs the command; its own errors exit 125 and 127', () => {
    const { sh } = node();
    expect(sh.run('timeout 5 echo hi')).toMatchObject({ exitCode: 0, stdout: 'hi\n' });
    expect(sh.run('timeout 5')).toMatchObject({
      exitCode: 125,
      stderr: "timeout: missing operand\nTry 'timeout --help' for more information.\n",
    });
    expect(sh.run('timeout 5 nosuch')).toMatchObject({
      exitCode: 127,
      stderr: 'timeout: failed to run command ‘nosuch’: No such file or directory\n',
    });
  });

  it('tcpdump in the background shows the packets of the commands after it, filtered', () => {
    const { sh } = node();
    sh.run('ping -c 1 -W 1 10.0.0.2 >/dev/null');
    const r = sh.run(
      'tcpdump -i v0 -nn -t icmp 2>/dev/null & sleep 1; ping -c 1 -W 1 10.0.0.2 >/dev/null; wait',
    );
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    // Only the second ping: the capture started after the first.
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(
        /^IP 10\.0\.0\.1 > 10\.0\.0\.2: ICMP echo request, id \d+, seq 1, length 64$/,
      ),
      expect.stringMatching(
        /^IP 10\.0\.0\.2 > 10\.0\.0\.1: ICMP echo reply, id \d+, seq 1, length 64$/,
      ),
    ]);
    const tcp = sh.run(
      'tcpdump -i v0 -nn -t tcp 2>/dev/null & sleep 1; ping -c 1 10.0.0.2 >/dev/null; wait',
    );
    expect(tcp.stdout).toBe('');
    expect(sh.run('tcpdump -i v0 port').exitCode).toBe(1);
  });
});

describe('nc as a client', () => {
  it('prints what the listener sends without -z; says nothing without -v', () => {
    const { sh } = node();
    sh.run("printf 'hello\\n' | ip netns exec a nc -l 80");
    expect(sh.run('nc 10.0.0.2 80')).toMatchObject({ exitCode: 0, stdout: 'hello\n', stderr: '' });
    expect(sh.run('nc -z 10.0.0.2 81')).toMatchObject({ exitCode: 1, stdout: '', stderr: '' });
    expect(sh.run('nc -zv 10.0.0.2 9000')).toMatchObject({
      exitCode: 1,
      stderr: 'nc: connect to 10.0.0.2 port 9000 (tcp) failed: Connection refused\n',
    });
    expect(sh.run('nc -v -z -w 2 10.9.9.9 80')).toMatchObject({
      exitCode: 1,
      stderr: 'nc: connect to 10.9.9.9 port 80 (tcp) failed: Network is unreachable\n',
    });
    expect(sh.run('nc -v -z -w 2 10.0.0.9 80')).toMatchObject({
      exitCode: 1,
      stderr: 'nc: connect to 10.0.0.9 port 80 (tcp) timed out: Operation now in progress\n',
    });
  });
});

describe('VXLAN from the shell (as flanneld sets flannel.1 up)', () => {
  it('ip link add type vxlan, ip neigh, bridge fdb, an onlink route, ip -d link show', () => {
    const { sh } = node();
    expect(
      sh.run(
        'ip link add flannel.1 address 0e:00:00:00:00:01 type vxlan id 1 local 10.0.0.1 dev v0 dstport 8472 nolearning && ip link set flannel.1 up',
      ),
    ).toMatchObject({ exitCode: 0, stderr: '' });
    // The lower device's MTU less 50.
    expect(sh.run('ip -d link show flannel.1').stdout).toMatch(
      /^\d+: flannel\.1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000\n {4}link\/ether 0e:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff promiscuity 0 {2}allmulti 0 minmtu 68 maxmtu 65535 \n {4}vxlan id 1 local 10.0.0.1 dev v0 srcport 0 0 dstport 8472 nolearning ttl auto /,
    );
    expect(sh.run('ip -d link show v0')).toMatchObject({
      exitCode: 2,
      stderr: 'cnisim: ip: -d (details) of a veth device: not simulated\n',
    });
    expect(sh.run('ip link add vx2 type vxlan dev v0 dstport 4789')).toMatchObject({
      exitCode: 255,
      stderr: 'vxlan: missing virtual network identifier\n',
    });
    const neigh = 'ip neigh add 10.244.2.0 lladdr 0e:00:00:00:00:02 dev flannel.1 nud permanent';
    expect(sh.run(neigh)).toMatchObject({ exitCode: 0, stderr: '' });
    expect(sh.run(neigh)).toMatchObject({
      exitCode: 2,
      stderr: 'RTNETLINK answers: File exists\n',
    });
    expect(sh.run('ip neigh show dev flannel.1').stdout).toBe(
      '10.244.2.0 lladdr 0e:00:00:00:00:02 PERMANENT\n',
    );
    const fdb = 'bridge fdb append 0e:00:00:00:00:02 dev flannel.1 dst 10.0.0.2';
    expect(sh.run(fdb)).toMatchObject({ exitCode: 0, stderr: '' });
    expect(sh.run(fdb)).toMatchObject({
      exitCode: 255,
      stderr: 'RTNETLINK answers: File exists\n',
    });
    expect(sh.run('ip route add 10.244.2.0/24 via 10.244.2.0 dev flannel.1 onlink')).toMatchObject({
      exitCode: 0,
      stderr: '',
    });
    // Without onlink the gateway is on no connected subnet.
    expect(sh.run('ip route add 10.244.3.0/24 via 10.244.3.0 dev flannel.1').stderr).toBe(
      'Error: Nexthop has invalid gateway.\n',
    );
    expect(sh.run('ip route show dev flannel.1').stdout).toBe(
      '10.244.2.0/24 via 10.244.2.0 onlink \n',
    );
    expect(sh.run('ip neigh del 10.244.2.0 dev flannel.1').exitCode).toBe(0);
    expect(sh.run('ip neigh del 10.244.2.0 dev flannel.1')).toMatchObject({
      exitCode: 2,
      stderr: 'RTNETLINK answers: No such file or directory\n',
    });
  });
});

describe('a packet to a local address', () => {
  it('passes POSTROUTING once per connection: its entry is confirmed on lo', () => {
    const { sh } = node();
    // Any nat rule hooks conntrack and the nat table into the namespace.
    expect(
      sh.run('iptables -t nat -A POSTROUTING -o v0 -s 10.9.0.0/24 -j MASQUERADE').exitCode,
    ).toBe(0);
    expect(sh.run('ping -c 2 -W 1 10.0.0.1').exitCode).toBe(0);
    const save = sh.run('iptables-save -c -t nat').stdout;
    // The first echo request only: the second and the replies belong to the confirmed entry.
    // (OUTPUT has no rule: iptables-nft registers no base chain for it, nothing counts there.)
    expect(save).toContain(':OUTPUT ACCEPT [0:0]');
    expect(save).toContain(':POSTROUTING ACCEPT [1:84]');
    expect(sh.run('conntrack -L').stdout).toMatch(
      /^icmp +1 \d+ src=10\.0\.0\.1 dst=10\.0\.0\.1 type=8 code=0 id=\d+ src=10\.0\.0\.1 dst=10\.0\.0\.1 type=0 code=0 id=\d+ mark=0 use=1\n$/,
    );
  });
});

describe('curl to a listener', () => {
  it('closes the connection: conntrack keeps it in TIME_WAIT [ASSURED], as after a real curl', () => {
    const { sh } = node();
    expect(
      sh.run('iptables -t nat -A POSTROUTING -o v0 -s 10.9.0.0/24 -j MASQUERADE').exitCode,
    ).toBe(0);
    const reply = 'HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nhi\n';
    expect(sh.run(`ip netns exec a nc -lk 80 <<<'${reply}' &`).exitCode).toBe(0);
    expect(sh.run('curl -s http://10.0.0.2/')).toMatchObject({ exitCode: 0, stdout: 'hi\n\n' });
    expect(sh.run('conntrack -L -p tcp').stdout).toMatch(
      /^tcp +6 \d+ TIME_WAIT src=10\.0\.0\.1 dst=10\.0\.0\.2 sport=\d+ dport=80 src=10\.0\.0\.2 dst=10\.0\.0\.1 sport=80 dport=\d+ \[ASSURED\] mark=0 use=1\n/,
    );
  });
});
