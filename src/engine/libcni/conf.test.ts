/**
 * libcni/conf.go of containernetworking/cni v1.1.2 (ConfListFromBytes, LoadConfList, InjectConf):
 * every expected value was printed by a Go program calling the real library, the directory
 * cases on a real directory tree with exactly these files (its path replaced by /etc/cni/net.d).
 */
import { describe, expect, it } from 'vitest';
import * as vfs from '../fs/vfs';
import { confFromBytes, confListFromBytes, injectConf, loadConfList } from './conf';

type ListCase =
  | { error: string }
  | { name: string; cniVersion: string; disableCheck: boolean; plugins: string[]; types: string[] };

// [file bytes, libcni.ConfListFromBytes outcome; plugins = each NetworkConfig.Bytes]
const CONF_LIST_FROM_BYTES: Array<[string, ListCase]> = [
  ['{"plugins":[{"type":"x"}]}', { error: 'error parsing configuration list: no name' }],
  [
    '{"name":5,"plugins":[{"type":"x"}]}',
    { error: 'error parsing configuration list: invalid name type float64' },
  ],
  [
    '{"name":null,"plugins":[{"type":"x"}]}',
    { error: 'error parsing configuration list: invalid name type <nil>' },
  ],
  [
    '{"name":["a"],"plugins":[{"type":"x"}]}',
    { error: 'error parsing configuration list: invalid name type []interface {}' },
  ],
  [
    '{"name":{},"plugins":[{"type":"x"}]}',
    { error: 'error parsing configuration list: invalid name type map[string]interface {}' },
  ],
  [
    '{"name":true,"plugins":[{"type":"x"}]}',
    { error: 'error parsing configuration list: invalid name type bool' },
  ],
  [
    '{"name":"n","cniVersion":1,"plugins":[{"type":"x"}]}',
    { error: 'error parsing configuration list: invalid cniVersion type float64' },
  ],
  [
    '{"name":"n","cniVersion":null,"plugins":[{"type":"x"}]}',
    { error: 'error parsing configuration list: invalid cniVersion type <nil>' },
  ],
  [
    '{"name":"n","disableCheck":"true","plugins":[{"type":"x"}]}',
    { error: 'error parsing configuration list: invalid disableCheck type string' },
  ],
  [
    '{"name":"n","disableCheck":1,"plugins":[{"type":"x"}]}',
    { error: 'error parsing configuration list: invalid disableCheck type float64' },
  ],
  ['{"name":"n"}', { error: "error parsing configuration list: no 'plugins' key" }],
  [
    '{"name":"n","plugins":{}}',
    { error: "error parsing configuration list: invalid 'plugins' type map[string]interface {}" },
  ],
  [
    '{"name":"n","plugins":"bridge"}',
    { error: "error parsing configuration list: invalid 'plugins' type string" },
  ],
  [
    '{"name":"n","plugins":null}',
    { error: "error parsing configuration list: invalid 'plugins' type <nil>" },
  ],
  ['{"name":"n","plugins":[]}', { error: 'error parsing configuration list: no plugins in list' }],
  [
    '{"name":"n","plugins":[{"name":"x"}]}',
    { error: "failed to parse plugin config 0: error parsing configuration: missing 'type'" },
  ],
  [
    '{"name":"n","plugins":[{"type":""}]}',
    { error: "failed to parse plugin config 0: error parsing configuration: missing 'type'" },
  ],
  [
    '{"name":"n","plugins":[5]}',
    {
      error:
        'failed to parse plugin config 0: error parsing configuration: json: cannot unmarshal number into Go value of type types.NetConf',
    },
  ],
  [
    '{"name":"n","plugins":["bridge"]}',
    {
      error:
        'failed to parse plugin config 0: error parsing configuration: json: cannot unmarshal string into Go value of type types.NetConf',
    },
  ],
  [
    '{"name":"n","plugins":[null]}',
    { error: "failed to parse plugin config 0: error parsing configuration: missing 'type'" },
  ],
  [
    '{"name":"n","plugins":[[]]}',
    {
      error:
        'failed to parse plugin config 0: error parsing configuration: json: cannot unmarshal array into Go value of type types.NetConf',
    },
  ],
  [
    '{"name":"n","plugins":[{"type":"a"},{"type":5}]}',
    {
      error:
        'failed to parse plugin config 1: error parsing configuration: json: cannot unmarshal number into Go struct field NetConf.type of type string',
    },
  ],
  [
    '{"name":"n","plugins":[{"type":"a","ipam":5}]}',
    {
      error:
        'failed to parse plugin config 0: error parsing configuration: json: cannot unmarshal number into Go struct field NetConf.ipam of type types.IPAM',
    },
  ],
  [
    '{"name":"n","plugins":[{"type":"a","dns":{"nameservers":"x"}}]}',
    {
      error:
        'failed to parse plugin config 0: error parsing configuration: json: cannot unmarshal string into Go struct field DNS.dns.nameservers of type []string',
    },
  ],
  [
    '{"name":"n","plugins":[{"type":"a","capabilities":{"x":1}}]}',
    {
      error:
        'failed to parse plugin config 0: error parsing configuration: json: cannot unmarshal number into Go struct field NetConf.capabilities of type bool',
    },
  ],
  ['{', { error: 'error parsing configuration list: unexpected end of JSON input' }],
  ['', { error: 'error parsing configuration list: unexpected end of JSON input' }],
  [
    '[]',
    {
      error:
        'error parsing configuration list: json: cannot unmarshal array into Go value of type map[string]interface {}',
    },
  ],
  [
    '"x"',
    {
      error:
        'error parsing configuration list: json: cannot unmarshal string into Go value of type map[string]interface {}',
    },
  ],
  ['null', { error: 'error parsing configuration list: no name' }],
  [
    '{"name":"n","plugins":[{"type":"a"}]} x',
    { error: "error parsing configuration list: invalid character 'x' after top-level value" },
  ],
  [
    '{"cniVersion":"1.0.0","name":"n","disableCheck":true,"plugins":[{"type":"bridge","bridge":"cni0","ipam":{"type":"host-local","subnet":"10.1.0.0/24"},"b":2,"a":[1,2.5,"<&>"]},{"type":"portmap","capabilities":{"portMappings":true}}]}',
    {
      name: 'n',
      cniVersion: '1.0.0',
      disableCheck: true,
      plugins: [
        '{"a":[1,2.5,"\\u003c\\u0026\\u003e"],"b":2,"bridge":"cni0","ipam":{"subnet":"10.1.0.0/24","type":"host-local"},"type":"bridge"}',
        '{"capabilities":{"portMappings":true},"type":"portmap"}',
      ],
      types: ['bridge', 'portmap'],
    },
  ],
  [
    '{"name":"","plugins":[{"type":"a"}]}',
    { name: '', cniVersion: '', disableCheck: false, plugins: ['{"type":"a"}'], types: ['a'] },
  ],
  [
    '{"name":"my net!","cniVersion":"9.9.9","plugins":[{"type":"a","cniVersion":"0.1.0","name":"other"}]}',
    {
      name: 'my net!',
      cniVersion: '9.9.9',
      disableCheck: false,
      plugins: ['{"cniVersion":"0.1.0","name":"other","type":"a"}'],
      types: ['a'],
    },
  ],
  [
    '{"name":"n","plugins":[{"type":"a","n":1e3,"m":1.0,"big":12345678901234567890,"s":"\\u00e9\\u2028"}]}',
    {
      name: 'n',
      cniVersion: '',
      disableCheck: false,
      plugins: ['{"big":12345678901234567000,"m":1,"n":1000,"s":"\u00e9\\u2028","type":"a"}'],
      types: ['a'],
    },
  ],
];

/** The directory tree the LoadConfList cases ran on (null = empty directory; notadir is a file). */
const TREE: Record<string, string | null> = {
  '/etc/cni/net.d/d1/00-b.conf': '{"cniVersion":"0.4.0","name":"B","type":"loopback"}',
  '/etc/cni/net.d/d1/a.conflist': '{"cniVersion":"1.0.0","name":"A","plugins":[{"type":"bridge"}]}',
  '/etc/cni/net.d/d1/b.conflist':
    '{"cniVersion":"1.0.0","name":"B","plugins":[{"type":"host-local"}]}',
  '/etc/cni/net.d/d1/c.conflist': '{"cniVersion":"1.0.0","name":"B","plugins":[{"type":"ptp"}]}',
  '/etc/cni/net.d/d10/1.conf': '{"name":"other","type":"x"}',
  '/etc/cni/net.d/d2/10-a.json':
    '{"cniVersion":"0.4.0","name":"n","type":"host-local","z":1,"a":{"y":1,"x":2}}',
  '/etc/cni/net.d/d2/20-b.conf': '{"cniVersion":"0.3.1","name":"n","type":"bridge","bridge":"br0"}',
  '/etc/cni/net.d/d2/30-c.conf': '{"name":"n","type":"ptp"}',
  '/etc/cni/net.d/d3/a.conflist': '{"cniVersion":"1.0.0","name":"A","plugins":[{"type":"bridge"}]}',
  '/etc/cni/net.d/d4': null,
  '/etc/cni/net.d/d5/1-bad.conflist': '{"name":"bad"',
  '/etc/cni/net.d/d5/2-good.conflist':
    '{"cniVersion":"1.0.0","name":"X","plugins":[{"type":"bridge"}]}',
  '/etc/cni/net.d/d6/10-b.conflist':
    '{"cniVersion":"1.0.0","name":"same","plugins":[{"type":"first"}]}',
  '/etc/cni/net.d/d6/9-a.conflist':
    '{"cniVersion":"1.0.0","name":"same","plugins":[{"type":"second"}]}',
  '/etc/cni/net.d/d7/X.CONFLIST': '{"cniVersion":"1.0.0","name":"X","plugins":[{"type":"upper"}]}',
  '/etc/cni/net.d/d7/x.conflist': null,
  '/etc/cni/net.d/d7/x.conflist.bak':
    '{"cniVersion":"1.0.0","name":"X","plugins":[{"type":"bak"}]}',
  '/etc/cni/net.d/d7/y.conflist': '{"cniVersion":"1.0.0","name":"X","plugins":[{"type":"real"}]}',
  '/etc/cni/net.d/d8/1.conf': '{"name":"n"',
  '/etc/cni/net.d/d8/2.conf': '{"name":"n","type":"x"}',
  '/etc/cni/net.d/d9/1.conf': '{"name":"n","type":"x"}',
  '/etc/cni/net.d/d9/2.conf': '{"name":"m","type":"',
  '/etc/cni/net.d/notadir': 'x',
};

type DirCase = { error: string } | { bytes: string; cniVersion: string; plugins: string[] };

// [dir, network name, libcni.LoadConfList outcome]
const LOAD_CONF_LIST: Array<[string, string, DirCase]> = [
  [
    '/etc/cni/net.d/d1',
    'B',
    {
      bytes: '{"cniVersion":"1.0.0","name":"B","plugins":[{"type":"host-local"}]}',
      cniVersion: '1.0.0',
      plugins: ['{"type":"host-local"}'],
    },
  ],
  [
    '/etc/cni/net.d/d2',
    'n',
    {
      bytes:
        '{"cniVersion":"0.4.0","name":"n","plugins":[{"a":{"x":2,"y":1},"cniVersion":"0.4.0","name":"n","type":"host-local","z":1}]}',
      cniVersion: '0.4.0',
      plugins: ['{"a":{"x":2,"y":1},"cniVersion":"0.4.0","name":"n","type":"host-local","z":1}'],
    },
  ],
  ['/etc/cni/net.d/d3', 'Z', { error: 'no net configuration with name "Z" in /etc/cni/net.d/d3' }],
  ['/etc/cni/net.d/d4', 'Z', { error: 'no net configurations found in /etc/cni/net.d/d4' }],
  [
    '/etc/cni/net.d/missing',
    'Z',
    { error: 'no net configurations found in /etc/cni/net.d/missing' },
  ],
  [
    '/etc/cni/net.d/d5',
    'X',
    { error: 'error parsing configuration list: unexpected end of JSON input' },
  ],
  [
    '/etc/cni/net.d/d6',
    'same',
    {
      bytes: '{"cniVersion":"1.0.0","name":"same","plugins":[{"type":"first"}]}',
      cniVersion: '1.0.0',
      plugins: ['{"type":"first"}'],
    },
  ],
  [
    '/etc/cni/net.d/d7',
    'X',
    {
      bytes: '{"cniVersion":"1.0.0","name":"X","plugins":[{"type":"real"}]}',
      cniVersion: '1.0.0',
      plugins: ['{"type":"real"}'],
    },
  ],
  [
    '/etc/cni/net.d/d8',
    'n',
    { error: 'error parsing configuration: unexpected end of JSON input' },
  ],
  [
    '/etc/cni/net.d/d9',
    'n',
    {
      bytes: '{"cniVersion":"","name":"n","plugins":[{"name":"n","type":"x"}]}',
      cniVersion: '',
      plugins: ['{"name":"n","type":"x"}'],
    },
  ],
  ['/etc/cni/net.d/notadir', 'n', { error: 'readdirent /etc/cni/net.d/notadir: not a directory' }],
  [
    '/etc/cni/net.d/d10',
    'n',
    { error: 'no net configuration with name "n" in /etc/cni/net.d/d10' },
  ],
  [
    '/etc/cni/net.d/d1',
    'A',
    {
      bytes: '{"cniVersion":"1.0.0","name":"A","plugins":[{"type":"bridge"}]}',
      cniVersion: '1.0.0',
      plugins: ['{"type":"bridge"}'],
    },
  ],
];

function treeFs(): vfs.FsState {
  let fs = vfs.mkdirAll(vfs.emptyFs(), '/etc/cni/net.d');
  for (const [p, data] of Object.entries(TREE)) {
    if (data === null) fs = vfs.mkdirAll(fs, p);
    else fs = vfs.writeFile(vfs.mkdirAll(fs, vfs.dirname(p)), p, data);
  }
  return fs;
}

describe('confListFromBytes (libcni.ConfListFromBytes)', () => {
  it.each(CONF_LIST_FROM_BYTES)('%s', (bytes, want) => {
    let got: ListCase;
    try {
      const l = confListFromBytes(bytes);
      expect(l.bytes).toBe(bytes);
      got = {
        name: l.name,
        cniVersion: l.cniVersion,
        disableCheck: l.disableCheck,
        plugins: l.plugins.map((p) => p.bytes),
        types: l.plugins.map((p) => p.network.type),
      };
    } catch (e) {
      got = { error: (e as Error).message };
    }
    expect(got).toEqual(want);
  });
});

describe('loadConfList (libcni.LoadConfList)', () => {
  it.each(LOAD_CONF_LIST)('%s %j', (dir, name, want) => {
    let got: DirCase;
    try {
      const l = loadConfList(treeFs(), dir, name, { libcni: '1.1' });
      got = { bytes: l.bytes, cniVersion: l.cniVersion, plugins: l.plugins.map((p) => p.bytes) };
    } catch (e) {
      got = { error: (e as Error).message };
    }
    expect(got).toEqual(want);
  });
});

describe('injectConf (libcni.InjectConf)', () => {
  const orig = () =>
    confFromBytes(
      '{"type":"bridge","name":"orig","z":{"b":1,"a":2},"cniVersion":"0.3.1","ipam":{"type":"host-local"}}',
    );

  it('sets top-level keys and re-marshals the config with sorted keys', () => {
    const n = injectConf(orig(), [
      ['name', 'net1'],
      ['cniVersion', '1.0.0'],
      ['prevResult', { cniVersion: '1.0.0', interfaces: [{ name: 'eth0' }] }],
    ]);
    expect(n.bytes).toBe(
      '{"cniVersion":"1.0.0","ipam":{"type":"host-local"},"name":"net1","prevResult":{"cniVersion":"1.0.0","interfaces":[{"name":"eth0"}]},"type":"bridge","z":{"a":2,"b":1}}',
    );
    expect(n.network.name).toBe('net1');
    expect(n.network.cniVersion).toBe('1.0.0');
  });

  it.each([
    ['an empty key', [['', 'x']], 'keys cannot be empty'],
    ['a nil value', [['runtimeConfig', null]], "key 'runtimeConfig' value must not be nil"],
    ['a type emptied', [['type', '']], "error parsing configuration: missing 'type'"],
  ] as Array<[string, Array<[string, unknown]>, string]>)('refuses %s', (_n, values, want) => {
    expect(() => injectConf(orig(), values)).toThrow(want);
  });

  it('fails on unparsable original bytes', () => {
    const bad = { ...orig(), bytes: '{' };
    expect(() => injectConf(bad, [['a', 'b']])).toThrow(
      'unmarshal existing network bytes: unexpected end of JSON input',
    );
  });
});
