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

describe('run until a Kubernetes event or the deleted pod is gone (the hints name them)', () => {
  it('stops at the next Kubernetes event, or at one of a reason', () => {
    const s = newSandbox();
    const at = s.runUntil({ kind: 'k8s-event' });
    expect(at).not.toBeNull();
    const e = s.events[at!]!;
    expect(e.kind === 'api' && 'event' in e.payload).toBe(true);
    const started = s.runUntil({ kind: 'k8s-event', reason: 'Started' });
    const ev = s.events[started!]!;
    expect(ev.kind === 'api' && 'event' in ev.payload && ev.payload.event.reason).toBe('Started');
  });

  it('stops where a deleted pod leaves the API server, not at the delete request', () => {
    const s = newSandbox();
    s.runUntil({ kind: 'pod-running' });
    s.perform({ do: 'deletePod', pod: 'web-0' });
    const at = s.runUntil({ kind: 'pod-gone', pod: 'web-0' });
    expect(at).not.toBeNull();
    expect(s.stateAt(at! - 1).api!.pods).not.toBe(s.stateAt(at!).api!.pods);
    const e = s.events[at!]!;
    expect(e.kind === 'api' && 'pod' in e.payload && e.payload.op).toBe('remove');
  });
});
