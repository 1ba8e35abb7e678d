/**
 * npx tsx tools/record/fuzz.ts OUTDIR [COUNT] [SEED]
 *
 * Writes COUNT (20) random scenario specs, in the format of tools/record/scenarios/, for a
 * differential run against the real plugins: a bridge or ptp with host-local or static IPAM (one
 * or two families, odd ranges and gateways), sometimes followed by portmap, tuning, bandwidth or
 * firewall, at a random cniVersion; then a random sequence of ADD, CHECK and DEL on two pods,
 * with now and then a drift (an address flush, eth0 down, a route flush) and a DEL of every pod
 * still added at the end. The same SEED gives the same specs (fast-check's generators).
 *
 *   npx tsx tools/record/fuzz.ts /tmp/fz/spec 30 7
 *   sudo npx tsx tools/record/record.ts --out /tmp/fz/out /tmp/fz/spec
 *   npm run conformance -- /tmp/fz/out
 *
 * A difference is a lead, not yet a bug: random MACs order a bridge's ports differently from
 * run to run (the bridge takes the lowest port MAC), so `.mac` differences alone say nothing.
 * A real difference gets a scenario of its own in scenarios/ with notes, as any recording does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const PODS = ['pod-a', 'pod-b'] as const;
const CONTAINER: Record<(typeof PODS)[number], string> = { 'pod-a': 'c1', 'pod-b': 'c2' };

/** Keeps the keys whose value is not undefined (optional settings left out). */
function obj(o: Record<string, Json | undefined>): { [k: string]: Json } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [k: string]: Json;
  };
}

const maybe = <T>(arb: fc.Arbitrary<T>, p = 0.3): fc.Arbitrary<T | undefined> =>
  fc.oneof(
    { weight: Math.round(p * 10), arbitrary: arb },
    { weight: 10 - Math.round(p * 10), arbitrary: fc.constant(undefined) },
  );

function ipamArb(v4: string, v6: string): fc.Arbitrary<Json> {
  const staticIpam = fc
    .record({
      gw4: fc.boolean(),
      dual: fc.boolean(),
      gw6: fc.boolean(),
      route: maybe(fc.constantFrom('0.0.0.0/0', '10.99.0.0/16', '192.168.5.0/24'), 0.5),
      dns: fc.boolean(),
    })
    .map(({ gw4, dual, gw6, route, dns }) =>
      obj({
        type: 'static',
        addresses: [
          obj({ address: `${v4}.5/24`, gateway: gw4 ? `${v4}.1` : undefined }),
          ...(dual
            ? [obj({ address: `fd00:${v6}::5/64`, gateway: gw6 ? `fd00:${v6}::1` : undefined })]
            : []),
        ],
        routes: route ? [{ dst: route }] : undefined,
        dns: dns ? { nameservers: ['10.96.0.10'], search: ['svc.cluster.local'] } : undefined,
      }),
    );
  const range4 = fc
    .record({
      len: fc.constantFrom(24, 24, 28, 29, 30),
      start: maybe(fc.constantFrom(2, 3, 5)),
      end: maybe(fc.constantFrom(6, 7, 200)),
      gw: maybe(fc.constantFrom(1, 2, 254)),
    })
    .map(({ len, start, end, gw }) =>
      obj({
        subnet: `${v4}.0/${len}`,
        rangeStart: start === undefined ? undefined : `${v4}.${start}`,
        rangeEnd: end === undefined ? undefined : `${v4}.${end}`,
        gateway: gw === undefined ? undefined : `${v4}.${gw}`,
      }),
    );
  const hostLocal = fc
    .record({
      ranges: fc.array(range4, { minLength: 1, maxLength: 2 }),
      dual: fc.boolean(),
      len6: fc.constantFrom(64, 120),
      routes: maybe(
        fc.constantFrom<Json[]>(
          [{ dst: '0.0.0.0/0' }],
          [{ dst: '10.99.0.0/16', gw: `${v4}.1` }],
          [{ dst: '0.0.0.0/0' }, { dst: '::/0' }],
          [],
        ),
        0.5,
      ),
    })
    .map(({ ranges, dual, len6, routes }) =>
      obj({
        type: 'host-local',
        ranges: [ranges, ...(dual ? [[{ subnet: `fd00:${v6}::/${len6}` }]] : [])],
        routes,
        dataDir: '<dataDir>',
      }),
    );
  return fc.oneof({ weight: 3, arbitrary: hostLocal }, { weight: 1, arbitrary: staticIpam });
}

function mainPluginArb(v4: string, v6: string): fc.Arbitrary<Json> {
  const flag = () => maybe(fc.boolean());
  const bridge = fc
    .record({
      bridge: fc.constantFrom('cni0', 'br-fz'),
      isGateway: maybe(fc.boolean(), 0.6),
      isDefaultGateway: flag(),
      forceAddress: flag(),
      ipMasq: flag(),
      hairpinMode: flag(),
      promiscMode: flag(),
      mtu: maybe(fc.constantFrom(1400, 1450, 9000), 0.2),
      vlan: maybe(fc.constantFrom(10, 100), 0.1),
      enabledad: maybe(fc.boolean(), 0.1),
      ipam: ipamArb(v4, v6),
    })
    .map((b) => obj({ type: 'bridge', ...b }));
  const ptp = fc
    .record({ ipMasq: flag(), mtu: maybe(fc.constantFrom(1400, 1450), 0.2), ipam: ipamArb(v4, v6) })
    .map((p) => obj({ type: 'ptp', ...p }));
  return fc.oneof({ weight: 2, arbitrary: bridge }, { weight: 1, arbitrary: ptp });
}

const chainArb: fc.Arbitrary<Json[]> = fc
  .record({
    portmap: maybe(
      fc.record({ snat: maybe(fc.constant(false)), markMasqBit: maybe(fc.constant(14)) }),
      0.35,
    ),
    tuning: maybe(
      fc.record({
        sysctl: maybe(fc.constant({ 'net.core.somaxconn': '512' }), 0.5),
        mtu: maybe(fc.constantFrom(1300, 1400)),
        promisc: maybe(fc.boolean()),
        mac: maybe(fc.constant('c2:11:22:33:44:55'), 0.2),
        allmulti: maybe(fc.constant(true), 0.2),
      }),
    ),
    bandwidth: maybe(fc.record({ ingress: fc.boolean(), egress: fc.boolean() }), 0.25),
    firewall: maybe(fc.record({ backend: maybe(fc.constant('iptables'), 0.5) }), 0.2),
    reversed: fc.boolean(),
  })
  .map(({ portmap, tuning, bandwidth, firewall, reversed }) => {
    const out: Json[] = [];
    if (portmap)
      out.push(obj({ type: 'portmap', capabilities: { portMappings: true }, ...portmap }));
    if (tuning) out.push(obj({ type: 'tuning', ...tuning }));
    if (bandwidth)
      out.push(
        obj({
          type: 'bandwidth',
          ingressRate: bandwidth.ingress ? 1000000 : undefined,
          ingressBurst: bandwidth.ingress ? 100000 : undefined,
          egressRate: bandwidth.egress ? 2000000 : undefined,
          egressBurst: bandwidth.egress ? 200000 : undefined,
        }),
      );
    if (firewall) out.push(obj({ type: 'firewall', ...firewall }));
    return reversed && out.length > 1 ? out.reverse() : out;
  });

type Move =
  { kind: 'op'; op: 'ADD' | 'CHECK' | 'DEL'; pod: 0 | 1 } | { kind: 'drift'; which: 0 | 1 | 2 };
const moveArb: fc.Arbitrary<Move> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('op' as const),
      op: fc.constantFrom('ADD' as const, 'ADD' as const, 'CHECK' as const, 'DEL' as const),
      pod: fc.constantFrom(0 as const, 1 as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('drift' as const),
      which: fc.constantFrom(0 as const, 1 as const, 2 as const),
    }),
  },
);

const scenarioArb = fc
  .record({
    v4: fc.constantFrom('10.22.0', '10.33.1', '10.44.7'),
    v6: fc.constantFrom('22', '33'),
    version: fc.constantFrom('0.3.0', '0.3.1', '0.4.0', '1.0.0', '1.0.0', '1.0.0'),
    moves: fc.array(moveArb, { minLength: 3, maxLength: 8 }),
    protocols: fc.array(fc.constantFrom('tcp', 'udp'), { minLength: 2, maxLength: 2 }),
  })
  .chain((s) =>
    fc.record({ main: mainPluginArb(s.v4, s.v6), chain: chainArb }).map((p) => ({ ...s, ...p })),
  );

function toSpec(name: string, s: ReturnType<typeof sampleOne>): Json {
  const plugins = [s.main, ...s.chain];
  const hasPortmap = s.chain.some((p) => (p as { type?: string }).type === 'portmap');
  const extra = (pod: (typeof PODS)[number]): Record<string, Json> =>
    hasPortmap
      ? {
          capabilityArgs: {
            portMappings: [
              {
                hostPort: pod === 'pod-a' ? 8080 : 8081,
                containerPort: 80,
                protocol: s.protocols[pod === 'pod-a' ? 0 : 1]!,
              },
            ],
          },
        }
      : {};
  const libcni = (op: string, pod: (typeof PODS)[number]): Json => ({
    type: 'libcni',
    op,
    conflist: 'fz',
    containerId: CONTAINER[pod],
    netnsName: pod,
    ifName: 'eth0',
    ...extra(pod),
  });
  const live = new Set<(typeof PODS)[number]>();
  const steps: Json[] = [];
  for (const m of s.moves) {
    if (m.kind === 'drift') {
      const pod = [...live][0];
      if (!pod) continue;
      const command = [
        `ip -n ${pod} addr flush dev eth0`,
        `ip -n ${pod} link set eth0 down`,
        `ip -n ${pod} route flush table main`,
      ][m.which]!;
      steps.push({ type: 'env', action: 'drift', description: command, command });
      continue;
    }
    const pod = PODS[m.pod];
    // A pod is added before anything else is done to it, most of the time.
    const op = !live.has(pod) && m.op !== 'ADD' && m.pod === 0 ? 'ADD' : m.op;
    steps.push(libcni(op, pod));
    if (op === 'ADD') live.add(pod);
    if (op === 'DEL') live.delete(pod);
  }
  for (const pod of live) steps.push(libcni('DEL', pod));
  const conf = { cniVersion: s.version, name: 'fznet', plugins };
  const tuned = s.chain.some((p) => (p as { sysctl?: unknown }).sysctl !== undefined);
  return obj({
    name,
    description: 'a random scenario (tools/record/fuzz.ts)',
    conflists: { fz: JSON.stringify(conf, null, 2) + '\n' },
    pods: [...PODS],
    sysctls: tuned
      ? { 'pod-a': ['net.core.somaxconn'], 'pod-b': ['net.core.somaxconn'] }
      : undefined,
    tc: s.chain.some((p) => (p as { type?: string }).type === 'bandwidth') ? true : undefined,
    steps,
  });
}

function sampleOne(seed: number, i: number) {
  return fc.sample(scenarioArb, { seed: seed * 1000 + i, numRuns: 1 })[0]!;
}

const [out, countArg, seedArg] = process.argv.slice(2);
if (!out) {
  console.error('usage: npx tsx tools/record/fuzz.ts OUTDIR [COUNT] [SEED]');
  process.exit(2);
}
const count = Number(countArg ?? 20);
const seed = Number(seedArg ?? 1);
mkdirSync(out, { recursive: true });
for (let i = 0; i < count; i++) {
  const name = `fz-${seed}-${i}`;
  writeFileSync(
    join(out, `${name}.json`),
    JSON.stringify(toSpec(name, sampleOne(seed, i)), null, 2) + '\n',
  );
}
console.log(`${count} scenarios in ${out} (seed ${seed})`);
