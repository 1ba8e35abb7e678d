import { describe, expect, it } from 'vitest';
import { newSandbox } from '../engine/session';
import { get, update } from './app/state';
import { notify } from './app/notices';

describe('a notice about a restored trace', () => {
  it('goes when the trace it is about is rewritten, or another session opens', () => {
    const s = newSandbox();
    s.runUntil({ kind: 'pod-running' });
    update({ session: s, revision: s.revision, notices: [] });
    notify('warning', 'Restored sandbox: replays differently', undefined, s);
    notify('info', 'unrelated');
    expect(get().notices).toHaveLength(2);
    // Stepping and acting at the end keep the trace: the notice stays.
    s.perform({ do: 'createPod', name: 'web-1' });
    update({ revision: s.revision, cursor: s.cursor });
    expect(get().notices).toHaveLength(2);
    // Acting after stepping back rewrites it: the notice is obsolete.
    s.seek(20);
    s.perform({ do: 'createPod', name: 'web-2' });
    update({ revision: s.revision });
    expect(get().notices.map((n) => n.text)).toEqual(['unrelated']);

    const other = newSandbox();
    notify('warning', 'Shared sandbox: replays differently', undefined, other);
    update({ session: other, revision: other.revision });
    expect(get().notices.map((n) => n.text)).toEqual([
      'unrelated',
      'Shared sandbox: replays differently',
    ]);
    update({ session: s, revision: s.revision });
    expect(get().notices.map((n) => n.text)).toEqual(['unrelated']);
  });
});
