/**
 * A process's life as a state machine: exec'd and running, blocked (a plugin that hangs), then
 * gone: exited with a code or killed by a signal. The actor lives in the world while the process
 * does (`proc/<node>/<pid>`), so the machines view shows what runs at a step.
 */
import { setup } from 'xstate';

export const processMachine = setup({
  types: {} as {
    context: {
      node: string;
      pid: number;
      program: string;
      command: string;
      parentPid: number | null;
    };
    input: {
      node: string;
      pid: number;
      program: string;
      command: string;
      parentPid: number | null;
    };
    events: { type: 'BLOCK' } | { type: 'EXIT'; code: number } | { type: 'KILL' };
  },
}).createMachine({
  id: 'process',
  context: ({ input }) => ({ ...input }),
  initial: 'running',
  states: {
    running: { on: { BLOCK: 'blocked', EXIT: 'exited', KILL: 'killed' } },
    blocked: { on: { EXIT: 'exited', KILL: 'killed' } },
    exited: { type: 'final' },
    killed: { type: 'final' },
  },
});

export function processActorId(node: string, pid: number): string {
  return `proc/${node}/${pid}`;
}
