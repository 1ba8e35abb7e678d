/** What the Inspector shows a step changed: for iptables, the rules of the chain, not the table. */
import { describe, expect, it } from 'vitest';
import { loadEngine } from '../../engine';
import { newSandbox } from '../../engine/session';
import { stepDetail } from './inspector-data';

await loadEngine();

describe("the Inspector's changes of a step", () => {
  it('show the rule an iptables append added, under its chain, however many pods there are', () => {
    const s = newSandbox();
    s.perform({ do: 'scale', deployment: 'web', replicas: 12, node: 'node-1' });
    s.runUntil({ kind: 'idle' });
    const last = s.events.findLastIndex(
      (e) => e.kind === 'kernel' && / -A POSTROUTING /.test(e.summary ?? ''),
    );
    expect(last).toBeGreaterThan(0);
    const changes = stepDetail(s, last).changes ?? [];
    expect(changes).toHaveLength(1);
    const c = changes[0]!;
    expect(c.path).toMatch(/^netns\.[^.]+\.iptables\.ipv4\.nat\.chains\.POSTROUTING\.rules$/);
    // One rule added, the jump to this pod's chain; the table's other rules are not repeated.
    expect('added' in c && c.added).toHaveLength(1);
    expect(JSON.stringify(c)).toMatch(/CNI-[0-9a-f]{24}/);
    expect('removed' in c && c.removed).toBeNull();
    expect(JSON.stringify(c).length).toBeLessThan(2_000);
  });
});
