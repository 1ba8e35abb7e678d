/**
 * Name checks (cni/pkg/utils ValidateContainerID / ValidateNetworkName / ValidateInterfaceName)
 * against the *types.Error values Go's v1.1.2 library returns, marshalled to JSON.
 */
import { describe, expect, it } from 'vitest';
import { validateContainerId, validateInterfaceName, validateNetworkName } from './validate';
import { VALIDATE_NAMES } from './testdata';

const FN = {
  cid: validateContainerId,
  net: validateNetworkName,
  if: validateInterfaceName,
} as const;

describe('name validation (cni/pkg/utils)', () => {
  it.each(VALIDATE_NAMES)('%s %j', (which, input, want) => {
    const e = FN[which](input);
    expect(e === null ? null : e.toJSON()).toEqual(want);
  });

  it('the error text is msg, or msg; details', () => {
    expect(validateContainerId('c/1')?.message).toBe('invalid characters in containerID; c/1');
    expect(validateNetworkName('')?.message).toBe('missing network name:');
  });
});
