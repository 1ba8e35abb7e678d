/**
 * `help` (the node shell's own list of what it knows, not bash's builtin help) and `clear`
 * (the terminfo sequence of xterm: home, erase the screen and the scrollback).
 */
import type { CommandContext, CommandSpec } from '../types';

/** What `clear` prints (tput clear for xterm-256color, with E3): a terminal clears itself. */
export const CLEAR_SEQUENCE = '\x1b[H\x1b[2J\x1b[3J';

const GROUPS: Array<[string, string[]]> = [
  [
    'network',
    [
      'ip',
      'bridge',
      'tc',
      'iptables',
      'ip6tables',
      'iptables-save',
      'ip6tables-save',
      'sysctl',
      'modprobe',
      'rmmod',
    ],
  ],
  [
    'files',
    [
      'ls',
      'cat',
      'head',
      'tail',
      'wc',
      'grep',
      'sort',
      'uniq',
      'cut',
      'find',
      'sed',
      'jq',
      'rm',
      'mv',
      'cp',
      'mkdir',
      'touch',
      'truncate',
    ],
  ],
  ['node and cluster', ['journalctl', 'systemctl', 'crictl', 'kubectl', 'reboot']],
  ['CNI', ['cnitool', '/opt/cni/bin/PLUGIN (run a plugin: CNI_COMMAND=ADD ... < conf.json)']],
  [
    'shell',
    [
      'echo',
      'printf',
      'test',
      '[',
      'cd',
      'pwd',
      'export',
      'let',
      'unset',
      'env',
      'sleep',
      'true',
      'false',
      'bash',
      'sh',
      'history',
      'clear',
      'help',
      'exit',
    ],
  ],
];

function help(ctx: CommandContext): number {
  let out =
    'cnisim node shell: a bash subset on the simulated node (pipes, redirections,\n' +
    '&&, ||, $?, variables, quoting, $((...)), if/for/while). docs/shell.md lists the options\n' +
    'of each command and what is not modelled.\n';
  for (const [title, names] of GROUPS) {
    out += `\n${title}:\n`;
    let line = ' ';
    for (const n of names) {
      if (line.length + n.length + 1 > 78) {
        out += line + '\n';
        line = ' ';
      }
      line += ' ' + n;
    }
    out += line + '\n';
  }
  ctx.out(out);
  return 0;
}

function clear(ctx: CommandContext): number {
  ctx.out(CLEAR_SEQUENCE);
  return 0;
}

export const MISC_COMMANDS: CommandSpec[] = [
  { name: 'help', dir: null, builtin: true, run: help },
  { name: 'clear', dir: '/usr/bin', run: clear },
];
