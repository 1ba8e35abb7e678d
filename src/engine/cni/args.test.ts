/**
 * CNI_ARGS parsing (types.LoadArgs of containernetworking/cni v1.1.2) into the two argument
 * structs the reference plugins declare: host-local's IPAMEnvArgs {CommonArgs; IP ip.IP} and
 * bridge's BridgeArgs {CommonArgs; MAC UnmarshallableString}. Expected errors printed by Go.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ArgField, IGNORE_UNKNOWN, loadArgs, parseUnmarshallableBool } from './args';
import { ipString, parseCIDR, parseIP, type IP } from '../net/ip';

/** Printed by Go (testdata/README.md). */
const { loadArgsIpam: LOAD_ARGS_IPAM, loadArgsBridge: LOAD_ARGS_BRIDGE } = JSON.parse(
  readFileSync(new URL('./testdata/args.json', import.meta.url), 'utf8'),
) as {
  /** types.LoadArgs into IPAMEnvArgs: [CNI_ARGS, error, IP.String(), IgnoreUnknown] */
  loadArgsIpam: Array<[string, string, string, boolean]>;
  /** types.LoadArgs into BridgeArgs: [CNI_ARGS, error, MAC] */
  loadArgsBridge: Array<[string, string, string]>;
};

/** plugins/pkg/ip.IP's UnmarshalText: "" is the zero value, "a/len" a CIDR, else net.ParseIP. */
const IP_FIELD: ArgField = {
  name: 'IP',
  parse: (t: string): IP | null => {
    if (t === '') return null;
    const c = t.includes('/') ? parseCIDR(t) : null;
    const ip = c ? (c.ok ? c.net.ip : null) : parseIP(t);
    if (!ip) throw new Error(`invalid IP address ${t}`);
    return ip;
  },
};
const MAC_FIELD: ArgField = { name: 'MAC', parse: (t: string) => t };

function run(args: string, fields: ArgField[]): { error: string; out: Record<string, unknown> } {
  try {
    return { error: '', out: loadArgs(args, fields) };
  } catch (e) {
    return { error: (e as Error).message, out: {} };
  }
}

describe('loadArgs into IPAMEnvArgs (host-local)', () => {
  it.each(LOAD_ARGS_IPAM)('%j -> error %j, IP %j, IgnoreUnknown %j', (input, error, ip, ignore) => {
    const r = run(input, [IGNORE_UNKNOWN, IP_FIELD]);
    expect(r.error).toBe(error);
    if (error) return;
    const got = r.out['IP'] as IP | null | undefined;
    // Go prints the zero ip.IP as <nil>; a CIDR keeps its mask ("10.1.0.5/24").
    expect(got ? ipString(got) : '<nil>').toBe(ip.split('/')[0]);
    expect(r.out['IgnoreUnknown'] === true).toBe(ignore);
  });
});

describe('loadArgs into BridgeArgs (bridge)', () => {
  it.each(LOAD_ARGS_BRIDGE)('%j -> error %j, MAC %j', (input, error, mac) => {
    const r = run(input, [IGNORE_UNKNOWN, MAC_FIELD]);
    expect(r.error).toBe(error);
    if (!error) expect((r.out['MAC'] as string | undefined) ?? '').toBe(mac);
  });
});

describe('types.UnmarshallableBool', () => {
  it.each([
    ['1', true],
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['0', false],
    ['false', false],
    ['FaLsE', false],
  ] as const)('%j -> %j', (s, want) => {
    expect(parseUnmarshallableBool(s)).toBe(want);
  });

  it('reports the lower-cased input', () => {
    // Go: boolean unmarshal error: invalid input yes (the text is lower-cased first).
    expect(() => parseUnmarshallableBool('YES')).toThrow(
      'boolean unmarshal error: invalid input yes',
    );
  });
});
