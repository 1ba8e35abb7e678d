/** CNI error objects (types.Error) and the well-known codes. */

export const ErrCode = {
  Unknown: 0,
  IncompatibleCNIVersion: 1,
  UnsupportedField: 2,
  UnknownContainer: 3,
  InvalidEnvironmentVariables: 4,
  IOFailure: 5,
  DecodingFailure: 6,
  InvalidNetworkConfig: 7,
  InvalidNetNS: 8,
  TryAgainLater: 11,
  PluginNotAvailable: 50,
  LimitedConnectivity: 51,
  Internal: 999,
} as const;

/** What each code means (for views and docs). */
export const ERR_CODE_MEANING: Record<number, string> = {
  0: 'Unknown error',
  1: 'Incompatible CNI version',
  2: 'Unsupported field in network configuration',
  3: 'Container unknown or does not exist',
  4: 'Invalid necessary environment variables',
  5: 'I/O failure',
  6: 'Failed to decode content',
  7: 'Invalid network config',
  8: 'Invalid network namespace',
  11: 'Try again later',
  50: 'The plugin is not available',
  51: 'The plugin is not available; existing containers may have limited connectivity',
  999: 'Internal error (a plain error returned by the plugin)',
};

/** types.Error: `{"code":N,"msg":"...","details":"..."}`; Error() is `msg` or `msg; details`. */
export class CniError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly details = '',
  ) {
    super(details ? `${msg}; ${details}` : msg);
  }

  /** Go's field order, details omitted when empty. */
  toJSON(): { code: number; msg: string; details?: string } {
    return this.details
      ? { code: this.code, msg: this.msg, details: this.details }
      : { code: this.code, msg: this.msg };
  }
}

/** A plain Go error (fmt.Errorf): skel reports it as code 999. */
export class GoError extends Error {}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
