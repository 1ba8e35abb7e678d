/**
 * The values of one of the engine state's keyed collections (the API server's pods, say), whether
 * it is a plain record, as at 37de37a, or a persistent map (anything with `.values()`), so that
 * the bench reads the state of both versions the same way.
 */
export function valuesOf<T>(c: Readonly<Record<string, T>> | { values(): Iterable<T> }): T[] {
  const m = c as { values?: unknown };
  return typeof m.values === 'function'
    ? [...(c as { values(): Iterable<T> }).values()]
    : Object.values(c as Record<string, T>);
}
