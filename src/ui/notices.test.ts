import { describe, expect, it } from 'vitest';
import { newSandbox } from '../engine/session';
import { notify, useApp } from './store';

describe('a notice about a restored trace', () => {
  it('goes when the trace it is about is rewritten, or another session opens', () => {
    const s = newSandbox();
    s.runUntil({ kind: 'pod-running' });
    useApp.setState({ session: s, revision: s.revision, notices: [] });
    notify('warning', 'Restored sandbox: replays differently', undefined, s);
    notify('info', 'unrelated');
    expect(useApp.getState().notices).toHaveLength(2);
    // Stepping and acting at the end keep the trace: the notice stays.
    s.perform({ do: 'createPod', name: 'web-1' });
    useApp.setState({ revision: s.revision, cursor: s.cursor });
    expect(useApp.getState().notices).toHaveLength(2);
    // Acting after stepping back rewrites it: the notice is obsolete.
    s.seek(20);
    s.perform({ do: 'createPod', name: 'web-2' });
    useApp.setState({ revision: s.revision });
    expect(useApp.getState().notices.map((n) => n.text)).toEqual(['unrelated']);

    const other = newSandbox();
    notify('warning', 'Shared sandbox: replays differently', undefined, other);
    useApp.setState({ session: other, revision: other.revision });
    expect(useApp.getState().notices.map((n) => n.text)).toEqual([
      'unrelated',
      'Shared sandbox: replays differently',
    ]);
    useApp.setState({ session: s, revision: s.revision });
    expect(useApp.getState().notices.map((n) => n.text)).toEqual(['unrelated']);
  });
});
