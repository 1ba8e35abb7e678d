/**
 * libcni v1.2 (CNIConfig version '1.2'): GCNetworkList, GetStatusNetworkList, the cache's netns,
 * DEL with a corrupt cache, and the v1.2 config list parsing (cniVersions, string booleans,
 * disableGC), with plugins of the v1.6.2 build. Expectations come from libcni's source, read
 * through the search index (containernetworking/cni):
 *  - libcni/api.go of v1.2.x (index id 1255866457): GetCachedAttachments (file names sorted,
 *    entries that do not unmarshal or are not cniCacheV1 skipped), GCNetworkList (disableGC ->
 *    nil; a DelNetworkList for every cached attachment of the network that is not in
 *    args.ValidAttachments, with the cached NetNS, CniArgs and CapabilityArgs; then, for a list
 *    >= 1.1.0, GC to every plugin with name / cniVersion injected, plus
 *    "cni.dev/valid-attachments" only when args != nil; errors collected with errors.Join),
 *    gcNetwork / getStatusNetwork (c.args(cmd, &RuntimeConf{}): empty CNI_CONTAINERID, CNI_NETNS,
 *    CNI_IFNAME, CNI_ARGS), GetStatusNetworkList (nothing below 1.1.0; the first error returned
 *    as is), DelNetworkList (an unreadable cache is deleted and DEL goes on without prevResult),
 *    cacheAdd (cachedInfo with NetNS);
 *  - PR #1103 (merged for v1.2.1, "SPEC, libcni: harmonize GC valid-attachment key"): libcni also
 *    sets "cni.dev/attachments" to the same list;
 *  - libcni/conf.go of v1.2.x (index id 1339642326): ConfListFromBytes with cniVersions
 *    (entries greater than version.Current() = 1.1.0 skipped, the others and cniVersion sorted,
 *    the highest wins) and readBool for disableCheck / disableGC;
 *  - libcni v1.1.2 (the recorded generation) for the contrast: a corrupt cache fails DEL with
 *    `failed to get network %q cached result: %w`, and disableCheck must be a JSON bool.
 */
import { describe, expect, it } from 'vitest';
import { base64Encode } from '../base64';
import * as vfs from '../fs/vfs';
import { runToEnd } from '../os/sys';
import { PROGRAMS } from '../plugins/registry';
import type { Harness } from '../plugins/harness';
import { PATH_ENV } from '../plugins/harness';
import { ptNode, uninstall } from '../plugins/pt-harness';
import { isKind, type TraceEvent } from '../trace/trace';
import { CNIConfig, type LibcniOutcome, type RuntimeConf } from './api';
import { confListFromBytes } from './conf';

const ROOT = '/tmp/cnisim-gc';
const CACHE = `${ROOT}/cache`;
const DATA = `${ROOT}/data`;
const RESULTS = `${CACHE}/results`;

const PTP = `{"type":"ptp","capabilities":{"ips":true},"ipam":{"type":"host-local","dataDir":"${DATA}","ranges":[[{"subnet":"10.1.0.0/24"}]]}}`;
const list = (v = '1.1.0', extra = '') =>
  confListFromBytes(`{"cniVersion":"${v}","name":"gcnet"${extra},"plugins":[${PTP}]}`, {
    libcni: '1.2',
  });

function setup(version: '1.1' | '1.2' = '1.2', build = 'v1.6.2') {
  const h = ptNode({ build, pods: ['pod-a', 'pod-b', 'pod-c'] });
  h.mkdir(ROOT);
  const libcni = new CNIConfig({
    sim: h.sim,
    node: h.node,
    programs: PROGRAMS,
    path: ['/usr/lib/cni'],
    cacheDir: CACHE,
    version,
    env: { PATH: PATH_ENV },
    caller: 'test',
  });
  return { h, libcni };
}

function rt(cid: string, pod: string, extra: Partial<RuntimeConf> = {}): RuntimeConf {
  return {
    containerId: cid,
    netns: `/var/run/netns/${pod}`,
    ifName: 'eth0',
    args: [],
    capabilityArgs: {},
    ...extra,
  };
}

interface Call {
  plugin: string;
  env: Record<string, string>;
  stdin: string;
}

/** The plugin runs libcni itself started (not the IPAM children), in order. */
function calls(events: readonly TraceEvent[]): Call[] {
  return events
    .filter(isKind('exec'))
    .filter((e) => e.source === 'libcni')
    .map((e) => {
      const p = e.payload;
      const env = Object.fromEntries(Object.entries(p.env).filter(([k]) => k.startsWith('CNI_')));
      return { plugin: vfs.basename(p.path), env, stdin: p.stdin };
    });
}

function files(h: Harness, dir: string): string[] {
  return vfs
    .walk(h.fs, dir)
    .filter((p) => vfs.stat(h.fs, p)?.kind === 'file')
    .map((p) => p.slice(dir.length + 1))
    .sort();
}

function ok(out: LibcniOutcome) {
  expect(out.error).toBeUndefined();
  expect(out.ok).toBe(true);
}

const GC_ENV = {
  CNI_COMMAND: 'GC',
  CNI_CONTAINERID: '',
  CNI_NETNS: '',
  CNI_ARGS: '',
  CNI_IFNAME: '',
  CNI_PATH: '/usr/lib/cni',
};

describe('GCNetworkList (libcni v1.2)', () => {
  const ARGS: Array<[string, string]> = [
    ['IgnoreUnknown', '1'],
    ['K8S_POD_NAME', 'p1'],
  ];

  function prepared() {
    const s = setup();
    const { h, libcni } = s;
    ok(
      runToEnd(
        libcni.addNetworkList(
          list(),
          rt('c1', 'pod-a', { args: ARGS, capabilityArgs: { ips: ['10.1.0.9/24'] } }),
        ),
      ),
    );
    ok(runToEnd(libcni.addNetworkList(list(), rt('c2', 'pod-b'))));
    ok(runToEnd(libcni.addNetworkList(list(), rt('a0', 'pod-c'))));
    // A reservation nobody cached (e.g. from an ADD whose cache write never happened).
    h.writeFile(`${DATA}/gcnet/10.1.0.50`, 'c3\r\neth0');
    // Another network's attachment, and a cache file that does not parse.
    h.writeFile(
      `${RESULTS}/othernet-c4-eth0`,
      JSON.stringify({
        kind: 'cniCacheV1',
        containerId: 'c4',
        config: '',
        ifName: 'eth0',
        networkName: 'othernet',
      }),
    );
    h.writeFile(`${RESULTS}/gcnet-zz-eth0`, '{');
    return s;
  }

  it('ADD caches the netns, the CNI_ARGS and the capability args (cachedInfo, v1.2)', () => {
    const { h } = prepared();
    const cached = JSON.parse(vfs.readFile(h.fs, `${RESULTS}/gcnet-c1-eth0`)) as Record<
      string,
      unknown
    >;
    expect(Object.keys(cached)).toEqual([
      'kind',
      'containerId',
      'config',
      'ifName',
      'networkName',
      'netns',
      'cniArgs',
      'capabilityArgs',
      'result',
    ]);
    expect(cached['netns']).toBe('/var/run/netns/pod-a');
    expect(cached['cniArgs']).toEqual(ARGS);
    expect(cached['capabilityArgs']).toEqual({ ips: ['10.1.0.9/24'] });
    expect((cached['result'] as { cniVersion: string }).cniVersion).toBe('1.1.0');
  });

  it('DELs every stale cached attachment (file name order) with its cached netns / args / capability args, then GCs every plugin', () => {
    const { h, libcni } = prepared();
    const before = h.sim.events.length;
    const out = runToEnd(libcni.gcNetworkList(list(), [{ containerID: 'c2', ifname: 'eth0' }]));
    ok(out);
    const got = calls(h.sim.events.slice(before));
    expect(got.map((c) => [c.plugin, c.env['CNI_COMMAND'], c.env['CNI_CONTAINERID']])).toEqual([
      ['ptp', 'DEL', 'a0'],
      ['ptp', 'DEL', 'c1'],
      ['ptp', 'GC', ''],
    ]);
    expect(got[1]!.env).toEqual({
      CNI_COMMAND: 'DEL',
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/pod-a',
      CNI_ARGS: 'IgnoreUnknown=1;K8S_POD_NAME=p1',
      CNI_IFNAME: 'eth0',
      CNI_PATH: '/usr/lib/cni',
    });
    const del = JSON.parse(got[1]!.stdin) as Record<string, unknown>;
    expect(del['runtimeConfig']).toEqual({ ips: ['10.1.0.9/24'] });
    expect((del['prevResult'] as { ips: Array<{ address: string }> }).ips[0]!.address).toBe(
      '10.1.0.9/24',
    );
    expect(got[2]!.env).toEqual(GC_ENV);
    expect(got[2]!.stdin).toBe(
      `{"capabilities":{"ips":true},"cni.dev/attachments":[{"containerID":"c2","ifname":"eth0"}],"cni.dev/valid-attachments":[{"containerID":"c2","ifname":"eth0"}],"cniVersion":"1.1.0","ipam":{"dataDir":"${DATA}","ranges":[[{"subnet":"10.1.0.0/24"}]],"type":"host-local"},"name":"gcnet","type":"ptp"}`,
    );
  });

  it('leaves the valid attachment, the uncached reservation and other networks alone', () => {
    const { h, libcni } = prepared();
    ok(runToEnd(libcni.gcNetworkList(list(), [{ containerID: 'c2', ifname: 'eth0' }])));
    expect(files(h, RESULTS)).toEqual(['gcnet-c2-eth0', 'gcnet-zz-eth0', 'othernet-c4-eth0']);
    expect(files(h, `${DATA}/gcnet`)).toEqual([
      '10.1.0.10',
      '10.1.0.50',
      'last_reserved_ip.0',
      'lock',
    ]);
    expect(vfs.readFile(h.fs, `${DATA}/gcnet/10.1.0.10`)).toBe('c2\r\neth0');
    expect(h.link('pod-a', 'eth0')).toBeUndefined();
    expect(h.link('pod-c', 'eth0')).toBeUndefined();
    expect(h.link('pod-b', 'eth0')?.kind).toBe('veth');
  });

  it('without GCArgs every cached attachment is stale and no valid-attachments key is sent', () => {
    const { h, libcni } = prepared();
    const before = h.sim.events.length;
    ok(runToEnd(libcni.gcNetworkList(list(), null)));
    const got = calls(h.sim.events.slice(before));
    expect(got.map((c) => `${c.env['CNI_COMMAND']} ${c.env['CNI_CONTAINERID']}`)).toEqual([
      'DEL a0',
      'DEL c1',
      'DEL c2',
      'GC ',
    ]);
    expect(got[3]!.stdin).toBe(
      `{"capabilities":{"ips":true},"cniVersion":"1.1.0","ipam":{"dataDir":"${DATA}","ranges":[[{"subnet":"10.1.0.0/24"}]],"type":"host-local"},"name":"gcnet","type":"ptp"}`,
    );
    expect(files(h, `${DATA}/gcnet`)).toEqual(['10.1.0.50', 'last_reserved_ip.0', 'lock']);
  });

  it('with no cache directory at all the plugins still get GC', () => {
    const { h, libcni } = setup();
    const before = h.sim.events.length;
    ok(runToEnd(libcni.gcNetworkList(list(), [])));
    expect(calls(h.sim.events.slice(before)).map((c) => c.env['CNI_COMMAND'])).toEqual(['GC']);
  });

  it('a 1.0.0 list gets the stale DELs but no GC command', () => {
    const { h, libcni } = setup();
    ok(runToEnd(libcni.addNetworkList(list('1.0.0'), rt('c1', 'pod-a'))));
    const before = h.sim.events.length;
    ok(runToEnd(libcni.gcNetworkList(list('1.0.0'), [])));
    expect(calls(h.sim.events.slice(before)).map((c) => c.env['CNI_COMMAND'])).toEqual(['DEL']);
    expect(files(h, RESULTS)).toEqual([]);
  });

  it('disableGC: nothing at all', () => {
    const { h, libcni } = setup();
    ok(runToEnd(libcni.addNetworkList(list(), rt('c1', 'pod-a'))));
    const before = h.sim.events.length;
    ok(runToEnd(libcni.gcNetworkList(list('1.1.0', ',"disableGC":true'), [])));
    expect(calls(h.sim.events.slice(before))).toEqual([]);
    expect(files(h, RESULTS)).toEqual(['gcnet-c1-eth0']);
  });

  it('collects the errors (errors.Join) and keeps the cache of a failed DEL', () => {
    const { h, libcni } = setup();
    ok(runToEnd(libcni.addNetworkList(list(), rt('c1', 'pod-a'))));
    uninstall(h, 'ptp');
    const out = runToEnd(libcni.gcNetworkList(list(), []));
    expect(out.ok).toBe(false);
    expect(out.error?.message).toBe(
      'failed to delete stale attachment c1 eth0: plugin type="ptp" failed (delete): failed to find plugin "ptp" in path [/usr/lib/cni]\n' +
        'failed to GC plugin ptp: failed to find plugin "ptp" in path [/usr/lib/cni]',
    );
    expect(files(h, RESULTS)).toEqual(['gcnet-c1-eth0']);
  });
});

describe('GetStatusNetworkList (libcni v1.2)', () => {
  const BR = `{"type":"bridge","bridge":"cni0","ipam":{"type":"host-local","dataDir":"${DATA}","subnet":"10.2.0.0/24"}}`;
  const statusList = (
    v: string,
    plugins = `${BR},{"type":"portmap","capabilities":{"portMappings":true}}`,
  ) =>
    confListFromBytes(`{"cniVersion":"${v}","name":"stnet","plugins":[${plugins}]}`, {
      libcni: '1.2',
    });

  it('sends STATUS to every plugin of a 1.1.0 list, with empty attachment variables', () => {
    const { h, libcni } = setup();
    const before = h.sim.events.length;
    ok(runToEnd(libcni.getStatusNetworkList(statusList('1.1.0'))));
    const got = calls(h.sim.events.slice(before));
    expect(got.map((c) => c.plugin)).toEqual(['bridge', 'portmap']);
    expect(got[0]!.env).toEqual({ ...GC_ENV, CNI_COMMAND: 'STATUS' });
    expect(got[1]!.stdin).toBe(
      '{"capabilities":{"portMappings":true},"cniVersion":"1.1.0","name":"stnet","type":"portmap"}',
    );
  });

  it('does nothing below 1.1.0', () => {
    const { h, libcni } = setup();
    const before = h.sim.events.length;
    ok(runToEnd(libcni.getStatusNetworkList(statusList('1.0.0'))));
    expect(calls(h.sim.events.slice(before))).toEqual([]);
  });

  it('returns the first plugin error as is, with its code, and stops there', () => {
    const { h, libcni } = setup();
    uninstall(h, 'host-local');
    const before = h.sim.events.length;
    const out = runToEnd(libcni.getStatusNetworkList(statusList('1.1.0')));
    expect(out.ok).toBe(false);
    expect(out.error).toMatchObject({
      code: 999,
      msg: 'failed to find plugin "host-local" in path [/usr/lib/cni]',
      message: 'failed to find plugin "host-local" in path [/usr/lib/cni]',
    });
    expect(out.failedPluginIndex).toBe(0);
    expect(calls(h.sim.events.slice(before)).map((c) => c.plugin)).toEqual(['bridge']);
  });

  it('a missing plugin binary is the plain FindInPath error', () => {
    const { h, libcni } = setup();
    uninstall(h, 'portmap');
    const out = runToEnd(libcni.getStatusNetworkList(statusList('1.1.0')));
    expect(out.ok).toBe(false);
    expect(out.error?.message).toBe('failed to find plugin "portmap" in path [/usr/lib/cni]');
    expect(out.error?.code).toBeUndefined();
  });

  it('v1.1.1 plugins answer a v1.2 STATUS with their old skeleton: missing containerID (code 3)', () => {
    const { libcni } = setup('1.2', 'v1.1.1');
    const out = runToEnd(libcni.getStatusNetworkList(statusList('1.1.0')));
    expect(out.ok).toBe(false);
    expect(out.error).toMatchObject({ code: 3, msg: 'missing containerID' });
  });
});

describe('DEL with a corrupt cache', () => {
  it('libcni v1.1 fails', () => {
    const { h, libcni } = setup('1.1', 'v1.1.1');
    const l = list('1.0.0');
    ok(runToEnd(libcni.addNetworkList(l, rt('c1', 'pod-a'))));
    h.writeFile(`${RESULTS}/gcnet-c1-eth0`, '{');
    const before = h.sim.events.length;
    const out = runToEnd(libcni.delNetworkList(l, rt('c1', 'pod-a')));
    expect(out.ok).toBe(false);
    expect(out.error?.message).toBe(
      'failed to get network "gcnet" cached result: decoding version from network config: unexpected end of JSON input',
    );
    expect(calls(h.sim.events.slice(before))).toEqual([]);
    expect(files(h, RESULTS)).toEqual(['gcnet-c1-eth0']);
  });

  it('libcni v1.2 removes the cache and DELs without prevResult', () => {
    const { h, libcni } = setup();
    ok(runToEnd(libcni.addNetworkList(list(), rt('c1', 'pod-a'))));
    h.writeFile(`${RESULTS}/gcnet-c1-eth0`, '{');
    const before = h.sim.events.length;
    ok(runToEnd(libcni.delNetworkList(list(), rt('c1', 'pod-a'))));
    const got = calls(h.sim.events.slice(before));
    expect(got.map((c) => c.env['CNI_COMMAND'])).toEqual(['DEL']);
    expect(got[0]!.stdin).not.toContain('prevResult');
    expect(files(h, RESULTS)).toEqual([]);
    expect(files(h, `${DATA}/gcnet`)).toEqual(['last_reserved_ip.0', 'lock']);
  });

  it('libcni v1.2 passes a cached 1.1.0 result on with its 1.1 fields', () => {
    const { h, libcni } = setup();
    const result = {
      cniVersion: '1.1.0',
      interfaces: [
        { mac: '02:00:00:00:00:01', mtu: 1400, name: 'eth0', sandbox: '/x', socketPath: '/s' },
      ],
      ips: [{ address: '10.1.0.7/24', interface: 0 }],
      routes: [{ advmss: 1360, dst: '0.0.0.0/0', mtu: 1400, priority: 10, scope: 0, table: 100 }],
      dns: {},
    };
    h.writeFile(
      `${RESULTS}/gcnet-c9-eth0`,
      JSON.stringify({
        kind: 'cniCacheV1',
        containerId: 'c9',
        config: base64Encode('{}'),
        ifName: 'eth0',
        networkName: 'gcnet',
        result,
      }),
    );
    const before = h.sim.events.length;
    ok(runToEnd(libcni.delNetworkList(list(), rt('c9', 'pod-a'))));
    const del = JSON.parse(calls(h.sim.events.slice(before))[0]!.stdin) as Record<string, unknown>;
    expect(JSON.stringify(del['prevResult'])).toBe(
      '{"cniVersion":"1.1.0","interfaces":[{"name":"eth0","mac":"02:00:00:00:00:01","mtu":1400,"sandbox":"/x","socketPath":"/s"}],"ips":[{"interface":0,"address":"10.1.0.7/24"}],"routes":[{"dst":"0.0.0.0/0","mtu":1400,"advmss":1360,"priority":10,"table":100,"scope":0}],"dns":{}}',
    );
  });
});

describe('ConfListFromBytes (libcni v1.2)', () => {
  const v12 = (s: string) => confListFromBytes(s, { libcni: '1.2' });
  const P = '"plugins":[{"type":"ptp"}]';
  const version = (s: string) => v12(`{"name":"n",${s},${P}}`).cniVersion;
  const err = (s: string) => {
    try {
      v12(`{"name":"n",${s},${P}}`);
    } catch (e) {
      return (e as Error).message;
    }
    return null;
  };

  it.each([
    ['"cniVersions":["0.3.1","1.0.0","1.1.0"]', '1.1.0'],
    ['"cniVersion":"0.4.0","cniVersions":["1.0.0"]', '1.0.0'],
    ['"cniVersion":"1.0.0","cniVersions":["0.3.1"]', '1.0.0'],
    ['"cniVersions":["1.0.0","2.0.0"]', '1.0.0'],
    ['"cniVersions":[]', ''],
    ['"cniVersion":"2.0.0","cniVersions":["1.0.0"]', '1.0.0'],
    ['"cniVersions":["1.0.5"]', '1.0.5'],
  ])('cniVersions: %s -> %j', (s, want) => {
    expect(version(s)).toBe(want);
  });

  it.each([
    [
      '"cniVersions":"1.0.0"',
      'error parsing configuration list: invalid type for cniVersions: []interface {}',
    ],
    [
      '"cniVersions":[1]',
      'error parsing configuration list: invalid type for cniVersions index 0: float64',
    ],
    [
      '"cniVersions":["x"]',
      'error parsing configuration list: invalid cniVersions entry x at index 0: failed to convert major version part "x": strconv.Atoi: parsing "x": invalid syntax',
    ],
    [
      '"disableCheck":"yes"',
      'error parsing configuration list: invalid value "yes" for disableCheck',
    ],
    ['"disableGC":"Yes"', 'error parsing configuration list: invalid value "yes" for disableGC'],
    ['"disableCheck":1', 'error parsing configuration list: invalid type float64 for disableCheck'],
  ])('error: %s', (s, want) => {
    expect(err(s)).toBe(want);
  });

  it('string booleans, any case', () => {
    const l = v12(`{"name":"n","disableCheck":"TRUE","disableGC":"False",${P}}`);
    expect([l.disableCheck, l.disableGC]).toEqual([true, false]);
    expect(v12(`{"name":"n","disableGC":true,${P}}`).disableGC).toBe(true);
  });

  it('libcni v1.1.2 takes neither (disableCheck must be a bool; cniVersions and disableGC unknown)', () => {
    expect(() =>
      confListFromBytes(`{"name":"n","disableCheck":"true",${P}}`, { libcni: '1.1' }),
    ).toThrow('error parsing configuration list: invalid disableCheck type string');
    const l = confListFromBytes(`{"name":"n","cniVersions":["1.0.0"],"disableGC":true,${P}}`, {
      libcni: '1.1',
    });
    expect([l.cniVersion, l.disableGC]).toEqual(['', false]);
  });
});
