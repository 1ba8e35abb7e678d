/** The app's panels: one lazy chunk (see App.tsx); `panelsReady` loads the engine parts they read. */
import { loadEngine, loadFaults } from '../../engine';

export { ActionsView } from './ActionsView';
export { ConfigView } from './ConfigView';
export { FilesView } from './FilesView';
export { Inspector } from './Inspector';
export { JournalView } from './JournalView';
export { PacketsView } from './PacketsView';
export { PodsView } from './PodsView';
export { SlotView } from './SlotView';
export { TraceView } from './TraceView';

/** Resolves when the engine parts the panels call synchronously (`now()`) are loaded. */
export function panelsReady(): Promise<unknown> {
  return Promise.all([loadEngine(), loadFaults()]);
}
