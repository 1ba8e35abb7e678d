/** The app's panels: one lazy chunk with the engine code they read (see App.tsx). */
export { ActionsView } from './ActionsView';
export { ConfigView } from './ConfigView';
export { FilesView } from './FilesView';
export { Inspector } from './Inspector';
export { JournalView } from './JournalView';
export { PodsView } from './PodsView';
export { SlotView } from './SlotView';
export { TraceView } from './TraceView';
