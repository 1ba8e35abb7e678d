/** The errors kernel calls fail with: errnos with their Go texts, and netlink's extended ack. */
export type KErrno =
  | 'EACCES'
  | 'EEXIST'
  | 'ENODEV'
  | 'ENOENT'
  | 'EINVAL'
  | 'EADDRNOTAVAIL'
  | 'ENETUNREACH'
  | 'ENETDOWN'
  | 'EHOSTUNREACH'
  | 'EBUSY'
  | 'EPERM'
  | 'ESRCH'
  | 'EOPNOTSUPP'
  | 'ERANGE';

/** syscall.Errno.Error() texts, as Go programs print them. */
export const KERRNO_TEXT: Record<KErrno, string> = {
  EACCES: 'permission denied',
  EEXIST: 'file exists',
  ENODEV: 'no such device',
  ENOENT: 'no such file or directory',
  EINVAL: 'invalid argument',
  EADDRNOTAVAIL: 'cannot assign requested address',
  ENETUNREACH: 'network is unreachable',
  ENETDOWN: 'network is down',
  EHOSTUNREACH: 'no route to host',
  EBUSY: 'device or resource busy',
  EPERM: 'operation not permitted',
  ESRCH: 'no such process',
  EOPNOTSUPP: 'operation not supported',
  ERANGE: 'numerical result out of range',
};

/**
 * A failed kernel call: the errno (its Go text is the message, which is all the plugins' netlink
 * library reports) and, like netlink's extended ack, the kernel's explanation when it gives one
 * (the text of NL_SET_ERR_MSG, which iproute2 prints as "Error: <text>.").
 */
export class KernelError extends Error {
  constructor(
    readonly errno: KErrno,
    readonly extack?: string,
  ) {
    super(KERRNO_TEXT[errno]);
  }
}

/**
 * A kernel call that failed after a change its failure does not undo (a device registered and
 * unregistered again has used up its ifindex): whoever applies the call keeps the state as it
 * is at the throw and reports the error (`keepsState`, read without importing the kernel).
 */
export class KernelErrorAfterChange extends KernelError {
  readonly keepsState = true;
}

/** vishvananda/netlink's LinkNotFoundError. */
export class LinkNotFoundError extends Error {
  constructor() {
    super('Link not found');
  }
}
