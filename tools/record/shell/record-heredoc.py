#!/usr/bin/env python3
"""
Records what bash 5.2 (Debian bookworm) prints for here-documents, for
src/engine/shell/heredoc.test.ts: hand-picked scripts (<< and <<-, quoted and unquoted
delimiters, expansions and escapes in the body, several here-documents on one line, in pipelines,
loops, compound commands and command substitutions, a conflist written to a file as CNI
tutorials do, a missing delimiter, syntax errors), then bodies generated from a fixed seed. Each
runs as `bash -c CMD` in /tmp with a clean environment and /dev/null as its input.

    python3 tools/record/shell/record-heredoc.py src/engine/shell/golden/heredoc-outputs.jsonl
"""
import random, sys

from bashcases import record

CONFLIST = '''mkdir -p /tmp/hd-net.d
cat <<EOF > /tmp/hd-net.d/10-mynet.conflist
{
  "cniVersion": "1.0.0",
  "name": "mynet",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{ "subnet": "10.22.0.0/16" }]],
        "routes": [{ "dst": "0.0.0.0/0" }]
      }
    }
  ]
}
EOF
cat /tmp/hd-net.d/10-mynet.conflist; wc -l < /tmp/hd-net.d/10-mynet.conflist'''

CASES = [
    'cat <<EOF\nhello\nEOF', 'cat << EOF\nspaced op\nEOF', 'cat <<EOF\nline 1\nline 2\n\nline 4\nEOF\necho after',
    'x=world; cat <<EOF\nhello $x ${x} "$x" \'$x\'\nEOF', 'x=world; cat <<"EOF"\nhello $x $(echo no)\nEOF', "x=world; cat <<'EOF'\nhello $x \\$x\nEOF",
    'x=1; cat <<\\EOF\n$x\nEOF', 'x=1; cat <<E"O"F\n$x\nEOF', 'cat <<EOF\n$(echo sub) `echo back` $((6*7))\nEOF',
    'cat <<EOF\na \\$b \\`c\\` \\\\ \\" \\x\nEOF', 'cat <<EOF\njoined \\\nline\nEOF', "cat <<'EOF'\nkept \\\nline\nEOF",
    'cat <<EOF\n  EOF\n EOF \nEOF', 'cat <<-EOF\n\tindented\n\t\ttwice\n  spaces kept\n\tEOF', 'cat <<-"EOF"\n\t$HOME\n\tEOF',
    'cat <<EOF\n\ttab kept\n\tEOF\nEOF', 'cat <<A; cat <<B\none\nA\ntwo\nB', 'cat <<A <<B\nfirst\nA\nsecond\nB',
    'cat <<EOF | sed s/e/E/g\nupper me\nEOF', 'cat <<EOF | wc -l\n1\n2\n3\nEOF', 'sed s/a/A/ <<EOF; echo $?\nabc\nEOF',
    'while read a b; do echo "[$a] [$b]"; done <<EOF\nx y z\n1 2\nEOF', 'read v <<EOF\nfirst line\nsecond\nEOF\necho "$v"',
    'if true; then cat <<EOF\nin if\nEOF\nfi', 'for i in 1 2; do cat <<EOF\nitem $i\nEOF\ndone', '{ cat <<EOF\ngroup\nEOF\n}', '( cat <<EOF\nsubshell\nEOF\n)',
    'x=$(cat <<EOF\nin subst\nEOF\n); echo "<$x>"', 'cat <<EOF > /tmp/hd-out\nto file\nEOF\ncat /tmp/hd-out', 'cat <<EOF >> /tmp/hd-out\nappended\nEOF\ncat /tmp/hd-out',
    'cat <<EOF 2>/dev/null\nredir after\nEOF', 'cat <<EOF && echo ok\nand\nEOF', 'false <<EOF || echo failed\nx\nEOF',
    'cat <<EOF\nno delimiter', 'cat <<EOF', 'cat <<EOF\nabc\n  EOF', 'cat <<', 'cat << ;', 'cat <<EOF; echo same line\nbody\nEOF',
    'cat <<EOF\n${UNSET:-default} ${#HOME}\nEOF', 'cat <<EOF\n$HOME/x ~ ~/y *\nEOF', 'cat <<EOF\n#not a comment\nEOF', 'cat <<EOF\n\nEOF',
    'cat <<EOF\nEOF', 'echo before; cat <<EOF\nx\nEOF\necho after', 'cat <<END\nEND\nEOF\nEND', 'cat <<"E O"\nspaced delim\nE O',
    'cat <<$X\nbody\n$X', 'X=1; cat <<$X\n$X\n$X', 'cat <<EOF\n\'single\' "double"\nEOF', 'cat <<EOF\n$\n$ x\nEOF', 'cat <<EOF\nunterminated $(\nEOF',
    'cat <<EOF >/dev/null; echo $?\nx\nEOF', 'sort <<EOF\nc\na\nb\nEOF', 'head -n 1 <<EOF\nfirst\nsecond\nEOF', 'grep b <<EOF\na\nb\nEOF',
    'cat 0<<EOF\nexplicit fd\nEOF', 'bash <<EOF\necho child \\$0 ran\nEOF', 'bash -s <<"EOF"\nx=5; echo $((x+1))\nEOF',
    CONFLIST,
]

WORDS = ['alpha', '$HOME', '${HOME}', '$(echo s)', '`echo b`', '$((1+1))', '"q"', "'s'", '\\$', '\\\\', '\\x', ' ', '\t', '*', '~', '#', ';', '|', '&&']


def gen(r):
    quote = r.choice(['', '"', "'"])
    dash = r.choice(['', '-'])
    lines = []
    for _ in range(r.randint(0, 4)):
        lead = '\t' * r.randint(0, 2) if dash else ''
        lines.append(lead + ''.join(r.choice(WORDS) for _ in range(r.randint(0, 4))))
    end = ('\t' if dash and r.random() < 0.5 else '') + 'EOF'
    return f'cat <<{dash}{quote}EOF{quote}\n' + ''.join(l + '\n' for l in lines) + end


def main(path):
    r = random.Random(20261202)
    cmds = list(CASES)
    for _ in range(120):
        cmds.append(gen(r))
    record(path, cmds, ['/tmp/hd-out', '/tmp/hd-net.d/10-mynet.conflist'])
    import subprocess
    subprocess.run(['rm', '-rf', '/tmp/hd-net.d'])


if __name__ == '__main__':
    main(sys.argv[1])
