#!/usr/bin/env python3
"""
Records what the real read commands print for the shell's golden tests (read-outputs.jsonl):
ls, head, tail, wc, grep, sort, uniq, find and cat over files, /proc/sys reads, and ip / bridge /
tc / iptables listings of a namespace set up with fixed MACs.

Two throw-away network namespaces (cnisim-sh2-t, cnisim-sh2-u) are created and set up once (then
left 3 s for IPv6 DAD and linkwatch), every case runs as `ip netns exec cnisim-sh2-t bash -c CMD`
in a fresh copy of the fixture directory /tmp/cnisim-shell-golden-read, and the namespaces are
deleted at the end: nothing touches the machine's own namespace. The cases only read. Needs root,
iproute2 6.1, iptables-nft 1.8.9, coreutils 9.1, grep 3.8, findutils 4.9 (Debian bookworm).

    sudo python3 tools/record/shell/record-read.py src/engine/shell/golden/read-outputs.jsonl
"""
import json, os, shutil, subprocess, sys, time

WORK = '/tmp/cnisim-shell-golden-read'
NS = ['cnisim-sh2-t', 'cnisim-sh2-u']
FILES = {
    'f': 'hi\n',
    's': 'foo bar foo\nbaz\n',
    'n': 'a\nb',
    't': 'b 10\na 2\nc 1\na 2\nB 3\n\n',
    'u': 'x\nx\ny\nx\nY\ny\n',
    'w': 'one two  three\n\tfour\n\nfive six\n',
    'd/x': 'in d\n',
    'd/y.conf': '{"a": 1}\n',
    'd/sub/z': 'deep\n',
    'e/.keep': '',
    '.hidden': 'h\n',
}
SETUP = [
    'ip link set lo up',
    'ip link add br0 address 02:00:00:00:01:00 type bridge && ip link set br0 up && ip addr add 10.1.0.1/24 dev br0',
    'ip link add ve0 address 02:00:00:00:02:00 type veth peer name eth0 address 02:00:00:00:03:00 netns cnisim-sh2-u',
    'ip link set ve0 master br0 && ip link set ve0 up',
    'ip -n cnisim-sh2-u link set eth0 up && ip -n cnisim-sh2-u addr add 10.1.0.2/24 dev eth0 && ip -n cnisim-sh2-u route add default via 10.1.0.1',
    'ip link add vd address 02:00:00:00:04:00 type veth peer name vd2 address 02:00:00:00:05:00',
    'ip addr add 10.1.0.5/24 dev br0 && ip addr add 10.2.0.1/16 brd + dev vd && ip addr add fd00::2/64 dev br0',
    'ip route add 10.9.0.0/16 via 10.1.0.7 metric 100 proto static',
    'iptables -t nat -N CNI-TEST && iptables -t nat -A POSTROUTING -s 10.1.0.0/24 -j CNI-TEST && iptables -t nat -A CNI-TEST -d 10.1.0.0/24 -j ACCEPT',
]
CASES = []


def c(group, cmd):
    CASES.append({'group': group, 'cmd': cmd})


for x in ['ls', 'ls -a', 'ls -A', 'ls -1', 'ls -l', 'ls -la', 'ls -l d', 'ls -ld d', 'ls -d d e', 'ls d e', 'ls f d', 'ls nope',
          'ls nope f', 'ls -l f s', 'ls -lh', 'ls -r', 'ls -1 d/sub', 'ls -C', 'ls -C -w 20', 'ls -l e', 'ls -la e', 'ls -x9', 'ls d/x',
          'ls -l /proc/sys/net/ipv4/ip_forward', 'ls -ld /proc/sys', 'ls ./d', 'ls d/', 'ls -R d',
          'head s', 'head -n 1 s', 'head -1 s f', 'head nope', 'head d', 'head -c 3 s', 'head -n -1 s', 'head -n x s', 'head -n',
          'head -q s f', 'head -v f', 'cat s | head -n 1', 'head -n 1 - < s', 'head -n 0 s', 'head -c -2 s', 'head n',
          'tail s', 'tail -n 1 s', 'tail -1 s', 'tail nope', 'tail d', 'tail -c 3 s', 'tail -n +2 s', 'tail -n 1 n', 'tail -n 0 s',
          'tail -n x s', 'tail s f', 'cat t | tail -n 2', 'tail -c +3 s', 'tail -n 2 u',
          'wc s', 'wc -l s', 'wc -l s f', 'wc -c s', 'wc nope', 'wc d', 'wc -w s f n', 'cat s | wc', 'cat s | wc -l', 'wc -l < s',
          'wc -lc s', 'wc -x', 'wc w', 'wc -L w', 'wc -m s', 'wc n', 'wc -l nope s', 'wc /proc/sys/net/ipv4/ip_forward', 'wc -c /proc/sys/net/ipv4/ip_forward',
          'wc -l d s', 'echo | wc -c', 'wc -lw t u',
          'grep foo s', 'grep foo s f', 'grep -c foo s f', 'grep -n ba s', 'grep -o o s', "grep -on 'o\\+' s", 'grep -i FOO s', 'grep -v foo s',
          "grep -E 'fo+|baz' s", "grep -F 'o+' s", 'grep nope s', 'grep x nope', 'grep x d', 'grep -r in .', 'grep -r in d', 'grep -r in', "grep '(' s",
          "grep -E '(' s", "grep '\\(' s", 'grep', 'grep -c x s', 'grep -l foo s f', 'grep -L foo s f', 'grep -q foo s', 'grep -w ba s', 'grep -w bar s',
          'grep -x baz s', 'grep -e foo -e baz s', 'cat s | grep -c o', 'grep -h foo s f', 'grep -H foo s', 'grep -in BAZ s f', 'grep -s x nope',
          'grep -q foo nope s', "grep 'a.z' s", "grep '^b' s t", "grep -v '^$' t", "grep -c '' n", 'grep -y x s', 'grep -o "[0-9]*" t',
          "grep -E '[0-9]+$' t", 'grep -ri IN d', 'grep -x', 'grep -rl foo .', 'grep -n "" n',
          'sort t', 'sort -r t', 'sort -n t', 'sort -u t', 'sort -nr t', 'sort -k2 -n t', 'sort nope', "sort -t' ' -k2,2n t", 'sort u',
          'sort -u u', 'sort s t', 'cat u | sort | uniq -c', 'sort -k 2 t', 'sort n', 'sort -rn t',
          'uniq t', 'uniq -c t', 'sort t | uniq -c', 'uniq -d u', 'uniq -u u', 'uniq nope', 'uniq -c u', 'uniq -i u', 'uniq -ci u', 'uniq u v; cat v',
          'find .', "find . -name '*x*'", 'find . -type d', 'find . -type f -name s', 'find nope', 'find d -name x -type f', 'find . -maxdepth 1 -type f',
          'find -name f', 'find . -type x', 'find . -foo', 'find d', 'find d/', "find . -name '*.conf'", 'find . -iname X', 'find d -mindepth 1',
          'find . -name', 'find f', 'find . -name .', "find . -name 'd*'",
          'cat /proc/sys/net/ipv4/ip_forward', 'head -c 1 /proc/sys/net/ipv4/ip_forward', 'cat /proc/sys/net/ipv4/conf/lo/forwarding',
          'cat /proc/sys/net/ipv4/nope', 'cat /proc/sys/net/ipv4', 'grep . /proc/sys/net/ipv4/ip_forward', 'cat /proc/sys/net/ipv6/conf/br0/disable_ipv6',
          'cat /proc/sys/net/ipv4/conf/ve0/forwarding', 'cat /proc/sys/net/ipv4/conf/nope/forwarding',
          'wc -l < /proc/sys/net/ipv4/ip_forward',
          # Writes (each case puts the value back: the namespaces are set up once).
          'echo 1 > /proc/sys/net/ipv4/ip_forward; cat /proc/sys/net/ipv4/ip_forward; echo 0 > /proc/sys/net/ipv4/ip_forward',
          'echo abc > /proc/sys/net/ipv4/ip_forward; echo rc=$?; cat /proc/sys/net/ipv4/ip_forward',
          'echo 1 > /proc/sys/net/ipv4/nope; echo rc=$?', 'echo 1 > /proc/sys/net/ipv4; echo rc=$?', 'echo > /proc/sys/net/ipv4/ip_forward',
          "printf ' 1 ' > /proc/sys/net/ipv4/conf/br0/forwarding; cat /proc/sys/net/ipv4/conf/br0/forwarding; echo 0 > /proc/sys/net/ipv4/conf/br0/forwarding",
          'echo 1 >> /proc/sys/net/ipv4/ip_forward; sysctl net.ipv4.ip_forward; sysctl -q -w net.ipv4.ip_forward=0',
          'ip netns exec cnisim-sh2-u sh -c "echo 1 > /proc/sys/net/ipv4/ip_forward"; cat /proc/sys/net/ipv4/ip_forward; ip netns exec cnisim-sh2-u cat /proc/sys/net/ipv4/ip_forward; ip netns exec cnisim-sh2-u sysctl -q -w net.ipv4.ip_forward=0']:
    c('files', x)

for x in ['ip link', 'ip link show', 'ip l', 'ip link show dev br0', 'ip link show br0', 'ip link show nope', 'ip link show dev', 'ip link show lo extra',
          'ip link show up', 'ip link show type veth', 'ip link show type bridge', 'ip link show master br0', 'ip -j link', 'ip -j -p link show lo',
          'ip -br link', 'ip -br -j link', 'ip -o link', 'ip -4 link', 'ip -6 link', 'ip link list', 'ip link ls vd',
          'ip addr', 'ip a', 'ip addr show dev br0', 'ip addr show vd', 'ip -4 addr', 'ip -6 addr', 'ip -6 addr show dev br0', 'ip -4 a show dev ve0',
          'ip -j addr', 'ip -j addr show dev br0', 'ip -j -4 addr', 'ip -j -6 addr', 'ip -j -6 addr show dev vd', 'ip -j -p addr show dev lo',
          'ip -br addr', 'ip -br -4 addr', 'ip -br -6 addr', 'ip -br -j addr', 'ip -o addr', 'ip -o -4 addr', 'ip addr show nope',
          'ip addr show lo br0', 'ip addr show up', 'ip address list', 'ip -4 -o a show dev br0',
          'ip route', 'ip route show', 'ip r', 'ip -4 route', 'ip -6 route', 'ip route show dev br0', 'ip route show dev nope', 'ip -j route',
          'ip -j -p route', 'ip -j -6 route', 'ip route show table main', 'ip route show 10.1.0.0/24', 'ip route show 10.1.0.0',
          'ip route show exact 10.9.0.0/16', 'ip route show default', 'ip route show root 10.0.0.0/8', 'ip -6 route show dev br0', 'ip -o route',
          'ip route list', 'ip -j route show dev br0',
          'ip -n cnisim-sh2-u link', 'ip -n cnisim-sh2-u addr', 'ip -n cnisim-sh2-u route', 'ip -n cnisim-sh2-u -j route', 'ip -n cnisim-sh2-u -br a',
          'ip -n cnisim-sh2-u -6 addr', 'ip netns exec cnisim-sh2-u ip -j link show eth0', 'ip -n cnisim-sh2-u -j -6 route',
          'bridge link', 'bridge link show', 'bridge link show dev ve0', 'bridge link show dev nope', 'bridge link show dev lo', 'bridge -j link',
          'bridge -j -p link show dev ve0', 'bridge link foo', 'bridge -n cnisim-sh2-u link',
          'tc qdisc show', 'tc qdisc show dev br0', 'tc qdisc show dev vd', 'tc qdisc show dev nope', 'tc qdisc', 'tc filter show dev br0',
          'tc filter show dev br0 ingress', 'tc -n cnisim-sh2-u qdisc show', 'tc qdisc ls dev lo',
          'iptables -S', 'iptables -t nat -S', 'iptables -t nat -S POSTROUTING', 'iptables -L -n', 'iptables -t nat -L -n', 'iptables -t nat -L -n -v',
          'iptables -t nat -L CNI-TEST -n', 'iptables -t nat -S NOPE', 'ip6tables -S', 'iptables -t nat -L -n --line-numbers',
          'iptables-save | grep -v "^#"', 'iptables-save -t nat | grep -v "^#"', 'ip6tables-save | grep -v "^#"', 'iptables-save -t nope']:
    c('ip', x)


def sh(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True)


def main(out_path):
    for n in NS:
        sh(f'ip netns del {n} 2>/dev/null')
        sh(f'ip netns add {n}')
    try:
        for s in SETUP:
            r = subprocess.run(['ip', 'netns', 'exec', NS[0], 'bash', '-c', s], capture_output=True)
            if r.returncode != 0:
                sys.exit(f'setup failed: {s}: {r.stderr!r}')
        time.sleep(3)
        out = open(out_path, 'w')
        out.write(json.dumps({'header': True, 'work': WORK, 'files': FILES, 'setup': SETUP, 'namespaces': NS}, ensure_ascii=False) + '\n')
        for case in CASES:
            shutil.rmtree(WORK, ignore_errors=True)
            for p, data in FILES.items():
                os.makedirs(os.path.dirname(os.path.join(WORK, p)), exist_ok=True)
                open(os.path.join(WORK, p), 'w').write(data)
            env = {'PATH': os.environ['PATH'], 'HOME': '/root', 'LANG': 'C.UTF-8'}
            r = subprocess.run(['ip', 'netns', 'exec', NS[0], 'timeout', '5', 'bash', '-c', case['cmd']], cwd=WORK, capture_output=True, env=env)
            rec = {'group': case['group'], 'cmd': case['cmd'], 'stdout': r.stdout.decode('utf-8', 'replace'),
                   'stderr': r.stderr.decode('utf-8', 'replace'), 'exitCode': r.returncode}
            out.write(json.dumps(rec, ensure_ascii=False) + '\n')
    finally:
        for n in NS:
            sh(f'ip netns del {n} 2>/dev/null')
        shutil.rmtree(WORK, ignore_errors=True)


if __name__ == '__main__':
    main(sys.argv[1])
