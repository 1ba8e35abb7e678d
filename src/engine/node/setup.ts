/**
 * Building a simulated node: its filesystem layout, installed plugin binaries, and network
 * namespaces created the way `ip netns add` creates them (a namespace bind-mounted at
 * /var/run/netns/<name>). Each change is an `env` event in the trace.
 */
import { produce } from 'immer';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import type { KernelState } from '../kernel/types';
import { type Simulation, type WorldState, newNodeState } from '../sim/world';
import { envEvent } from '../trace/trace';

export const NETNS_DIR = '/var/run/netns';

export interface NodeSetup {
  name: string;
  /** Directory the CNI plugins are installed in (CNI_PATH). */
  pluginDir?: string;
  build?: string;
  plugins?: string[];
  /** Bring the host's `lo` up (a booted node has it up). */
  loUp?: boolean;
  files?: Record<string, string>;
}

const BASE_DIRS = [
  '/etc/cni/net.d',
  '/opt/cni/bin',
  '/var/lib/cni',
  '/run/netns',
  '/tmp',
  '/proc/sys',
  // root's home: the node shell's default working directory.
  '/root',
];

/** Directories whose mode is not 0755 (Debian's /root is 0700). */
const DIR_MODES: Record<string, number> = { '/root': 0o700 };

function binaryText(program: string, build: string): string {
  return `\u007fELF (cnisim simulated binary: ${program} ${build})\n`;
}

export function installPluginFiles(
  fs: vfs.FsState,
  dir: string,
  build: string,
  plugins: readonly string[],
): vfs.FsState {
  let out = vfs.mkdirAll(fs, dir);
  for (const p of plugins) {
    out = vfs.writeFile(out, vfs.joinPath(dir, p), binaryText(p, build), {
      mode: 0o755,
      exec: { program: p, build },
    });
  }
  return out;
}

/** Adds a node to the world (no event: the node exists before the story starts). */
export function addNode(w: WorldState, setup: NodeSetup): WorldState {
  return produce(w, (d) => {
    const n = newNodeState(setup.name);
    let fs = n.fs;
    for (const dir of BASE_DIRS) fs = vfs.mkdirAll(fs, dir, DIR_MODES[dir]);
    // As on Debian: /var/run is a link to /run (the engine names namespace mounts /var/run/netns/...).
    fs = vfs.symlink(fs, '/run', '/var/run');
    if (setup.plugins?.length) {
      fs = installPluginFiles(
        fs,
        setup.pluginDir ?? '/opt/cni/bin',
        setup.build ?? 'v1.1.1',
        setup.plugins,
      );
    }
    for (const [path, data] of Object.entries(setup.files ?? {})) {
      fs = vfs.writeFile(vfs.mkdirAll(fs, vfs.dirname(path)), path, data);
    }
    n.fs = fs;
    const k = n.kernel as KernelState;
    if (setup.loUp !== false) K.linkSetUp(k, k.root, 1);
    d.nodes[setup.name] = n as never;
  });
}

/** The parts of a (draft) node that mounting a namespace changes: its kernel and its files. */
export interface NetnsDraft {
  kernel: KernelState;
  fs: vfs.FsState;
}

/**
 * What `ip netns add` does, on a draft node: a new namespace bind-mounted on `path` (an nsfs file
 * of mode 0444; its directory is made if needed). Returns the namespace's id.
 */
export function netnsCreate(n: NetnsDraft, path: string): string {
  const id = K.createNetns(n.kernel);
  K.mountNetns(n.kernel, path, id);
  n.fs = vfs.writeFile(vfs.mkdirAll(n.fs, vfs.dirname(path)), path, '', {
    mode: 0o444,
    nsfs: true,
  });
  return id;
}

/**
 * What `ip netns del` does, on a draft node: unmounts `path` and removes the file. The namespace
 * is destroyed (its veths take their peers with them) unless another mount still holds it.
 */
export function netnsRemove(n: NetnsDraft, path: string): void {
  const k = n.kernel;
  const id = k.mounts[path];
  if (id) {
    K.unmountNetns(k, path);
    if (id !== k.root && !Object.values(k.mounts).includes(id)) K.destroyNetns(k, id);
  }
  n.fs = vfs.remove(n.fs, path);
}

/** `ip netns add <name>`: a new namespace mounted at /var/run/netns/<name>. */
export function netnsAdd(sim: Simulation, node: string, path: string, source = 'operator'): string {
  return sim.apply(
    envEvent({
      node,
      source,
      target: 'kernel',
      level: 'kernel',
      summary: `ip netns add ${vfs.basename(path)}`,
      payload: { op: 'netns.add', path },
    }),
    (d) => {
      const n = d.nodes[node]!;
      if (n.kernel.mounts[path])
        throw new Error(`Cannot create namespace file "${path}": File exists`);
      return netnsCreate(n, path);
    },
  );
}

/** `ip netns del <name>`: unmounts and destroys the namespace (its veths go with it). */
export function netnsDel(sim: Simulation, node: string, path: string, source = 'operator'): void {
  sim.apply(
    envEvent({
      node,
      source,
      target: 'kernel',
      level: 'kernel',
      summary: `ip netns del ${vfs.basename(path)}`,
      payload: { op: 'netns.del', path },
    }),
    (d) => {
      const n = d.nodes[node]!;
      if (!n.kernel.mounts[path])
        throw new Error(`Cannot remove namespace file "${path}": No such file or directory`);
      netnsRemove(n, path);
    },
  );
}

/** Time passes on every node: deferred link events are processed (linkwatch). */
export function settle(sim: Simulation, us = 1_000_000): void {
  sim.advance(us);
  sim.state = produce(sim.state, (d) => {
    for (const n of Object.values(d.nodes)) K.settleKernel(n.kernel as KernelState);
  });
}
