import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../trace/trace';
import type { WorldState } from '../sim/world';
import { newSandbox } from './index';
import { podsTurnedRunning } from './conditions';

describe('podsTurnedRunning', () => {
  it('does not look at the pods when the event left their table as it was', () => {
    const untouchable = new Proxy(
      {},
      {
        get() {
          throw new Error('the pods were read');
        },
      },
    );
    const api = { pods: untouchable };
    const before = { api } as unknown as WorldState;
    const after = { api: { ...api } } as unknown as WorldState;
    const e = { kind: 'api', payload: {} } as unknown as TraceEvent;
    expect(podsTurnedRunning(e, before, after)).toEqual([]);
  });

  it('still finds the pod that turned Running', () => {
    const s = newSandbox();
    const at = s.runUntil({ kind: 'pod-running' });
    expect(at).not.toBeNull();
    const found = podsTurnedRunning(s.events[at!]!, s.stateAt(at! - 1), s.stateAt(at!));
    expect(found.length).toBe(1);
    expect(s.markers.some((m) => m.kind === 'pod-running' && m.step === at)).toBe(true);
  });
});
