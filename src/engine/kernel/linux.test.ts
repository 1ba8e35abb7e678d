/**
 * Kernel operations against what Linux 6.18 does (checked with iproute2 6.1 in throw-away network
 * namespaces; the command lines are quoted next to each case): errno and extended-ack texts of
 * failed calls, renaming devices, IPv4 primary and secondary addresses, and how routes are
 * validated, added, replaced and kept.
 */
import { describe, expect, it } from 'vitest';
import { parseIP } from '../net/ip';
import * as K from './kernel';
import type { KernelState, Link } from './types';

let macs = 0;
const rnd: K.RandomSource = {
  mac: () => `02:00:00:00:02:${(++macs % 256).toString(16).padStart(2, '0')}`,
};

function ip(s: string) {
  return parseIP(s)!;
}

function setup(): { k: KernelState; ns: string } {
  const k = K.emptyKernel();
  return { k, ns: k.root };
}

function link(k: KernelState, ns: string, name: string): Link {
  return K.linkByName(k.netns[ns]!, name)!;
}

/** The KernelError a call throws, as { errno, message, extack }. */
function failure(fn: () => void): { errno: string; message: string; extack?: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof K.KernelError) {
      return { errno: e.errno, message: e.message, ...(e.extack ? { extack: e.extack } : {}) };
    }
    throw e;
  }
  throw new Error('the call succeeded');
}

describe('errors', () => {
  it('adding an IPv6 address with IPv6 disabled is EACCES, "permission denied" in Go', () => {
    // sysctl -w net.ipv6.conf.br0.disable_ipv6=1; ip addr add fd00:77::1/64 dev br0
    //   Error: ipv6: IPv6 is disabled on this device.
    const { k, ns } = setup();
    const br = K.linkAdd(k, ns, { kind: 'bridge', name: 'br0' }, rnd);
    K.sysctlSet(k, ns, 'net.ipv6.conf.br0.disable_ipv6', '1');
    expect(failure(() => K.addrAdd(k, ns, br, { ip: ip('fd00:77::1'), prefix: 64 }))).toEqual({
      errno: 'EACCES',
      message: 'permission denied',
      extack: 'ipv6: IPv6 is disabled on this device',
    });
  });

  it('gives every errno a Go text', () => {
    for (const [errno, text] of Object.entries(K.KERRNO_TEXT)) {
      expect(new K.KernelError(errno as K.KErrno).message).toBe(text);
      expect(text).toMatch(/^[a-z][a-z ]+$/);
    }
  });
});

describe('new devices', () => {
  it('have txqueuelen 1000, a bridge included (ifb: 32)', () => {
    // ip link add br1 type bridge; ip -d link show br1: ... qlen 1000
    const { k, ns } = setup();
    K.linkAdd(k, ns, { kind: 'bridge', name: 'br1' }, rnd);
    K.linkAdd(k, ns, { kind: 'veth', name: 'v0', peerName: 'v1' }, rnd);
    K.linkAdd(k, ns, { kind: 'ifb', name: 'i0' }, rnd);
    expect(['lo', 'br1', 'v0', 'v1', 'i0'].map((n) => link(k, ns, n).txqlen)).toEqual([
      1000, 1000, 1000, 1000, 32,
    ]);
  });
});

describe('renaming a device', () => {
  it('renames devices that are up (Linux >= 6.2)', () => {
    // ip link add v0 type veth peer name v1; ip link add br0 type bridge; ip link add i0 type ifb;
    // ip link set DEV up (each); ip link set DEV name DEVx: all succeed, lo included.
    const { k, ns } = setup();
    K.linkAdd(k, ns, { kind: 'veth', name: 'v0', peerName: 'v1' }, rnd);
    K.linkAdd(k, ns, { kind: 'bridge', name: 'br0' }, rnd);
    K.linkAdd(k, ns, { kind: 'ifb', name: 'i0' }, rnd);
    for (const name of ['lo', 'v0', 'v1', 'br0', 'i0'])
      K.linkSetUp(k, ns, link(k, ns, name).ifindex);
    for (const name of ['v0', 'br0', 'i0', 'lo']) {
      const l = link(k, ns, name);
      K.linkSetName(k, ns, l.ifindex, `${name}x`);
      expect(link(k, ns, `${name}x`)).toMatchObject({ ifindex: l.ifindex, adminUp: true });
      expect(link(k, ns, name)).toBeUndefined();
    }
  });

  it('still refuses a name in use (EEXIST) or an invalid one (EINVAL)', () => {
    const { k, ns } = setup();
    const v0 = K.linkAdd(k, ns, { kind: 'veth', name: 'v0', peerName: 'v1' }, rnd);
    expect(failure(() => K.linkSetName(k, ns, v0, 'v1')).errno).toBe('EEXIST');
    expect(failure(() => K.linkSetName(k, ns, v0, 'a/b')).errno).toBe('EINVAL');
  });
});
