/**
 * The node shell: a bash-like interpreter over a simulated node (see shell.ts).
 */
export {
  Shell,
  defaultSnapshot,
  type ShellOptions,
  type ShellSnapshot,
  type RunResult,
  MAX_LOOP_ITERATIONS,
} from './shell';
export {
  needsMoreInput,
  parseScript,
  ScriptReader,
  ShellSyntaxError,
  type CommandList,
} from './parse';
export { defaultCommands } from './registry';
export {
  CommandRegistry,
  type ClusterHooks,
  type CommandContext,
  type CommandSpec,
  type ShellState,
} from './types';
export { resolvePath } from './paths';
