/**
 * Writing to localStorage, honestly: a full storage (QuotaExceededError) is told apart from a
 * storage that refuses everything (disabled, private mode), and setting a damaged copy aside
 * says whether it was kept. Pure (no DOM): unit tested in storage.test.ts with stand-ins.
 */

/** What writing needs of a Storage. */
export interface Writable {
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Whether `e` is a storage quota error: QuotaExceededError (code 22) in every browser, Firefox's
 * older NS_ERROR_DOM_QUOTA_REACHED (code 1014).
 */
export function isQuotaError(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { name, code } = e as { name?: unknown; code?: unknown };
  return (
    name === 'QuotaExceededError' ||
    name === 'NS_ERROR_DOM_QUOTA_REACHED' ||
    code === 22 ||
    code === 1014
  );
}

/** How a write went: stored, refused for lack of room, or refused for another reason. */
export type WriteResult = 'ok' | 'full' | 'refused';

export function tryWrite(store: Writable | null, key: string, value: string): WriteResult {
  if (!store) return 'refused';
  try {
    store.setItem(key, value);
    return 'ok';
  } catch (e) {
    return isQuotaError(e) ? 'full' : 'refused';
  }
}

/**
 * Moves unreadable saved text from `key` to `asideKey`. When the copy cannot be written (storage
 * full or refused), the original stays under `key` (nothing is deleted that was not copied).
 */
export function setAside(
  store: Writable | null,
  key: string,
  asideKey: string,
  text: string,
): WriteResult {
  const r = tryWrite(store, asideKey, text);
  if (r === 'ok') {
    try {
      store?.removeItem(key);
    } catch {
      // The copy is kept; the original is overwritten at the next save.
    }
  }
  return r;
}

/**
 * The notice's sentence on a damaged copy: where it is kept, or that it was not, and why. `what`
 * is e.g. "saved sandbox"; the caller offers its download in every case.
 */
export function damagedCopyText(r: WriteResult, asideKey: string): string {
  if (r === 'ok')
    return `The damaged copy is kept in this browser's storage under "${asideKey}"; you can also download it.`;
  const why =
    r === 'full'
      ? "this browser's storage for this site is full"
      : 'this browser refused to store it';
  return `The damaged copy could not be kept (${why}): the next save replaces it, so download it now if you want it.`;
}
