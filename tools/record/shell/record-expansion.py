#!/usr/bin/env python3
"""
Records what bash 5.2 (Debian bookworm) prints for arithmetic and brace expansion, for
src/engine/shell/expansion.test.ts: hand-picked command lines (every operator, constant form,
error message, the way an expansion error ends a script; `let`, `(( ))` and `for (( ))` with break and continue; brace expansion's
lists, sequences and what stays literal), then expressions and brace words generated from a
fixed seed. Each runs as `bash -c CMD` in /tmp with a clean environment; nothing else is touched.

    python3 tools/record/shell/record-expansion.py src/engine/shell/golden/expansion-outputs.jsonl
"""
import random, sys

from bashcases import record

CASES = [
    'echo $((1/0))', 'echo $(( 1 + ))', 'echo $((1 +))', 'echo $(( 2 ** 10 )) $((7%3)) $((-7/2)) $((1<<62<<2))',
    'x=5; echo $((x*2)) $(( x += 3 )) $x', 'echo $(( 0x1f + 010 + 2#101 + 64#@ ))', 'echo $(( a b ))',
    'echo $(( 1 ? 2 : 3 )) $((!0)) $((~0)) $((3>2 && 0 || 1))', 'y=x; x=4; echo $((y+1))', 'echo $((09))',
    'echo $(( (1+2)*3 ))', 'echo $((1+2)', 'echo a$((1+1))b', 'i=0; echo $((i++)) $((++i)) $i', 'echo $((2**-1))',
    'echo $(( 9223372036854775807 + 1 ))', 'echo $((x=))', 'echo $(( "3" + 4 ))', 'echo $((65#1))', 'echo $(( 1 , 2 ))',
    'z=abc; echo $((z))', 'z="1 +"; echo $((z))', 'echo $((echo a); (echo b))', 'echo $((5/0)) after; echo next',
    'echo $(( 1/0 + 2 ))', 'echo $(( 1 $ 2 ))', 'echo $(( ++5 ))', 'echo $(( 5 = 3 ))', 'echo $(( 1 ? 2 ))',
    'echo $(( (1 + 2 ))', 'echo $(( 0x ))', 'echo $(( 1 + 2 ) ))',
    'x=3; echo $(( x ** 2 ** 2 )) $(( -x ** 2 )) $((1<<64)) $((-9223372036854775807-1)) $(( (-9223372036854775807-1) / -1 )) $(( (-9223372036854775807-1) % -1 ))',
    'echo $(( 0 && 1/0 )) $(( 1 || 1/0 )) $(( 0 ? 1/0 : 4 ))', 'echo $(( 08 + 1 ))', 'echo $(( 2#102 ))',
    'echo $(( 36#zz )) $(( 37#z )) $((16#fF))', 'echo $(( 37#Z ))', 'x=1; echo $(( x = y = 7 )) $x $y',
    'echo $(( 1 < 2 > 0 == 1 != 0 ))', 'echo $((5 & 3 ^ 1 | 8))', 'echo $(( -(-3) )) $(( - - 3 )) $(( !!5 ))', 'echo $((  ))',
    'echo $(( a++ )) $a $(( b-- )) $b', 'echo $(( 3 +  ))', 'x=" 4 "; echo $(( x * 2 ))', 'x=4; echo $(( $x * 2 ))',
    'echo $((1 2))', 'echo $(( 1 ? 2 : ))', 'echo "$(( 1 + 2 ))"', 'echo $(( 10#08 )) $(( 10# ))',
    'x=2; echo $(( x <<= 3 )) $x $(( x >>= 1 )) $(( x |= 1 )) $(( x &= 6 )) $(( x ^= 15 )) $(( x %= 4 )) $(( x /= 0 ))',
    'x=7; echo $(( x-- - --x )) $x', 'echo $(( --5 ))', 'echo $(( ++ ))', 'echo $(( 1 + ++ ))', 'x=1; echo $(( x++ = 3 ))',
    'echo $(( (1, 2 ))', 'echo $((`echo 6` * 7))', 'echo $(( $(echo 2) ** 3 ))', 'for i in 1 2 3; do echo $(( i * i )); done',
    'n=0; while [ $n -lt 3 ]; do n=$((n+1)); done; echo $n', 'echo $(( -9223372036854775808 ))', 'echo $(( 9223372036854775808 ))',
    'echo $(( 3 > 2 ? 10 : 20 ))', 'echo $(( 1 ? 2 ? 3 : 4 : 5 ))', 'echo $(( 0 ? 1 : 0 ? 2 : 3 ))', 'echo $(( x = 3, y = x * 2, y + 1 ))',
    'echo $(( 1 && 0 || 0 && 1 ))', 'echo $(( 7 / 2 * 2 )) $(( 7 % -3 )) $(( -7 % 3 ))', 'echo $(( ! ))', 'echo $(( ~ ))',
    'echo $(( 2 ** 63 )) $(( 2 ** 64 )) $(( -2 ** 3 ))', 'echo $(( 1 == 1 == 1 ))', 'echo $(( _x + 1 ))', 'echo $(( x1 = 5 )) $x1',
    'echo $(( 1e3 ))', 'echo $(( 0b101 ))', 'echo $(( 12abc ))', "echo $(( 'x' ))", "echo $(( 1 + 'x' ))", 'echo $(( @ ))',
    'echo $(( 1 @ 2 ))', 'echo $(( ] ))', 'echo $(( 1 ; 2 ))', 'echo $(( 1 . 2 ))', 'echo $((\t1\t+\t2\t))', 'echo $(( 1 +\n2 ))',
    'echo ${x:-$((3+4))}', 'a=$((1+1)); echo $a', 'echo $(( 2 > 1 )) $(( 2 < 1 )) $(( 2 >= 2 )) $(( 2 <= 1 )) $(( 2 != 2 ))',
    'echo ${u?oops} after; echo next', 'echo ${u:?}; echo next', 'x=$((1/0)); echo next', 'if true; then echo $((1/0)); echo in; fi; echo next',
    'for i in 1 2; do echo $((i/0)); done; echo next', 'echo $(echo $((1/0)); echo inner) next', 'echo $((1/0)) | cat; echo next',
    'true && echo $((1/0)) || echo or; echo next', 'echo ${a b}; echo next', 'x=5; echo $(( x /= 2 )) $(( x *= -3 )) $(( x -= 1 )) $(( x += x ))',
    'u="u+1"; echo $((u))', 'p=q; q=r; r=7; echo $((p * 2))',
    # let and (( )): commands, whose errors do not end the line.
    'let x=1/0; echo next $?', '(( 1/0 )); echo next $?', '(( 0 )); echo $?; (( 5 )); echo $?', 'let "a = 2 * 3" b=a+1; echo $? $a $b',
    'let; echo $?', 'let 0; echo $?', '((x=4, y=x*2)); echo $x $y', '(( 1 +)); echo n', 'if (( 3 > 2 )); then echo yes; fi',
    '((1+2)) && echo t', 'echo ((1))', '((echo a); (echo b))', 'x=1; (( x += $x )); echo $x', 'n=0; while (( n < 3 )); do (( n++ )); done; echo $n',
]

# for (( )), break and continue.
LOOPS = ['for ((i=0; i<3; i++)); do echo $i; done', 'for ((i=0; i<3; i++)) do echo $i; done', 'for (( ; ; )); do echo once; break; done', 'for ((i=0; i<1/0; i++)); do echo x; done; echo after $?', 'for ((i=0; i<2; i++)); do echo $i; done; echo $i $?', 'for ((i=5; i; i--)); do :; done; echo $?', 'for ((i=0; i<2; i++)) ; do echo $i; done > /tmp/o; cat /tmp/o', 'for ((i=0; i<3)); do echo; done', 'for ((;;)); do break; done; echo $?', 'for ((i=0; i<3; i++)); do continue; done; echo $i', 'break; echo $?', 'continue; echo $?', 'for i in 1 2; do for j in a b; do echo $i$j; break 2; done; done; echo $?', 'for i in 1 2 3; do [ $i = 2 ] && continue; echo $i; done', 'for i in 1; do break 0; echo after $?; done', 'for i in 1; do break x; echo after $?; done; echo out $?', 'for i in 1 2; do break 5; done; echo $?', 'while true; do break; done; echo $?', 'for i in 1 2; do ( break ); echo $i; done', 'for i in 1 2; do x=$(break); echo $i; done', 'i=0; until false; do i=$((i+1)); [ $i -ge 3 ] && break; done; echo $i', 'for i in 1 2; do continue 2 3; done; echo $?', 'for i in 1 2 3; do for j in a b c; do [ $j = b ] && continue 2; echo $i$j; done; done', 'n=0; while :; do n=$((n+1)); if [ $n -gt 4 ]; then break; fi; done; echo $n', 'for ((i=1, j=10; i<j; i*=2, j-=1)); do echo $i $j; done', 'for ((x=0; x<2; x++)); do for ((y=0; y<2; y++)); do echo $x$y; done; done', 'for (( i = 0 ; i < 2 ; i++ )); do echo "$((i*10))"; done', 'for ((i=0;i<3;i++))\ndo echo $i; done']

BRACES = ['echo x{,}y', 'echo {,}', 'echo a{,}', 'echo {a}{b,c}', 'echo {a,b}{1,2}', 'echo {01..10}', 'echo {-3..3..2} {5..1} {1..10..-3} {1..3..0}', 'echo {a..e} {e..a..2} {Z..a}', 'echo {1..a} {a..1} {1..} {..2} {1..2..}', 'echo "{a,b}" {a\\,b} \\{a,b} {a,b\\}', 'x={a,b}; echo $x', 'a=1; echo {$a,b}', 'echo {a,{b,c}}d', 'echo {a,b', 'echo a}b{', 'echo {-01..2} {1..-1} {00..3}', 'echo ${x:-{a,b}}', 'echo {a..z..5}', 'echo {1..5}{a,b}', 'echo pre{"a",b}post', 'echo ~{a,b}', 'echo {9..11}', 'echo {1..3}0', 'echo {a,}{b,}', 'for i in {1..3}; do echo $i; done', 'echo {}', 'echo {a,b}{}', 'echo { a,b }', 'echo {a, b}', 'echo {a,b}{c,d}{e,f}', 'echo {{a,b},c}', 'echo {a,b}}', 'echo {{a,b}', 'echo {a..c}{1..2}', 'echo {1..3..2}x{y,z}', 'echo $(echo {1..3})', 'echo "$(echo {a,b})"', '{echo,hi}', "echo {a,'b c'}", 'echo a{b,c}$((1+1))', 'echo {10..8..2}', 'echo {a,b}{1..2}{,}', 'echo {1..02}', 'echo {-5..-1}', 'echo {+1..3}', 'echo {1.5..3}', 'echo {a..A}', 'echo {+1..3}', 'echo {+01..3}', 'echo {1..+3..+2}', 'echo {-01..+2}', 'echo {007..9}', 'echo {1..3..x}', 'echo {a..c..-1}', 'echo {a..c..0}', 'echo {-01..+02}']

OPS = ['+', '-', '*', '/', '%', '**', '<<', '>>', '<', '>', '<=', '>=', '==', '!=', '&', '^', '|', '&&', '||', ',']
UNARY = ['-', '+', '!', '~']


def gen(r, depth=0):
    k = r.random()
    if depth > 3 or k < 0.3:
        return r.choice([str(r.randint(0, 99)), str(r.randint(-5, 5)), hex(r.randint(0, 255)), '0' + oct(r.randint(0, 63))[2:],
                         f'{r.choice([2, 8, 16, 36, 64])}#{r.choice(["1", "10", "z", "Z", "@", "_", "11"])}', 'a', 'b', 'c', '9223372036854775807'])
    if k < 0.45:
        return r.choice(UNARY) + gen(r, depth + 1)
    if k < 0.55:
        return '(' + gen(r, depth + 1) + ')'
    if k < 0.62:
        return gen(r, depth + 1) + ' ? ' + gen(r, depth + 1) + ' : ' + gen(r, depth + 1)
    if k < 0.68:
        return r.choice(['a', 'b', 'c']) + ' ' + r.choice(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '|=', '^=']) + ' ' + gen(r, depth + 1)
    if k < 0.72:
        return r.choice(['a++', 'b--', '++c', '--a'])
    return gen(r, depth + 1) + ' ' + r.choice(OPS) + ' ' + gen(r, depth + 1)


def brace(r, depth=0):
    """A word with braces, commas, sequences, quotes and stray braces."""
    out = ''
    for _ in range(r.randint(1, 3)):
        k = r.random()
        if depth < 2 and k < 0.35:
            out += '{' + ','.join(brace(r, depth + 1) for _ in range(r.randint(0, 3))) + '}'
        elif k < 0.5:
            a, b = r.choice([('1', '3'), ('03', '1'), ('-2', '2'), ('a', 'c'), ('x', 'v'), ('1', 'b'), ('5', '5')])
            out += '{' + a + '..' + b + r.choice(['', '..2', '..-1', '..0']) + '}'
        else:
            out += r.choice(['a', 'b', 'x', '', '"{q,r}"', "'s,t'", '\\,', '}', '{', '$v', '${v}'])
    return out


def main(path):
    r = random.Random(20261202)
    cmds = list(CASES)
    for _ in range(300):
        cmds.append(f'a=3; b=-2; c=7; echo $(( {gen(r)} )) $a $b $c')
    cmds += LOOPS
    cmds += BRACES
    for _ in range(150):
        cmds.append(f'v=V; for w in {brace(r)}; do printf "[%s]" "$w"; done; echo')
    record(path, cmds, ['/tmp/o'])

if __name__ == '__main__':
    main(sys.argv[1])
