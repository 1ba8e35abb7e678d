/** Name checks shared by skel and libcni (cni/pkg/utils). */
import { CniError, ErrCode } from './errors';
import { utf8Length } from '../utf8';

const NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;

export function validateContainerId(id: string): CniError | null {
  if (id === '') return new CniError(ErrCode.UnknownContainer, 'missing containerID');
  if (!NAME_RE.test(id)) {
    return new CniError(
      ErrCode.InvalidEnvironmentVariables,
      'invalid characters in containerID',
      id,
    );
  }
  return null;
}

/** Note the colon in "missing network name:": that is the library's text (skel has its own check first). */
export function validateNetworkName(name: string): CniError | null {
  if (name === '') return new CniError(ErrCode.InvalidNetworkConfig, 'missing network name:');
  if (!NAME_RE.test(name)) {
    return new CniError(
      ErrCode.InvalidNetworkConfig,
      'invalid characters found in network name',
      name,
    );
  }
  return null;
}

/** Go's unicode.IsSpace (JavaScript's \s differs: it includes U+FEFF, excludes nothing Go has). */
export function goIsSpace(c: number): boolean {
  if (c <= 0xff)
    return (
      c === 0x09 ||
      c === 0x0a ||
      c === 0x0b ||
      c === 0x0c ||
      c === 0x0d ||
      c === 0x20 ||
      c === 0x85 ||
      c === 0xa0
    );
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

export function validateInterfaceName(ifName: string): CniError | null {
  const bytes = utf8Length(ifName);
  if (bytes === 0)
    return new CniError(ErrCode.InvalidEnvironmentVariables, 'interface name is empty');
  if (bytes > 15) {
    return new CniError(
      ErrCode.InvalidEnvironmentVariables,
      'interface name is too long',
      'interface name should be less than 16 characters',
    );
  }
  if (ifName === '.' || ifName === '..') {
    return new CniError(ErrCode.InvalidEnvironmentVariables, 'interface name is . or ..');
  }
  if ([...ifName].some((c) => c === '/' || c === ':' || goIsSpace(c.codePointAt(0)!))) {
    return new CniError(
      ErrCode.InvalidEnvironmentVariables,
      'interface name contains / or : or whitespace characters',
    );
  }
  return null;
}
