/**
 * The kubelet's pod worker as a state machine: one per pod on a node. It decides what the kubelet
 * does next for the pod (wait for the network, create a sandbox, back off after a failure, kill
 * a sandbox that is no longer ready and create a new one, tear the pod down on deletion); the
 * kubelet (kubelet.ts) carries out its actions and reports back with events.
 *
 * Back-off and retry delays arrive with the failure events, already jittered from the
 * simulation's seeded random source, so the machine stays a pure function of its events.
 */
import { assign, setup } from 'xstate';

export interface PodWorkerContext {
  pod: string;
  node: string;
  /** Increases with every CRI call the worker starts; answers to older calls are ignored. */
  attempt: number;
  sandboxId: string | null;
  retryMs: number;
  lastError: string | null;
  /** Deletion was requested while the kubelet was down. */
  deleting: boolean;
  containerStartMs: number;
}

export type PodWorkerEvent =
  | { type: 'NETWORK_NOT_READY'; retryMs: number }
  | { type: 'NEED_SANDBOX' }
  | { type: 'HAS_SANDBOX'; sandboxId: string }
  | { type: 'SANDBOX_CHANGED'; sandboxId: string }
  | { type: 'SANDBOX_READY'; attempt: number; sandboxId: string }
  | { type: 'SANDBOX_FAILED'; attempt: number; error: string; retryMs: number }
  | { type: 'SANDBOX_DIED' }
  | { type: 'STOPPED'; attempt: number }
  | { type: 'STOP_FAILED'; attempt: number; error: string; retryMs: number }
  | { type: 'DELETE' }
  | { type: 'KUBELET_DOWN' }
  | { type: 'KUBELET_UP' };

const current = ({ context, event }: { context: PodWorkerContext; event: PodWorkerEvent }) =>
  'attempt' in event && event.attempt === context.attempt;

export const podWorkerMachine = setup({
  types: {} as {
    context: PodWorkerContext;
    input: { pod: string; node: string; containerStartMs: number };
    events: PodWorkerEvent;
  },
  delays: {
    retry: ({ context }) => context.retryMs,
    containerStart: ({ context }) => context.containerStartMs,
  },
  guards: { current, deleting: ({ context }) => context.deleting },
  actions: {
    sync: () => {},
    runPodSandbox: () => {},
    failedCreate: () => {},
    networkNotReady: () => {},
    containersStarted: () => {},
    sandboxChanged: () => {},
    stopSandbox: () => {},
    killPod: () => {},
    failedKill: () => {},
    podGone: () => {},
    cancelInflight: () => {},
  },
}).createMachine({
  id: 'podWorker',
  context: ({ input }) => ({
    pod: input.pod,
    node: input.node,
    attempt: 0,
    sandboxId: null,
    retryMs: 0,
    lastError: null,
    deleting: false,
    containerStartMs: input.containerStartMs,
  }),
  initial: 'syncing',
  on: {
    DELETE: { target: '.terminating', actions: 'cancelInflight' },
    KUBELET_DOWN: { target: '.kubeletDown', actions: 'cancelInflight' },
  },
  states: {
    syncing: {
      entry: 'sync',
      on: {
        NETWORK_NOT_READY: {
          target: 'waitingForNetwork',
          actions: [assign({ retryMs: ({ event }) => event.retryMs }), 'networkNotReady'],
        },
        NEED_SANDBOX: 'creatingSandbox',
        HAS_SANDBOX: {
          target: 'running',
          actions: assign({ sandboxId: ({ event }) => event.sandboxId }),
        },
        SANDBOX_CHANGED: {
          target: 'killingSandbox',
          actions: [assign({ sandboxId: ({ event }) => event.sandboxId }), 'sandboxChanged'],
        },
      },
    },
    waitingForNetwork: { after: { retry: 'syncing' } },
    creatingSandbox: {
      entry: [assign({ attempt: ({ context }) => context.attempt + 1 }), 'runPodSandbox'],
      on: {
        SANDBOX_READY: {
          guard: 'current',
          target: 'startingContainers',
          actions: assign({ sandboxId: ({ event }) => event.sandboxId, lastError: null }),
        },
        SANDBOX_FAILED: {
          guard: 'current',
          target: 'backingOff',
          actions: [
            assign({
              lastError: ({ event }) => event.error,
              retryMs: ({ event }) => event.retryMs,
            }),
            'failedCreate',
          ],
        },
      },
    },
    startingContainers: { after: { containerStart: 'running' } },
    running: {
      entry: 'containersStarted',
      on: { SANDBOX_DIED: { target: 'killingSandbox', actions: 'sandboxChanged' } },
    },
    killingSandbox: {
      entry: [assign({ attempt: ({ context }) => context.attempt + 1 }), 'stopSandbox'],
      on: {
        STOPPED: { guard: 'current', target: 'syncing' },
        STOP_FAILED: {
          guard: 'current',
          target: 'backingOff',
          actions: [
            assign({
              lastError: ({ event }) => event.error,
              retryMs: ({ event }) => event.retryMs,
            }),
            'failedKill',
          ],
        },
      },
    },
    backingOff: { after: { retry: 'syncing' } },
    terminating: {
      entry: [assign({ attempt: ({ context }) => context.attempt + 1, deleting: true }), 'killPod'],
      on: {
        DELETE: {},
        // The pod object goes once its sandboxes are stopped; the kubelet's garbage collection
        // removes the sandboxes later (kuberuntime_gc.go).
        STOPPED: { guard: 'current', target: 'gone' },
        STOP_FAILED: {
          guard: 'current',
          target: 'terminatingBackOff',
          actions: [
            assign({
              lastError: ({ event }) => event.error,
              retryMs: ({ event }) => event.retryMs,
            }),
            'failedKill',
          ],
        },
      },
    },
    terminatingBackOff: { on: { DELETE: {} }, after: { retry: 'terminating' } },
    kubeletDown: {
      on: {
        DELETE: { actions: assign({ deleting: true }) },
        KUBELET_DOWN: {},
        KUBELET_UP: [{ guard: 'deleting', target: 'terminating' }, { target: 'syncing' }],
      },
    },
    gone: { type: 'final', entry: 'podGone' },
  },
});

export const kubeletMachine = setup({
  types: {} as {
    context: { node: string };
    input: { node: string };
    events: { type: 'STOP' } | { type: 'START' };
  },
}).createMachine({
  id: 'kubelet',
  context: ({ input }) => ({ node: input.node }),
  initial: 'running',
  states: {
    running: { on: { STOP: 'down' } },
    down: { on: { START: 'running' } },
  },
});
