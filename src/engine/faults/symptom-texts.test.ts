/**
 * The catalogue quotes what a node prints: Kubernetes events ("Warning FailedCreatePodSandBox:
 * ...") and journal lines ("containerd: level=error msg=..."). Each quote must be what the
 * simulated node prints once the fault is injected with its defaults on a default node
 * (containerd 1.7.22): a pod runs, the fault is injected, a new pod is created, the first pod is
 * deleted. In a quote, `...` / `…` and the placeholders (<id>, <uid>, <pod>, <net>) stand for
 * any text; prose before "Normal" / "Warning" or after a journal line's last quote is a comment.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../cluster/cluster';
import { eventList } from '../apiserver/apiserver';
import { FAULTS, type FaultDef } from './catalogue';
import { journal, pod } from './observe';
import { clusterFor, inject, NODE, runningPod } from './testing';

/** A regular expression for a quote: wildcards for `...`, `…` and placeholders. */
function pattern(quote: string): RegExp {
  const parts = quote.split(/\.\.\.|…|<(?:id|uid|pod|net|ns)>/);
  return new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^]*?'));
}

interface Quote {
  where: 'event' | 'journal';
  /** For an event: `Warning Reason`; for a journal line: its unit. */
  head: string;
  re: RegExp;
  text: string;
}

/** The quotes of a fault's symptoms that name exact output (the rest is prose). */
function quotes(f: FaultDef): Quote[] {
  const out: Quote[] = [];
  for (const s of f.symptoms) {
    if (s.where === 'event') {
      const m =
        /(?:^|: )(Normal|Warning) (\w+)(?: \(xN\))?(?:(?::|(?= \.\.\.)) (.*?))?(?: \(after [^)]*\)| on new pods)?$/.exec(
          s.text,
        );
      if (!m) continue;
      out.push({
        where: 'event',
        head: `${m[1]!} ${m[2]!}`,
        re: pattern(m[3] ?? ''),
        text: s.text,
      });
    } else if (s.where === 'journal') {
      // A logfmt line: level=… msg="…" and key="…" pairs, or klog's "message" key="…".
      const m =
        /^(containerd|kubelet): ((?:level=\w+ msg=)?"(?:[^"\\]|\\.)*"(?: \w+="(?:[^"\\]|\\.)*")*)/.exec(
          s.text,
        );
      if (!m) continue;
      out.push({ where: 'journal', head: m[1]!, re: pattern(m[2]!), text: s.text });
    }
  }
  return out;
}

/** The fault on a default node, with a pod before it, one after it and a deletion. */
function drill(f: FaultDef): Cluster {
  const c = clusterFor(f.id);
  const on = c.spec.nodes.length > 1 ? { node: NODE } : {};
  if (f.when === 'during-add') {
    c.createPod({ name: 'web-0', ...on });
    inject(c, f.id, { pod: 'web-0' });
  } else {
    runningPod(c);
    inject(c, f.id, f.params['pod'] ? { pod: 'web-0' } : { node: NODE });
  }
  c.createPod({ name: 'new-0', ...on });
  // A hung plugin's ADD ends at the kubelet's deadline, 4 minutes after it started.
  c.runFor(300_000_000);
  const first = pod(c, 'web-0');
  if (first && first.deletionTimestamp === null) c.deletePod('default/web-0');
  c.runFor(60_000_000);
  return c;
}

const quoted = FAULTS.filter((f) => quotes(f).length > 0);

describe('quoted symptom texts', () => {
  it('are found in enough faults to matter', () => {
    expect(quoted.length).toBeGreaterThanOrEqual(12);
    expect(FAULTS.flatMap(quotes).length).toBeGreaterThanOrEqual(25);
    expect(quotes(FAULTS.find((f) => f.id === 'plugin-missing')!).map((q) => q.where)).toEqual([
      'event',
      'journal',
    ]);
  });

  it('turn placeholders and ellipses into wildcards, and nothing else', () => {
    const re = pattern('failed to find plugin "<net>" in path [/opt/cni/bin]...');
    expect(re.test('x failed to find plugin "portmap" in path [/opt/cni/bin]: more')).toBe(true);
    expect(re.test('failed to find plugin "portmap" in path [/opt/cni/bin2]')).toBe(false);
  });

  it.each(quoted.map((f) => [f.id, f] as const))('%s: the node prints what it quotes', (_, f) => {
    const c = drill(f);
    const events = c.sim.state.api ? eventList(c.sim.state.api) : [];
    const lines = {
      containerd: journal(c, NODE, ['containerd']),
      kubelet: journal(c, NODE, ['kubelet']),
    };
    const missing = quotes(f).filter((q) => {
      if (q.where === 'event')
        return !events.some((e) => `${e.type} ${e.reason}` === q.head && q.re.test(e.message));
      return !lines[q.head as 'containerd' | 'kubelet'].some((l) => q.re.test(l));
    });
    expect(missing.map((q) => q.text)).toEqual([]);
  });
});
