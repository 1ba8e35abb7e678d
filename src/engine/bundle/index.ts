/** Bring your own node (docs/your-node.md): node bundles, the node built from one, its report. */
export { LIMITS, readArchive, type BundleFile } from './archive';
export {
  LAYOUT,
  bundleFromArchive,
  bundleFromFiles,
  type BundleLoad,
  type NodeBundle,
} from './bundle';
export { type Finding, MAX_PODS, jsonErrorAt } from './findings';
export { type DrillResult, type DrillStep } from './drill';
export {
  type NodeReport,
  type DiffReport,
  type ReportOptions,
  compareBundles,
  formatNodeReport,
  nodeReport,
} from './report';
