import { gzipSync, strToU8 } from 'fflate';
import { tar, testBundleFiles, tgzOf } from '../properties/bundle-files';
import { describe, expect, it } from 'vitest';
import { LIMITS, readArchive } from './archive';
import { bundleFromArchive, bundleFromFiles } from './bundle';
import { parseCrictlInfo, parsePluginVersion, parseRuntimeVersion } from './bundle';
import { jsonErrorAt } from './findings';
import { buildFor, libcniOf } from './node';

describe('archives', () => {
  it('reads a .tar.gz of a testdata bundle, with a top folder', () => {
    const r = bundleFromArchive(tgzOf(testBundleFiles('kubeadm-containerd')));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.keys(r.bundle.confFiles)).toEqual(['10-containerd-net.conflist']);
    expect(r.bundle.plugins['bridge']!.supportedVersions).toContain('1.0.0');
    expect(r.bundle.runtime).toMatchObject({ kind: 'containerd', version: '1.7.22' });
    expect(r.bundle.podCIDR).toBe('10.244.1.0/24');
    expect(r.bundle.hostAddresses).toEqual([{ dev: 'eth0', cidr: '192.168.56.11/24' }]);
  });

  const refuse = (bytes: Uint8Array, re: RegExp) => {
    const r = bundleFromArchive(bytes);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(re);
  };

  it('refuses path traversal, absolute paths and links', () => {
    refuse(
      gzipSync(tar([{ name: '../etc/passwd', data: 'x' }])),
      /leaves the bundle \(path traversal\)/,
    );
    refuse(gzipSync(tar([{ name: 'a/../../x', data: 'x' }])), /path traversal/);
    refuse(
      gzipSync(tar([{ name: '/etc/cni/net.d/a.conf', data: 'x' }])),
      /absolute path .*path traversal/,
    );
    refuse(
      gzipSync(tar([{ name: 'etc/cni/net.d/a.conflist', type: '2', linkname: '/etc/shadow' }])),
      /is a symbolic link/,
    );
    refuse(gzipSync(tar([{ name: 'etc/cni/net.d/b', type: '1', linkname: 'x' }])), /hard link/);
    refuse(gzipSync(tar([{ name: 'dev/x', type: '3' }])), /not a plain file/);
  });

  it('refuses truncated archives and corrupt gzip', () => {
    const good = tgzOf(testBundleFiles('flannel'));
    refuse(good.subarray(0, good.length - 30), /truncated|corrupt/);
    refuse(good.subarray(0, 20), /truncated|corrupt/);
    const t = tar([{ name: 'etc/cni/net.d/a.conflist', data: 'x'.repeat(3000) }], false);
    refuse(
      gzipSync(t.subarray(0, 1024)),
      /truncated: "etc\/cni\/net.d\/a.conflist" needs 3000 bytes/,
    );
    const bad = tar([{ name: 'runtime-version.txt', data: 'containerd x v1.7.0' }]);
    bad[0] = 0x41;
    refuse(gzipSync(bad), /not a tar archive \(the first header has a bad checksum\)/);
  });

  it('refuses what is not a bundle, and binary garbage', () => {
    refuse(
      gzipSync(tar([{ name: 'photos/cat.jpg', data: 'x' }])),
      /^not a node bundle: it has none of etc\/cni\/net.d\//,
    );
    refuse(
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]),
      /not a node bundle: neither a \.tar\.gz nor a tar/,
    );
    refuse(new Uint8Array(), /empty/);
    refuse(gzipSync(new Uint8Array(2048)), /empty/);
    refuse(
      gzipSync(tar([{ name: 'runtime-version.txt', data: new Uint8Array([0x63, 0, 0xff, 0x00]) }])),
      /runtime-version.txt is binary/,
    );
  });

  it('refuses huge files and archives that unpack too far', () => {
    refuse(
      gzipSync(
        tar([{ name: 'etc/cni/net.d/big.conflist', data: new Uint8Array(LIMITS.fileBytes + 1) }]),
      ),
      /big.conflist is 1048577 bytes: a bundle file may have at most 1 MiB \(too large\)/,
    );
    const many = Array.from({ length: 20 }, (_, i) => ({
      name: `etc/cni/net.d/${i}.json`,
      data: new Uint8Array(LIMITS.fileBytes),
    }));
    refuse(gzipSync(tar(many), { level: 1 }), /more than 1\d MiB \(too large\)/);
    refuse(new Uint8Array(LIMITS.archiveBytes + 1).fill(0x1f), /too large/);
  });

  it('reads a plain tar, a GNU long name and directories', () => {
    const long = `etc/cni/net.d/${'z'.repeat(120)}.conflist`;
    const t = tar([
      { name: 'etc/cni/net.d/', type: '5' },
      { name: '././@LongLink', type: 'L', data: `${long}\0` },
      { name: 'ignored', data: '{}' },
    ]);
    const r = readArchive(t);
    expect(r.ok && r.files.map((f) => f.path)).toEqual([long]);
    expect(r.ok && r.dirs).toEqual(['etc/cni/net.d']);
  });
});

describe('the parts of a bundle', () => {
  it('parses runtime versions', () => {
    expect(
      parseRuntimeVersion('containerd github.com/containerd/containerd/v2 v2.0.0 207ad71'),
    ).toMatchObject({ kind: 'containerd', version: '2.0.0' });
    expect(parseRuntimeVersion('containerd containerd.io 1.6.33 d2d58213f8')).toMatchObject({
      kind: 'containerd',
      version: '1.6.33',
    });
    expect(
      parseRuntimeVersion('containerd github.com/k3s-io/containerd v1.7.23-k3s2 abc'),
    ).toMatchObject({ version: '1.7.23' });
    expect(
      parseRuntimeVersion('crio version 1.30.2\nVersion:        1.30.2\nGitCommit: x'),
    ).toMatchObject({ kind: 'cri-o', version: '1.30.2' });
    expect(parseRuntimeVersion('bash: containerd: command not found').kind).toBe('unknown');
    expect(
      libcniOf(parseRuntimeVersion('containerd github.com/containerd/containerd/v2 v2.1.1 x')),
    ).toBe('1.2');
    expect(libcniOf(parseRuntimeVersion('containerd containerd.io 1.7.22 x'))).toBe('1.1');
  });

  it('maps VERSION answers to the modelled builds', () => {
    const v = (s: string) => parsePluginVersion(s);
    expect(
      buildFor(
        v(
          '{"cniVersion":"1.0.0","supportedVersions":["0.1.0","0.2.0","0.3.0","0.3.1","0.4.0","1.0.0"]}',
        ),
      ),
    ).toEqual({ build: 'v1.1.1', exact: true });
    expect(
      buildFor(
        v(
          '{"cniVersion":"1.1.0","supportedVersions":["0.1.0","0.2.0","0.3.0","0.3.1","0.4.0","1.0.0","1.1.0"]}',
        ),
      )!.build,
    ).toBe('v1.6.2');
    expect(
      buildFor(
        v('{"cniVersion":"0.4.0","supportedVersions":["0.1.0","0.2.0","0.3.0","0.3.1","0.4.0"]}'),
      )!.build,
    ).toBe('v0.8.7');
    expect(buildFor(v('CNI bridge plugin v1.1.1\nsomething'))).toBeNull();
  });

  it('reads the CNI settings from crictl info, whole or filtered', () => {
    const whole = JSON.stringify({
      status: {},
      config: {
        cni: {
          binDirs: ['/opt/cni/bin', '/usr/lib/cni'],
          confDir: '/etc/cni/net.d',
          maxConfNum: 2,
        },
        registry: { configs: { x: { auth: { password: 'p' } } } },
      },
    });
    const r = parseCrictlInfo(whole);
    expect(r).toEqual({
      ok: true,
      cni: {
        confDir: '/etc/cni/net.d',
        binDirs: ['/opt/cni/bin', '/usr/lib/cni'],
        maxConfNum: 2,
        ipPref: null,
        source: 'crictl-info',
      },
    });
    expect(JSON.stringify(r)).not.toContain('password');
    expect(
      parseCrictlInfo(
        '{"cniconfig":{"PluginDirs":["/x"],"PluginConfDir":"/y","PluginMaxConfNum":1}}',
      ),
    ).toMatchObject({ ok: true, cni: { confDir: '/y', binDirs: ['/x'] } });
    expect(parseCrictlInfo('FATA[0000] connect: permission denied').ok).toBe(false);
  });

  it('keeps a missing crictl info or pod CIDR as a note, and refuses a bad pod CIDR', () => {
    const files = testBundleFiles('kubeadm-containerd').filter(
      (f) => !/crictl-info|pod-cidr/.test(f.path),
    );
    const r = bundleFromFiles(files);
    expect(r.ok && r.bundle.notes).toEqual([
      "crictl-info.json is missing: containerd's defaults are assumed (confDir /etc/cni/net.d, binDirs [/opt/cni/bin], maxConfNum 1)",
      'pod-cidr.txt is missing: the node has no pod CIDR in the bundle',
    ]);
    const bad = bundleFromFiles([
      ...files,
      { path: 'node-bundle/pod-cidr.txt', data: strToU8('10.244.1.0/33\n') },
    ]);
    expect(bad).toEqual({ ok: false, error: 'pod-cidr.txt: invalid CIDR address: 10.244.1.0/33' });
  });

  it('finds JSON syntax errors with line and column', () => {
    expect(jsonErrorAt('{\n  "a": 1\n  "b": 2\n}')).toEqual({
      line: 3,
      col: 3,
      message: "invalid character '\"' after object key:value pair",
    });
    expect(jsonErrorAt('{"a": [1, 2,]}')).toMatchObject({ line: 1, col: 13 });
    expect(jsonErrorAt('{"a": 1')).toMatchObject({
      line: 1,
      col: 8,
      message: 'unexpected end of JSON input',
    });
    expect(jsonErrorAt('{"a": 1}')).toBeNull();
  });
});
