/**
 * A libcni list operation (AddNetworkList, DelNetworkList, ...) as a state machine: running
 * through the list's plugins one at a time (in reverse for DEL), then done or failed. The actor
 * (`libcni/<node>/<seq of the call>`) lives in the world while the call runs.
 */
import { assign, setup } from 'xstate';

export const libcniCallMachine = setup({
  types: {} as {
    context: { node: string; op: string; network: string; plugin: string | null; step: number };
    input: { node: string; op: string; network: string };
    events: { type: 'PLUGIN'; plugin: string } | { type: 'DONE' } | { type: 'FAILED' };
  },
}).createMachine({
  id: 'libcniCall',
  context: ({ input }) => ({ ...input, plugin: null, step: 0 }),
  initial: 'loading',
  states: {
    loading: {
      on: {
        PLUGIN: {
          target: 'runningPlugin',
          actions: assign({
            plugin: ({ event }) => event.plugin,
            step: ({ context }) => context.step + 1,
          }),
        },
        DONE: 'done',
        FAILED: 'failed',
      },
    },
    runningPlugin: {
      on: {
        PLUGIN: {
          target: 'runningPlugin',
          reenter: true,
          actions: assign({
            plugin: ({ event }) => event.plugin,
            step: ({ context }) => context.step + 1,
          }),
        },
        DONE: 'done',
        FAILED: 'failed',
      },
    },
    done: { type: 'final' },
    failed: { type: 'final' },
  },
});
