/**
 * bridge (with host-local as IPAM) against the real binaries: each scenario of
 * testdata/bridge.json, recorded on a real kernel, is replayed on a fresh simulated node and
 * compared step by step after the same normalisation (MACs and veth names numbered in order
 * of appearance): plugin stdout / stderr / exit code, the namespaces' links (kind, flags,
 * operstate, MTU, promiscuity, master, hairpin, addresses), routes, nat rules and forwarding
 * sysctls, host-local's files, and ping reachability. Covers IPv4, IPv6 and dual stack, the
 * gateway on the bridge, isDefaultGateway, forceAddress, mtu, hairpinMode, promiscMode, ipMasq,
 * CHECK (and CHECK after drift), DEL idempotence, DEL without a netns or with a deleted one,
 * layer-2 only, and what is left behind after failures.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Scenario, replayScenario, stepLabel } from './harness';

const BRIDGE_SCENARIOS = JSON.parse(
  readFileSync(new URL('./testdata/bridge.json', import.meta.url), 'utf8'),
) as Scenario[];

describe('bridge (real binary recordings)', () => {
  describe.each(BRIDGE_SCENARIOS.map((sc) => [sc.name, sc] as const))('%s', (_name, sc) => {
    const got = replayScenario(sc, 'bridge', '/tmp/cnisim-ut-br');
    it.each(sc.steps.map((s, i) => [stepLabel(s, i), i] as const))('%s', (_l, i) => {
      expect(got[i]).toEqual(sc.want[i]);
    });
  });
});
