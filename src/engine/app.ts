/**
 * The engine as the app drives it, loaded by `loadEngine()` (index.ts) as one lazy chunk right
 * after the first paint: sessions (create, step, save, load), the default cluster, the plugin
 * builds, and what the panels read (pod rows and events, journals, error events, where a JSON text
 * goes wrong).
 */
// The whole engine: clusters with their node shell, sessions with the fault catalogue, every
// modelled plugin.
import './cluster/with-shell';
import './session/with-faults';
import './plugins/late';
import './runtime/crio-late';
import './kernel/iptables/late';

export {
  newSandbox,
  SANDBOX_POD,
  Session,
  SessionError,
  drain,
  parseSavedSession,
  loadJob,
  serializeSession,
  saveSession,
  traceDigest,
  actionProblems,
  describeAction,
  describeCondition,
  isErrorEvent,
  repetitionText,
  runEndText,
} from './session';
export { DEFAULT_CLUSTER, REFERENCE_PACKAGE, defaultConflist } from './cluster/cluster';
export { CLUSTER_PRESETS, clusterPreset, type ClusterPreset } from './cluster/presets';
export { BUILDS } from './plugins/lib/build';
export { describeEvents, podRows } from './apiserver/apiserver';
export { journalLines } from './node/journal';
export { SCAN_END, Scanner } from './gojson/scanner';
// What the views read of a node beyond its tables: node/inspect pulls in the kernel, and
// host-local's config reader the plugin, so they come with the engine, not the first screen.
export {
  BEHAVIOUR_RANGES,
  DEFAULT_CONTAINERD_VERSION,
  KNOWN_RELEASES,
  parseRelease,
  releaseOf,
  type Release,
} from './runtime/releases';
export { crioReleaseOf, parseCrioRelease, type CrioRelease } from './runtime/crio-releases';
export { ipamCapacity } from './plugins/host-local';
export { DEFAULT_DATA_DIR } from './plugins/host-local-disk';
export { resultsDir } from './libcni/cache';
export {
  NO_INFLIGHT,
  addrTexts,
  inflightSandboxes,
  orphanVeths as inspectOrphanVeths,
  reservations,
} from './node/inspect';
// The packet walk panel: a what-if walk on the state at a step, and where walks may start or go.
export { endpoints, walkPacket } from './dataplane/api';
