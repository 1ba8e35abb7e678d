/**
 * The virtual filesystem against Go's os package on a real Linux filesystem: every error text
 * and ordering below was printed by a Go 1.19 program doing the same operation in a temp dir
 * (os.ReadFile, os.ReadDir, os.WriteFile, os.OpenFile(O_EXCL), os.MkdirAll, os.Remove,
 * os.RemoveAll, os.Rename, filepath.Walk), with the temp dir's path replaced by /d.
 */
import { describe, expect, it } from 'vitest';
import * as vfs from './vfs';

/** /d/dir/{file,sub/a} as the Go program set it up. */
function setup(): vfs.FsState {
  let fs = vfs.mkdirAll(vfs.emptyFs(), '/d/dir/sub');
  fs = vfs.writeFile(fs, '/d/dir/file', 'x');
  fs = vfs.writeFile(fs, '/d/dir/sub/a', 'a');
  return fs;
}

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return '<nil>';
}

describe('vfs errors (Go *PathError / *LinkError texts)', () => {
  const fs = setup();
  const CASES: Array<[string, () => unknown, string]> = [
    [
      'os.ReadFile of a missing file',
      () => vfs.readFile(fs, '/d/missing'),
      'open /d/missing: no such file or directory',
    ],
    ['os.ReadFile of a directory', () => vfs.readFile(fs, '/d/dir'), 'read /d/dir: is a directory'],
    [
      'os.ReadFile below a regular file',
      () => vfs.readFile(fs, '/d/dir/file/x'),
      'open /d/dir/file/x: not a directory',
    ],
    [
      'os.ReadDir of a missing directory',
      () => vfs.readDir(fs, '/d/missing'),
      'open /d/missing: no such file or directory',
    ],
    [
      'os.ReadDir of a regular file',
      () => vfs.readDir(fs, '/d/dir/file'),
      'readdirent /d/dir/file: not a directory',
    ],
    [
      'os.WriteFile without the parent directory',
      () => vfs.writeFile(fs, '/d/nope/f', ''),
      'open /d/nope/f: no such file or directory',
    ],
    [
      'os.WriteFile below a regular file',
      () => vfs.writeFile(fs, '/d/dir/file/f', ''),
      'open /d/dir/file/f: not a directory',
    ],
    [
      'os.WriteFile onto a directory',
      () => vfs.writeFile(fs, '/d/dir', ''),
      'open /d/dir: is a directory',
    ],
    [
      'O_CREATE|O_EXCL of an existing file',
      () => vfs.writeFile(fs, '/d/dir/file', '', { exclusive: true }),
      'open /d/dir/file: file exists',
    ],
    [
      'os.MkdirAll below a regular file',
      () => vfs.mkdirAll(fs, '/d/dir/file/sub'),
      'mkdir /d/dir/file: not a directory',
    ],
    [
      'os.MkdirAll onto a regular file',
      () => vfs.mkdirAll(fs, '/d/dir/file'),
      'mkdir /d/dir/file: not a directory',
    ],
    ['os.MkdirAll of an existing directory', () => vfs.mkdirAll(fs, '/d/dir/sub'), '<nil>'],
    [
      'os.Remove of a missing file',
      () => vfs.remove(fs, '/d/missing'),
      'remove /d/missing: no such file or directory',
    ],
    [
      'os.Remove of a non-empty directory',
      () => vfs.remove(fs, '/d/dir/sub'),
      'remove /d/dir/sub: directory not empty',
    ],
    ['os.RemoveAll of a missing path', () => vfs.removeAll(fs, '/d/missing'), '<nil>'],
    [
      'os.Rename of a missing file',
      () => vfs.rename(fs, '/d/missing', '/d/dir/x'),
      'rename /d/missing /d/dir/x: no such file or directory',
    ],
    [
      'os.Rename into a missing directory',
      () => vfs.rename(fs, '/d/dir/file', '/d/nope/x'),
      'rename /d/dir/file /d/nope/x: no such file or directory',
    ],
    [
      'os.Rename of a file onto a non-empty directory',
      () => vfs.rename(fs, '/d/dir/file', '/d/dir/sub'),
      'rename /d/dir/file /d/dir/sub: file exists',
    ],
    [
      'os.Rename of a file onto an empty directory',
      () => vfs.rename(vfs.mkdirAll(fs, '/d/dir/empty'), '/d/dir/file', '/d/dir/empty'),
      'rename /d/dir/file /d/dir/empty: file exists',
    ],
    [
      'os.Rename of a directory onto a file',
      () => vfs.rename(fs, '/d/dir/sub', '/d/dir/file'),
      'rename /d/dir/sub /d/dir/file: not a directory',
    ],
  ];
  it.each(CASES)('%s', (_name, f, want) => {
    expect(errorOf(f)).toBe(want);
  });

  it('FsError carries the errno and path', () => {
    try {
      vfs.readFile(fs, '/d/missing');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(vfs.FsError);
      expect((e as vfs.FsError).errno).toBe('ENOENT');
      expect((e as vfs.FsError).path).toBe('/d/missing');
    }
  });
});

describe('vfs rename and remove semantics', () => {
  it('a file renamed over another file replaces it, keeping its own mode', () => {
    // Go: WriteFile(f2, "2", 0600); Rename(f2, file) -> nil; file reads "2", mode 0600.
    let fs = vfs.writeFile(setup(), '/d/dir/f2', '2', { mode: 0o600 });
    fs = vfs.rename(fs, '/d/dir/f2', '/d/dir/file');
    expect(vfs.readFile(fs, '/d/dir/file')).toBe('2');
    expect(vfs.stat(fs, '/d/dir/file')?.mode).toBe(0o600);
    expect(vfs.stat(fs, '/d/dir/f2')).toBeUndefined();
  });

  it('a directory renamed takes its contents along', () => {
    const fs = vfs.rename(setup(), '/d/dir/sub', '/d/dir/moved');
    expect(vfs.readFile(fs, '/d/dir/moved/a')).toBe('a');
    expect(vfs.stat(fs, '/d/dir/sub')).toBeUndefined();
    expect(vfs.readDir(fs, '/d/dir')).toEqual(['file', 'moved']);
  });

  it('os.WriteFile on an existing file keeps its mode (the perm only applies on create)', () => {
    let fs = vfs.writeFile(vfs.mkdirAll(vfs.emptyFs(), '/d'), '/d/m', '1', { mode: 0o600 });
    fs = vfs.writeFile(fs, '/d/m', '2', { mode: 0o644 });
    expect(vfs.stat(fs, '/d/m')?.mode).toBe(0o600);
    expect(vfs.readFile(fs, '/d/m')).toBe('2');
  });

  it('remove deletes a file and an empty directory; removeAll deletes a tree', () => {
    let fs = setup();
    fs = vfs.remove(fs, '/d/dir/sub/a');
    fs = vfs.remove(fs, '/d/dir/sub');
    expect(vfs.readDir(fs, '/d/dir')).toEqual(['file']);
    fs = vfs.removeAll(fs, '/d');
    expect(vfs.stat(fs, '/d')).toBeUndefined();
    expect(vfs.readDir(fs, '/')).toEqual([]);
  });

  it('operations return a new state and leave the old one untouched', () => {
    const before = setup();
    const after = vfs.remove(before, '/d/dir/file');
    expect(vfs.readFile(before, '/d/dir/file')).toBe('x');
    expect(vfs.stat(after, '/d/dir/file')).toBeUndefined();
  });
});

describe('vfs ordering', () => {
  const FILES = ['b/z', 'b/a', 'a.txt', 'B', 'a/c/d', 'a-b', '_x', 'a/b'];
  function tree(): vfs.FsState {
    let fs = vfs.mkdirAll(vfs.emptyFs(), '/w');
    for (const f of FILES) {
      fs = vfs.mkdirAll(fs, vfs.dirname(`/w/${f}`));
      fs = vfs.writeFile(fs, `/w/${f}`, '');
    }
    return fs;
  }

  it('readDir sorts names byte-wise (os.ReadDir)', () => {
    expect(vfs.readDir(tree(), '/w')).toEqual(['B', '_x', 'a', 'a-b', 'a.txt', 'b']);
  });

  it('walk visits depth-first, each directory sorted (filepath.Walk), not by full path', () => {
    const rel = vfs.walk(tree(), '/w').map((p) => (p === '/w' ? '.' : p.slice(3)));
    expect(rel).toEqual([
      '.',
      'B',
      '_x',
      'a',
      'a/b',
      'a/c',
      'a/c/d',
      'a-b',
      'a.txt',
      'b',
      'b/a',
      'b/z',
    ]);
  });

  it('walk of a missing root visits nothing', () => {
    expect(vfs.walk(tree(), '/nope')).toEqual([]);
  });
});

describe("symbolic links (a node's /var/run -> /run)", () => {
  function node(): vfs.FsState {
    let fs = vfs.mkdirAll(vfs.emptyFs(), '/var/lib');
    fs = vfs.mkdirAll(fs, '/run/netns');
    return vfs.symlink(fs, '/run', '/var/run');
  }

  it('are followed in every directory of a path and in its last component', () => {
    let fs = vfs.writeFile(node(), '/var/run/netns/a', 'x');
    expect(vfs.readFile(fs, '/run/netns/a')).toBe('x');
    expect(vfs.stat(fs, '/var/run')).toMatchObject({ kind: 'dir' });
    expect(vfs.readDir(fs, '/var/run/netns')).toEqual(['a']);
    expect(vfs.resolvePath(fs, '/var/run/netns/b')).toBe('/run/netns/b');
    fs = vfs.mkdirAll(fs, '/var/run/flannel');
    expect(vfs.readDir(fs, '/run')).toEqual(['flannel', 'netns']);
    fs = vfs.remove(fs, '/var/run/netns/a');
    expect(vfs.readDir(fs, '/run/netns')).toEqual([]);
  });

  it('lstat, remove and walk see the link itself', () => {
    const fs = node();
    expect(vfs.lstat(fs, '/var/run')).toEqual({ kind: 'symlink', mode: 0o777, target: '/run' });
    expect(vfs.walk(fs, '/var')).toEqual(['/var', '/var/lib', '/var/run']);
    expect(vfs.walk(fs, '/var/run')).toEqual(['/var/run', '/var/run/netns']);
    const gone = vfs.remove(fs, '/var/run');
    expect(vfs.lstat(gone, '/var/run')).toBeUndefined();
    expect(vfs.stat(gone, '/run/netns')).toMatchObject({ kind: 'dir' });
  });

  it('a dangling link stats as missing; creating one over an entry fails', () => {
    const fs = vfs.symlink(node(), 'nope', '/var/dangling');
    expect(vfs.stat(fs, '/var/dangling')).toBeUndefined();
    expect(vfs.lstat(fs, '/var/dangling')).toMatchObject({ kind: 'symlink' });
    expect(errorOf(() => vfs.symlink(fs, '/x', '/var/lib'))).toBe('symlink /var/lib: file exists');
  });
});

describe('path helpers (filepath.Clean / Join / Dir / Base)', () => {
  it.each([
    ['/a/b/../c/./d/', '/a/c/d'],
    ['//a//b', '/a/b'],
    ['/..', '/'],
    ['/', '/'],
  ])('cleanPath(%j) = %j', (p, want) => {
    expect(vfs.cleanPath(p)).toBe(want);
  });

  it('joinPath, dirname, basename', () => {
    expect(vfs.joinPath('/var/lib/cni', 'results', 'net-c1-eth0')).toBe(
      '/var/lib/cni/results/net-c1-eth0',
    );
    expect(vfs.dirname('/var/lib/cni/results/x')).toBe('/var/lib/cni/results');
    expect(vfs.dirname('/x')).toBe('/');
    expect(vfs.basename('/var/run/netns/pod-a')).toBe('pod-a');
  });
});
