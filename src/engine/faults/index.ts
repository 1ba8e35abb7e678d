/**
 * The fault catalogue (catalogue.ts: faults as data), injecting and recovering them (inject.ts)
 * and what a node shows (observe.ts). Challenges draw hidden faults from `challengeFaults()`.
 */
export {
  FAULTS,
  WHEN,
  challengeFaults,
  faultById,
  type ChallengeFault,
  type FaultDef,
  type ParamSpec,
  type Symptom,
  type When,
} from './catalogue';
export {
  faultNode,
  faultProblem,
  injectFault,
  recoverFault,
  type FaultParams,
  type FaultView,
  type InjectResult,
} from './inject';
