/**
 * static IPAM against the real v1.1.1 binary, run directly (not under a main plugin) as
 * pt-harness.ts describes, in throw-away namespaces: what conformance/local/static-*.json do not
 * cover. ADD in every result version (1.0.0, 0.3.1, 0.2.0 with ip4 / ip6), with no addresses,
 * several per family, a route without dst, CNI_ARGS (unknown keys, GATEWAY alone, bad values),
 * runtimeConfig.ips and args.cni.ips (which one wins), a missing netns (static never opens it);
 * CHECK (matching, another gateway, no gateway in the prevResult, an address not in the
 * prevResult, CNI_ARGS, a bad prevResult, no prevResult); DEL (twice, with a broken config, with
 * a bad prevResult: it never fails once skel accepts the call); the configuration errors; and
 * that it keeps no state. Expected values are the real binary's stdout / stderr / exit code.
 */
import { describe, expect, it } from 'vitest';
import * as vfs from '../fs/vfs';
import {
  NS_A,
  NS_NONE,
  OK,
  dataFiles,
  goErr,
  nsView,
  ptNode,
  runPlugin,
  withPrev,
} from './pt-harness';
import type { Out } from './pt-harness';

function ok(stdout: string): Out {
  return { exitCode: 0, stdout, stderr: '' };
}

function st(
  cmd: string,
  stdin: string,
  o: { netns?: string; ifname?: string; args?: string } = {},
) {
  return runPlugin(ptNode(), 'static', cmd, { cid: 'c1', ...o }, stdin);
}

const FULL = `{"cniVersion":"1.0.0","name":"snet","type":"static","addresses":[],"ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24","gateway":"10.70.0.1"},{"address":"fd00:70::5/64","gateway":"fd00:70::1"}],"routes":[{"dst":"0.0.0.0/0"},{"dst":"192.168.0.0/16","gw":"10.70.0.254"},{"dst":"::/0"}],"dns":{"nameservers":["10.70.0.53"],"domain":"example.local","search":["example.local"],"options":["ndots:2"]}}}`;

const DNS_TEXT = `"dns": {
        "nameservers": [
            "10.70.0.53"
        ],
        "domain": "example.local",
        "search": [
            "example.local"
        ],
        "options": [
            "ndots:2"
        ]
    }`;

const ROUTES_TEXT = `"routes": [
        {
            "dst": "0.0.0.0/0"
        },
        {
            "dst": "192.168.0.0/16",
            "gw": "10.70.0.254"
        },
        {
            "dst": "::/0"
        }
    ]`;

const FULL_100 = `{
    "cniVersion": "1.0.0",
    "ips": [
        {
            "address": "10.70.0.5/24",
            "gateway": "10.70.0.1"
        },
        {
            "address": "fd00:70::5/64",
            "gateway": "fd00:70::1"
        }
    ],
    ${ROUTES_TEXT},
    ${DNS_TEXT}
}`;

describe('static ADD', () => {
  const cases: Array<[string, string, Out, { args?: string; netns?: string }?]> = [
    ['1.0.0: addresses with gateways, routes, dns', FULL, ok(FULL_100)],
    [
      '0.3.1: the same with "version" fields',
      FULL.replace('1.0.0', '0.3.1'),
      ok(`{
    "cniVersion": "0.3.1",
    "ips": [
        {
            "version": "4",
            "address": "10.70.0.5/24",
            "gateway": "10.70.0.1"
        },
        {
            "version": "6",
            "address": "fd00:70::5/64",
            "gateway": "fd00:70::1"
        }
    ],
    ${ROUTES_TEXT},
    ${DNS_TEXT}
}`),
    ],
    [
      '0.2.0: ip4 and ip6, each with the routes of its family',
      FULL.replace('1.0.0', '0.2.0'),
      ok(`{
    "cniVersion": "0.2.0",
    "ip4": {
        "ip": "10.70.0.5/24",
        "gateway": "10.70.0.1",
        "routes": [
            {
                "dst": "0.0.0.0/0"
            },
            {
                "dst": "192.168.0.0/16",
                "gw": "10.70.0.254"
            }
        ]
    },
    "ip6": {
        "ip": "fd00:70::5/64",
        "gateway": "fd00:70::1",
        "routes": [
            {
                "dst": "::/0"
            }
        ]
    },
    ${DNS_TEXT}
}`),
    ],
    [
      '0.2.0: an IPv6 address without gateway or routes',
      '{"cniVersion":"0.2.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24","gateway":"10.70.0.1"},{"address":"fd00:70::5/64"}],"routes":[{"dst":"0.0.0.0/0"}]}}',
      ok(`{
    "cniVersion": "0.2.0",
    "ip4": {
        "ip": "10.70.0.5/24",
        "gateway": "10.70.0.1",
        "routes": [
            {
                "dst": "0.0.0.0/0"
            }
        ]
    },
    "ip6": {
        "ip": "fd00:70::5/64"
    },
    "dns": {}
}`),
    ],
    [
      '0.2.0: two IPv4 addresses are refused',
      '{"cniVersion":"0.2.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"},{"address":"10.70.0.6/24"}]}}',
      goErr('CNI version 0.2.0 does not support more than 1 address per family'),
    ],
    [
      '1.0.0: two IPv4 addresses are fine',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"},{"address":"10.70.0.6/24"}]}}',
      ok(`{
    "cniVersion": "1.0.0",
    "ips": [
        {
            "address": "10.70.0.5/24"
        },
        {
            "address": "10.70.0.6/24"
        }
    ],
    "dns": {}
}`),
    ],
    [
      'no addresses at all (1.0.0)',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static"}}',
      ok('{\n    "cniVersion": "1.0.0",\n    "dns": {}\n}'),
    ],
    [
      'no addresses at all (0.3.1)',
      '{"cniVersion":"0.3.1","name":"snet","ipam":{"type":"static"}}',
      ok('{\n    "cniVersion": "0.3.1",\n    "dns": {}\n}'),
    ],
    [
      'a route without dst is printed as "<nil>"',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}],"routes":[{"gw":"10.70.0.1"}]}}',
      ok(`{
    "cniVersion": "1.0.0",
    "ips": [
        {
            "address": "10.70.0.5/24"
        }
    ],
    "routes": [
        {
            "dst": "\\u003cnil\\u003e",
            "gw": "10.70.0.1"
        }
    ],
    "dns": {}
}`),
    ],
    [
      'CNI_ARGS with IgnoreUnknown',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}]}}',
      ok(`{
    "cniVersion": "1.0.0",
    "ips": [
        {
            "address": "10.70.0.5/24"
        }
    ],
    "dns": {}
}`),
      { args: 'IgnoreUnknown=1;FOO=bar' },
    ],
    [
      'CNI_ARGS IP= (two families) with GATEWAY= are appended to the configured address',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}]}}',
      ok(`{
    "cniVersion": "1.0.0",
    "ips": [
        {
            "address": "10.70.0.5/24"
        },
        {
            "address": "10.70.0.9/24",
            "gateway": "10.70.0.1"
        },
        {
            "address": "fd00:70::9/64",
            "gateway": "fd00:70::1"
        }
    ],
    "dns": {}
}`),
      { args: 'IP=10.70.0.9/24,fd00:70::9/64;GATEWAY=10.70.0.1,fd00:70::1' },
    ],
    [
      'CNI_ARGS GATEWAY= alone does not touch the configured addresses',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}]}}',
      ok(`{
    "cniVersion": "1.0.0",
    "ips": [
        {
            "address": "10.70.0.5/24"
        }
    ],
    "dns": {}
}`),
      { args: 'GATEWAY=10.70.0.1' },
    ],
    [
      'runtimeConfig.ips replace the configured addresses (and their gateway)',
      '{"cniVersion":"1.0.0","name":"snet","runtimeConfig":{"ips":["10.70.0.7/24","10.70.0.8/24"]},"ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24","gateway":"10.70.0.1"}]}}',
      ok(`{
    "cniVersion": "1.0.0",
    "ips": [
        {
            "address": "10.70.0.7/24"
        },
        {
            "address": "10.70.0.8/24"
        }
    ],
    "dns": {}
}`),
    ],
    [
      'runtimeConfig.ips win over args.cni.ips',
      '{"cniVersion":"1.0.0","name":"snet","args":{"cni":{"ips":["10.70.0.11/24"]}},"runtimeConfig":{"ips":["10.70.0.12/24"]},"ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}]}}',
      ok(`{
    "cniVersion": "1.0.0",
    "ips": [
        {
            "address": "10.70.0.12/24"
        }
    ],
    "dns": {}
}`),
    ],
    [
      'a netns that does not exist does not matter',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}]}}',
      ok(`{
    "cniVersion": "1.0.0",
    "ips": [
        {
            "address": "10.70.0.5/24"
        }
    ],
    "dns": {}
}`),
      { netns: NS_NONE },
    ],
  ];

  it.each(cases)('%s', (_l, stdin, want, o) => {
    expect(st('ADD', stdin, o ?? {})).toEqual(want);
  });
});

describe('static ADD errors', () => {
  const cases: Array<[string, string, Out, string?]> = [
    [
      'no ipam key',
      '{"cniVersion":"1.0.0","name":"snet"}',
      goErr("IPAM config missing 'ipam' key"),
    ],
    [
      'address without prefix length',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5"}]}}',
      goErr("the 'address' field is expected to be in CIDR notation, got: '10.70.0.5'"),
    ],
    [
      'gateway not an IP',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24","gateway":"x"}]}}',
      goErr('invalid IP address: x'),
    ],
    [
      'route dst without prefix length',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}],"routes":[{"dst":"10.80.0.0"}]}}',
      goErr('invalid CIDR address: 10.80.0.0'),
    ],
    [
      'addresses is a string',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":"10.70.0.5/24"}}',
      goErr(
        'json: cannot unmarshal string into Go struct field IPAMConfig.ipam.addresses of type []main.Address',
      ),
    ],
    [
      'dns.nameservers is a string',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}],"dns":{"nameservers":"x"}}}',
      goErr(
        'json: cannot unmarshal string into Go struct field DNS.ipam.dns.nameservers of type []string',
      ),
    ],
    [
      'CNI_ARGS with an unknown key',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}]}}',
      goErr('ARGS: unknown args ["FOO=bar"]'),
      'FOO=bar',
    ],
    [
      'CNI_ARGS GATEWAY= not an IP',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}]}}',
      goErr('invalid gateway address: bad'),
      'IP=10.70.0.9/24;GATEWAY=bad',
    ],
    [
      'CNI_ARGS IP= without prefix length',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static"}}',
      goErr("the 'ip' field is expected to be in CIDR notation, got: '10.70.0.9'"),
      'IP=10.70.0.9',
    ],
    [
      'runtimeConfig.ips entry without prefix length',
      '{"cniVersion":"1.0.0","name":"snet","runtimeConfig":{"ips":["10.70.0.7"]},"ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}]}}',
      goErr("an entry in the 'ips' field is NOT in CIDR notation, got: '10.70.0.7'"),
    ],
    [
      'args.cni.ips entry not an address',
      '{"cniVersion":"1.0.0","name":"snet","args":{"cni":{"ips":["bad"]}},"ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}]}}',
      goErr("an entry in the 'ips' field is NOT in CIDR notation, got: 'bad'"),
    ],
  ];

  it.each(cases)('%s', (_l, stdin, want, args) => {
    expect(st('ADD', stdin, args ? { args } : {})).toEqual(want);
  });
});

describe('static CHECK', () => {
  const C =
    '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24","gateway":"10.70.0.1"},{"address":"fd00:70::5/64"}]}}';
  const P_OK =
    '{"cniVersion":"1.0.0","ips":[{"address":"10.70.0.5/24","gateway":"10.70.0.1"},{"address":"fd00:70::5/64","gateway":"fd00:70::99"}]}';
  const P_GW = '{"cniVersion":"1.0.0","ips":[{"address":"10.70.0.5/24","gateway":"10.70.0.9"}]}';
  const P_NOGW = '{"cniVersion":"1.0.0","ips":[{"address":"10.70.0.5/24"}]}';
  const P_OTHER = '{"cniVersion":"1.0.0","ips":[{"address":"10.70.0.99/24"}]}';
  const NO_GW_CONF = '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static"}}';
  const MISMATCH = goErr('static: Failed to match addr 10.70.0.5 on interface eth0');
  const cases: Array<[string, string, Out, { netns?: string; ifname?: string; args?: string }?]> = [
    [
      'matching addresses (an address configured without gateway matches any)',
      withPrev(C, P_OK),
      OK,
    ],
    ['another gateway in the prevResult', withPrev(C, P_GW), MISMATCH],
    ['no gateway in the prevResult', withPrev(C, P_NOGW), MISMATCH],
    ['the configured address is not in the prevResult at all', withPrev(C, P_OTHER), OK],
    ['no prevResult', C, goErr('Required prevResult missing')],
    [
      'the netns is never opened; the message names CNI_IFNAME',
      withPrev(C, P_GW),
      goErr('static: Failed to match addr 10.70.0.5 on interface eth9'),
      { netns: NS_NONE, ifname: 'eth9' },
    ],
    [
      '0.4.0 prevResult with another gateway',
      withPrev(
        C.replace('1.0.0', '0.4.0'),
        '{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.70.0.5/24","gateway":"10.70.0.2"}]}',
      ),
      MISMATCH,
    ],
    ['no configured address: nothing to compare', withPrev(NO_GW_CONF, P_GW), OK],
    [
      'addresses from CNI_ARGS are compared too',
      withPrev(NO_GW_CONF, P_GW),
      MISMATCH,
      { args: 'IP=10.70.0.5/24;GATEWAY=10.70.0.3' },
    ],
    [
      'a prevResult that does not parse',
      withPrev(
        C,
        '{"cniVersion":"1.0.0","ips":[{"address":"10.70.0.5/24","gateway":"10.70.0.1"}],"routes":[{"dst":"bad"}]}',
      ),
      goErr('could not parse prevResult: invalid CIDR address: bad'),
    ],
  ];

  it.each(cases)('%s', (_l, stdin, want, o) => {
    expect(st('CHECK', stdin, o ?? {})).toEqual(want);
  });

  it("CHECK with ADD's own result passes", () => {
    const h = ptNode();
    const add = runPlugin(h, 'static', 'ADD', { cid: 'c1' }, FULL);
    expect(add.exitCode).toBe(0);
    const c =
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24","gateway":"10.70.0.1"},{"address":"fd00:70::5/64"}]}}';
    expect(runPlugin(h, 'static', 'CHECK', { cid: 'c1' }, withPrev(c, add.stdout))).toEqual(OK);
  });
});

describe('static DEL', () => {
  const C =
    '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24","gateway":"10.70.0.1"},{"address":"fd00:70::5/64"}]}}';
  const cases: Array<[string, string, Out, string?]> = [
    ['DEL', C, OK, NS_A],
    ['without ipam', '{"cniVersion":"1.0.0","name":"snet"}', OK, ''],
    [
      'with an address that does not parse',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"bad"}]}}',
      OK,
      '',
    ],
    ['with ipam not an object', '{"cniVersion":"1.0.0","name":"snet","ipam":"x"}', OK, ''],
    [
      'with a prevResult that does not parse',
      '{"cniVersion":"1.0.0","name":"snet","ipam":{"type":"static","addresses":[{"address":"10.70.0.5/24"}]},"prevResult":{"cniVersion":"1.0.0","ips":"x"}}',
      OK,
      '',
    ],
    [
      'with an unsupported cniVersion (skel refuses it)',
      '{"cniVersion":"0.5.0","name":"snet"}',
      goErr(
        'incompatible CNI versions',
        1,
        'config is "0.5.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0" "1.0.0"]',
      ),
      '',
    ],
  ];

  it.each(cases)('%s', (_l, stdin, want, netns) => {
    expect(st('DEL', stdin, { netns: netns ?? NS_A })).toEqual(want);
  });

  it('ADD, DEL, DEL again: nothing is kept anywhere', () => {
    const h = ptNode();
    const before = vfs.walk(h.fs, '/').length;
    expect(runPlugin(h, 'static', 'ADD', { cid: 'c1' }, FULL).exitCode).toBe(0);
    expect(runPlugin(h, 'static', 'DEL', { cid: 'c1' }, C)).toEqual(OK);
    expect(runPlugin(h, 'static', 'DEL', { cid: 'c1' }, C)).toEqual(OK);
    expect(vfs.walk(h.fs, '/').length).toBe(before);
    expect(dataFiles(h)).toEqual([]);
    expect(nsView(h, 'cnisim-pt-pod-a')).toEqual(['link lo - mtu 65536']);
  });
});

describe('static v1.1.1: GC and STATUS are unknown commands', () => {
  it.each(['GC', 'STATUS'])('%s', (cmd) => {
    expect(st(cmd, '{"cniVersion":"1.0.0","name":"snet"}', { netns: '' })).toEqual(
      goErr(`unknown CNI_COMMAND: ${cmd}`, 4),
    );
  });
});
