/**
 * The packet walk shown on the topology (app/walk.ts): the Packets panel makes it, the topology
 * steps through its hops; it belongs to the step and the trace it was made on.
 */
import { describe, expect, it } from 'vitest';
import type { WalkResult } from '../engine';
import { get, update } from './app/state';
import { shownWalk, walkCmd } from './app/walk';

const hop = (text: string) => ({
  node: 'node-1',
  ns: 'ns1',
  step: 'recv' as const,
  packet: '',
  text,
});
const res: WalkResult = {
  request: { ok: true, at: { node: 'node-1', ns: 'ns1' }, packet: {} as never },
  hops: [hop('a'), hop('b'), hop('c')],
  replyFrom: 3,
};
const walkOf = () => get().slices['packetWalk'] as Parameters<typeof shownWalk>[0];

describe('the packet walk on the topology', () => {
  it('shows the topology at its first hop, and steps within its hops', () => {
    update({ leftTab: 'trace', revision: 4, presenter: false });
    walkCmd.show({ step: 10, res, what: 'ping', text: 'delivered' });
    expect(get().leftTab).toBe('topology');
    expect(walkOf().hop).toBe(0);
    walkCmd.prev();
    expect(walkOf().hop).toBe(0);
    walkCmd.next();
    walkCmd.next();
    walkCmd.next();
    expect(walkOf().hop).toBe(2);
    walkCmd.select(1);
    expect(walkOf().hop).toBe(1);
  });

  it('belongs to the step and the trace it was made on', () => {
    update({ revision: 4 });
    walkCmd.show({ step: 10, res, what: 'ping', text: 'delivered' });
    expect(shownWalk(walkOf(), 10, 4)?.res).toBe(res);
    expect(shownWalk(walkOf(), 9, 4)).toBeNull();
    // An action after stepping back rewrites the trace: a new revision.
    expect(shownWalk(walkOf(), 10, 5)).toBeNull();
    walkCmd.clear();
    expect(shownWalk(walkOf(), 10, 4)).toBeNull();
  });
});
