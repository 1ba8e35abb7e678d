import { create } from 'zustand';
import { DEFAULT_VIEWS, type EmbedView } from './protocol';

/** What the embed shows besides the session (in the app's store). */
export const useEmbed = create<{ views: EmbedView[] }>(() => ({ views: DEFAULT_VIEWS }));
