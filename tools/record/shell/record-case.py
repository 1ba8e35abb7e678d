#!/usr/bin/env python3
"""
Records what bash 5.2 (Debian bookworm) prints for `case` commands, for
src/engine/shell/case.test.ts: hand-picked lines (patterns with *, ?, [...], classes, quoting
and escapes, expanded words and patterns, several patterns per item, `;;`, `;&`, `;;&`, empty
lists, the last item without `;;`, newlines between parts, status, redirections, nesting in
loops, syntax errors), then words and patterns generated from a fixed seed. Each runs as
`bash -c CMD` in /tmp with a clean environment and /dev/null as its input.

    python3 tools/record/shell/record-case.py src/engine/shell/golden/case-outputs.jsonl
"""
import random, sys

from bashcases import record

CASES = [
    'case a in a) echo A;; b) echo B;; esac', 'case b in a) echo A;; b) echo B;; esac', 'case c in a) echo A;; *) echo other;; esac',
    'case c in a) echo A;; esac; echo $?', 'case x in x) false;; esac; echo $?', 'case x in x) ;; esac; echo $?',
    'case x in (x) echo paren;; esac', 'case x in a|x|b) echo multi;; esac', 'case hello.conflist in *.conf) echo conf;; *.conflist) echo list;; esac',
    'case 10-bridge.conf in [0-9][0-9]-*) echo numbered;; esac', 'case a1 in [[:alpha:]][[:digit:]]) echo class;; esac', 'case b in [!a]) echo not-a;; esac',
    'case "*" in "*") echo star;; esac', 'case abc in "*") echo star;; *) echo any;; esac', "case abc in '*') echo star;; a*) echo a-star;; esac",
    'case a in \\*) echo esc;; *) echo other;; esac', 'case "*" in \\*) echo esc;; esac', 'p="a*"; case abc in $p) echo pat;; esac',
    'p="a*"; case abc in "$p") echo quoted;; *) echo no;; esac', 'w="x y"; case $w in "x y") echo spaced;; esac', 'case "" in "") echo empty;; esac',
    'case x in a) echo 1;& x) echo 2;& y) echo 3;; z) echo 4;; esac', 'case x in x) echo 1;;& y) echo 2;;& x*) echo 3;;& *) echo 4;; esac',
    'case x in x) echo 1;& esac; echo $?', 'case x in\n  x)\n    echo nl\n    ;;\nesac', 'case x\nin x) echo nl-in;; esac', 'case x in x) echo last; esac',
    'case x in x) echo a; echo b;; esac', 'for f in a.conf b.json c.conflist; do case $f in *.conf|*.conflist) echo "cni: $f";; *) echo "skip: $f";; esac; done',
    'case $(echo hi) in h?) echo subst;; esac', 'case x in $(echo x)) echo pat-subst;; esac', 'case 5 in $((2+3))) echo arith;; esac',
    'case ~ in /root) echo home;; esac', 'case x in x) echo out;; esac > /tmp/case-o; cat /tmp/case-o', 'case x in x) exit 3;; esac; echo no',
    'case x in', 'case x in x) echo a', 'case x in x echo a;; esac', 'case in x) echo;; esac', 'case x x) echo;; esac', 'case x in ) echo;; esac',
    'echo a ;;', 'case x in x) echo a;; ;; esac', 'case x in x) ;& y) echo fell;; esac', 'case x in esac; echo $?',
    'case .hidden in *hidden) echo dot;; esac', 'case a/b in a*b) echo slash;; esac', 'case "a]" in *]) echo bracket;; esac', 'case a in [) echo lone;; *) echo other;; esac',
    'case ab in a\\b) echo escb;; esac', 'case "a\\b" in "a\\b") echo bs;; esac', 'case x in x) case y in y) echo nested;; esac;; esac',
    'while true; do case x in x) break;; esac; done; echo broke', 'case A in [a-z]) echo lower;; [A-Z]) echo upper;; esac',
    'v=eth0; case $v in eth*) echo "$v is an ethernet name";; cni*|veth*) echo cni;; esac', 'case x in *) echo a;;& *) echo b;; esac',
    'x=; case $x in "") echo unset-empty;; *) echo set;; esac', 'case "$HOME" in /*) echo abs;; esac', 'case x in x) echo $?; false;; esac; echo $?',
    'false; case x in y) echo no;; esac; echo $?', 'case x in x) echo one;;esac', 'case x in x)echo tight;;esac', 'case a in a|b) echo ab;;  c|d) echo cd;;esac',
]

CHARS = ['a', 'b', '.', '-', '1', '*', '?', '[ab]', '[!a]', '\\*', '"*"', "'?'", '[0-9]', 'x']


def gen(r):
    word = ''.join(r.choice(['a', 'b', '.', '-', '1', 'x', '*', '?']) for _ in range(r.randint(0, 4)))
    pats = []
    for _ in range(r.randint(1, 3)):
        pats.append(''.join(r.choice(CHARS) for _ in range(r.randint(1, 3))))
    return f"w='{word}'; case \"$w\" in {' | '.join(pats)}) echo yes;; *) echo no;; esac"


def main(path):
    r = random.Random(20261202)
    cmds = list(CASES)
    for _ in range(150):
        cmds.append(gen(r))
    record(path, cmds, ['/tmp/case-o'])


if __name__ == '__main__':
    main(sys.argv[1])
