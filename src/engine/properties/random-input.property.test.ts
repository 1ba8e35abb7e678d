/**
 * Property: random JSON (and random text) fed to every plugin, and random configuration lists
 * fed to libcni, yield a CNI error or a result — never an uncaught exception or a crash.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CniError, GoError } from '../cni/errors';
import { goMarshal } from '../cni/json';
import { CNIConfig } from '../libcni/api';
import { confListFromBytes } from '../libcni/conf';
import { addNode, netnsAdd } from '../node/setup';
import { execProgram } from '../os/process';
import { runToEnd } from '../os/sys';
import { PROGRAMS } from '../plugins/registry';
import { Simulation, newWorld } from '../sim/world';
import { fcParams, FC_SEED } from './config';

const PLUGINS = ['bridge', 'host-local', 'loopback'];
const COMMANDS = ['ADD', 'DEL', 'CHECK', 'VERSION', '', 'GC', 'STATUS', 'BOGUS'];

function node(): Simulation {
  const sim = new Simulation(addNode(newWorld(3), { name: 'n', plugins: PLUGINS }));
  netnsAdd(sim, 'n', '/var/run/netns/pod');
  return sim;
}

/** JSON that looks like a plugin config, with random values where the real ones go. */
const configish = fc.record(
  {
    cniVersion: fc.oneof(
      fc.constantFrom('0.1.0', '0.3.1', '0.4.0', '1.0.0', '1.1.0', '', '9.9.9'),
      fc.jsonValue(),
    ),
    name: fc.oneof(fc.constantFrom('net', 'a/b', ''), fc.jsonValue()),
    type: fc.constantFrom('bridge', 'host-local', 'loopback'),
    bridge: fc.oneof(fc.constantFrom('cni0', 'br-x', 'averyveryverylongname'), fc.jsonValue()),
    isGateway: fc.oneof(fc.boolean(), fc.jsonValue()),
    isDefaultGateway: fc.oneof(fc.boolean(), fc.jsonValue()),
    ipMasq: fc.oneof(fc.boolean(), fc.jsonValue()),
    mtu: fc.oneof(fc.integer({ min: -10, max: 70000 }), fc.jsonValue()),
    hairpinMode: fc.boolean(),
    promiscMode: fc.boolean(),
    vlan: fc.oneof(fc.integer({ min: -1, max: 5000 }), fc.jsonValue()),
    prevResult: fc.oneof(
      fc.jsonValue(),
      fc.constant({ cniVersion: '1.0.0', ips: [{ address: '10.0.0.2/24' }] }),
    ),
    ipam: fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          type: fc.constantFrom('host-local', 'nope', ''),
          subnet: fc.oneof(
            fc.constantFrom('10.22.0.0/24', '10.22.0.1/24', 'fd00::/64', '10.0.0.0/31', 'x'),
            fc.jsonValue(),
          ),
          rangeStart: fc.oneof(fc.constantFrom('10.22.0.10', '10.9.0.1', 'bad'), fc.jsonValue()),
          rangeEnd: fc.oneof(fc.constantFrom('10.22.0.20', '10.22.0.5'), fc.jsonValue()),
          gateway: fc.oneof(fc.constantFrom('10.22.0.1', '10.22.0.254'), fc.jsonValue()),
          routes: fc.oneof(fc.constant([{ dst: '0.0.0.0/0' }]), fc.jsonValue()),
          ranges: fc.oneof(
            fc.constant([[{ subnet: '10.30.0.0/24' }], [{ subnet: 'fd01::/64' }]]),
            fc.jsonValue(),
          ),
          dataDir: fc.constantFrom('/tmp/d', '', '/etc/cni/net.d/10.conflist'),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);

const stdinArb = fc.oneof(
  fc.string(),
  fc.json(),
  configish.map((c) => goMarshal(c)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
);

const envArb = fc.record({
  cmd: fc.constantFrom(...COMMANDS),
  containerId: fc.constantFrom('c1', '', 'bad/id', 'x'.repeat(80)),
  netns: fc.constantFrom('/var/run/netns/pod', '', '/var/run/netns/missing', '/etc/hostname'),
  ifName: fc.constantFrom('eth0', '', 'lo', 'averyverylongifname', 'a b'),
  args: fc.constantFrom(
    '',
    'IgnoreUnknown=1;IP=10.22.0.9',
    'IP=bad',
    'K8S_POD_NAME=x',
    'broken',
    'MAC=0a:00:00:00:00:01',
  ),
  path: fc.constantFrom('/opt/cni/bin', '', '/nowhere'),
});

describe('robustness against random input', () => {
  it(
    `plugins answer random stdin and env with a result or a CNI error (seed ${FC_SEED})`,
    { timeout: 180_000 },
    () => {
      fc.assert(
        fc.property(fc.constantFrom(...PLUGINS), envArb, stdinArb, (plugin, e, stdin) => {
          const sim = node();
          const env: Record<string, string> = {};
          if (e.cmd) env['CNI_COMMAND'] = e.cmd;
          env['CNI_CONTAINERID'] = e.containerId;
          env['CNI_NETNS'] = e.netns;
          env['CNI_IFNAME'] = e.ifName;
          env['CNI_ARGS'] = e.args;
          env['CNI_PATH'] = e.path;
          const r = runToEnd(
            execProgram({
              sim,
              node: 'n',
              programs: PROGRAMS,
              caller: 't',
              path: `/opt/cni/bin/${plugin}`,
              env,
              stdin,
            }),
          );
          expect(r.stderr).not.toContain('panic:');
          expect([0, 1]).toContain(r.exitCode);
          if (r.exitCode === 1) {
            const err = JSON.parse(r.stdout) as { code: number; msg: string };
            expect(typeof err.code).toBe('number');
            expect(typeof err.msg).toBe('string');
          } else if (r.stdout !== '') {
            expect(() => JSON.parse(r.stdout)).not.toThrow();
          }
        }),
        fcParams(400),
      );
    },
  );

  it(
    `libcni answers random configuration lists with an error or an outcome (seed ${FC_SEED})`,
    { timeout: 180_000 },
    () => {
      const listArb = fc.oneof(
        fc.string(),
        fc.json(),
        fc
          .record(
            {
              cniVersion: fc.oneof(fc.constantFrom('0.3.1', '1.0.0', ''), fc.jsonValue()),
              name: fc.oneof(fc.constant('net'), fc.jsonValue()),
              disableCheck: fc.oneof(fc.boolean(), fc.jsonValue()),
              plugins: fc.oneof(fc.array(configish, { maxLength: 3 }), fc.jsonValue()),
            },
            { requiredKeys: [] },
          )
          .map((c) => goMarshal(c)),
      );
      fc.assert(
        fc.property(listArb, fc.constantFrom('ADD', 'DEL', 'CHECK'), (text, op) => {
          const sim = node();
          let list;
          try {
            list = confListFromBytes(text);
          } catch (e) {
            expect(e instanceof GoError || e instanceof CniError).toBe(true);
            return;
          }
          const libcni = new CNIConfig({
            sim,
            node: 'n',
            programs: PROGRAMS,
            path: ['/opt/cni/bin'],
          });
          const rt = {
            containerId: 'c1',
            netns: '/var/run/netns/pod',
            ifName: 'eth0',
            args: [] as Array<[string, string]>,
            capabilityArgs: {},
          };
          const out = runToEnd(
            op === 'ADD'
              ? libcni.addNetworkList(list, rt)
              : op === 'DEL'
                ? libcni.delNetworkList(list, rt)
                : libcni.checkNetworkList(list, rt),
          );
          expect(typeof out.ok).toBe('boolean');
          if (!out.ok) expect(out.error?.message).toBeTruthy();
          for (const ev of sim.events)
            expect('stderr' in ev.payload ? (ev.payload.stderr ?? '') : '').not.toContain('panic:');
        }),
        fcParams(300),
      );
    },
  );
});
