/**
 * Scenarios as data (docs/scenarios.md): the file format and its validation, the condition
 * grammar, running a scenario headless, and the report of where a run stands.
 */
export {
  parseScenario,
  scenarioSchema,
  SCENARIO_VERSION,
  ACTION_NAMES,
  type Scenario,
  type ScenarioAction,
  type ScenarioNode,
  type ScenarioParse,
} from './schema';
export { parseCondition, Watch, ATOM_NAMES, type Atom, type Condition } from './condition';
export { parseDuration, formatDuration } from './duration';
export {
  runScenario,
  clusterSpec,
  actionText,
  setFaultInjector,
  DEFAULT_LIMITS,
  DEFAULT_WAIT_US,
  type RunOptions,
  type RunSummary,
  type ScenarioRun,
  type StopReason,
  type ActionReport,
  type OperationReport,
} from './run';
export {
  clusterReport,
  formatReport,
  reportJson,
  traceCounts,
  type ClusterReport,
  type NodeReport,
} from './report';
export { seekView, stateAt, traceIndex, TraceIndex, type SeekView, type TraceCounts } from './seek';
