#!/usr/bin/env python3
"""
Records what bash 5.2 (Debian bookworm) prints for `[[ … ]]`, for src/engine/shell/cond.test.ts:
hand-picked lines (file and string tests, patterns and quoted patterns, =~ with groups,
alternation, classes and quoted parts, arithmetic comparisons of expressions, < and >, !, &&,
|| and parentheses, no word splitting or globbing, statuses, errors), then comparisons
generated from a fixed seed. Each runs as `bash -c CMD` in /tmp with a clean environment and
/dev/null as its input; it touches nothing but /tmp/cond-*.

    python3 tools/record/shell/record-cond.py src/engine/shell/golden/cond-outputs.jsonl
"""
import random, sys

from bashcases import record

CASES = [
    '[[ -d /tmp ]] && echo dir', '[[ -f /tmp ]] || echo not-file', 'touch /tmp/cond-f; [[ -f /tmp/cond-f && -e /tmp/cond-f ]]; echo $?',
    '[[ -s /tmp/cond-f ]]; echo $?', '[[ -e /nonexistent ]]; echo $?', '[[ ! -e /nonexistent ]]; echo $?', '[[ -z "" && -n x ]]; echo $?',
    '[[ -z $unset ]]; echo $?', 'x="a b"; [[ $x == "a b" ]]; echo $?', 'x="a b"; [[ -n $x ]]; echo $?', '[[ abc == a* ]]; echo $?',
    '[[ abc == "a*" ]]; echo $?', "[[ 'a*' == 'a*' ]]; echo $?", '[[ abc = a?c ]]; echo $?', '[[ abc != a* ]]; echo $?', '[[ abc == [ab]bc ]]; echo $?',
    'p="a*"; [[ abc == $p ]]; echo $?', 'p="a*"; [[ abc == "$p" ]]; echo $?', '[[ * == "*" ]]; echo $?', '[[ $(echo hi) == hi ]]; echo $?',
    '[[ abc =~ ^a.c$ ]]; echo $?', '[[ abc =~ b ]]; echo $?', '[[ abc =~ ^(a|b)bc$ ]]; echo $?', '[[ 10.244.1.5 =~ ^10\\.244\\.([0-9]+)\\.[0-9]+$ ]]; echo $?',
    '[[ 10x244 =~ ^10\\.244 ]]; echo $?', '[[ a.c =~ "a.c" ]]; echo $?', '[[ abc =~ "a.c" ]]; echo $?', 're="^[0-9]+$"; [[ 123 =~ $re ]]; echo $?',
    're="^[0-9]+$"; [[ 123 =~ "$re" ]]; echo $?', '[[ a1 =~ [[:alpha:]][[:digit:]] ]]; echo $?', 
    '[[ 1+1 -eq 2 ]]; echo $?', '[[ 3 -gt 2 && 2 -lt 3 ]]; echo $?', '[[ 010 -eq 8 ]]; echo $?', 'n=5; [[ n -ge 5 ]]; echo $?', '[[ a -eq 0 ]]; echo $?',
    '[[ 1/0 -eq 1 ]]; echo $?', '[[ 2 -ne 2 ]]; echo $?', '[[ 4 -le 3 ]]; echo $?', '[[ a < b ]]; echo $?', '[[ b > a ]]; echo $?', '[[ B < a ]]; echo $?',
    '[[ 10 < 9 ]]; echo $?', '[[ a ]]; echo $?', '[[ "" ]]; echo $?', '[[ ! "" ]]; echo $?', '[[ ( a == a ) && ( b == c || c == c ) ]]; echo $?',
    '[[ a == b || ! a == b ]]; echo $?', '[[ ! ( a == a ) ]]; echo $?', '[[ -v HOME ]]; echo $?', '[[ -v nope ]]; echo $?', 'x=1; [[ -v x ]]; echo $?',
    '[[ a == a ]] && [[ b == b ]] && echo both', 'if [[ -d /tmp && ! -f /tmp ]]; then echo yes; fi', 'for f in a.conf b.json; do [[ $f == *.conf ]] && echo $f; done',
    '[[ a == a &&\n b == b ]]; echo $?', '[[ $x == "" ]]; echo $?', 'x=*; [[ $x == "*" ]]; echo $?', '[[ ~ == /root ]]; echo $?',
    '[[ "a b" == a\\ b ]]; echo $?', '[[ a\\* == "a*" ]]; echo $?', '[[ -n "$(ls /nonexistent 2>/dev/null)" ]]; echo $?', '[[ 5 -eq 5 ]] > /tmp/cond-o; echo $?',
    '[[ a == a ]]; [[ $? -eq 0 ]] && echo zero', '[[ abc == *b* ]] && [[ abc =~ c$ ]] && echo ok', '[[ -x /tmp ]]; echo $?', '[[ -d /tmp/cond-f ]]; echo $?',
    '[[ "" == "" ]]; echo $?', '[[ a =~ ]]; echo $?', '[[ a -nt b ]]; echo $?', '[[ -f ]]; echo $?', '[[ a b ]]; echo $?', '[[ ( a ]]; echo $?',
]


def gen(r):
    words = ['a', 'ab', 'abc', '', '10', '9', 'x y', '*', 'a*', '1+1', 'B']
    a = r.choice(words)
    b = r.choice(words)
    op = r.choice(['==', '!=', '=', '<', '>', '-eq', '-lt', '-ge', '=~'])
    qa = r.choice(['"', "'", ''])
    qb = r.choice(['"', "'", ''])
    if (qa == '' and ' ' in a) or (qa == '' and a == ''):
        qa = '"'
    if (qb == '' and ' ' in b) or (qb == '' and b == ''):
        qb = '"'
    neg = '! ' if r.random() < 0.2 else ''
    return f'[[ {neg}{qa}{a}{qa} {op} {qb}{b}{qb} ]]; echo $?'


def main(path):
    r = random.Random(20261202)
    cmds = list(CASES)
    for _ in range(150):
        cmds.append(gen(r))
    record(path, cmds, ['/tmp/cond-f', '/tmp/cond-o'])


if __name__ == '__main__':
    main(sys.argv[1])
