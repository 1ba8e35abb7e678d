/**
 * Property tests: random command sequences never throw and never mutate their input; the state
 * stays JSON data; `-A` followed by `-D` of the same rule restores the previous save output.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  emptyIptables,
  goIptables,
  iptablesSave,
  iptablesSaveLines,
  runIptables,
  type Family,
  type IptablesState,
} from './index';

const TABLES = ['filter', 'nat', 'mangle', 'raw', 'security'] as const;
const CHAINS = ['INPUT', 'FORWARD', 'OUTPUT', 'PREROUTING', 'POSTROUTING', 'A', 'B', 'CNI-x'];

const addr4 = fc.oneof(
  fc.constantFrom(
    '10.22.0.2',
    '10.22.0.0/24',
    '224.0.0.0/4',
    '0.0.0.0/0',
    '1.1.1.1,2.2.2.2',
    'localhost',
  ),
  fc
    .tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(32))
    .map(([a, b, c, d, m]) => `${a}.${b}.${c}.${d}/${m}`),
);
const addr6 = fc.constantFrom('fe80::1', '2001:db8::/32', '::1', '::/0', 'fd00::2/64');
const port = fc.oneof(
  fc.integer({ min: 0, max: 65535 }).map(String),
  fc.constantFrom('http', '80:90', ':1023'),
);
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('name: "net" id: "c1"', "it's", 'back\\slash', ''),
);

/** Pieces of a rule spec (each is a list of argv words). */
const piece = (family: Family): fc.Arbitrary<string[]> =>
  fc.oneof(
    (family === 'ipv4' ? addr4 : addr6).map((a) => ['-s', a]),
    (family === 'ipv4' ? addr4 : addr6).map((a) => ['!', '-d', a]),
    fc.constantFrom('eth0', 'veth+', 'cni0').map((i) => ['-i', i]),
    fc.constantFrom('eth0', 'veth+').map((i) => ['!', '-o', i]),
    port.map((p) => ['-p', 'tcp', '--dport', p]),
    port.map((p) => ['-p', 'udp', '--sport', p]),
    text.map((c) => ['-m', 'comment', '--comment', c]),
    fc.constantFrom('0x2000/0x2000', '1', '0x10').map((m) => ['-m', 'mark', '--mark', m]),
    fc.constantFrom('LOCAL', 'UNICAST,LOCAL').map((t) => ['-m', 'addrtype', '--dst-type', t]),
    fc.constantFrom('NEW', 'RELATED,ESTABLISHED').map((s) => ['-m', 'conntrack', '--ctstate', s]),
    fc.constantFrom<string[]>(
      ['-j', 'ACCEPT'],
      ['-j', 'DROP'],
      ['-j', 'RETURN'],
      ['-j', 'A'],
      ['-g', 'B'],
      ['-j', 'MASQUERADE'],
      ['-j', 'MARK', '--set-xmark', '0x2000/0x2000'],
      ['-j', 'LOG', '--log-prefix', 'x '],
      ['-j', 'REJECT'],
      ['-p', 'tcp', '-j', 'DNAT', '--to-destination', '10.22.0.2:80'],
    ),
  );

const ruleSpec = (family: Family) =>
  fc.array(piece(family), { maxLength: 4 }).map((ps) => ps.flat());

const command = (family: Family): fc.Arbitrary<string[]> =>
  fc.oneof(
    fc
      .tuple(
        fc.constantFrom(...TABLES),
        fc.constantFrom('-A', '-C', '-D', '-I'),
        fc.constantFrom(...CHAINS),
        ruleSpec(family),
      )
      .map(([t, op, c, spec]) => ['-t', t, op, c, ...spec]),
    fc
      .tuple(
        fc.constantFrom(...TABLES),
        fc.constantFrom('-N', '-X', '-F', '-Z', '-S', '-L'),
        fc.constantFrom(...CHAINS),
      )
      .map(([t, op, c]) => ['-t', t, op, c]),
    fc
      .tuple(
        fc.constantFrom(...TABLES),
        fc.constantFrom(['-S'], ['-L', '-n', '-v'], ['-F'], ['-X'], ['-Z'], ['-L', '-Z']),
      )
      .map(([t, rest]) => ['-t', t, ...rest]),
    fc
      .tuple(
        fc.constantFrom(...TABLES),
        fc.constantFrom(...CHAINS),
        fc.constantFrom('ACCEPT', 'DROP', 'FOO'),
      )
      .map(([t, c, p]) => ['-t', t, '-P', c, p]),
    fc
      .tuple(fc.constantFrom(...TABLES), fc.constantFrom(...CHAINS), fc.constantFrom(...CHAINS))
      .map(([t, a, b]) => ['-t', t, '-E', a, b]),
    fc
      .tuple(
        fc.constantFrom(...TABLES),
        fc.constantFrom(...CHAINS),
        fc.integer({ min: 0, max: 4 }),
        ruleSpec(family),
      )
      .map(([t, c, n, spec]) => ['-t', t, '-R', c, String(n), ...spec]),
    // Arbitrary words, including option-looking ones.
    fc.array(
      fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.constantFrom(
          '-A',
          '-D',
          '-I',
          '-j',
          '-m',
          '-p',
          '!',
          '--dport',
          '-t',
          'nat',
          'tcp',
          '-S',
          '-L',
          '--comment',
          '-w',
          '-v',
          '-c',
        ),
      ),
      { maxLength: 8 },
    ),
  );

const familyArb = fc.constantFrom<Family>('ipv4', 'ipv6');

function runAll(state: IptablesState, family: Family, cmds: readonly string[][]): IptablesState {
  let s = state;
  for (const argv of cmds) s = runIptables(s, family, argv).state;
  return s;
}

describe('iptables model properties', () => {
  it('random command sequences never throw, never mutate their input, keep JSON state', () => {
    fc.assert(
      fc.property(
        familyArb.chain((f) => fc.tuple(fc.constant(f), fc.array(command(f), { maxLength: 25 }))),
        ([family, cmds]) => {
          let state = emptyIptables();
          for (const argv of cmds) {
            const before = JSON.stringify(state);
            const r = runIptables(state, family, argv);
            expect(JSON.stringify(state)).toBe(before);
            expect([0, 1, 2, 3, 4]).toContain(r.exitCode);
            expect(typeof r.stdout).toBe('string');
            expect(typeof r.stderr).toBe('string');
            if (r.exitCode !== 0) expect(r.stderr).not.toBe('');
            expect(r.stderr).not.toContain('internal simulator error');
            state = r.state;
          }
          const copy = JSON.parse(JSON.stringify(state)) as IptablesState;
          expect(copy).toEqual(state);
          expect(iptablesSave(copy, family)).toBe(iptablesSave(state, family));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('-A then -D of the same rule restores the previous save output', () => {
    fc.assert(
      fc.property(
        familyArb.chain((f) =>
          fc.tuple(
            fc.constant(f),
            fc.array(command(f), { maxLength: 12 }),
            fc.constantFrom(...TABLES),
            fc.constantFrom(...CHAINS),
            ruleSpec(f),
          ),
        ),
        ([family, setup, table, chain, spec]) => {
          let s = runAll(emptyIptables(), family, setup);
          // Make sure the table, the chain and the jump targets exist before the -A.
          for (const c of ['A', 'B', chain])
            s = runIptables(s, family, ['-t', table, '-N', c]).state;
          s = runIptables(s, family, ['-t', table, '-F', chain]).state;
          const before = iptablesSave(s, family);
          const other = family === 'ipv4' ? 'ipv6' : 'ipv4';
          const beforeOther = iptablesSave(s, other);
          const a = runIptables(s, family, ['-t', table, '-A', chain, ...spec]);
          if (a.exitCode !== 0) {
            expect(a.state).toBe(s);
            return;
          }
          const d = runIptables(a.state, family, ['-t', table, '-D', chain, ...spec]);
          expect(d.exitCode).toBe(0);
          expect(iptablesSave(d.state, family)).toBe(before);
          expect(iptablesSave(d.state, other)).toBe(beforeOther);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('go-iptables helpers never throw on random arguments', () => {
    fc.assert(
      fc.property(
        familyArb,
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 5 }),
        fc.string({ maxLength: 6 }),
        fc.string({ maxLength: 6 }),
        (family, spec, table, chain) => {
          const ipt = goIptables(family);
          let s = emptyIptables();
          for (const r of [
            ipt.newChain(s, table, chain),
            ipt.appendUnique(s, table, chain, ...spec),
            ipt.insertUnique(s, table, chain, 1, ...spec),
            ipt.deleteIfExists(s, table, chain, ...spec),
            ipt.clearChain(s, table, chain),
            ipt.listChains(s, table),
            ipt.list(s, table, chain),
            ipt.chainExists(s, table, chain),
            ipt.deleteChain(s, table, chain),
          ]) {
            expect(r.commands.length).toBeGreaterThan(0);
            expect(r.error === null || r.error.startsWith('running [')).toBe(true);
            s = r.state;
          }
          expect(Array.isArray(iptablesSaveLines(s, family))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
