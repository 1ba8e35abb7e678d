/**
 * Limits that keep a hostile or damaged file from freezing the page: a saved session's, a share
 * link's and an action's (session/serialize.ts checks them). A leaf module without imports, so
 * that the UI can read them through the facade (src/engine/index.ts) without the serializer.
 */
export const LIMITS = {
  nodes: 16,
  actions: 5_000,
  replicas: 250,
  cursor: 2_000_000,
  /** The longest string in an action (the content of a file it writes on a node, ...). */
  text: 1_000_000,
} as const;
