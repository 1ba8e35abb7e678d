/**
 * containerd's conf-dir watcher (`cni_conf_syncer.go` syncLoop, the same in every release from
 * 1.6.0 to 2.3.4): fsnotify Create and Chmod events are skipped, Write, Rename and Remove reload.
 * A conflist renamed into /etc/cni/net.d from another directory of the same file system sends
 * only Create (IN_MOVED_TO) and is not loaded until another event or a restart.
 */
import { describe, expect, it } from 'vitest';
import { type Cluster, defaultConflist } from '../cluster/cluster';
import { journal } from '../faults/observe';
import { NODE, oneNode } from '../faults/testing';
import { confDirEvents, fsnotifyEventText } from './confwatch';

const DIR = '/etc/cni/net.d';
const other = defaultConflist('10.244.1.0/24').replace('"containerd-net"', '"other-net"');

function loaded(c: Cluster): string[] {
  return c.sim.node(NODE).containerd!.cni.networks.map((n) => n.name);
}

function sh(c: Cluster, line: string) {
  const r = c.shell(NODE, line);
  expect(r.exitCode).toBe(0);
}

describe('the conf-dir watcher (cni_conf_syncer.go: Create and Chmod skipped)', () => {
  for (const version of ['1.6.39', '1.7.22', '2.0.1', '2.3.4']) {
    it(`${version}: a conflist renamed in from /root is not loaded until the next event`, () => {
      const c = oneNode({ containerd: { version } });
      c.runFor(1_000_000);
      c.writeFile(NODE, '/root/05-other.conflist', other);
      sh(c, `mv /root/05-other.conflist ${DIR}/`);
      c.runFor(1_000_000);
      expect(loaded(c)).toEqual(['cni-loopback', 'containerd-net']);
      // Any Write in the directory reloads, and the file sorted first wins.
      sh(c, `echo '{}' > ${DIR}/README.json.txt`);
      expect(loaded(c)).toEqual(['cni-loopback', 'other-net']);
    });
  }

  it('a restart of containerd loads the file renamed in', () => {
    const c = oneNode();
    c.runFor(1_000_000);
    c.writeFile(NODE, '/root/05-other.conflist', other);
    sh(c, `mv /root/05-other.conflist ${DIR}/05-other.conflist`);
    expect(loaded(c)).toEqual(['cni-loopback', 'containerd-net']);
    c.restartContainerd(NODE);
    c.runFor(2_000_000);
    expect(loaded(c)).toEqual(['cni-loopback', 'other-net']);
  });

  it('a file renamed in over the loaded one is not reloaded either: the old bytes stay in use', () => {
    const c = oneNode();
    c.runFor(1_000_000);
    c.writeFile(NODE, '/root/new.conflist', other);
    sh(c, `mv /root/new.conflist ${DIR}/10-containerd-net.conflist`);
    expect(loaded(c)).toEqual(['cni-loopback', 'containerd-net']);
  });

  it('a rename inside the directory sends Rename for the old name, which reloads', () => {
    const c = oneNode();
    c.runFor(1_000_000);
    // A file written to a name that is not a config (no reload matters), then renamed to one.
    c.writeFile(NODE, `${DIR}/05-other.conflist.tmp`, other);
    expect(loaded(c)).toEqual(['cni-loopback', 'containerd-net']);
    sh(c, `mv ${DIR}/05-other.conflist.tmp ${DIR}/05-other.conflist`);
    expect(loaded(c)).toEqual(['cni-loopback', 'other-net']);
  });

  it('a copy, a write, or a mv from another file system (/run, tmpfs: it copies) reloads', () => {
    const c = oneNode();
    c.runFor(1_000_000);
    c.writeFile(NODE, '/root/05-other.conflist', other);
    sh(c, `cp /root/05-other.conflist ${DIR}/`);
    expect(loaded(c)).toEqual(['cni-loopback', 'other-net']);
    sh(c, `rm ${DIR}/05-other.conflist`);
    expect(loaded(c)).toEqual(['cni-loopback', 'containerd-net']);
    c.writeFile(NODE, '/run/05-other.conflist', other);
    sh(c, `mv /run/05-other.conflist ${DIR}/`);
    expect(loaded(c)).toEqual(['cni-loopback', 'other-net']);
  });

  it('names the events as the vendored fsnotify prints them (v1.4.9 in 1.6, v1.6+ from 1.7)', () => {
    const ev = { path: `${DIR}/10-containerd-net.conflist`, op: 'WRITE' as const };
    expect(fsnotifyEventText('1.6', ev)).toBe(`"${DIR}/10-containerd-net.conflist": WRITE`);
    expect(fsnotifyEventText('1.7', ev)).toBe(`WRITE         "${DIR}/10-containerd-net.conflist"`);
    for (const [version, text] of [
      ['1.6.39', `"${DIR}/10-containerd-net.conflist": WRITE`],
      ['1.7.22', `WRITE         "${DIR}/10-containerd-net.conflist"`],
    ]) {
      const c = oneNode({ containerd: { version: version! } });
      c.runFor(1_000_000);
      c.writeFile(NODE, `${DIR}/10-containerd-net.conflist`, '{');
      expect(journal(c, NODE, ['containerd']).join('\n')).toContain(
        `failed to reload cni configuration after receiving fs change event(${JSON.stringify(text).slice(1, -1)})`,
      );
    }
  });

  it('lists the events of a change (confDirEvents)', () => {
    const c = oneNode();
    c.runFor(1_000_000);
    const fs0 = c.sim.node(NODE).fs;
    sh(c, `mv ${DIR}/10-containerd-net.conflist ${DIR}/20.conflist`);
    const fs1 = c.sim.node(NODE).fs;
    expect(confDirEvents(fs0, fs1, DIR, () => 'ext4')).toEqual([
      { path: `${DIR}/10-containerd-net.conflist`, op: 'RENAME' },
      { path: `${DIR}/20.conflist`, op: 'CREATE' },
    ]);
    sh(c, `mv ${DIR}/20.conflist /root/`);
    expect(confDirEvents(fs1, c.sim.node(NODE).fs, DIR, () => 'ext4')).toEqual([
      { path: `${DIR}/20.conflist`, op: 'RENAME' },
    ]);
  });
});

// The conf dir itself removed (`rm -rf`: inotify IN_DELETE for its files, then IN_DELETE_SELF,
// which fsnotify reports as Remove of the directory and after which the kernel drops the watch).
// cni_conf_syncer.go syncLoop up to v2.0.x reloads on that event too and then hears nothing: a
// re-created directory is not loaded until a restart (newCNINetConfSyncer's MkdirAll and watch).
// From v2.1.0 (commit 0c2805a6e) syncLoop returns "cni conf dir is removed, stop watching", the
// CRI service's Run (service.go) returns it, and plugins/cri/cri.go logs it with Fatal:
// containerd exits, and systemd (Restart=always, RestartSec=5) starts it again 5 s later.
describe('the conf dir itself removed', () => {
  for (const version of ['1.6.39', '1.7.22', '2.0.11']) {
    it(`${version}: reloaded once more, then unwatched until a restart`, () => {
      const c = oneNode({ containerd: { version } });
      c.runFor(1_000_000);
      sh(c, `rm -rf ${DIR}`);
      expect(loaded(c)).toEqual(['cni-loopback']);
      const minor = version.split('.').slice(0, 2).join('.');
      const dirEvent = fsnotifyEventText(minor, { path: DIR, op: 'REMOVE' });
      expect(
        journal(c, NODE, ['containerd']).filter((l) =>
          l.includes(`receiving fs change event(${dirEvent.replace(/"/g, '\\"')})`),
        ),
      ).toHaveLength(1);
      sh(c, `mkdir -p ${DIR}`);
      c.writeFile(NODE, `${DIR}/10-containerd-net.conflist`, defaultConflist('10.244.1.0/24'));
      c.runFor(10_000_000);
      expect(loaded(c)).toEqual(['cni-loopback']);
      expect(c.sim.node(NODE).containerd!.up).toBe(true);
      c.restartContainerd(NODE);
      c.runFor(2_000_000);
      expect(loaded(c)).toEqual(['cni-loopback', 'containerd-net']);
    });
  }

  for (const version of ['2.1.0', '2.3.4']) {
    it(`${version}: containerd exits (Fatal) and starts again 5 s later with an empty conf dir`, () => {
      const c = oneNode({ containerd: { version } });
      c.runFor(1_000_000);
      const pid = c.sim.node(NODE).containerd!.pid;
      sh(c, `rm -rf ${DIR}`);
      const fatal = journal(c, NODE, ['containerd']).filter((l) => l.includes('level=fatal'));
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toContain(
        'msg="Failed to run CRI service" error="cni network conf monitor error: cni conf dir is removed, stop watching"',
      );
      expect(c.sim.node(NODE).containerd!.up).toBe(false);
      c.runFor(4_000_000);
      expect(c.sim.node(NODE).containerd!.up).toBe(false);
      c.runFor(2_000_000);
      const cd = c.sim.node(NODE).containerd!;
      expect(cd.up).toBe(true);
      expect(cd.pid).not.toBe(pid);
      expect(loaded(c)).toEqual(['cni-loopback']);
      // newCNINetConfSyncer: os.MkdirAll(confDir, 0700), and a new watch on it.
      expect(c.shell(NODE, `ls -ld ${DIR}`).stdout).toMatch(/^drwx------ /);
      c.writeFile(NODE, `${DIR}/10-containerd-net.conflist`, defaultConflist('10.244.1.0/24'));
      expect(loaded(c)).toEqual(['cni-loopback', 'containerd-net']);
    });
  }
});
