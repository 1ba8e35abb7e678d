/**
 * Plugin builds (plugins/lib/build.ts): what each build's skeleton answers.
 *
 * - v1.1.1 (the installed Debian binaries, containernetworking-plugins 1.1.1+ds1): every answer
 *   below was recorded by running the real /usr/lib/cni/<plugin> in a throw-away namespace as
 *   pt-harness.ts describes (VERSION with only CNI_COMMAND set; GC / STATUS with the variables
 *   shown).
 * - v1.6.2 (not installed; plugins v1.6.x vendor containernetworking/cni v1.2.x): expectations
 *   from the sources. pkg/skel/skel.go of cni v1.2.x — upstream commit 02155e0c (GC: "config
 *   version does not allow GC", "plugin version does not allow GC", toCall == nil -> success) and
 *   its released form (read as the verbatim copy the search index holds, id 26037825295: STATUS
 *   like GC; CNI_COMMAND and CNI_PATH required for GC / STATUS, CNI_CONTAINERID / CNI_IFNAME only
 *   for ADD / CHECK / DEL and validated while the environment is read, i.e. before the
 *   missing-variables error and before the config is validated; after ADD / DEL
 *   ns.CheckNetNS -> code 8 "plugin's netns and netns from CNI_NETNS should not be the same").
 *   pkg/version: Current() "1.1.0", All = 0.1.0 ... 1.1.0. Plugins (containernetworking/plugins
 *   main, `skel.PluginMainFuncs(skel.CNIFuncs{Add, Check, Del, Status: cmdStatus})` with a "FIXME GC"
 *   comment for bridge and ptp, nothing for host-local — issue #1047 / PR #1289 — so their GC, and
 *   host-local's STATUS, succeed without doing anything); STATUS delegated to the IPAM plugin by
 *   ipam.ExecStatus (PR #1050 "Pass status along ipam"; bridge skips it without an IPAM type,
 *   ptp always asks, so a missing IPAM plugin fails STATUS).
 * - v0.8.7 (plugins v0.8.x, cni v0.8.0): pkg/version Current() "0.4.0", All 0.1.0 ... 0.4.0.
 * - v0.7.6 (plugins v0.7.x, cni v0.6.0): pkg/version Current() "0.3.1", All 0.1.0 ... 0.3.1;
 *   pkg/skel knows ADD, DEL and VERSION only, and answers anything else with
 *   createTypedError("unknown CNI_COMMAND: %v") whose Code is 100.
 */
import { describe, expect, it } from 'vitest';
import { ALL_VERSIONS_V1_0, ALL_VERSIONS_V1_1 } from '../cni/version';
import { cniEnv } from './harness';
import { DATA, NS_A, OK, type Out, goErr, ptNode, runPlugin, uninstall } from './pt-harness';

const DEBIAN = [
  'bandwidth',
  'bridge',
  'dhcp',
  'firewall',
  'host-device',
  'host-local',
  'ipvlan',
  'loopback',
  'macvlan',
  'portmap',
  'ptp',
  'sbr',
  'static',
  'tuning',
  'vlan',
  'vrf',
];

function version(cniVersion: string, supported: readonly string[]): Out {
  return {
    exitCode: 0,
    stdout: `${JSON.stringify({ cniVersion, supportedVersions: supported })}\n`,
    stderr: '',
  };
}

/** Runs a plugin with exactly `env` (plus PATH), as the recorder's `env -i` did. */
function raw(build: string, plugin: string, env: Record<string, string>, stdin: string): Out {
  const h = ptNode({ build, plugins: DEBIAN });
  const r = h.run(plugin, env, stdin);
  return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

describe('v1.1.1: VERSION of every Debian plugin (recorded)', () => {
  const all = ALL_VERSIONS_V1_0;
  const want: Record<string, readonly string[]> = {
    bandwidth: ['0.3.0', '0.3.1', '0.4.0', '1.0.0'],
    firewall: ['0.4.0', '1.0.0'],
    vrf: ['0.3.1', '0.4.0', '1.0.0'],
  };
  it.each(DEBIAN)('%s', (plugin) => {
    expect(raw('v1.1.1', plugin, { CNI_COMMAND: 'VERSION' }, '')).toEqual(
      version('1.0.0', want[plugin] ?? all),
    );
  });
});

describe('v1.1.1: GC and STATUS (recorded)', () => {
  const STDIN = '{"cniVersion":"1.1.0","name":"n"}';
  it.each([
    ['ptp', 'GC'],
    ['host-local', 'GC'],
    ['bridge', 'STATUS'],
    ['static', 'STATUS'],
  ])('%s %s: unknown CNI_COMMAND (code 4)', (plugin, cmd) => {
    expect(
      raw('v1.1.1', plugin, { CNI_COMMAND: cmd, CNI_CONTAINERID: 'c1', CNI_IFNAME: 'eth0' }, STDIN),
    ).toEqual(goErr(`unknown CNI_COMMAND: ${cmd}`, 4));
  });

  it('with every variable set it is still unknown', () => {
    expect(
      raw(
        'v1.1.1',
        'bridge',
        cniEnv('STATUS', { cid: 'c1', netns: '/x', ifname: 'eth0', args: null }),
        STDIN,
      ),
    ).toEqual(goErr('unknown CNI_COMMAND: STATUS', 4));
  });

  it('GC without CNI_CONTAINERID: the old skeleton validates the container id first', () => {
    expect(raw('v1.1.1', 'ptp', { CNI_COMMAND: 'GC' }, STDIN)).toEqual(
      goErr('missing containerID', 3),
    );
    expect(raw('v1.1.1', 'bridge', { CNI_COMMAND: 'STATUS' }, STDIN)).toEqual(
      goErr('missing containerID', 3),
    );
  });

  it('GC without CNI_IFNAME', () => {
    expect(raw('v1.1.1', 'ptp', { CNI_COMMAND: 'GC', CNI_CONTAINERID: 'c1' }, STDIN)).toEqual(
      goErr('interface name is empty', 4),
    );
  });

  it('GC with an empty stdin: the config is validated before the command', () => {
    expect(raw('v1.1.1', 'ptp', { CNI_COMMAND: 'GC' }, '')).toEqual(
      goErr('error unmarshall network config: unexpected end of JSON input', 6),
    );
  });

  it('STATUS with a bad container id, and without a network name', () => {
    expect(
      raw('v1.1.1', 'ptp', { CNI_COMMAND: 'STATUS', CNI_CONTAINERID: 'bad/id' }, STDIN),
    ).toEqual(goErr('invalid characters in containerID', 4, 'bad/id'));
    expect(raw('v1.1.1', 'ptp', { CNI_COMMAND: 'STATUS' }, '{"cniVersion":"1.1.0"}')).toEqual(
      goErr('missing network name', 7),
    );
  });

  it('an unknown command is refused only after the container id check', () => {
    expect(
      raw('v1.1.1', 'ptp', { CNI_COMMAND: 'FOO' }, '{"cniVersion":"1.0.0","name":"n"}'),
    ).toEqual(goErr('missing containerID', 3));
  });

  it('CHECK with a 0.3.1 config', () => {
    expect(
      raw(
        'v1.1.1',
        'ptp',
        cniEnv('CHECK', { cid: 'c1', netns: '/var/run/netns/x', ifname: 'eth0', args: null }),
        '{"cniVersion":"0.3.1","name":"n"}',
      ),
    ).toEqual(goErr('config version does not allow CHECK', 1));
  });
});

describe('v1.6.2 (cni v1.2.x skeleton)', () => {
  const B = 'v1.6.2';
  const V11 = '{"cniVersion":"1.1.0","name":"n"}';
  const gcEnv = (cmd: string) => ({ CNI_COMMAND: cmd, CNI_PATH: '/usr/lib/cni' });

  it.each(['bridge', 'ptp', 'host-local', 'static', 'loopback', 'portmap', 'tuning', 'macvlan'])(
    'VERSION of %s adds 1.1.0',
    (plugin) => {
      expect(raw(B, plugin, { CNI_COMMAND: 'VERSION' }, '')).toEqual(
        version('1.1.0', ALL_VERSIONS_V1_1),
      );
    },
  );

  it('VERSION of bandwidth and firewall keep their lower bound', () => {
    expect(raw(B, 'bandwidth', { CNI_COMMAND: 'VERSION' }, '')).toEqual(
      version('1.1.0', ['0.3.0', '0.3.1', '0.4.0', '1.0.0', '1.1.0']),
    );
    expect(raw(B, 'firewall', { CNI_COMMAND: 'VERSION' }, '')).toEqual(
      version('1.1.0', ['0.4.0', '1.0.0', '1.1.0']),
    );
  });

  it('prints the build in its about text', () => {
    expect(raw(B, 'ptp', {}, '')).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: `CNI ptp plugin v1.6.2\nCNI protocol versions supported: ${ALL_VERSIONS_V1_1.join(', ')}\n`,
    });
  });

  it.each(['GC', 'STATUS'])('%s needs only CNI_COMMAND and CNI_PATH', (cmd) => {
    expect(raw(B, 'host-local', { CNI_COMMAND: cmd }, V11)).toEqual(
      goErr('required env variables [CNI_PATH] missing', 4),
    );
    expect(raw(B, 'host-local', gcEnv(cmd), V11)).toEqual(OK);
  });

  it.each(['GC', 'STATUS'])('%s is gated on the config version', (cmd) => {
    expect(raw(B, 'host-local', gcEnv(cmd), '{"cniVersion":"1.0.0","name":"n"}')).toEqual(
      goErr(`config version does not allow ${cmd}`, 1),
    );
    expect(raw(B, 'host-local', gcEnv(cmd), '{"cniVersion":"1.2.0","name":"n"}')).toEqual(
      goErr(`plugin version does not allow ${cmd}`, 1),
    );
    expect(raw(B, 'host-local', gcEnv(cmd), '{"cniVersion":"x","name":"n"}')).toEqual(
      goErr(
        'failed to convert major version part "x": strconv.Atoi: parsing "x": invalid syntax',
        6,
      ),
    );
  });

  it('GC of bridge and ptp (no GC function) succeeds', () => {
    expect(raw(B, 'bridge', gcEnv('GC'), V11)).toEqual(OK);
    expect(raw(B, 'ptp', gcEnv('GC'), V11)).toEqual(OK);
  });

  // Every plugin of the build runs the cni v1.2 skeleton: without GC / STATUS functions both
  // commands succeed, and neither needs CNI_CONTAINERID.
  it.each(['portmap', 'tuning', 'bandwidth', 'firewall', 'static', 'loopback'])(
    '%s: GC and STATUS succeed with only CNI_COMMAND and CNI_PATH',
    (plugin) => {
      const conf = `{"cniVersion":"1.1.0","name":"n","type":"${plugin}"}`;
      expect(raw(B, plugin, gcEnv('GC'), conf)).toEqual(OK);
      expect(raw(B, plugin, gcEnv('STATUS'), conf)).toEqual(OK);
    },
  );

  it("bridge STATUS asks host-local's STATUS, and fails when the IPAM plugin is missing", () => {
    const conf = `{"cniVersion":"1.1.0","name":"n","type":"bridge","ipam":{"type":"host-local","dataDir":"${DATA}","subnet":"10.80.0.0/24"}}`;
    const h = ptNode({ build: B });
    expect(runPlugin(h, 'bridge', 'STATUS', {}, conf)).toEqual(OK);
    uninstall(h, 'host-local');
    expect(runPlugin(h, 'bridge', 'STATUS', {}, conf)).toEqual(
      goErr('failed to find plugin "host-local" in path [/usr/lib/cni]'),
    );
  });

  it('bridge STATUS without IPAM (layer 2 only) does not delegate', () => {
    expect(
      raw(B, 'bridge', gcEnv('STATUS'), '{"cniVersion":"1.1.0","name":"n","type":"bridge"}'),
    ).toEqual(OK);
  });

  it('ptp STATUS always asks its IPAM plugin', () => {
    const conf = `{"cniVersion":"1.1.0","name":"n","type":"ptp","ipam":{"type":"host-local","dataDir":"${DATA}","subnet":"10.80.0.0/24"}}`;
    const h = ptNode({ build: B });
    expect(runPlugin(h, 'ptp', 'STATUS', {}, conf)).toEqual(OK);
    expect(
      runPlugin(h, 'ptp', 'STATUS', {}, '{"cniVersion":"1.1.0","name":"n","type":"ptp"}'),
    ).toEqual(goErr('no plugin name provided'));
    uninstall(h, 'host-local');
    expect(runPlugin(h, 'ptp', 'STATUS', {}, conf)).toEqual(
      goErr('failed to find plugin "host-local" in path [/usr/lib/cni]'),
    );
  });

  it('a 1.1.0 ADD works and CHECK keeps its 0.4.0 gate', () => {
    const h = ptNode({ build: B });
    const conf = `{"cniVersion":"1.1.0","name":"n","type":"static","ipam":{"type":"static","addresses":[{"address":"10.81.0.5/24"}]}}`;
    expect(runPlugin(h, 'static', 'ADD', {}, conf)).toEqual({
      exitCode: 0,
      stdout:
        '{\n    "cniVersion": "1.1.0",\n    "ips": [\n        {\n            "address": "10.81.0.5/24"\n        }\n    ],\n    "dns": {}\n}',
      stderr: '',
    });
    expect(
      runPlugin(h, 'static', 'CHECK', {}, '{"cniVersion":"0.3.1","name":"n","type":"static"}'),
    ).toEqual(goErr('config version does not allow CHECK', 1));
  });

  it("refuses, after ADD, a CNI_NETNS that is the plugin's own netns (code 8)", () => {
    const h = ptNode({ build: B });
    const conf = `{"cniVersion":"1.1.0","name":"n","type":"static","ipam":{"type":"static","addresses":[{"address":"10.81.0.5/24"}]}}`;
    const r = runPlugin(h, 'static', 'ADD', { netns: '/proc/self/ns/net' }, conf);
    const err = goErr("plugin's netns and netns from CNI_NETNS should not be the same", 8);
    expect(r.exitCode).toBe(1);
    expect(r.stdout.endsWith(err.stdout)).toBe(true);
    expect(runPlugin(h, 'static', 'DEL', { netns: NS_A }, conf)).toEqual(OK);
  });

  it('validates CNI_CONTAINERID while reading the environment, before the missing variables', () => {
    expect(raw(B, 'ptp', { CNI_COMMAND: 'ADD', CNI_CONTAINERID: 'bad/id' }, V11)).toEqual(
      goErr('invalid characters in containerID', 4, 'bad/id'),
    );
  });

  it('validates CNI_CONTAINERID before the network config', () => {
    expect(
      raw(
        B,
        'ptp',
        cniEnv('DEL', { cid: 'bad/id', netns: NS_A, ifname: 'eth0', args: null }),
        '{"cniVersion":"1.1.0"}',
      ),
    ).toEqual(goErr('invalid characters in containerID', 4, 'bad/id'));
  });

  it('GC and STATUS ignore a bad CNI_CONTAINERID / CNI_IFNAME', () => {
    expect(
      raw(B, 'host-local', { ...gcEnv('GC'), CNI_CONTAINERID: 'bad/id', CNI_IFNAME: 'a/b' }, V11),
    ).toEqual(OK);
  });
});

describe('older builds', () => {
  it('v0.8.7: VERSION up to 0.4.0, a 1.0.0 config is refused', () => {
    expect(raw('v0.8.7', 'bridge', { CNI_COMMAND: 'VERSION' }, '')).toEqual(
      version('0.4.0', ['0.1.0', '0.2.0', '0.3.0', '0.3.1', '0.4.0']),
    );
    const h = ptNode({ build: 'v0.8.7' });
    expect(
      runPlugin(
        h,
        'static',
        'ADD',
        {},
        '{"cniVersion":"1.0.0","name":"n","ipam":{"type":"static"}}',
      ),
    ).toEqual(
      goErr(
        'incompatible CNI versions',
        1,
        'config is "1.0.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0"]',
      ),
    );
    expect(
      runPlugin(
        h,
        'static',
        'ADD',
        {},
        '{"cniVersion":"0.4.0","name":"n","ipam":{"type":"static"}}',
      ),
    ).toEqual({
      exitCode: 0,
      stdout: '{\n    "cniVersion": "0.4.0",\n    "dns": {}\n}',
      stderr: '',
    });
  });

  it('v0.7.6: VERSION 0.3.x only', () => {
    expect(raw('v0.7.6', 'bridge', { CNI_COMMAND: 'VERSION' }, '')).toEqual(
      version('0.3.1', ['0.1.0', '0.2.0', '0.3.0', '0.3.1']),
    );
    const h = ptNode({ build: 'v0.7.6' });
    expect(
      runPlugin(
        h,
        'static',
        'ADD',
        {},
        '{"cniVersion":"0.4.0","name":"n","ipam":{"type":"static"}}',
      ),
    ).toEqual(
      goErr(
        'incompatible CNI versions',
        1,
        'config is "0.4.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1"]',
      ),
    );
  });

  it('v0.7.6: CHECK is an unknown command (cni v0.6.0 createTypedError, code 100)', () => {
    const h = ptNode({ build: 'v0.7.6' });
    expect(
      runPlugin(
        h,
        'static',
        'CHECK',
        {},
        '{"cniVersion":"0.3.1","name":"n","ipam":{"type":"static"}}',
      ),
    ).toEqual(goErr('unknown CNI_COMMAND: CHECK', 100));
  });

  it('v0.8.7 and v0.7.6 know neither GC nor STATUS', () => {
    for (const b of ['v0.8.7', 'v0.7.6']) {
      const h = ptNode({ build: b });
      const r = runPlugin(h, 'ptp', 'GC', {}, '{"cniVersion":"0.3.1","name":"n"}');
      expect(r.exitCode).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ msg: 'unknown CNI_COMMAND: GC' });
    }
  });
});
