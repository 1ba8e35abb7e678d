/** host-local's readers for those outside the plugin: its disk layout and a network's config. */
import { describe, expect, it } from 'vitest';
import * as vfs from '../fs/vfs';
import { ipString } from '../net/ip';
import { hostLocalConfOf, hostLocalDirOf, ipamCapacity, usesHostLocal } from './host-local';
import * as disk from './host-local-disk';

const conflist = (ipam: Record<string, unknown>) =>
  JSON.stringify({
    cniVersion: '1.0.0',
    name: 'pods',
    plugins: [{ type: 'bridge', ipam: { type: 'host-local', ...ipam } }, { type: 'portmap' }],
  });

function node(): vfs.FsState {
  const dir = '/var/lib/cni/networks/pods';
  let fs = vfs.mkdirAll(vfs.emptyFs(), dir);
  fs = vfs.writeFile(fs, `${dir}/lock`, '');
  fs = vfs.writeFile(fs, `${dir}/last_reserved_ip.0`, '10.0.0.3');
  fs = vfs.writeFile(fs, `${dir}/10.0.0.2`, 'aaa\r\neth0');
  fs = vfs.writeFile(fs, `${dir}/10.0.0.3`, 'bbb');
  fs = vfs.mkdirAll(fs, '/var/lib/cni/networks/other');
  return vfs.writeFile(fs, '/var/lib/cni/networks/stray-file', '');
}

describe('host-local disk readers', () => {
  it('list the reservations of every network with their holder, not the lock or last_reserved_ip', () => {
    const fs = node();
    expect(disk.networks(fs)).toEqual(['other', 'pods']);
    expect(disk.reservations(fs)).toEqual([
      {
        network: 'pods',
        path: '/var/lib/cni/networks/pods/10.0.0.2',
        ip: '10.0.0.2',
        containerId: 'aaa',
        ifName: 'eth0',
      },
      {
        network: 'pods',
        path: '/var/lib/cni/networks/pods/10.0.0.3',
        ip: '10.0.0.3',
        containerId: 'bbb',
        ifName: '',
      },
    ]);
    expect(disk.reservationsOf(fs, '10.0.0.3').map((r) => r.containerId)).toEqual(['bbb']);
    expect(ipString(disk.lastReservedIP(fs, disk.networkDir('pods'), 0)!)).toBe('10.0.0.3');
    expect(disk.lastReservedIP(fs, disk.networkDir('pods'), 1)).toBeNull();
  });
});

describe("a network's host-local config", () => {
  it('is read as host-local loads it, with the list name and data dir', () => {
    const text = conflist({ ranges: [[{ subnet: '10.0.0.0/24' }]], dataDir: '/tmp/d' });
    const conf = hostLocalConfOf(text)!;
    expect(conf.name).toBe('pods');
    expect(ipString(conf.ranges[0]![0]!.gateway)).toBe('10.0.0.1');
    expect(hostLocalDirOf(text)).toBe('/tmp/d/pods');
    expect(usesHostLocal(text)).toBe(true);
    expect(usesHostLocal('{"plugins":[{"type":"calico","ipam":{"type":"calico-ipam"}}]}')).toBe(
      false,
    );
    expect(hostLocalConfOf('{"type":"ptp","ipam":{"type":"static"}}')).toBeNull();
    expect(() => hostLocalConfOf(conflist({ ranges: [[{ subnet: '10.0.0.1/24' }]] }))).toThrow(
      /host bits set/,
    );
  });

  it('capacity: the addresses of the first IPv4 range set, the gateway excepted', () => {
    expect(ipamCapacity(conflist({ ranges: [[{ subnet: '10.0.0.0/24' }]] }))).toBe(253);
    expect(
      ipamCapacity(
        conflist({
          ranges: [[{ subnet: '10.0.0.0/24', rangeStart: '10.0.0.10', rangeEnd: '10.0.0.19' }]],
        }),
      ),
    ).toBe(10);
    expect(ipamCapacity(conflist({ ranges: [[{ subnet: '10.0.0.0/31' }]] }))).toBeNull();
    expect(ipamCapacity('not json')).toBeNull();
  });
});
