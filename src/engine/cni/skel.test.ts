/**
 * The plugin skeleton (cni/pkg/skel) as the real v1.1.1 binaries run it: each row was recorded
 * by running /usr/lib/cni/bridge inside a throw-away network namespace with `env -i PATH=...`
 * plus exactly the CNI_* variables shown, and the stdin shown. host-local answered every row
 * identically except for its "about" text (checked separately). None of these calls gets past
 * the skeleton, so no plugin code runs.
 */
import { describe, expect, it } from 'vitest';
import { Harness } from '../plugins/harness';

type Want = { stdout: string; stderr: string; exitCode: number };

const POD = '/var/run/netns/cnisim-ut-pod';

// [case, environment besides PATH, stdin, what /usr/lib/cni/bridge printed]
const BRIDGE: Array<[string, Record<string, string>, string, Want]> = [
  [
    'no env at all',
    {},
    '',
    {
      stdout: '',
      stderr:
        'CNI bridge plugin version unknown\nCNI protocol versions supported: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0\n',
      exitCode: 0,
    },
  ],
  [
    'CNI_CONTAINERID set, CNI_COMMAND missing',
    { CNI_CONTAINERID: 'c1' },
    '',
    {
      stdout: '',
      stderr:
        'CNI bridge plugin version unknown\nCNI protocol versions supported: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0\n',
      exitCode: 0,
    },
  ],
  [
    'ADD alone',
    { CNI_COMMAND: 'ADD' },
    '',
    {
      stdout:
        '{\n    "code": 4,\n    "msg": "required env variables [CNI_CONTAINERID,CNI_NETNS,CNI_IFNAME,CNI_PATH] missing"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'DEL alone',
    { CNI_COMMAND: 'DEL' },
    '',
    {
      stdout:
        '{\n    "code": 4,\n    "msg": "required env variables [CNI_CONTAINERID,CNI_IFNAME,CNI_PATH] missing"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'CHECK alone',
    { CNI_COMMAND: 'CHECK' },
    '',
    {
      stdout:
        '{\n    "code": 4,\n    "msg": "required env variables [CNI_CONTAINERID,CNI_NETNS,CNI_IFNAME,CNI_PATH] missing"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD without CNI_NETNS and CNI_PATH',
    { CNI_COMMAND: 'ADD', CNI_CONTAINERID: 'c1', CNI_IFNAME: 'eth0' },
    '{"cniVersion": "1.0.0", "name": "net1", "type": "x"}',
    {
      stdout:
        '{\n    "code": 4,\n    "msg": "required env variables [CNI_NETNS,CNI_PATH] missing"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'DEL without CNI_NETNS',
    { CNI_COMMAND: 'DEL', CNI_IFNAME: 'eth0', CNI_ARGS: '', CNI_PATH: '/usr/lib/cni' },
    '{"cniVersion": "1.0.0", "name": "net1", "type": "x"}',
    {
      stdout: '{\n    "code": 4,\n    "msg": "required env variables [CNI_CONTAINERID] missing"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'VERSION alone, stdin ignored',
    { CNI_COMMAND: 'VERSION' },
    'not json{',
    {
      stdout:
        '{"cniVersion":"1.0.0","supportedVersions":["0.1.0","0.2.0","0.3.0","0.3.1","0.4.0","1.0.0"]}\n',
      stderr: '',
      exitCode: 0,
    },
  ],
  [
    'unknown command with everything else valid',
    {
      CNI_COMMAND: 'FOO',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "1.0.0", "name": "net1", "type": "x"}',
    {
      stdout: '{\n    "code": 4,\n    "msg": "unknown CNI_COMMAND: FOO"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'unknown command alone',
    { CNI_COMMAND: 'FOO' },
    '{"cniVersion": "1.0.0", "name": "net1", "type": "x"}',
    { stdout: '{\n    "code": 3,\n    "msg": "missing containerID"\n}', stderr: '', exitCode: 1 },
  ],
  [
    'unknown command, empty stdin',
    {
      CNI_COMMAND: 'FOO',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '',
    {
      stdout:
        '{\n    "code": 6,\n    "msg": "error unmarshall network config: unexpected end of JSON input"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD, stdin not JSON',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    'not json{',
    {
      stdout:
        '{\n    "code": 6,\n    "msg": "error unmarshall network config: invalid character \'o\' in literal null (expecting \'u\')"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD, empty stdin',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '',
    {
      stdout:
        '{\n    "code": 6,\n    "msg": "error unmarshall network config: unexpected end of JSON input"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD, name not a string',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion":"1.0.0","name":5}',
    {
      stdout:
        '{\n    "code": 6,\n    "msg": "error unmarshall network config: json: cannot unmarshal number into Go struct field .name of type string"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD, no name',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "1.0.0", "type": "x"}',
    { stdout: '{\n    "code": 7,\n    "msg": "missing network name"\n}', stderr: '', exitCode: 1 },
  ],
  [
    'ADD, invalid network name',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "1.0.0", "name": "my net", "type": "x"}',
    {
      stdout:
        '{\n    "code": 7,\n    "msg": "invalid characters found in network name",\n    "details": "my net"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD, invalid container id',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'c/1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "1.0.0", "name": "net1", "type": "x"}',
    {
      stdout:
        '{\n    "code": 4,\n    "msg": "invalid characters in containerID",\n    "details": "c/1"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD, container id checked before ifname',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: '-c',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'xxxxxxxxxxxxxxxx',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "1.0.0", "name": "net1", "type": "x"}',
    {
      stdout:
        '{\n    "code": 4,\n    "msg": "invalid characters in containerID",\n    "details": "-c"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD, ifname too long',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'xxxxxxxxxxxxxxxx',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "1.0.0", "name": "net1", "type": "x"}',
    {
      stdout:
        '{\n    "code": 4,\n    "msg": "interface name is too long",\n    "details": "interface name should be less than 16 characters"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD, ifname with colon',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0:1',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "1.0.0", "name": "net1", "type": "x"}',
    {
      stdout:
        '{\n    "code": 4,\n    "msg": "interface name contains / or : or whitespace characters"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD, unsupported cniVersion',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "0.5.0", "name": "net1", "type": "x"}',
    {
      stdout:
        '{\n    "code": 1,\n    "msg": "incompatible CNI versions",\n    "details": "config is \\"0.5.0\\", plugin supports [\\"0.1.0\\" \\"0.2.0\\" \\"0.3.0\\" \\"0.3.1\\" \\"0.4.0\\" \\"1.0.0\\"]"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD, cniVersion 1.1.0',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "1.1.0", "name": "net1", "type": "x"}',
    {
      stdout:
        '{\n    "code": 1,\n    "msg": "incompatible CNI versions",\n    "details": "config is \\"1.1.0\\", plugin supports [\\"0.1.0\\" \\"0.2.0\\" \\"0.3.0\\" \\"0.3.1\\" \\"0.4.0\\" \\"1.0.0\\"]"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'ADD, cniVersion a number',
    {
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion":1,"name":"net1"}',
    {
      stdout:
        '{\n    "code": 6,\n    "msg": "decoding version from network config: json: cannot unmarshal number into Go struct field .cniVersion of type string"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'DEL, unsupported cniVersion',
    {
      CNI_COMMAND: 'DEL',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "2.0.0", "name": "net1", "type": "x"}',
    {
      stdout:
        '{\n    "code": 1,\n    "msg": "incompatible CNI versions",\n    "details": "config is \\"2.0.0\\", plugin supports [\\"0.1.0\\" \\"0.2.0\\" \\"0.3.0\\" \\"0.3.1\\" \\"0.4.0\\" \\"1.0.0\\"]"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'CHECK, cniVersion 0.3.1',
    {
      CNI_COMMAND: 'CHECK',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "0.3.1", "name": "net1", "type": "x"}',
    {
      stdout: '{\n    "code": 1,\n    "msg": "config version does not allow CHECK"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'CHECK, no cniVersion',
    {
      CNI_COMMAND: 'CHECK',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"name": "net1", "type": "x"}',
    {
      stdout: '{\n    "code": 1,\n    "msg": "config version does not allow CHECK"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'CHECK, cniVersion x',
    {
      CNI_COMMAND: 'CHECK',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "x", "name": "net1", "type": "x"}',
    {
      stdout:
        '{\n    "code": 6,\n    "msg": "failed to convert major version part \\"x\\": strconv.Atoi: parsing \\"x\\": invalid syntax"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'CHECK, cniVersion 1.1.0',
    {
      CNI_COMMAND: 'CHECK',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "1.1.0", "name": "net1", "type": "x"}',
    {
      stdout: '{\n    "code": 1,\n    "msg": "plugin version does not allow CHECK"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
  [
    'CHECK, cniVersion 0.5.0',
    {
      CNI_COMMAND: 'CHECK',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
      CNI_IFNAME: 'eth0',
      CNI_ARGS: '',
      CNI_PATH: '/usr/lib/cni',
    },
    '{"cniVersion": "0.5.0", "name": "net1", "type": "x"}',
    {
      stdout:
        '{\n    "code": 1,\n    "msg": "incompatible CNI versions",\n    "details": "config is \\"0.5.0\\", plugin supports [\\"0.1.0\\" \\"0.2.0\\" \\"0.3.0\\" \\"0.3.1\\" \\"0.4.0\\" \\"1.0.0\\"]"\n}',
      stderr: '',
      exitCode: 1,
    },
  ],
];

function harness(): Harness {
  const h = new Harness();
  h.addNetns('cnisim-ut-pod');
  return h;
}

describe('skel dispatch (real bridge binary)', () => {
  it.each(BRIDGE)('%s', (_name, env, stdin, want) => {
    const h = harness();
    const r = h.run('bridge', env, stdin);
    expect({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }).toEqual(want);
  });

  it('the netns path used above exists (the calls fail before opening it)', () => {
    expect(harness().hasNs('cnisim-ut-pod')).toBe(true);
    expect(POD).toBe('/var/run/netns/cnisim-ut-pod');
  });
});

describe('skel dispatch (real host-local binary)', () => {
  it('prints its about text on stderr and exits 0 without CNI_COMMAND', () => {
    const r = harness().run('host-local', {}, '');
    expect(r).toMatchObject({
      stdout: '',
      stderr:
        'CNI host-local plugin version unknown\nCNI protocol versions supported: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0\n',
      exitCode: 0,
    });
  });

  it('prints its about text for loopback too', () => {
    const r = harness().run('loopback', {}, '');
    expect(r.stderr).toBe(
      'CNI loopback plugin version unknown\nCNI protocol versions supported: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0\n',
    );
    expect(r.exitCode).toBe(0);
  });

  // Every skeleton answer other than the about text is the same as bridge's.
  it.each(BRIDGE.filter(([, env]) => 'CNI_COMMAND' in env))('%s', (_name, env, stdin, want) => {
    const r = harness().run('host-local', env, stdin);
    expect({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }).toEqual(want);
  });
});
