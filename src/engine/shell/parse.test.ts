import { describe, expect, it } from 'vitest';
import {
  ScriptReader,
  needsMoreInput,
  ShellSyntaxError,
  parseScript,
  type CommandList,
  type SimpleCommand,
  type Word,
} from './parse';

/** A compact rendering of a parsed list: commands, words (parts), operators. */
function show(list: CommandList): string {
  const word = (w: Word): string =>
    w.parts
      .map((p): string => {
        switch (p.t) {
          case 'lit':
            return p.q ? `'${p.v}'` : p.v;
          case 'param':
            return `$${p.length ? '#' : ''}{${p.name}${p.op ?? ''}${p.arg ? show1(p.arg) : ''}}${p.q ? 'q' : ''}`;
          case 'cmdsub':
            return `$(${show(p.list)})${p.q ? 'q' : ''}`;
          case 'arith':
            return `$((${show1(p.expr)}))${p.q ? 'q' : ''}`;
          case 'tilde':
            return `~${p.user}`;
        }
      })
      .join('+');
  const show1 = (w: Word): string => word(w);
  const cmd = (c: CommandList[number]['first']['commands'][number]): string => {
    const redirs = c.redirects.map((r) => ` ${r.fd}${r.op}${word(r.target)}`).join('');
    switch (c.kind) {
      case 'simple':
        return `[${[...c.assigns.map((a) => `${a.name}=${word(a.value)}`), ...c.words.map(word)].join(' ')}${redirs}]`;
      case 'for':
        return `for ${c.name} in (${c.items?.map(word).join(' ') ?? '$@'}) {${show(c.body)}}${redirs}`;
      case 'arithfor':
        return `for ((${word(c.init)}; ${word(c.cond)}; ${word(c.step)})) {${show(c.body)}}${redirs}`;
      case 'if':
        return `if ${c.clauses.map((x) => `(${show(x.cond)}) {${show(x.body)}}`).join(' elif ')}${c.elseBody ? ` else {${show(c.elseBody)}}` : ''}${redirs}`;
      case 'while':
      case 'until':
        return `${c.kind} (${show(c.cond)}) {${show(c.body)}}${redirs}`;
      case 'group':
        return `{${show(c.body)}}${redirs}`;
      case 'subshell':
        return `(${show(c.body)})${redirs}`;
      case 'case':
        return `case ${word(c.word)} {${c.items.map((i) => `${i.patterns.map(word).join('|')}) {${show(i.body)}}${i.term}`).join(' ')}}${redirs}`;
      case 'cond':
        return `[[ ${c.expr.t} ]]${redirs}`;
    }
  };
  return list
    .map((ao) => {
      const pl = (p: (typeof ao)['first']) =>
        (p.negate ? '! ' : '') + p.commands.map(cmd).join(' | ');
      return (
        pl(ao.first) +
        ao.rest.map((r) => ` ${r.op} ${pl(r.pipeline)}`).join('') +
        (ao.background ? ' &' : '')
      );
    })
    .join('; ');
}

function syntaxError(src: string): string {
  try {
    parseScript(src);
  } catch (e) {
    if (e instanceof ShellSyntaxError) return e.message;
    throw e;
  }
  return 'no error';
}

describe('parser: words and quoting', () => {
  const table: Array<[string, string]> = [
    ['echo a  b', '[echo a b]'],
    ['echo \'a b\' "c d"', "[echo 'a b' 'c d']"],
    ['echo a\\ b', "[echo a+' '+b]"],
    ["echo 'it'\\''s'", "[echo 'it's']"],
    ['echo "a$X b" $Y', "[echo 'a'+${X}q+' b' ${Y}]"],
    ['echo "$?" $$ ${#X}', "[echo ''+${?}q ${$} $#{X}]"],
    ['echo ${X:-def} ${Y-z}', '[echo ${X:-def} ${Y-z}]'],
    ['echo "\\$x \\" \\\\ \\a"', "[echo '$x \" \\ \\a']"],
    ["echo $'a\\nb\\t'", "[echo 'a\nb\t']"],
    ['echo ~ ~/x a~', '[echo ~ ~+/x a~]'],
    ['echo $(ip link) `date`', '[echo $([ip link]) $([date])]'],
    ['echo "$(echo "in")"', "[echo ''+$([echo 'in'])q]"],
    ['echo $ a$', '[echo $ a$]'],
    ['echo # a comment', '[echo]'],
    ['echo a#b', '[echo a#b]'],
    ['echo ""', "[echo '']"],
  ];
  for (const [src, want] of table) it(src, () => expect(show(parseScript(src))).toBe(want));
});

describe('parser: commands', () => {
  const table: Array<[string, string]> = [
    ['a; b', '[a]; [b]'],
    ['a && b || c', '[a] && [b] || [c]'],
    ['a | b | c', '[a] | [b] | [c]'],
    ['! a | b', '! [a] | [b]'],
    ['a &', '[a] &'],
    ['CNI_COMMAND=ADD X=y cmd arg', '[CNI_COMMAND=ADD X=y cmd arg]'],
    ['X=1', '[X=1]'],
    ['cmd X=1', '[cmd X=1]'],
    ['echo hi > /tmp/x', '[echo hi 1>/tmp/x]'],
    ['echo hi >> f 2>&1', '[echo hi 1>>f 2>&1]'],
    ['cat < f', '[cat 0<f]'],
    ['cmd &> log', '[cmd -1&>log]'],
    ['cat <<< word', '[cat 0<<<word]'],
    ['echo 2>/dev/null x', '[echo x 2>/dev/null]'],
    [
      'for ip in 10.22.0.2 10.22.0.3; do printf x > d/$ip; done',
      'for ip in (10.22.0.2 10.22.0.3) {[printf x 1>d/+${ip}]}',
    ],
    ['for x; do echo $x; done', 'for x in ($@) {[echo ${x}]}'],
    ['for x in a b\ndo\n echo $x\ndone', 'for x in (a b) {[echo ${x}]}'],
    ['if a; then b; elif c; then d; else e; fi', 'if ([a]) {[b]} elif ([c]) {[d]} else {[e]}'],
    [
      'case $f in (*.conf|x) a;; y) ;& z) b; c;;& esac',
      'case ${f} {*.conf|x) {[a]};; y) {};& z) {[b]; [c]};;&}',
    ],
    ['case x\nin\n x)\n a\nesac', 'case x {x) {[a]};;}'],
    ['[[ -f a && ! b == c || ( d ) ]] > o', '[[ or ]] 1>o'],
    ['while a; do b; done', 'while ([a]) {[b]}'],
    ['until a; do b; done > f', 'until ([a]) {[b]} 1>f'],
    ['{ a; b; } > f', '{[a]; [b]} 1>f'],
    ['(cd /tmp; ls)', '([cd /tmp]; [ls])'],
    ['echo do done then }', '[echo do done then }]'],
    [
      'ip -n node link add cni0 type bridge && ip -n node addr add 10.22.0.99/24 dev cni0',
      '[ip -n node link add cni0 type bridge] && [ip -n node addr add 10.22.0.99/24 dev cni0]',
    ],
  ];
  for (const [src, want] of table) it(src, () => expect(show(parseScript(src))).toBe(want));

  it('keeps the source text of each simple command', () => {
    const list = parseScript("mkdir -p /d; for ip in a; do printf 'x\\r' > /d/$ip; done");
    expect((list[0]!.first.commands[0] as SimpleCommand).text).toBe('mkdir -p /d');
    const loop = list[1]!.first.commands[0]!;
    expect(loop.kind === 'for' && (loop.body[0]!.first.commands[0] as SimpleCommand).text).toBe(
      "printf 'x\\r' > /d/$ip",
    );
  });

  it('reads a script one complete command (line) at a time', () => {
    const r = new ScriptReader('echo a; echo b\nfor x in 1\ndo echo $x\ndone\n;');
    expect(show(r.next()!)).toBe('[echo a]; [echo b]');
    expect(show(r.next()!)).toBe('for x in (1) {[echo ${x}]}');
    expect(() => r.next()).toThrow("syntax error near unexpected token `;'");
  });
});

describe("parser: bash's syntax errors", () => {
  // Checked against bash 5.2 (interactive: "bash: " + these).
  const table: Array<[string, string]> = [
    [';', "syntax error near unexpected token `;'"],
    ['a ;;', "syntax error near unexpected token `;;'"],
    ['&& a', "syntax error near unexpected token `&&'"],
    ['a &&', 'syntax error: unexpected end of file'],
    ['a |', 'syntax error: unexpected end of file'],
    ['| a', "syntax error near unexpected token `|'"],
    ['a || || b', "syntax error near unexpected token `||'"],
    ['for', "syntax error near unexpected token `newline'"],
    ['for x', 'syntax error: unexpected end of file'],
    ['for x in a b; do', 'syntax error: unexpected end of file'],
    ['for x in a b; do echo $x; done; done', "syntax error near unexpected token `done'"],
    ['do', "syntax error near unexpected token `do'"],
    ['done', "syntax error near unexpected token `done'"],
    ['then', "syntax error near unexpected token `then'"],
    ["echo 'abc", "unexpected EOF while looking for matching `''"],
    ['echo "abc', 'unexpected EOF while looking for matching `"\''],
    ['echo $(ls', "unexpected EOF while looking for matching `)'"],
    ['echo ${', "unexpected EOF while looking for matching `}'"],
    ['echo `a', "unexpected EOF while looking for matching ``'"],
    ['a >', "syntax error near unexpected token `newline'"],
    ['a > > b', "syntax error near unexpected token `>'"],
    ['2>', "syntax error near unexpected token `newline'"],
    ['for 1 in a; do :; done', "`1': not a valid identifier"],
    ['for x in a; do; done', "syntax error near unexpected token `;'"],
    ['(', 'syntax error: unexpected end of file'],
    [')', "syntax error near unexpected token `)'"],
    ['a )', "syntax error near unexpected token `)'"],
    ['echo a; ; echo b', "syntax error near unexpected token `;'"],
    ['}', "syntax error near unexpected token `}'"],
    ['{ echo a }', 'syntax error: unexpected end of file'],
    ['echo (a)', "syntax error near unexpected token `a'"],
    ['echo a (b)', "syntax error near unexpected token `('"],
    ['f() { echo; }', 'cnisim: shell functions are not supported'],
    ['cat << EOF', 'no error'],
    ['cat <<', "syntax error near unexpected token `newline'"],
    ['case x in esac', 'no error'],
    ['case x in x) echo;; ;; esac', "syntax error near unexpected token `;;'"],
    ['[[ -f x ]]', 'no error'],
    ['[[ a b ]]', 'conditional binary operator expected'],
    ['[[ -f ]]', "unexpected argument `]]' to conditional unary operator"],
    ['[[ ]]', "unexpected token `]]' in conditional command"],
    ['for ((i = 0; i < 3)); do echo $i; done', 'syntax error: arithmetic expression required'],
  ];
  for (const [src, want] of table) it(src, () => expect(syntaxError(src)).toBe(want));

  it('syntax errors exit 2, `not a valid identifier` 1', () => {
    expect(() => parseScript(';')).toThrow(expect.objectContaining({ exitCode: 2 }));
    expect(() => parseScript('for 1 in a; do :; done')).toThrow(
      expect.objectContaining({ exitCode: 1 }),
    );
  });

  it('a bad ${...} is an error when expanded, not when parsed (as in bash)', () => {
    expect(syntaxError('echo ${a b}')).toBe('no error');
  });
});

describe('needsMoreInput: when a prompt asks for another line (PS2)', () => {
  const more: string[] = [
    'cat <<EOF',
    'cat <<EOF\n{\n  "a": 1',
    'cat <<-EOF\n\tx\n EOF',
    'cat <<A; cat <<B\none\nA',
    'echo "open',
    "echo 'open",
    'echo $(date',
    'echo a |',
    'true &&',
    'false ||',
    'if true; then',
    'for i in 1 2; do echo $i',
    'while true; do',
    'case x in',
    '{ echo a',
    '( echo a',
    'echo a \\',
    'x=$(cat <<EOF\nbody',
  ];
  const done: string[] = [
    'echo a',
    'cat <<EOF\nbody\nEOF',
    'cat <<-EOF\n\tbody\n\tEOF',
    'cat <<A; cat <<B\none\nA\ntwo\nB',
    'echo "a\nb"',
    'if true; then echo a\nfi',
    'echo a # a comment \\',
    'echo a \\\\',
    ';;',
    'echo a )',
    'cat <<',
    'cat <<EOF\n$(\nEOF',
    '',
  ];
  for (const src of more)
    it(`wants more: ${JSON.stringify(src)}`, () => expect(needsMoreInput(src)).toBe(true));
  for (const src of done)
    it(`runs: ${JSON.stringify(src)}`, () => expect(needsMoreInput(src)).toBe(false));
});
