/**
 * Branded domain types: a NetnsId cannot be passed where a mount path is meant, although both
 * are strings at run time. Use the `as*` constructors at trust boundaries (where a value is read
 * from the kernel or validated); the values themselves carry no runtime wrapper.
 */
declare const brandTag: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brandTag]: B };

/** A network namespace's id in a node's kernel (`KernelState.netns` key), not its mount path. */
export type NetnsId = Brand<string, 'NetnsId'>;
/** A CNI spec version, e.g. "1.0.0". */
export type CniVersion = Brand<string, 'CniVersion'>;

export const asNetnsId = (s: string) => s as NetnsId;
export const asCniVersion = (s: string) => s as CniVersion;
