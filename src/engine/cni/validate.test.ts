/**
 * Name checks (cni/pkg/utils ValidateContainerID / ValidateNetworkName / ValidateInterfaceName)
 * against the *types.Error values Go's v1.1.2 library returns, marshalled to JSON.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateContainerId, validateInterfaceName, validateNetworkName } from './validate';

/** A *types.Error marshalled by Go. */
interface ErrJSON {
  code: number;
  msg: string;
  details?: string;
}

/** Printed by Go (testdata/README.md): [which, input, *types.Error as JSON (null = valid)]. */
const { validateNames: VALIDATE_NAMES } = JSON.parse(
  readFileSync(new URL('./testdata/validate.json', import.meta.url), 'utf8'),
) as { validateNames: Array<['cid' | 'net' | 'if', string, ErrJSON | null]> };

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
