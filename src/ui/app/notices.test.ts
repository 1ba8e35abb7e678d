import { describe, expect, it } from 'vitest';
import type { Session } from '../../engine';
import { notify, notifyRunEnd } from './notices';
import { get, update } from './state';

describe('notify', () => {
  it('shows a repeated message once, as the newest notice', () => {
    notify('info', 'Nothing is left to happen.');
    notify('warning', 'Something else.');
    notify('info', 'Nothing is left to happen.');
    notify('info', 'Nothing is left to happen.');
    const shown = get().notices.map((n) => `${n.kind}: ${n.text}`);
    expect(shown).toEqual(['warning: Something else.', 'info: Nothing is left to happen.']);
    // The same text as another kind, or with a download, is another notice.
    notify('error', 'Nothing is left to happen.');
    notify('info', 'Nothing is left to happen.', { label: 'Get it', name: 'x.txt', text: 'x' });
    expect(get().notices).toHaveLength(4);
  });
});

describe('notifyRunEnd', () => {
  it('says how a run ended until the next action on the cluster', () => {
    const actions: unknown[] = [{}];
    const session = { revision: 3, actions } as unknown as Session;
    update({ session, revision: 3, notices: [] });
    notifyRunEnd('warning', 'Stopped: the kubelet retried web-1 12 times.', session);
    notify('info', 'Something else.');
    // Stepping (a new version of the same trace) keeps it.
    update((st) => ({ version: st.version + 1 }));
    expect(get().notices.map((n) => n.text)).toContain(
      'Stopped: the kubelet retried web-1 12 times.',
    );
    // An action (the fix) makes it untrue: it goes; other notices stay.
    actions.push({});
    update((st) => ({ version: st.version + 1 }));
    expect(get().notices.map((n) => n.text)).toEqual(['Something else.']);
  });
});
