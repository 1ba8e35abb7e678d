import { describe, expect, it } from 'vitest';
import { newSandbox } from '../../engine/session';
import type { Session } from '../../engine/session/session';
import { afterAction, newTermState, tryLine, type TermState } from '../../engine/session/terminal';
import { actionEnd } from './actionEnd';

/** Types a line as terminals.ts does (a change is performed, then the cursor moves to its end). */
function type(s: Session, t: TermState, line: string, follow: boolean) {
  const o = tryLine(s, 'node-1', line, t);
  if (o.kind === 'read') return { t: o.state, output: o.result.output };
  const r = s.perform(o.action);
  if (follow) {
    const end = actionEnd(s, r);
    if (end !== null) s.seek(end);
  }
  return { t: afterAction(t, line, r.output?.shell), output: r.output?.shell?.output ?? '' };
}

function demo(follow: boolean) {
  const s = newSandbox({
    cluster: { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] },
    seed: 2,
  });
  expect(s.runUntil({ kind: 'pod-running', pod: 'web-0' })).not.toBeNull();
  let t = newTermState();
  t = type(s, t, 'ip netns add demo', follow).t;
  const before = s.cursor;
  const add = type(
    s,
    t,
    'CNI_PATH=/opt/cni/bin cnitool add containerd-net /var/run/netns/demo',
    follow,
  );
  expect(add.output).toContain('"address": "10.244.1.3/24"');
  const addr = type(s, add.t, 'ip -n demo -br addr', follow).output;
  return { s, before, addr };
}

describe('the cursor after a shell line that changed the node', () => {
  it('moves to the last step the line recorded: the next line reads what it left', () => {
    const { s, before, addr } = demo(true);
    expect(addr).toMatch(/^lo +DOWN/m);
    expect(addr).toMatch(/^eth0@if\d+ +UP +10\.244\.1\.3\/24/m);
    // The cursor is on the line's last step, and the whole line is behind it.
    const a = s.actions.at(-1)!;
    expect(a.count).toBeGreaterThan(1);
    expect(s.cursor).toBe(a.first! + a.count - 1);
    expect(s.cursor).toBeGreaterThan(before);
  });

  it('left at the first step (as the session leaves it), the node has no eth0 yet', () => {
    expect(demo(false).addr).not.toContain('eth0');
  });

  it('stays for a line of one step, a refused line, or a cursor already past it', () => {
    const r = { step: 5, first: 7, error: null, output: null, rewrote: false };
    const log = (count: number, cursor = 7) => ({
      cursor,
      actions: [{ step: 5, first: 7, count }],
    });
    expect(actionEnd(log(1), r)).toBeNull();
    expect(actionEnd(log(4), { ...r, first: null })).toBeNull();
    expect(actionEnd(log(4, 12), r)).toBeNull();
    expect(actionEnd(log(4), r)).toBe(10);
  });
});
