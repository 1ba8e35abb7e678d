/** The kernel's notifier chains: priority order, and no call before kernel.ts has set them up. */
import { describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module: the setup file has loaded (and sealed) the kernel already. */
async function fresh() {
  vi.resetModules();
  return await import('./notifier');
}

describe('notifier chains', () => {
  it('refuses a call before the chains are sealed, then runs handlers by priority', async () => {
    const { NotifierChain, sealChains } = await fresh();
    const chain = new NotifierChain<'up' | 'down', string[]>('test chain');
    const seen: string[] = [];
    chain.register('up', 0, 'b-low', (log) => log.push('b-low'));
    chain.register('up', 10, 'high', (log) => log.push('high'));
    chain.register('up', 0, 'a-low', (log) => log.push('a-low'));
    chain.register('down', 99, 'other', (log) => log.push('other'));
    expect(() => chain.call('up', seen)).toThrow(/before kernel.ts set it up/);
    sealChains();
    chain.call('up', seen);
    expect(seen).toEqual(['high', 'a-low', 'b-low']);
  });

  it('replaces a handler registered again under the same name', async () => {
    const { NotifierChain, sealChains } = await fresh();
    const chain = new NotifierChain<'up', string[]>('test chain');
    chain.register('up', 0, 'h', (log) => log.push('old'));
    chain.register('up', 0, 'h', (log) => log.push('new'));
    const seen: string[] = [];
    sealChains();
    chain.call('up', seen);
    expect(seen).toEqual(['new']);
  });
});
