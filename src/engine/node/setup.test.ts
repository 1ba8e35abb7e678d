/**
 * A new node's filesystem, and namespaces mounted the way `ip netns add` / `ip netns del` do it
 * (the helpers the node shell's `ip netns` uses too).
 */
import { produce } from '../sim/world';
import { describe, expect, it } from 'vitest';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import { Shell } from '../shell/shell';
import { Simulation, newWorld } from '../sim/world';
import { addNode, netnsAdd, netnsCreate, netnsDel, netnsRemove } from './setup';
import { tget, tkeys } from '../state/table';

function node() {
  return new Simulation(addNode(newWorld(1), { name: 'node', plugins: ['bridge'] }));
}

describe('a new node', () => {
  it("has root's home, the shell's working directory, as on Debian (0700)", () => {
    const fs = node().node('node').fs;
    expect(vfs.stat(fs, '/root')).toMatchObject({ kind: 'dir', mode: 0o700 });
    expect(vfs.stat(fs, '/var/run/netns')).toMatchObject({ kind: 'dir', mode: 0o755 });
    expect(new Shell(node(), 'node').run('pwd; cd && pwd')).toMatchObject({
      stdout: '/root\n/root\n',
      stderr: '',
      exitCode: 0,
    });
  });
});

describe('netnsCreate / netnsRemove on a draft node', () => {
  it('mounts a new namespace on an nsfs file, and destroys it with its veths on removal', () => {
    const sim = node();
    let id = '';
    sim.state = produce(sim.state, (d) => {
      id = netnsCreate(d.nodes['node']!, '/var/run/netns/a');
    });
    let n = sim.node('node');
    expect(tget(n.kernel.mounts, '/var/run/netns/a')).toBe(id);
    expect(tget(n.kernel.netns, id)).toBeDefined();
    expect(vfs.stat(n.fs, '/var/run/netns/a')).toMatchObject({
      kind: 'file',
      mode: 0o444,
      nsfs: true,
    });
    sim.state = produce(sim.state, (d) => {
      const k = d.nodes['node']!.kernel;
      K.linkAdd(
        k,
        id,
        { kind: 'veth', name: 'eth0', peerName: 'veth1', peerNs: k.root },
        {
          mac: () => '02:00:00:00:00:01',
        },
      );
    });
    expect(
      K.linkByName(tget(sim.node('node').kernel.netns, sim.node('node').kernel.root)!, 'veth1'),
    ).toBeDefined();
    sim.state = produce(sim.state, (d) => netnsRemove(d.nodes['node']!, '/var/run/netns/a'));
    n = sim.node('node');
    expect(tget(n.kernel.mounts, '/var/run/netns/a')).toBeUndefined();
    expect(tget(n.kernel.netns, id)).toBeUndefined();
    expect(vfs.stat(n.fs, '/var/run/netns/a')).toBeUndefined();
    expect(K.linkByName(tget(n.kernel.netns, n.kernel.root)!, 'veth1')).toBeUndefined();
  });

  it('keeps a namespace another mount still holds', () => {
    const sim = node();
    const id = netnsAdd(sim, 'node', '/var/run/netns/a');
    sim.state = produce(sim.state, (d) => {
      K.mountNetns(d.nodes['node']!.kernel, '/run/other', id);
    });
    netnsDel(sim, 'node', '/var/run/netns/a');
    const k = sim.node('node').kernel;
    expect(tget(k.netns, id)).toBeDefined();
    expect(tkeys(k.mounts)).toEqual(['/run/other']);
  });

  it('netnsAdd and netnsDel refuse an existing or a missing mount', () => {
    const sim = node();
    netnsAdd(sim, 'node', '/var/run/netns/a');
    expect(() => netnsAdd(sim, 'node', '/var/run/netns/a')).toThrow(/File exists/);
    expect(() => netnsDel(sim, 'node', '/var/run/netns/b')).toThrow(/No such file/);
  });
});
