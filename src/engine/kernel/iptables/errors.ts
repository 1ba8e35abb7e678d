/**
 * Internal error signalling of the iptables model. These are thrown only inside the model and are
 * always caught by runIptables(), which turns them into the real tool's stderr and exit code.
 */

/** xtables_error(PARAMETER_PROBLEM, …): exit 2, followed by the "Try `iptables -h'" line. */
export class ParamError {
  constructor(readonly message: string) {}
}

/** xtables_error(OTHER_PROBLEM, …): exit 1, no "Try" line. */
export class OtherError {
  constructor(readonly message: string) {}
}

/** A line printed on stderr before exiting 2 without the program prefix ("Bad argument `x'"). */
export class TryHelpError {
  constructor(readonly prefix: string) {}
}

/** xtables_error(VERSION_PROBLEM, …): exit 3 with "Perhaps iptables or your kernel…". */
export class VersionError {
  constructor(readonly message: string) {}
}

export function isModelError(
  e: unknown,
): e is ParamError | OtherError | TryHelpError | VersionError {
  return (
    e instanceof ParamError ||
    e instanceof OtherError ||
    e instanceof TryHelpError ||
    e instanceof VersionError
  );
}
