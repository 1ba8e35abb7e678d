import { describe, expect, it } from 'vitest';
import { notify } from './notices';
import { get } from './state';

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
