/**
 * The life of a kernel link (`Link.life` in kernel/types.ts) as a state machine, so the machines
 * view draws it with the same code as the daemons' machines. The kernel model does not run this
 * machine: it sets `life` itself (kernel.ts: a new link is `created`, `linkSetUp` makes it `up`,
 * `linkSetDown` `down`, `linkSetNs` `moved`); this definition mirrors those functions and the
 * tests check it against the lives a real trace goes through.
 */
import { createMachine } from 'xstate';

export const linkLifeMachine = createMachine({
  id: 'link',
  initial: 'created',
  on: { 'ip link del': '.deleted' },
  states: {
    // A new link is down: `ip link set down` changes nothing (linkSetDown returns early).
    created: { on: { 'ip link set up': 'up', 'ip link set netns': 'moved' } },
    moved: { on: { 'ip link set up': 'up', 'ip link set netns': 'moved' } },
    up: { on: { 'ip link set down': 'down', 'ip link set netns': 'moved' } },
    down: { on: { 'ip link set up': 'up', 'ip link set netns': 'moved' } },
    deleted: { type: 'final' },
  },
});
