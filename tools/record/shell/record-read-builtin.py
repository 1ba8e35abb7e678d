#!/usr/bin/env python3
"""
Records what bash 5.2 (Debian bookworm) prints for the `read` builtin, for
src/engine/shell/read.test.ts: hand-picked command lines (names and REPLY, IFS splitting of the
last name, backslashes with and without -r, line continuation, a last line without its newline,
-d -n -N -p -t -u -s -e, option and name errors, `while read` loops over pipes, here-strings and
files, a loop's input shared with the commands in its body and with a child `bash -c`), then
lines and IFS values generated from a fixed seed. Each runs as `bash -c CMD` in /tmp with a clean
environment and /dev/null as its input; nothing else is touched but /tmp/read-*.

    python3 tools/record/shell/record-read-builtin.py src/engine/shell/golden/read-builtin-outputs.jsonl
"""
import random, sys

from bashcases import record

CASES = [
    'echo "a b c" | { read x y; echo "[$x][$y]"; }', 'echo hi | read x; echo "[$x]"',
    'read <<< "  a  b  "; echo "[$REPLY]"', 'read a b c <<< "1"; echo "[$a][$b][$c]"',
    'read a b <<< "  1   2   3  "; echo "[$a][$b]"', "read a <<< 'x\\ y\\\\z\\'; echo \"[$a]\"",
    "read -r a <<< 'x\\ y\\\\z'; echo \"[$a]\"", "printf 'a\\\\\\nb\\n' | { read x; echo \"[$x]\"; }",
    "printf 'a\\\\\\nb\\n' | { read -r x; echo \"[$x]\"; }", "printf 'abc' | { read x; echo $? \"[$x]\"; }",
    "printf '' | { read x; echo $? \"[$x]\"; }", "read x; echo $? \"[$x]\"",
    "printf '1\\n2\\n3\\n' | while read n; do echo \"n=$n\"; done", "printf '1\\n2\\n3\\n' | { read a; cat; }",
    "printf '1\\n2\\n3\\n' | { read a; read b; echo $a$b; cat; }", 'IFS=: read a b c <<< "x:y:z:w"; echo "[$a][$b][$c]"',
    'IFS=: read a b <<< "a:b:"; echo "[$a][$b]"', 'IFS=: read a b <<< "a::b"; echo "[$a][$b]"', 'IFS=: read a <<< ":a:"; echo "[$a]"',
    'IFS=: read a b c <<< ":a:"; echo "[$a][$b][$c]"', "IFS=', ' read a b c <<< '1, 2,,3'; echo \"[$a][$b][$c]\"",
    'IFS= read a <<< "  x  "; echo "[$a]"', 'IFS= read a b <<< "  x  y "; echo "[$a][$b]"', 'read -d , a <<< "x,y"; echo $? "[$a]"',
    "read -d '' a <<< 'x y'; echo $? \"[$a]\"", "read -d '' <<< 'x y'; echo $? \"[$REPLY]\"", 'read -n 3 a <<< "abcdef"; echo $? "[$a]"',
    'read -n 10 a <<< "ab"; echo $? "[$a]"', 'read -N 4 a <<< "ab"; echo $? "[$a]"', "printf 'ab\\ncd' | { read -N 4 a; echo $? \"[$a]\"; }",
    "printf 'ab\\ncd' | { read -n 4 a; echo $? \"[$a]\"; }", 'read -n 0 a <<< "ab"; echo $? "[$a]"', "read -n 2 a <<< 'a\\bc'; echo \"[$a]\"",
    'read -p "name: " a <<< x; echo "[$a]"', 'read -t 1 a <<< x; echo $? $a', 'read -t abc a <<< x; echo $?', 'read -t 0 <<< x; echo $?',
    'read -x; echo $?', 'read -d; echo $?', 'read 1a <<< x; echo $?', 'read a 1a b <<< "x y z"; echo $? "[$a][$b]"', 'read -n abc a <<< x; echo $?',
    'read -n -1 a <<< x; echo $?', 'read -u 3 a; echo $?', 'read -u x a; echo $?', 'read -u 0 a <<< "u0"; echo $? $a', 'read a b <<< "x"; echo $?',
    "printf 'a b\\nc d\\n' > /tmp/read-f; while read x y; do echo \"$y $x\"; done < /tmp/read-f",
    "for i in 1 2; do read l; echo \"$i:$l\"; done <<< $'p\\nq'", 'read -s a <<< s; echo $a', 'read -e a <<< e; echo $a', 'read -rs a <<< rs; echo $a',
    'read -- a <<< dd; echo $a', "printf 'a\\nb\\n' | { bash -c 'read x; echo child $x'; read y; echo parent $y; }",
    'echo hi | bash -c "read x; echo got \\$x"', 'while read -r line; do echo "${#line}"; done <<< "abc"', 'if read x <<< ""; then echo y "[$x]"; else echo n; fi',
    "printf 'x\\ny\\n' | while read l; do echo \"<$l>\"; done | wc -l", "printf 'one\\ntwo\\n' | while read -r l; do echo \"$l\" | sed s/o/0/g; done",
    "printf '10.0.0.1 a\\n10.0.0.2 b\\n' | while read ip pod; do echo \"$pod has $ip\"; done", 'read a b <<< $\'x\\ty\'; echo "[$a][$b]"',
    "read a <<< $'\\tx\\t'; echo \"[$a]\"", 'IFS=x read a b <<< "1x2x3"; echo "[$a][$b]"', 'read REPLY <<< z; echo $REPLY',
    "printf 'a\\n\\nb\\n' | while read l; do echo \"[$l]\"; done", "printf 'last' | while read l; do echo \"[$l]\"; done",
    "printf 'last' | while read l || [ -n \"$l\" ]; do echo \"[$l]\"; done", 'read -r -d "" a b <<< " p q "; echo $? "[$a][$b]"',
    "read -d 'xy' a <<< 'ayb'; echo \"[$a]\"", 'x=1; read x <<< ""; echo "[$x]"', 'read -r; echo $? "[$REPLY]"',
    'echo "a b" | while read x; do read y; echo "[$x][$y]"; done', 'read -n 2 -d b a <<< "abc"; echo "[$a]"',
    "printf 'k=v\\nk2=v2\\n' | while IFS== read k v; do echo \"$k -> $v\"; done", 'IFS=: ; read a b <<< "1:2 3"; echo "[$a][$b]"',    'read -N 4 a b <<< " a b c"; echo "[$a][$b]"', 'read -N 5 a <<< " ab"; echo $? "[$a]"', 'IFS=: read -N 4 a b <<< "x:y:"; echo "[$a][$b]"',
    "read -N 3 a <<< 'a\\bc'; echo \"[$a]\"", "read -n 3 a <<< ' ab'; echo \"[$a]\"", "read -d x a <<< 'a\\xb'; echo \"[$a]\"",
    "read -d x a <<< $'a\\\\\\nb'; echo \"[$a]\"", "read a b <<< 'x\\ y z'; echo \"[$a][$b]\"", "read a b <<< 'x y\\ '; echo \"[$a][$b]\"",
]

LINES = [' ', '  ', '\\t', 'a', 'b', 'c', ':', '::', '\\\\', '\\\\ ', 'x y', ',', '10.0.0.1', '-', '"', "\\'"]
IFSES = [None, '', ':', ' :', ', ', '\\t', ' \\t\\n', 'a']


def gen(r):
    line = ''.join(r.choice(LINES) for _ in range(r.randint(0, 7)))
    ifs = r.choice(IFSES)
    names = r.randint(0, 3)
    raw = r.random() < 0.5
    vs = ['a', 'b', 'c'][:names]
    pre = '' if ifs is None else f"IFS=$'{ifs}' "
    show = ''.join(f'[${{{v}}}]' for v in vs) if vs else '[$REPLY]'
    return f"{pre}read {'-r ' if raw else ''}{' '.join(vs)} <<< $'{line}'; echo $? \"{show}\""


def main(path):
    r = random.Random(20261202)
    cmds = list(CASES)
    for _ in range(200):
        cmds.append(gen(r))
    record(path, cmds, ['/tmp/read-f'])


if __name__ == '__main__':
    main(sys.argv[1])
