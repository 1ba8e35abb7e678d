/**
 * What a challenge quotes of a node's output is what the node prints. The causes' "why" texts,
 * hints and debriefs quote error text inline ("the ADD would fail with failed to find plugin
 * …"). Each quote below must occur in some challenge's text, and must be printed (in a Kubernetes
 * event or a journal line) by a node with the fault the quote belongs to, on the release the text
 * names (containerd 1.7.22, the default, unless said). Placeholders (<name>) and `…` stand for any
 * text. A catalogue journal line that names the releases it is true for (and which
 * symptom-texts.test.ts therefore leaves alone) is pinned here too.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../cluster/cluster';
import { eventList } from '../apiserver/apiserver';
import { FAULTS } from '../faults/catalogue';
import { injectFault } from '../faults/inject';
import { journal, pod } from '../faults/observe';
import { NODE, oneNode, runningPod } from '../faults/testing';
import { loadCourse } from './content';
import '../cluster/with-shell';

interface Drill {
  fault: string;
  params?: Record<string, unknown>;
  containerd?: string;
  /** No pod runs before the fault (a node where no ADD has succeeded yet). */
  fresh?: boolean;
  /** After the new pod's attempts: put this plugin back, and let the kubelet retry. */
  reinstall?: string;
  /** How long the first pod's deletion runs (default 60 s). */
  deleteFor?: number;
}

/** Quote → the fault (and node) that prints it. */
const QUOTES: ReadonlyArray<readonly [string, Drill]> = [
  ['failed to find plugin "portmap" in path [/opt/cni/bin]', { fault: 'silent-ip-leak' }],
  ['Failed to destroy network for sandbox', { fault: 'silent-ip-leak' }],
  [
    'plugin type="bridge" failed (add): incompatible CNI versions; config is "1.1.0"',
    { fault: 'cni-version-unsupported' },
  ],
  ['incompatible CNI versions', { fault: 'old-plugin-in-chain' }],
  [
    'failed to allocate for range 0: no IP addresses available in range set',
    { fault: 'ipam-exhausted' },
  ],
  [
    'failed to load CNI config list file …: error parsing configuration list',
    { fault: 'conflist-malformed' },
  ],
  ['no network config found in /etc/cni/net.d', { fault: 'conflist-missing' }],
  ['cni plugin not initialized', { fault: 'conflist-missing' }],
  ['failed to find plugin "<name>" in path [/opt/cni/bin]', { fault: 'plugin-missing' }],
  [
    'plugin type="bridge" failed (add): failed to find plugin "host-local"',
    { fault: 'add-fails-midway' },
  ],
  [
    "could not set bridge's mac: invalid argument",
    { fault: 'add-fails-midway', fresh: true, reinstall: 'host-local' },
  ],
  [
    "failed to unmarshal raw result: invalid character 'd' looking for beginning of value",
    { fault: 'bad-output' },
  ],
  ['netplugin failed with no error message: signal: killed', { fault: 'plugin-hangs' }],
  ['DeadlineExceeded', { fault: 'plugin-hangs' }],
  [
    'plugin type="…" failed (delete)',
    { fault: 'plugin-hangs', params: { command: 'DEL' }, deleteFor: 150_000_000 },
  ],
  [
    'netplugin failed with no error message: signal: killed',
    { fault: 'plugin-hangs', params: { command: 'DEL' }, deleteFor: 150_000_000 },
  ],
  [
    'failed to get network "containerd-net" cached result: decoding version from network config: unexpected end of JSON input',
    { fault: 'cache-corrupted' },
  ],
  [
    'plugin type="portmap" failed (delete): failed to find plugin "portmap" in path [/opt/cni/bin]',
    { fault: 'del-fails-with-result' },
  ],
  ['error reading from server: EOF', { fault: 'containerd-restart-during-add' }],
];

/** Catalogue journal lines that name their releases (quoted without the release prefix). */
const CATALOGUE: ReadonlyArray<readonly [string, Drill]> = [
  [
    'encountered an error cleaning up failed sandbox "<id>", marking sandbox state as SANDBOX_UNKNOWN',
    { fault: 'silent-ip-leak' },
  ],
  [
    'encountered an error cleaning up failed sandbox "<id>", marking sandbox state as SANDBOX_UNKNOWN',
    { fault: 'plugin-missing' },
  ],
  [
    'encountered an error cleaning up failed sandbox "<id>", marking sandbox state as SANDBOX_UNKNOWN',
    { fault: 'cni-version-unsupported' },
  ],
];

function pattern(quote: string): RegExp {
  const parts = quote.split(/\.\.\.|…|<[a-z]+>/);
  return new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^\n]*?'));
}

function strings(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => strings(x, out));
}

/** Everything a challenge shows a candidate, as one text. */
const challengeText = (() => {
  const out: string[] = [];
  for (const ch of loadCourse().challenges) {
    const { cluster: _cluster, variants: _variants, ...shown } = ch;
    strings(shown, out);
  }
  return out.join('\n');
})();

/** What a node with the fault printed: its events' messages and its journal, one text. */
function printed(d: Drill): string {
  const c: Cluster = oneNode(d.containerd ? { containerd: { version: d.containerd } } : {});
  const f = FAULTS.find((x) => x.id === d.fault)!;
  if (f.when === 'during-add') {
    c.createPod({ name: 'web-0' });
    must(injectFault(c, d.fault, { pod: 'web-0', ...d.params }));
  } else {
    if (!d.fresh) runningPod(c);
    const target = f.params['pod'] ? { pod: 'web-0' } : { node: NODE };
    must(injectFault(c, d.fault, { ...target, ...d.params }));
  }
  c.createPod({ name: 'new-0' });
  // A hung plugin's ADD ends at the kubelet's deadline, 4 minutes after it started.
  c.runFor(d.reinstall ? 30_000_000 : 300_000_000);
  if (d.reinstall) {
    c.installPlugin(NODE, d.reinstall, 'v1.1.1');
    c.runFor(30_000_000);
  }
  const first = pod(c, 'web-0');
  if (first && first.deletionTimestamp === null) c.deletePod('default/web-0');
  c.runFor(d.deleteFor ?? 60_000_000);
  const events = c.sim.state.api ? eventList(c.sim.state.api).map((e) => e.message) : [];
  return [...events, ...journal(c, NODE)].join('\n').replaceAll('\\"', '"');
}

function must(r: { ok: boolean; error?: string }): void {
  if (!r.ok) throw new Error(r.error);
}

describe('error text quoted by the challenges', () => {
  it.each(QUOTES.map(([q, d]) => [d.fault, q, d] as const))(
    '%s prints: %s',
    { timeout: 60_000 },
    (_, quote, d) => {
      expect(pattern(quote).test(challengeText), 'quoted by a challenge').toBe(true);
      expect(printed(d)).toMatch(pattern(quote));
    },
  );
});

describe('journal lines the catalogue quotes for some releases', () => {
  it.each(CATALOGUE.map(([q, d]) => [d.fault, q, d] as const))(
    '%s on containerd 1.7.22 prints: %s',
    { timeout: 60_000 },
    (_, quote, d) => {
      const f = FAULTS.find((x) => x.id === d.fault)!;
      expect(f.symptoms.some((s) => s.text.includes(quote))).toBe(true);
      expect(printed(d)).toMatch(pattern(quote));
      // And not where the catalogue says containerd drops the error.
      expect(printed({ ...d, containerd: '2.0.0' })).not.toMatch(pattern(quote));
    },
  );
});

describe('the kubectl commands hints name', () => {
  it('are simulated on the node (none answers "not simulated")', () => {
    const forms = new Set(
      [...challengeText.matchAll(/kubectl (get|describe) (pods?|nodes?|events)\b/g)].map(
        (m) => `kubectl ${m[1]!} ${m[2]!}`,
      ),
    );
    expect(forms).toContain('kubectl describe pod');
    expect(forms).toContain('kubectl get nodes');
    const c = oneNode();
    runningPod(c);
    for (const f of forms) {
      const line = f.startsWith('kubectl describe pod') ? `${f} web-0` : f;
      const r = c.shell(NODE, line);
      expect([line, r.exitCode, `${r.stdout}${r.stderr}`.includes('not simulated')]).toEqual([
        line,
        0,
        false,
      ]);
    }
  });
});
