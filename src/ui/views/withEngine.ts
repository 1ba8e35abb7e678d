import { loadEngine } from '../../engine';

/**
 * A lazy view's chunk, resolved once the whole engine is loaded too: the views read it with
 * `loadEngine.now()`, and the landing's sandbox can be ready before it (src/ui/landing.ts).
 */
export function withEngine<M>(load: () => Promise<M>): () => Promise<M> {
  return () => Promise.all([load(), loadEngine()]).then(([m]) => m);
}
