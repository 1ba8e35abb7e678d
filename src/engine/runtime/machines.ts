/**
 * containerd's state machines: the daemon itself (up, or down between a crash and its restart)
 * and each pod sandbox (created, network set up, ready, stopped, removed). containerd's code
 * (containerd.ts) sends them the events of what it did; their states are what `crictl pods`
 * and the sandbox views show.
 */
import { setup } from 'xstate';

export const containerdMachine = setup({
  types: {} as {
    context: { node: string };
    input: { node: string };
    events: { type: 'CRASH' } | { type: 'START' } | { type: 'READY' };
  },
}).createMachine({
  id: 'containerd',
  context: ({ input }) => ({ node: input.node }),
  initial: 'starting',
  states: {
    starting: { on: { READY: 'running', CRASH: 'down' } },
    running: { on: { CRASH: 'down' } },
    down: { on: { START: 'starting' } },
  },
});

export const sandboxMachine = setup({
  types: {} as {
    context: { node: string; id: string; pod: string; netns: string };
    input: { node: string; id: string; pod: string; netns: string };
    events:
      | { type: 'NETWORK_READY' }
      | { type: 'SETUP_FAILED' }
      | { type: 'CLEANED_UP' }
      | { type: 'CLEANUP_FAILED' }
      | { type: 'RECOVERED' }
      | { type: 'STARTED' }
      | { type: 'STOP' }
      | { type: 'STOPPED' }
      | { type: 'STOP_FAILED' }
      | { type: 'PAUSE_DIED' }
      | { type: 'REMOVED' }
      | { type: 'LOST' };
  },
}).createMachine({
  id: 'sandbox',
  context: ({ input }) => ({ node: input.node, id: input.id, pod: input.pod, netns: input.netns }),
  initial: 'settingUpNetwork',
  states: {
    settingUpNetwork: {
      on: {
        NETWORK_READY: 'startingPause',
        SETUP_FAILED: 'cleaningUp',
        LOST: 'lost',
        RECOVERED: 'notReady',
      },
    },
    cleaningUp: {
      on: { CLEANED_UP: 'failed', CLEANUP_FAILED: 'unknown', LOST: 'lost', RECOVERED: 'notReady' },
    },
    startingPause: { on: { STARTED: 'ready', LOST: 'lost', RECOVERED: 'notReady' } },
    /**
     * The clean-up of a failed RunPodSandbox failed (1.6.9 – 1.6.36, 1.7): kept in the store as
     * SANDBOX_UNKNOWN (listed NOTREADY) until the kubelet stops it.
     */
    unknown: { on: { STOP: 'stopping', LOST: 'lost' } },
    ready: { on: { STOP: 'stopping', PAUSE_DIED: 'notReady', LOST: 'lost' } },
    notReady: { on: { STOP: 'stopping', LOST: 'lost' } },
    stopping: { on: { STOPPED: 'stopped', STOP_FAILED: 'notReady' } },
    stopped: { on: { REMOVED: 'removed', STOP: 'stopping' } },
    failed: { type: 'final' },
    /**
     * containerd died before it saved the sandbox (≤ 1.6.8 saves it once it is up): nothing on
     * the node knows about it now. From 1.6.9 it is RECOVERED, NOTREADY, instead.
     */
    lost: { type: 'final' },
    removed: { type: 'final' },
  },
});
