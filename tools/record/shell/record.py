#!/usr/bin/env python3
"""
Records what the real tools print for the shell's golden tests (real-outputs.jsonl).

Every case runs as `ip netns exec cnisim-sh-t bash -c CMD` in a fresh copy of the fixture
directory /tmp/cnisim-shell-golden, with two throw-away network namespaces (cnisim-sh-t,
cnisim-sh-u) created for the case and deleted after it: nothing touches the machine's own
namespace. Needs root, iproute2 6.1, bash 5.2, coreutils 9.1, GNU sed 4.9, jq 1.6 and procps-ng
4.0.2 sysctl (Debian bookworm). For `ip` cases the state of both namespaces is recorded too
(`ip -j` link/address/route, normalised to lines the test rebuilds from the kernel model).

    sudo python3 tools/record/shell/record.py src/engine/shell/golden/real-outputs.jsonl
"""
import json, os, shutil, subprocess, sys

WORK = '/tmp/cnisim-shell-golden'
NS = ['cnisim-sh-t', 'cnisim-sh-u']
FILES = {
    'f': 'hi\n',
    's': 'foo bar foo\nbaz\n',
    'j': '{"kind":"cniCacheV1","result":{"cniVersion":"1.0.0","ips":[{"address":"10.22.0.2/24"}],"n":1.50,"big":12345678901234567890,"e":1e3,"u":"\\u00e9\\u0001/"},"2":"two","1":"one"}',
    'g': 'garbage',
    't': '{"a":',
    'm': '{"a":1}\n{"a":2}\n',
    'n': 'a\nb',
    'd/x': 'in d\n',
    'e/.keep': '',
}
CASES = []

# --- shell: expansion, control flow, builtins, printf, echo, test

def c(cmd):
    CASES.append({'group': 'shell', 'cmd': cmd})
# printf / echo
for x in [r"printf 'a\nb\tc\\d\r\n'", r"printf '%s-%s\n' a b c", r"printf '%d\n' 12 x 3", r"printf '%d %%\n' 5", "printf", r"printf '%s'",
          r"printf '%5s|%-5s|%05d\n' ab cd 42", r"printf '%x %o %c %i\n' 255 8 hello 7", r"printf '%b\n' 'a\tb'", r"printf '\x41\101\e'",
          r"printf '%q\n' 'a b'", r"printf '%z\n'", r"printf 'abc\'", r"printf '%d\n' 0x10 010 -3 +4 ''", r"printf '%s\n'", r"printf '%d\n' 1.5",
          r"printf '%5'", r"printf 'a%'", r"printf '%d\n' 99999999999999999999", r"printf '%s %s\n' a", r"printf '%.2s|%3.1s|\n' abc xyz",
          r"""printf '%d\n' "'A" """, r"printf '%u %x\n' -1 -1", r"printf '%X %#x %#o\n' 255 255 8", r"printf '%+d % d\n' 5 5", r"printf '%e %f %g\n' 1.5 2.25 0.0001",
          r"printf '%g %g %g\n' 100000 1000000 1e-5", r"printf '%.3f|%10.2f|%-8.1e|\n' 3.14159 2.5 12345", r"printf 'x\cy'", r"printf '%b' 'a\cb'; echo", r"printf '%b\n' '\0101\101'",
          r"printf -v X '%s!' hi; echo $X", r"printf -- '%s\n' -x", r"printf -x", r"printf '%*d|%-*d|\n' 4 7 3 8", r"printf '\u00e9\n'", r"printf '%c%c\n' ab cd",
          r"printf '%i\n' 08", r"printf '%s\n' \"quoted\"", r"printf '\"\?\n'",
          "echo -n hi; echo", r"echo -e 'a\tb'", r"echo 'a\tb'", r"echo -ne 'x\n'", "echo -x", "echo -- a", r"echo -e 'a\cb'; echo", "echo -en",
          r"echo -e '\x41\0101'", r"echo -e '\101'", "echo -E -e 'a\\tb'", "echo -e -n 'q\\n'", "echo a  b   c", "echo", "echo ''", "echo -"]:
    c(x)
# test
for x in ['[ -f f ]', '[ -f d ]', '[ -d d ]', '[ -e nope ]', '[ a = a ]', '[ a != a ]', '[ -z "" ]', '[ -n "" ]', '[ 1 -eq 1 ]', '[ 1 -lt x ]', '[ a -eq 1 ]',
          '[ a ]', '[ ]', '[ a', 'test', 'test a b', 'test a b c', '[ ! -f f ]', '[ -f f -a -d d ]', '[ -f f -o -d nope ]', '[ 2 -gt 1 ]', 'test -s f', 'test -s e/.keep',
          '[ a == a ]', '[ -x f ]', '[ 1 -foo 2 ]', '[ a -a ]', 'test -q', '[ ! ]', '[ ! a ]', '[ \\( a \\) ]', '[ a = b -o b = b ]', '[ 10 -ge 9 -a 3 -le 3 ]',
          '[ -n a -a -z "" ]', 'test 1 -ne 1', 'test "" ', 'test -d d/', '[ -f nope -o ! -e nope ]', '[ a \\< b ]', '[ x -eq ]']:
    c(x + '; echo rc=$?')
# shell
for x in ['x=5; echo ${x}y $xy "$x"', 'echo $1 $# $0', 'a=1 b=2; echo $a$b', 'echo ${u:-def} ${u-d2} ${e:+alt}', 'e=; echo [${e:-x}] [${e-x}]', 'echo ${u:=set}; echo $u',
          'echo "a"b\'c\'d', 'echo a\\ b', 'echo "\\$x \\" \\\\ \\a"', "echo 'a\\nb'", 'echo ~ ~/x a~', 'false; echo $?', 'true && echo y || echo n', 'false && echo y || echo n',
          'for i in 1 2 3; do echo $i; done', 'for i in a b; do echo $i; done | cat', 'X=1; for i in $X 2; do echo "[$i]"; done', 'v="a  b"; for i in $v; do echo "<$i>"; done',
          'v="a  b"; for i in "$v"; do echo "<$i>"; done', 'if true; then echo t; else echo f; fi', 'if false; then echo t; elif true; then echo e; fi', 'i=; while [ "$i" != xxx ]; do i=${i}x; echo $i; done',
          'echo $(echo inner) `echo back`', 'echo "$(printf "a\\n\\n")"end', 'x=$(false); echo $?', 'echo a; ; echo b', 'echo a &&', "echo 'abc", 'echo "abc', 'for x in a; do; done', 'done',
          'echo ${a b}', '{ echo a; echo b; } > out; cat out', '( cd d; pwd ); pwd', 'cd d; pwd', 'cd nope', 'cd f', 'cd d e', 'echo */', 'echo ?', 'echo *.none', 'echo d/*', 'echo "*"',
          'nosuch', './nope', '/nope/x', 'echo hi > nodir/x', 'echo hi > d', 'cat < nope', 'echo hi >> f; cat f', 'echo a 2>&1 >/dev/null', 'echo err >&2', 'ls_nope 2>/dev/null; echo $?',
          'cat <<< "here str"', 'echo $(( 1 + 2 ))', 'x=(a b)', 'f() { echo; }', 'exit 3', 'exit foo', 'echo a | exit 4; echo $?', '! true; echo $?', 'export Z=3; bash -c "echo \\$Z"',
          'X=1 env | grep -c ^X=', 'unset HOME; echo ${HOME:-unset}', 'export 1a=2', 'echo a # comment', '# only comment', 'echo {a,b}', 'echo $$ | cut -c1-0', 'sleep', 'sleep x', 'sleep 0.01; echo ok',
          'true | false; echo $?', 'false | true; echo $?', 'echo a | cat | cat', 'cat f f', 'x=1 bash -c "echo \\$x"', 'bash -c "exit 5"; echo $?', 'bash -c "echo \\"a b\\""', 'bash -c "nosuch"', 'bash -c "echo \'"']:
    c(x)

# --- files: coreutils, sed, jq

def c(cmd):
    CASES.append({'group': 'files', 'cmd': cmd})
for x in ['cat nope', 'cat d', 'cat f nope f', 'cat -n s', 'cat -E n', 'cat -z f', 'cat --foo f', 'cat n f', 'echo in | cat - f',
          'rm nope', 'rm -f nope', 'rm d', 'rm -r d/nope', 'rm', 'rm -f', 'rm -rf d; ls_none=1', 'rm -r d', 'rm -d e', 'rm -d d', 'rm f s', 'rm -v f', 'rm -q f', "rm 'it''s'", 'rm -rf /',
          'mv nope x', 'mv f', 'mv', 'mv f d', 'mv f nodir/x', 'mv f g', 'mv f s', 'mv d e', 'mv f s d', 'mv f s g', 'mv d d/sub', 'mv d f', 'mv f e', 'mv f f', 'mv -v f g',
          'cp nope x', 'cp d e2', 'cp f', 'cp f g', 'cp f d', 'cp -r d d2', 'cp -r d e', 'cp f nodir/x', 'cp f s d', 'cp f f', 'cp -r d d/x2', 'cp -v f g', 'cp d/x f',
          'mkdir d', 'mkdir a/b', 'mkdir -p a/b', 'mkdir', 'mkdir -p f/x', 'mkdir -p f', 'mkdir -p d', 'mkdir -m 700 z', 'mkdir -v y', 'mkdir -p -v y/z', 'mkdir x x', 'mkdir -m 9 z', 'mkdir f/x',
          'touch a/x/y', 'touch', 'touch f d', 'touch newf', 'touch -c nof', 'touch f/x',
          'truncate -s 3 nope2', 'truncate -s 3 a/q/r', 'truncate nope', 'truncate -s x f', 'truncate -s 2 f', 'truncate -s +2 f', 'truncate -c -s 1 nope3', 'truncate -s 0', 'truncate -s 1 d',
          'truncate -s 1K f', 'truncate -s -1 s', 'truncate -s 10 j', 'truncate -s %4 s', 'truncate -s /4 s', 'truncate -s 1KB f', 'truncate --size=1 f', 'truncate -s 1 f/x']:
    c(x)
# sed
for x in ["sed 's/foo/X/' s", "sed 's/foo/X/g' s", "sed 's/o*/<&>/g' s", "sed 's/\\(fo\\)o/[\\1]/' s", "sed -E 's/(fo)o+/[\\1]/' s", "sed 's/fo\\+/Y/' s", "sed 's|foo|/|' s",
          "sed 's/foo/X/2' s", "sed -n 's/baz/Q/p' s", "sed 's/FOO/x/I' s", "sed 's/a/b' s", "sed 'x' s", "sed 's/a/b/q' s", "sed s/a/b/ nope", "sed", "sed -i", "sed -i 's/foo/Z/' nope",
          "sed 's/^/> /' s", "sed 's/$/ </' s", "sed 's/[a-z]\\{3\\}/W/' s", "sed 's/b.r/\\n/' s", "sed 's/o/\\\\/g' s", "echo abc | sed 's/b/&&/'", "sed -e 's/foo/1/' -e 's/baz/2/' s",
          "sed 's/foo/1/;s/baz/2/' s", "sed 's/(foo)/x/' s", "sed 's/foo\\|baz/x/' s", "sed 's/a/b/' d", "sed 's/\\(a/b/' s", "sed -E 's/(a/b/' s", "sed 's/a/\\1/' s", "sed 's/no/yes/' n",
          "sed 's/o/0/3g' s", "sed 's/[[:space:]]/_/g' s", "sed 'k'", "sed -n", "sed -i s/a/b/", "sed 's/a/b/;k' s", "sed 's/a/b/ ; p' s", "sed '2d' s", "sed '$d' s", "sed '/baz/d' s", "sed '1,2p' s",
          "sed -n '$p' s", "sed 's/a/b/g;s/x/y' s", "sed -e 's/a/b/' -e 'k' s", "sed 's/a/b/gg' s", "sed 's/a/b/w' s", "sed 'p;p' s", "sed '1!d' s", "sed 's/a\\(/x/' s", "sed -E 's/a{2/x/' s",
          "sed 's/a\\{2/x/' s", "sed 's/[/x/' s", "sed 'y/ab/ba/' s", "sed 's/x/y/ extra' s", "sed 'dp' s", "sed '/a/' s", "sed '/a' s", "sed 3q s", "sed 0d s", "sed 1q s", "sed = s",
          "sed -i 's/\"kind\":\"cniCacheV1\"/\"kind\":\"otherKind\"/' j; cat j", "sed -i.bak 's/foo/F/' s", "sed -i 's/x/y/' d", "sed -n '/foo/p' s", "sed '/foo/,/baz/d' s", "sed 's/[^a-z]/_/g' s",
          "sed 's/\\bba/BA/g' s", "sed 's/o\\{2,\\}/0/' s", "sed -E 's/o{1,2}/0/g' s", "sed 's/.*/\\U&/' s", "sed -E 's/(a|b)+/X/g' s", "sed 's/^$/E/' f", "printf 'a\\n\\nb\\n' | sed '/^$/d'",
          "sed 's,/,|,g' j", "sed 's/1/X/' n f", "sed -s '1d' s f", "sed 's/[]]/x/' s", "sed 's/a.z/&-&/' s", "sed -n '2{p}' s", "sed 's/\\//x/g' j", "sed '$!d' s", "sed 's/\\n//' s",
          "sed 's/foo/bar/;' s", "sed -e 's/foo/bar/' -- s", "sed --expression='s/foo/Q/' s", "sed 2,1p s", "sed -n '1,/baz/p' s", "sed 's/o*$//' s"]:
    c(x)
# jq
for x in ["jq -c .result j", "jq .result j", "jq -r .kind j", "jq .kind j", "jq -c . j", "jq .result.ips[0].address j", "jq '.result.ips[0]' j", "jq '.[\"kind\"]' j",
          "jq .nope j", "jq .kind.x j", "jq '.result.ips.x' j", "jq .a g", "jq .a t", "jq .a nope", "jq -c .a m", "jq '.result.ips[]' j", "echo '[1]' | jq '.a'", "echo '{}' | jq '.[0]'",
          "jq -r .result.ips j", "jq '.result | .n' j", "jq -c '.result.u' j", "echo '[]' | jq .", "echo '{}' | jq .", "echo '{\"a\":[],\"b\":{}}' | jq .", "echo '[1,2]' | jq '.[-1]'",
          "echo '' | jq .a", "echo '{\"a\":null}' | jq -r .a", "echo '[1]' | jq '.a?'", "echo 1.0 | jq .", "echo 100000000000000000000 | jq .", "echo 0.1 | jq .", "echo 1e400 | jq .",
          "echo 1e17 1e16 123456789012345678 0.0001 0.00001 1.5e-7 -0 -1.25 3.0e2 1e-400 | jq -c .", "printf '{\"a\":1' | jq -c .", "printf '{\"a\":1}x' | jq -c .", "printf '{\"a\" 1}' | jq -c .",
          "printf 'tru' | jq .", "printf '[1,]' | jq .", "printf '{\"a\":1}}' | jq -c .", "printf '\"abc' | jq .", "printf 'nul' | jq .", "printf 'garbage\\n' | jq .", "printf '{\"a\":\\n1}\\n\\n' | jq -c .",
          "printf '[1,\\n2,]' | jq .", "printf '{\"a\":\"x\\\\q\"}' | jq .", "printf '{\"a\":1,}' | jq .", "printf '{,}' | jq .", "printf ':' | jq .", "printf ']' | jq .", "printf '\"\\\\u12\"' | jq .",
          "printf '\"a\\tb\"' | jq .", "jq -c .result j > r && mv r j; cat j", "jq -S . j", "jq -j .kind j; echo", "jq -a .result.u j", "jq -n .", "jq '.[]' j", "jq -c '.result | .ips | .[0]' j",
          "echo '\"x\"' | jq -e .; echo $?", "echo null | jq -e .; echo $?", "jq '.kind | .x?' j", "jq '.foo bar' j", "jq 'keys' j", "jq --tab .result.ips j", "jq --indent 1 .result.ips j",
          "jq -s -c . m", "jq .a m f", "jq . d", "echo '{\"a\":\"\\u007f\\u2028é\"}' | jq .", "echo '\"\\ud83d\\ude00\"' | jq -a .", "echo '[[]]' | jq .", "echo '{\"a\":{\"b\":{}}}' | jq ."]:
    c(x)

for x in ["mkdir -p small; for ip in 10.22.0.2 10.22.0.3; do printf 'other\\r\\neth0' > small/$ip; done; cat small/10.22.0.2",
          "truncate -s 40 j; cat j", "printf 'garbage' > j; cat j", "printf 'nameserver 10.22.0.53\\nnameserver 10.22.0.54\\n' > resolv.conf; cat resolv.conf",
          "rm j; cat j", "jq -c .result j > r && mv r j; jq .ips j"]:
    c(x)

# --- ip and sysctl (in cnisim-sh-t, after BASE)

BASE = ['ip link add br0 type bridge && ip link set br0 up && ip addr add 10.1.0.1/24 dev br0 && ip addr add fd00:1::1/64 dev br0 nodad',
        'ip link add ve0 type veth peer name ve1 && ip link set ve0 master br0 && ip link set ve0 up && ip link set ve1 up',
        'ip link add vd type veth peer name vd2 && ip addr add 10.9.0.1/24 dev vd']

def c(cmd):
    CASES.append({'group': 'ip', 'cmd': cmd, 'setup': BASE})
for x in ['ip link add br0 type bridge', 'ip link add br1 type bridge', 'ip link add br1 type bridge vlan_filtering 1', 'ip link add', 'ip link add br1',
          'ip link add b1 mtu 9000 address 02:11:22:33:44:55 type bridge', 'ip link add b2 mtu 10 type bridge', 'ip link add b2 mtu 70000 type bridge', 'ip link add b2 mtu abc type bridge',
          'ip link add b2 address 01:00:00:00:00:01 type bridge', 'ip link add b2 address 00:00:00:00:00:00 type bridge', 'ip link add b2 address zz type bridge', 'ip link add b2 address 02:00 type bridge',
          'ip link add a/b type bridge', 'ip link add a:b type bridge', 'ip link add 0123456789abcdef type bridge', 'ip link add 0123456789abcde type bridge', 'ip link add . type bridge',
          'ip link add name 0123456789abcdefg type bridge', 'ip link add name b3 type bridge', 'ip link add dev b4 type bridge', 'ip link add b5 type bridge extra', 'ip link add b5 type foo',
          'ip link add x1 type veth peer name x2', 'ip link add x1 type veth peer x2', 'ip link add x1 type veth', 'ip link add type bridge', 'ip link add x1 type veth peer name ve1',
          'ip link add x1 type veth peer name x1', 'ip link add x1 type veth peer name x2 netns nope', 'ip link add x1 type veth peer name x2 netns cnisim-sh-u', 'ip link add x1 mtu 9000 type veth peer name x2 mtu 1400',
          'ip link add x1 type veth peer name x2 address 02:00:00:00:00:08', 'ip link add x1 type veth foo', 'ip link add b6 mtu 1400 mtu 1300 type bridge', 'ip link add b7 txqueuelen 5 type bridge',
          'ip link add b8 up type bridge', 'ip link add b9 master br0 type bridge', 'ip link add x1 master br0 type veth peer name x2', 'ip link add x1 up master br0 type veth peer name x2',
          'ip link add a type bridge', 'ip link add l type bridge', 'ip link add t type bridge', 'ip link add m type bridge', 'ip link add d type bridge', 'ip link add n type bridge', 'ip link add al type bridge',
          'ip link add b type bridge', 'ip link add q type bridge', 'ip link add lo type bridge', 'ip link add x1 netns cnisim-sh-u type bridge', 'ip link add x1 type veth peer name x2 netns nope2',
          'ip link del nope', 'ip link delete nope', 'ip link del lo', 'ip link del', 'ip link del dev ve0', 'ip link del br0', 'ip link del ve1', 'ip link del d', 'ip link del vd2 type veth',
          'ip link set nope up', 'ip link set br0 down', 'ip link set br0 mtu 10', 'ip link set br0 mtu 70000', 'ip link set br0 mtu x', 'ip link set br0 mtu 9000', 'ip link set ve0 mtu 1400',
          'ip link set br0 address 01:00:00:00:00:01', 'ip link set br0 address zz', 'ip link set br0 address 02:00:00:00:00:aa', 'ip link set br0 address 02:00:00:00:00',
          'ip link set vd master br0', 'ip link set vd master nope', 'ip link set vd master ve0', 'ip link set br0 master br0', 'ip link set lo master br0', 'ip link set ve0 nomaster', 'ip link set vd nomaster',
          'ip link set vd name ve1', 'ip link set vd name vx', 'ip link set ve0 name vx', 'ip link set vd name a/b', 'ip link set vd name 0123456789abcdefgh', 'ip link set vd promisc on', 'ip link set vd promisc maybe',
          'ip link set vd netns nope', 'ip link set br0 netns cnisim-sh-u', 'ip link set lo netns cnisim-sh-u', 'ip link set vd netns cnisim-sh-u', 'ip link set vd netns cnisim-sh-u name qq',
          'ip link set vd foo', 'ip link set', 'ip link set up', 'ip link set vd', 'ip link set dev vd up', 'ip link set vd up down', 'ip link set vd mtu 1000 mtu 1200', 'ip link set vd txqueuelen 500',
          'ip link set vd mtu', 'ip link set vd address', 'ip link set vd txqueuelen x', 'ip link set vd up master br0', 'ip link set vd down master br0', 'ip link set ve0 master br0',
          'ip link set vd allmulticast on', 'ip link set vd netns cnisim-sh-u; ip -n cnisim-sh-u link set vd up', 'ip link foo', 'ip link help', 'ip link set vd type veth', 'ip l a z type bridge',
          'ip addr add 10.1.0.1/24 dev br0', 'ip addr add 10.1.0.1/25 dev br0', 'ip addr add 10.1.0.1/24 dev nope', 'ip addr add 10.1.0.1/24', 'ip addr add foo/24 dev br0', 'ip addr add 10.1.0.1/33 dev br0',
          'ip addr add 10.1.0.2 dev br0', 'ip addr add 10.1.0.3/24 brd + dev br0', 'ip addr add 10.1.0.4/24 broadcast 10.1.0.200 dev br0', 'ip addr add fd00:1::1/64 dev br0 nodad',
          'ip addr add fd00:1::1/65 dev br0', 'ip addr add 10.1.0.5/24 dev br0 nodad', 'ip addr add 10.7.0.6/24 dev br0 scope link', 'ip addr add 10.7.0.7/24 dev br0 scope foo', 'ip addr add 10.7.0.8/24 dev br0 brd + brd +',
          'ip addr add 10.7.0.9/24 dev br0 garbage', 'ip -4 addr add fd00::9/64 dev br0', 'ip -6 addr add 10.1.0.10/24 dev br0', 'ip addr del 10.1.0.99/24 dev br0', 'ip addr del 10.1.0.1/24 dev br0',
          'ip addr del 10.1.0.1 dev br0', 'ip addr del 10.1.0.1/32 dev br0', 'ip addr del fd00:1::99/64 dev br0', 'ip addr del fd00:1::1/64 dev br0', 'ip addr del fd00:1::1 dev br0', 'ip addr del 10.1.0.1/24 dev nope',
          'ip addr del 10.1.0.1/24', 'ip address add 10.1.0.20/24 dev br0', 'ip a add 10.1.0.21/24 dev br0', 'ip addr add dev br0 10.7.6.1/24', 'ip addr add local 10.7.7.1/24 dev br0',
          'ip addr add 10.7.9.2/24 brd foo dev br0', 'ip addr add 127.0.0.5/8 dev br0', 'ip addr add 10.7.1.1/255.255.255.0 dev br0', 'ip addr add 10.7 dev br0', 'ip addr add fe80::5/64 dev br0',
          'ip addr add 10.7.2.1/24 dev vd', 'ip addr foo', 'ip addr add 10.7.3.1/24 dev br0 label br0', 'ip addr add 10.7.3.1/24 dev br0 label foo',
          'sysctl -q -w net.ipv6.conf.br0.disable_ipv6=1; ip addr add fd00:77::1/64 dev br0',
          'ip route add 10.50.0.0/16 via 10.1.0.99', 'ip route add 10.50.0.0/16 via 10.1.0.99; ip route add 10.50.0.0/16 via 10.1.0.99', 'ip route add 10.51.0.0/16 via 10.77.0.1', 'ip route add 10.51.0.0/16 via 10.77.0.1 dev br0',
          'ip route add 10.52.0.0/16 dev br0', 'ip route add 10.52.0.0/16 dev vd', 'ip route add 10.53.0.0/16 dev nope', 'ip route add 10.54.0.1/16 dev br0', 'ip route add default via 10.1.0.1',
          'ip route add default via 10.1.0.1; ip route add default via 10.1.0.1', 'ip route add default via 10.1.0.2; ip route replace default via 10.1.0.3', 'ip route del default', 'ip route add default via 10.1.0.1; ip route del default; ip route del default',
          'ip route del 10.99.0.0/16', 'ip route del 10.1.0.0/24 dev vd', 'ip route del 10.1.0.0/24', 'ip route add foo dev br0', 'ip route add 10.55.0.0/16', 'ip route add 10.56.0.0/16 via foo',
          'ip route add 10.57.0.0/16 dev br0 metric 100; ip route add 10.57.0.0/16 dev br0 metric 200; ip route del 10.57.0.0/16', 'ip route add 10.58.0.0/16 dev br0 metric x', 'ip route add 10.59.0.0/16 dev br0 scope link',
          'ip route add 10.60.0.0/16 dev br0 scope foo', 'ip route add 10.61.0.0/16 dev br0 src 10.1.0.1', 'ip route add 10.62.0.0/16 dev br0 src 10.200.0.1', 'ip route add 10.63.0.0/16 via fd00::1',
          'ip route add fd00:5::/64 via fd00:1::99', 'ip route add fd00:5::/64 via fd00:9::1', 'ip route add fd00:5::/64 dev br0', 'ip route add fd00:5::/64 dev br0; ip route add fd00:5::/64 dev br0',
          'ip -6 route add default via fe80::1 dev br0', 'ip -6 route del default', 'ip route add fd00:6::/64 dev vd', 'ip route add fd00:8::1/64 dev br0', 'ip route del fd00:8::/64',
          'ip route add 10.64.0.0/16 dev br0 garbage', 'ip route add 10.71.0.0/16 via 10.9.0.5 dev vd', 'ip route add 10.72.0.0/16 dev br0 proto static', 'ip route add 10.73.0.0/16 dev br0 proto foo',
          'ip route add 10.74.0.0/16 via 10.1.0.99 dev br0', 'ip route add 10.75.0.0/16 via 10.1.0.99 dev br0 scope link', 'ip route add 10.76.0.0 dev br0; ip route del 10.76.0.0', 'ip route add to 10.77.0.0/16 dev br0',
          'ip route add 10.78.0.0/16 dev br0 metric 0; ip route add 10.78.0.0/16 dev br0', 'ip route append 10.78.0.0/16 dev br0 metric 5; ip route append 10.78.0.0/16 dev ve0 metric 5', 'ip route change 10.79.0.0/16 dev br0',
          'ip route add 10.80.0.0/16 dev br0; ip route change 10.80.0.0/16 via 10.1.0.5', 'ip route replace 10.81.0.0/16 dev br0', 'ip route add', 'ip route del', 'ip route add default', 'ip route foo',
          'ip -6 route add 10.1.0.0/16 dev br0', 'ip -4 route add fd00::/16 dev br0', 'ip route add 10.1.0.0/16 via 10.1.0.1 via 10.1.0.2', 'ip route add blackhole 10.82.0.0/16',
          'ip route add 10.83.0.0/16 via 10.1.0.99 src 10.1.0.1 metric 7 scope global', 'ip route add 10.84.0.0/16 dev br0 table main', 'ip route del 10.1.0.0/24 scope host', 'ip route del 10.1.0.0/24 proto kernel',
          'ip route add 10.85.0.0/16 dev lo', 'ip link set lo up; ip route add 10.85.0.0/16 dev lo', 'ip route add 10.86.0.0/16 via 10.1.0.99 dev lo',
          'ip -n cnisim-sh-u link add x type bridge', 'ip -n nope link add x type bridge', 'ip -n', 'ip -x link', 'ip', 'ip foo', 'ip -V', 'ip netns exec nope true', 'ip netns exec cnisim-sh-u nosuchcmd',
          'ip netns exec cnisim-sh-u', 'ip netns exec', 'ip netns add', 'ip netns delete', 'ip netns foo', 'ip netns add a/b', 'ip netns exec cnisim-sh-u sh -c "exit 7"', 'ip netns exec cnisim-sh-u false',
          'ip netns exec cnisim-sh-u ip link add x type bridge', 'ip netns add cnisim-sh-u', 'ip netns del cnisim-sh-nope', 'ip netns exec cnisim-sh-u sysctl -w net.ipv4.ip_forward=1',
          'ip -4 -n cnisim-sh-u link add x type dummyq', 'ip -f inet6 addr add 10.1.0.9/24 dev br0', 'ip -f foo link', 'ip -s -d -j link add x type bridge', 'ip --netns cnisim-sh-u link add x type bridge',
          'sysctl net.ipv4.ip_forward', 'sysctl -w net.ipv4.ip_forward=1', 'sysctl -q -w net.ipv4.ip_forward=0', 'sysctl net.ipv4.ip_forward=1', 'sysctl -n net.ipv4.ip_forward', 'sysctl net/ipv4/ip_forward',
          'sysctl net.ipv4.nope', 'sysctl -w net.ipv4.nope=1', 'sysctl -q -w net.ipv4.nope=1', 'sysctl -w net.ipv4.ip_forward=abc', 'sysctl -w net.ipv4.ip_forward', 'sysctl -w net.ipv4.conf.br0.arp_ignore=2',
          'sysctl -w net.ipv4.conf.nope.arp_ignore=2', "sysctl -w 'net.ipv4.ip_forward = 1'", 'sysctl', 'sysctl -x', 'sysctl -e net.ipv4.nope', 'sysctl net.ipv4.ip_forward net.ipv4.conf.br0.arp_ignore',
          'sysctl -w net.ipv4.ip_forward=1 net.ipv4.conf.br0.arp_ignore=1', 'sysctl -w net.ipv4.conf.all.forwarding=1; sysctl net.ipv4.ip_forward', 'sysctl -N net.ipv4.ip_forward', 'sysctl net.ipv4.conf.vd.arp_ignore',
          'sysctl -w net.ipv6.conf.br0.disable_ipv6=1; sysctl net.ipv6.conf.br0.disable_ipv6', 'sysctl -b net.ipv4.ip_forward', 'sysctl -n net.ipv4.conf.lo.forwarding net.ipv4.ip_forward']:
    c(x)

for x in ['ip link set vd address 0A:58:0A:F4:00:05', 'ip link set lo address 02:00:00:00:00:01', 'ip link set ve1 netns cnisim-sh-u',
          'ip netns exec cnisim-sh-u ip link set lo up; ip -n cnisim-sh-u addr add 10.99.0.1/32 dev lo', 'ip addr add 10.1.0.7/24 dev br0; ip addr del 10.1.0.1/24 dev br0',
          'ip link set vd up; ip link set vd2 up; ip route add 10.30.0.0/16 via 10.9.0.2; ip route del 10.30.0.0/16 via 10.9.0.2 dev vd', 'ip link del ve0; ip route add default via 10.1.0.254 metric 50',
          'ip -6 route add fd00:7::/64 via fd00:1::2 metric 5; ip -6 route replace fd00:7::/64 dev br0 metric 5', 'ip route add 10.40.0.0/24 dev br0 scope host; ip route del 10.40.0.0/24 scope link',
          'ip route add 10.41.0.0/24 dev br0 proto static; ip route del 10.41.0.0/24 proto boot']:
    c(x)

# ip route flush: its selectors (iproute2 iproute_list_flush_or_save and filter_nlmsg)
FLUSH = 'ip route add 10.50.0.0/16 via 10.1.0.99; ip route add 192.168.0.0/16 via 10.1.0.99; ip route add default via 10.1.0.1; '
for x in ['ip route flush table main', 'ip route flush table main; ip route flush table main; echo rc=$?', 'ip -6 route flush table main', 'ip route flush table 254',
          'ip route flush root 10.0.0.0/8', 'ip route flush 10.50.0.0/16', 'ip route flush 10.0.0.0/8', 'ip route flush to 10.50.0.0/16', 'ip route flush exact 10.50.0.0/16',
          'ip route flush match 10.50.1.0/24', 'ip route flush default', 'ip -4 route flush default', 'ip route flush all', 'ip route flush any', 'ip -6 route flush default',
          'ip route flush root fd00::/8', 'ip -6 route flush root fd00::/8', 'ip route flush dev br0 root 10.0.0.0/8', 'ip route flush dev vd', 'ip route flush dev nope',
          'ip route flush proto kernel', 'ip route flush proto boot', 'ip route flush proto static', 'ip route flush proto 3', 'ip route flush proto foo', 'ip route flush via 10.1.0.99',
          'ip route flush via 10.1.0.1 root 0.0.0.0/0', 'ip route flush root', 'ip route flush root foo', 'ip route flush table foo', 'ip route flush 10.50.0.0/16 192.168.0.0/16',
          'ip route flush root 10.50.0.0/16 table main dev br0', 'ip route flush', 'ip -6 route flush dev br0', 'ip route flush dev br0 dev vd',
          'ip route flush scope link', 'ip route flush scope global', 'ip route flush scope all', 'ip route flush scope foo', 'ip route flush metric 0', 'ip route flush metric 5',
          'ip route flush src 10.1.0.1', 'ip route flush table local', 'ip route flush table all', 'ip -s route flush table main']:
    c(FLUSH + x)

# IPv6 duplicate address detection: addresses are tentative for a while (br0 has a port with a
# carrier; the header's fd00:1::1 was added with nodad)
DAD = ['ip addr show dev br0', 'ip -j addr show dev br0', 'ip addr add fd00:2::1/64 dev br0; ip addr show dev br0',
       'ip addr add fd00:2::1/64 dev br0; ip -j addr show dev br0', 'ip addr add fd00:2::1/64 dev br0; ip -6 route add 2001:db8::/64 dev br0 src fd00:2::1',
       'ip -6 route add 2001:db8::/64 dev br0 src fd00:1::1', 'ip addr add fd00:2::1/64 dev br0 nodad; ip -6 route add 2001:db8::/64 dev br0 src fd00:2::1',
       'ip link set vd up; ip link set vd2 up; ip addr show dev vd', 'ip -o -6 addr show dev br0']
for x in DAD:
    c(x)

# The IPv4 main table of a namespace that never had an IPv4 route or address (cnisim-sh-u is new)
FIB = ['ip -n cnisim-sh-u route flush table main', 'ip -n cnisim-sh-u route flush dev lo', 'ip -n cnisim-sh-u -6 route flush table main',
       'ip -n cnisim-sh-u link set lo up; ip -n cnisim-sh-u route flush table main',
       'ip -n cnisim-sh-u route add 10.5.0.0/16 dev lo; ip -n cnisim-sh-u route flush table main',
       'ip -n cnisim-sh-u link add q0 type veth peer name q1; ip -n cnisim-sh-u addr add 10.6.0.1/24 dev q0; ip -n cnisim-sh-u route flush table main',
       'ip -n cnisim-sh-u link add q0 type veth peer name q1; ip -n cnisim-sh-u link set q0 up; ip -n cnisim-sh-u addr add 10.6.0.1/24 dev q0; ip -n cnisim-sh-u link del q0; ip -n cnisim-sh-u route flush table main']
for x in FIB:
    c(x)


def sh(c):
    return subprocess.run(c, shell=True, capture_output=True)


def ipj(ns, args):
    r = subprocess.run(f'ip -n {ns} -j {args}', shell=True, capture_output=True, text=True)
    try:
        return json.loads(r.stdout or '[]')
    except ValueError:
        return []


def state(ns):
    lines = []
    for l in ipj(ns, '-d link show'):
        kind = (l.get('linkinfo') or {}).get('info_kind', '-')
        lines.append(f"L {l['ifname']} {'up' if 'UP' in l.get('flags', []) else 'down'} mtu={l['mtu']} master={l.get('master', '-')} kind={kind} qlen={l.get('txqlen')} promisc={l.get('promiscuity')}")
    for l in ipj(ns, 'addr show'):
        for a in l.get('addr_info', []):
            if a['local'].startswith('fe80:'):
                continue
            lines.append(f"A {l['ifname']} {a['family']} {a['local']}/{a['prefixlen']} {a.get('scope')} brd={a.get('broadcast', '-')}")
    for fam in ('-4', '-6'):
        for r in ipj(ns, f'{fam} route show table main'):
            if r['dst'].startswith('fe80:'):
                continue
            lines.append('R ' + ' '.join(f"{k}={r.get(k, '-')}" for k in ['dst', 'gateway', 'dev', 'protocol', 'scope', 'prefsrc', 'metric']))
    return sorted(lines)


def run(case):
    for n in NS:
        sh(f'ip netns del {n} 2>/dev/null')
        sh(f'ip netns add {n}')
    shutil.rmtree(WORK, ignore_errors=True)
    for p, data in FILES.items():
        os.makedirs(os.path.dirname(os.path.join(WORK, p)), exist_ok=True)
        open(os.path.join(WORK, p), 'w').write(data)
    for s in case.get('setup', []):
        r = subprocess.run(['ip', 'netns', 'exec', NS[0], 'bash', '-c', s], cwd=WORK, capture_output=True)
        if r.returncode != 0:
            sys.exit(f'setup failed: {s}: {r.stderr!r}')
    env = {'PATH': os.environ['PATH'], 'HOME': '/root', 'LANG': 'C.UTF-8'}
    r = subprocess.run(['ip', 'netns', 'exec', NS[0], 'timeout', '5', 'bash', '-c', case['cmd']], cwd=WORK, capture_output=True, env=env)
    files = {}
    for root, dirs, fs in os.walk(WORK):
        for f in fs:
            p = os.path.join(root, f)
            files[os.path.relpath(p, WORK)] = open(p, 'rb').read().decode('utf-8', 'replace')
        for d in dirs:
            files[os.path.relpath(os.path.join(root, d), WORK) + '/'] = None
    st = {n: state(n) for n in NS} if case.get('group') == 'ip' else None
    return r, files, st


def main(out_path):
    out = open(out_path, 'w')
    _, base_files, base_state = run({'group': 'ip', 'cmd': 'true', 'setup': BASE})
    out.write(json.dumps({'header': True, 'work': WORK, 'files': FILES, 'ipSetup': BASE, 'ipState': base_state}, ensure_ascii=False) + '\n')
    _, plain_files, _ = run({'group': 'files', 'cmd': 'true'})
    for case in CASES:
        r, files, st = run(case)
        rec = {'group': case['group'], 'cmd': case['cmd'], 'stdout': r.stdout.decode('utf-8', 'replace'), 'stderr': r.stderr.decode('utf-8', 'replace'), 'exitCode': r.returncode}
        # Files and state as changes from the fixture.
        changed = {p: v for p, v in sorted(files.items()) if p not in plain_files or plain_files[p] != v}
        removed = sorted(p for p in plain_files if p not in files)
        if changed:
            rec['filesChanged'] = changed
        if removed:
            rec['filesRemoved'] = removed
        if st is not None:
            delta = {}
            for n in NS:
                add = [x for x in st[n] if x not in base_state[n]]
                rm = [x for x in base_state[n] if x not in st[n]]
                if add or rm:
                    delta[n] = {'add': add, 'del': rm}
            if delta:
                rec['stateChanged'] = delta
        out.write(json.dumps(rec, ensure_ascii=False) + '\n')
    for n in NS:
        sh(f'ip netns del {n} 2>/dev/null')


if __name__ == '__main__':
    main(sys.argv[1])
