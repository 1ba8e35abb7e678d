import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addNode, netnsAdd } from '../node/setup';
import { Simulation, newWorld } from '../sim/world';
import { Shell } from './shell';

function newShell(): Shell {
  const sim = new Simulation(
    addNode(newWorld(7), { name: 'node', plugins: ['bridge', 'host-local', 'loopback'] }),
  );
  netnsAdd(sim, 'node', '/var/run/netns/pod-a');
  return new Shell(sim, 'node', { hostNetnsAliases: ['node'] });
}

/** Pieces of plausible command lines: commands, options, operands, operators and quoting. */
const TOKENS = [
  'ip',
  '-n',
  'pod-a',
  'node',
  'link',
  'addr',
  'route',
  'netns',
  'add',
  'del',
  'set',
  'exec',
  'list',
  'dev',
  'eth0',
  'lo',
  'cni0',
  'type',
  'bridge',
  'veth',
  'dummy',
  'peer',
  'name',
  'up',
  'down',
  'mtu',
  '1400',
  'address',
  '0a:58:0a:f4:00:05',
  'master',
  'nomaster',
  'netns',
  'via',
  'default',
  '10.22.0.2/24',
  '10.22.0.1',
  'fd00::1/64',
  'metric',
  '100',
  'scope',
  'link',
  'brd',
  '+',
  'nodad',
  'replace',
  '-4',
  '-6',
  'sysctl',
  '-w',
  '-q',
  'net.ipv4.ip_forward=1',
  'net.ipv4.conf.eth0.arp_ignore',
  'printf',
  "'%s %d\\n'",
  'x',
  '42',
  'echo',
  '-e',
  '-n',
  "'a\\tb'",
  'cat',
  'rm',
  '-rf',
  'mv',
  'cp',
  '-r',
  'mkdir',
  '-p',
  'touch',
  'truncate',
  '-s',
  '40',
  '/tmp/f',
  '/tmp/d',
  '/var/lib/cni',
  '/run/netns/pod-a',
  'sed',
  '-i',
  "'s/a/b/g'",
  "'s/\\(x\\)/[\\1]/'",
  'jq',
  '-c',
  '-r',
  '.a',
  '.a.b',
  '.[0]',
  '.[]',
  'sleep',
  '0.1',
  'true',
  'false',
  'test',
  '[',
  ']',
  '-f',
  '-d',
  '=',
  '!=',
  '-eq',
  'cd',
  'export',
  'X=1',
  '$X',
  '"$X"',
  '${X:-d}',
  '$?',
  '$(echo hi)',
  '`true`',
  '~',
  '*',
  '/tmp/*',
  'bash',
  '-c',
  'sh',
  'for',
  'i',
  'in',
  'do',
  'done',
  'if',
  'then',
  'else',
  'fi',
  '{',
  '}',
  '(',
  ')',
  ';',
  '&&',
  '||',
  '|',
  '&',
  '>',
  '>>',
  '<',
  '2>&1',
  '2>/dev/null',
  '<<<',
  '#',
  "'",
  '"',
  '\\',
  '$',
  'exit',
  'unset',
  'history',
  'env',
  'while',
  'until',
  '!',
];

describe('property: no input makes the shell throw', () => {
  it('random token soup gives an output and an exit status', () => {
    const sh = newShell();
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { minLength: 0, maxLength: 14 }), (toks) => {
        const line = toks.join(' ');
        const r = sh.run(line);
        expect(Number.isInteger(r.exitCode)).toBe(true);
        expect(r.exitCode).toBeGreaterThanOrEqual(0);
        expect(r.exitCode).toBeLessThanOrEqual(255);
        expect(typeof r.stdout).toBe('string');
        expect(r.stderr).not.toContain('internal error');
      }),
      { numRuns: 1500 },
    );
  });

  it('random text gives an output and an exit status', () => {
    const sh = newShell();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (line) => {
        const r = sh.run(line);
        expect(Number.isInteger(r.exitCode)).toBe(true);
        expect(r.stderr).not.toContain('internal error');
      }),
      { numRuns: 1500 },
    );
  });

  it('random printf / sed / jq programs never throw', () => {
    const sh = newShell();
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    fc.assert(
      fc.property(
        fc.constantFrom('printf', 'sed', 'sed -E', 'jq', 'jq -r', 'echo -e', 'test', '['),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        (cmd, a, b) => {
          const r = sh.run(`${cmd} ${q(a)} ${q(b)}`, { stdin: b });
          expect(r.stderr).not.toContain('internal error');
        },
      ),
      { numRuns: 1500 },
    );
  });
});
