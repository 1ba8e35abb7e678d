/**
 * The virtual kernel against a real one (testdata/scenarios.json): veth pairs across namespaces
 * and ifindex allocation, carrier / flags / operstate of veths and bridges with and without ports, IPv6
 * link-local addresses and connected routes following the carrier ("linkdown"), the bridge MAC
 * and MTU following its ports until set explicitly, a namespace's deletion taking the peer veth
 * with it, and ping reachability (same bridge, through a gateway with and without ip_forward,
 * own address with lo down, after an address or a route is removed, bridge down).
 *
 * iproute2's "M-DOWN" flag (a veth whose peer in the same namespace is down) is checked by its
 * own test below and left out of the scenario comparisons, so that one missing flag does not
 * hide the rest of a snapshot.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Scenario, replayScenario, stepLabel } from '../plugins/harness';

const KERNEL_SCENARIOS = JSON.parse(
  readFileSync(new URL('./testdata/scenarios.json', import.meta.url), 'utf8'),
) as Scenario[];

type Json = unknown;

function withoutMDown(v: Json): Json {
  if (Array.isArray(v)) return v.filter((x) => x !== 'M-DOWN').map(withoutMDown);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, Json>).map(([k, x]) => [k, withoutMDown(x)]),
    );
  }
  return v;
}

function linkOf(snapshot: Json, ns: string, name: string): Record<string, Json> | undefined {
  const s = snapshot as { ns: Record<string, { links: Array<Record<string, Json>> }> };
  return s.ns[ns]?.links.find((l) => l['name'] === name);
}

describe('kernel (real kernel recordings)', () => {
  describe.each(KERNEL_SCENARIOS.map((sc) => [sc.name, sc] as const))('%s', (_name, sc) => {
    const got = replayScenario(sc, 'bridge', '/tmp/cnisim-ut-k');
    it.each(sc.steps.map((s, i) => [stepLabel(s, i), i] as const))('%s', (_l, i) => {
      expect(withoutMDown(got[i])).toEqual(withoutMDown(sc.want[i]));
    });
  });
});

describe('ip link flags', () => {
  it('shows M-DOWN on both ends of a same-namespace veth pair that is down', () => {
    const sc = KERNEL_SCENARIOS.find((s) => s.name.startsWith('veth pairs'))!;
    const got = replayScenario(sc, 'bridge', '/tmp/cnisim-ut-k');
    // `ip link add v3 type veth peer name v3p` (both down): <BROADCAST,MULTICAST,M-DOWN>.
    expect(linkOf(sc.want[3], 'node', 'v3')!['flags']).toEqual([
      'BROADCAST',
      'M-DOWN',
      'MULTICAST',
    ]);
    expect(linkOf(got[3], 'node', 'v3')!['flags']).toEqual(['BROADCAST', 'M-DOWN', 'MULTICAST']);
    expect(linkOf(got[3], 'node', 'v3p')!['flags']).toEqual(['BROADCAST', 'M-DOWN', 'MULTICAST']);
    // The peer is in another namespace: no M-DOWN.
    expect(linkOf(got[3], 'node', 'v1')!['flags']).toEqual(['BROADCAST', 'MULTICAST']);
  });
});
