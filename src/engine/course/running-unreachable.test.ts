/**
 * "Running but unreachable": each hidden network fault is fixed only by its own remedy. The
 * remedies of the other two leave the node's pods cut off (the checker refuses them with the
 * right cause), except that recreating the pods turns ip_forward back on: the bridge plugin
 * writes 1 at every ADD with isGateway, as the debrief says.
 */
import { describe, expect, it } from 'vitest';
import { openChallenge, submitAnswer } from './challenge';
import { challengeById } from './content';
import { drawHidden } from './hidden';
import { newTermState, tryLine } from '../session/terminal';
import '../cluster/with-shell';

const ch = challengeById('running-unreachable')!;

function seedOf(fault: string): number {
  for (let s = 1; s <= 200; s++) if (drawHidden(ch, s).variant.fault === fault) return s;
  throw new Error(`no seed hides ${fault}`);
}

const REMEDY: Record<string, string> = {
  'ip-forward-off': 'enable-ip-forward',
  'pod-route-missing': 'add-pod-cidr-routes',
  'forward-policy-drop': 'forward-policy-accept',
};

describe('running-unreachable', () => {
  it.each(Object.keys(REMEDY))(
    '%s: the other faults’ remedies do not bring the pods back',
    { timeout: 120_000 },
    (fault) => {
      const seed = seedOf(fault);
      const v = drawHidden(ch, seed).variant;
      for (const other of Object.values(REMEDY).filter((f) => f !== REMEDY[fault])) {
        const run = openChallenge(ch, seed);
        const verdict = submitAnswer(run, { cause: v.cause, fixes: [other] });
        expect([other, verdict.accepted]).toEqual([other, false]);
        if (!verdict.accepted)
          expect(verdict.reason).toMatch(/^That is the root cause, but the node did not recover/);
      }
    },
  );

  it('recreating the pods turns ip_forward back on (bridge with isGateway), nothing else', () => {
    for (const fault of Object.keys(REMEDY)) {
      const seed = seedOf(fault);
      const run = openChallenge(ch, seed);
      const v = drawHidden(ch, seed).variant;
      const verdict = submitAnswer(run, { cause: v.cause, fixes: ['recreate-pods'] });
      expect([fault, verdict.accepted]).toEqual([fault, fault === 'ip-forward-off']);
    }
  }, 240_000);
});

/**
 * What the causes' "why" texts say a node shows "here": each claim is what the shell prints on
 * the faulty node when the hidden fault is another one (or, for a claim about every variant, in
 * each of them).
 */
describe('running-unreachable: what the wrong causes say the node shows', () => {
  const why = (id: string) => ch.causes.find((c) => c.id === id)!.why;
  // [cause, command, what the why says it prints, the fault that makes the claim false]
  const CLAIMS: Array<[string, string, RegExp, string | null]> = [
    ['ip-forward', 'sysctl net.ipv4.ip_forward', /^net\.ipv4\.ip_forward = 1$/m, 'ip-forward-off'],
    [
      'route-missing',
      'ip route',
      /^10\.244\.1\.0\/24 via 172\.18\.0\.2 dev eth0/m,
      'pod-route-missing',
    ],
    ['forward-drop', 'iptables -S FORWARD', /^-P FORWARD ACCEPT$/m, 'forward-policy-drop'],
    ['br-netfilter', 'cat /proc/sys/net/bridge/bridge-nf-call-iptables', /^1\n$/, null],
    [
      'rp-filter',
      'sysctl net.ipv4.conf.all.rp_filter',
      /^net\.ipv4\.conf\.all\.rp_filter = 0$/m,
      null,
    ],
    ['mtu', 'ip link show eth0', / mtu 1500 /, null],
  ];

  it('each claim is quoted by its cause', () => {
    expect(why('ip-forward')).toContain('sysctl net.ipv4.ip_forward on the node shows 1 here');
    expect(why('route-missing')).toContain(
      'ip route on the node shows the route to 10.244.1.0/24 via 172.18.0.2 here',
    );
    expect(why('forward-drop')).toContain(
      'iptables -S FORWARD on the node shows -P FORWARD ACCEPT here',
    );
    expect(why('br-netfilter')).toContain(
      '/proc/sys/net/bridge/bridge-nf-call-iptables exists and says 1',
    );
    expect(why('rp-filter')).toContain(
      'rp_filter is 0 on these Debian nodes (sysctl net.ipv4.conf.all.rp_filter)',
    );
    expect(why('mtu')).toContain('pods and nodes all have MTU 1500');
  });

  it.each(Object.keys(REMEDY))(
    'with %s hidden, the node prints what the other causes say',
    { timeout: 60_000 },
    (fault) => {
      const run = openChallenge(ch, seedOf(fault));
      const node = ch.faultNodes![0]!;
      for (const [cause, line, shows, falseWith] of CLAIMS) {
        const out = tryLine(run.session, node, line, newTermState());
        expect(out.kind, line).toBe('read');
        if (out.kind !== 'read') continue;
        const text = out.result.stdout;
        expect([cause, fault, shows.test(text)]).toEqual([cause, fault, falseWith !== fault]);
      }
    },
  );
});
