import { describe, expect, it } from 'vitest';
import { newSandbox } from '../../engine/session';
import { loadJob } from '../../engine/session/serialize';
import { drain } from '../../engine/session/session';
import { parseTraceFile, sameTrace, traceFile } from './trace-file';
import { loadEngine } from '../../engine';

await loadEngine();

describe('the trace as JSON', () => {
  it('importing an exported trace reproduces the same state', () => {
    const s = newSandbox({ seed: 5 });
    s.runUntil({ kind: 'pod-running' });
    s.perform({ do: 'createPod', name: 'web-1', node: 'node-2' });
    s.seek(s.cursor + 20);
    s.seek(s.cursor - 7);
    s.setLevel('cni');
    const text = JSON.stringify(traceFile(s, { left: 'sequence', right: 'journal' }));

    const parsed = parseTraceFile(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.file.views).toEqual({ left: 'sequence', right: 'journal' });
    const copy = newSandbox();
    drain(loadJob(copy, parsed.file.saved));
    expect(sameTrace(copy, parsed.file)).toBe(true);
    expect(copy.cursor).toBe(s.cursor);
    expect(copy.level).toBe('cni');
    expect(copy.loggedActions()).toEqual(s.loggedActions());
    // The same events and the same world at the step.
    expect(JSON.parse(JSON.stringify(copy.events.slice(0, copy.cursor + 1)))).toEqual(
      JSON.parse(JSON.stringify(s.events.slice(0, s.cursor + 1))),
    );
    expect(copy.stateAt(copy.cursor)).toEqual(s.stateAt(s.cursor));
  });

  it('a file whose events were edited is caught after the replay', () => {
    const s = newSandbox({ seed: 5 });
    s.runUntil({ kind: 'pod-running' });
    const file = traceFile(s, {});
    file.events[3] = { ...file.events[3]!, summary: 'something else' };
    const parsed = parseTraceFile(JSON.stringify(file));
    if (!parsed.ok) throw new Error(parsed.error);
    const copy = newSandbox();
    drain(loadJob(copy, parsed.file.saved));
    expect(sameTrace(copy, parsed.file)).toBe(false);
  });

  it('other files are refused with a reason', () => {
    const err = (t: string) => {
      const r = parseTraceFile(t);
      return r.ok ? '(opened)' : r.error;
    };
    expect(err('{')).toBe('This file cannot be opened: it is not JSON.');
    expect(err('{"format":"cnisim-session"}')).toBe(
      'This file cannot be opened: it is not a cnisim trace (format "cnisim-trace", version 1).',
    );
    const s = newSandbox();
    const file = traceFile(s, {});
    file.session.seed += 1;
    expect(err(JSON.stringify(file))).toMatch(/^This file cannot be opened: checksum: /);
  });
});
