/**
 * flannel (flannel-io/cni-plugin v1.1.2). The recordings of the real binary
 * (conformance/local/flannel-*.json, tools/record/scenarios/flannel-*.json) replay without a
 * difference; the rest holds the plugin to flannel.go / flannel_linux.go where the recordings
 * could not go: the default paths (/run/flannel/subnet.env, /var/lib/cni/flannel), IPv6-only
 * subnet files, an MTU out of range, a DEL whose delegate fails.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Fixture, replayFixture } from '../conformance/replay';
import * as vfs from '../fs/vfs';
import { linkByName } from '../kernel/kernel';
import { runScenario } from '../scenario/run';
import { tget } from '../state/table';
import { parseSubnetEnv } from './flannel';
import { Harness, cniEnv } from './harness';

function fixture(name: string): Fixture {
  const url = new URL(`../../../conformance/local/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Fixture;
}

describe('flannel: the recordings of the real plugin', () => {
  for (const name of ['flannel-basic', 'flannel-options', 'flannel-errors']) {
    it(`${name} replays without a difference`, () => {
      expect(replayFixture(fixture(name)).differences).toEqual([]);
    });
  }
});

const SUBNET_ENV =
  'FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=10.244.1.1/24\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=true\n';
const CONF = JSON.stringify({
  cniVersion: '0.3.1',
  name: 'cbr0',
  type: 'flannel',
  delegate: { hairpinMode: true, isDefaultGateway: true },
});

function node(): Harness {
  const h = new Harness({ plugins: ['bridge', 'host-local', 'loopback', 'flannel'] });
  h.addNetns('pod-a');
  return h;
}

describe('flannel: default paths', () => {
  it('reads /run/flannel/subnet.env, saves the delegate config in /var/lib/cni/flannel/<id>, DEL removes it', () => {
    const h = node();
    h.writeFile('/run/flannel/subnet.env', SUBNET_ENV);
    const add = h.run('flannel', cniEnv('ADD', { netns: '/var/run/netns/pod-a' }), CONF);
    expect(add.exitCode).toBe(0);
    const saved = JSON.parse(vfs.readFile(h.fs, '/var/lib/cni/flannel/c1')) as Record<
      string,
      unknown
    >;
    expect(saved).toEqual({
      cniVersion: '0.3.1',
      hairpinMode: true,
      ipMasq: false,
      ipam: {
        ranges: [[{ subnet: '10.244.1.0/24' }]],
        routes: [{ dst: '10.244.0.0/16' }],
        type: 'host-local',
      },
      isDefaultGateway: true,
      isGateway: true,
      mtu: 1450,
      name: 'cbr0',
      type: 'bridge',
    });
    expect(vfs.stat(h.fs, '/var/lib/cni/flannel/c1')?.mode).toBe(0o600);
    // host-local's default dataDir
    expect(vfs.readFile(h.fs, '/var/lib/cni/networks/cbr0/10.244.1.2')).toBe('c1\r\neth0');
    expect(h.link('pod-a', 'eth0')?.mtu).toBe(1450);

    // DEL needs no subnet.env: only the saved config
    h.writeFile('/run/flannel/subnet.env', '');
    const del = h.run('flannel', cniEnv('DEL', { netns: '/var/run/netns/pod-a' }), CONF);
    expect(del.exitCode).toBe(0);
    expect(vfs.stat(h.fs, '/var/lib/cni/flannel/c1')).toBeUndefined();
    expect(vfs.stat(h.fs, '/var/lib/cni/networks/cbr0/10.244.1.2')).toBeUndefined();
  });

  it('a DEL whose delegate fails returns its error and keeps the saved config', () => {
    const h = node();
    h.writeFile('/var/lib/cni/flannel/c1', '{"cniVersion":"0.3.1","name":"cbr0","type":"nosuch"}');
    const del = h.run('flannel', cniEnv('DEL', { netns: '/var/run/netns/pod-a' }), CONF);
    expect(del.exitCode).toBe(1);
    expect(JSON.parse(del.stdout)).toEqual({
      code: 999,
      msg: 'failed to find plugin "nosuch" in path [/usr/lib/cni]',
    });
    expect(vfs.stat(h.fs, '/var/lib/cni/flannel/c1')).toBeDefined();
  });

  it('ADD with no subnet file fails before anything is saved', () => {
    const h = node();
    const add = h.run('flannel', cniEnv('ADD', { netns: '/var/run/netns/pod-a' }), CONF);
    expect(JSON.parse(add.stdout)).toEqual({
      code: 999,
      msg: 'loadFlannelSubnetEnv failed: open /run/flannel/subnet.env: no such file or directory',
    });
    expect(vfs.stat(h.fs, '/var/lib/cni/flannel')).toBeUndefined();
  });
});

describe('flannel: subnet.env parsing', () => {
  it('an IPv6-only file is complete', () => {
    const se = parseSubnetEnv(
      'f',
      'FLANNEL_IPV6_NETWORK=fd00:10::/56\nFLANNEL_IPV6_SUBNET=fd00:10:0:1::1/64\nFLANNEL_MTU=1430\nFLANNEL_IPMASQ=false\n',
    );
    expect(se.nws).toEqual([]);
    expect(se.ip6Nws).toHaveLength(1);
    expect(se.ip6Sn?.prefix).toBe(64);
    expect(se.mtu).toBe(1430);
    expect(se.ipmasq).toBe(false);
  });

  it('an MTU beyond 32 bits is out of range; CRLF lines are accepted', () => {
    expect(() => parseSubnetEnv('f', 'FLANNEL_MTU=4294967296\r\n')).toThrow(
      'strconv.ParseUint: parsing "4294967296": value out of range',
    );
    expect(
      parseSubnetEnv(
        'f',
        'FLANNEL_NETWORK=10.244.0.0/16\r\nFLANNEL_SUBNET=10.244.1.1/24\r\nFLANNEL_MTU=1450\r\nFLANNEL_IPMASQ=true\r\n',
      ).ipmasq,
    ).toBe(true);
  });
});

describe('flannel in a cluster', () => {
  it("a node with kube-flannel's conflist and subnet.env runs pods through flannel -> bridge -> host-local, and deletes them", () => {
    const conflist = JSON.stringify({
      name: 'cbr0',
      cniVersion: '0.3.1',
      plugins: [
        { type: 'flannel', delegate: { hairpinMode: true, isDefaultGateway: true } },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    });
    const run = (deleteToo: boolean) =>
      runScenario({
        version: 1,
        nodes: [
          {
            name: 'node-1',
            podCIDR: '10.244.1.0/24',
            plugins: ['bridge', 'host-local', 'loopback', 'portmap', 'flannel'],
            cniConfigs: { '10-flannel.conflist': conflist },
            files: { '/run/flannel/subnet.env': SUBNET_ENV },
          },
        ],
        actions: [
          { do: 'createPod', name: 'web-0' },
          { do: 'runUntil', until: 'pod-running:web-0', timeout: '1m' },
          ...(deleteToo ? [{ do: 'deletePod' as const, pod: 'web-0' }] : []),
        ],
      });
    const r = run(false);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const pod = tget(r.cluster.sim.state.api!.pods, 'default/web-0')!;
    expect(pod.podIP).toBe('10.244.1.2');
    const fs = r.cluster.sim.node('node-1').fs;
    const saved = vfs.readDir(fs, '/var/lib/cni/flannel');
    expect(saved).toHaveLength(1);
    expect(JSON.parse(vfs.readFile(fs, `/var/lib/cni/flannel/${saved[0]}`))).toMatchObject({
      type: 'bridge',
      mtu: 1450,
      ipMasq: false,
      isGateway: true,
    });
    expect(
      linkByName(
        tget(r.cluster.sim.node('node-1').kernel.netns, r.cluster.sim.node('node-1').kernel.root)!,
        'cni0',
      )?.mtu,
    ).toBe(1450);
  });
});
