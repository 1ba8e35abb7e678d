import { describe, expect, it } from 'vitest';
import { bundleFromArchive, bundleFromFiles, parseRuntimeVersion } from './bundle';
import type { NodeBundle } from './bundle';
import { testBundleFiles, tgzOf } from '../properties/bundle-files';
import { compareBundles, formatNodeReport, nodeReport } from './report';

function load(name: string): NodeBundle {
  const r = bundleFromFiles(testBundleFiles(name));
  if (!r.ok) throw new Error(r.error);
  return r.bundle;
}

const kinds = (r: ReturnType<typeof nodeReport>, sev?: string) =>
  r.findings.filter((f) => !sev || f.severity === sev).map((f) => f.kind);

describe('bundles from the common installers', () => {
  it('kubeadm with containerd example conflist: the drill passes; the 10.88.0.0/16 range is not the pod CIDR', () => {
    const r = nodeReport(load('kubeadm-containerd'), { pods: 5 });
    expect(r.runtime).toMatchObject({ kind: 'containerd', version: '1.7.22', libcni: '1.1' });
    expect(r.loaded).toEqual([
      { name: 'containerd-net', ifName: 'eth0', file: '/etc/cni/net.d/10-containerd-net.conflist' },
    ]);
    expect(r.networkReady).toBe(true);
    expect(kinds(r, 'error')).toEqual([]);
    expect(r.findings.find((f) => f.kind === 'ipam-pod-cidr')!.message).toBe(
      "The range 10.88.0.0/16 is not inside the node's pod CIDR 10.244.1.0/24: pods get addresses the cluster's routes to this node do not cover.",
    );
    expect(r.drill.skipped).toBeNull();
    expect(r.drill.steps.map((s) => `${s.outcome} ${s.step}`)).toEqual([
      'ok boot: the node comes up',
      'ok ADD: one pod (kubectl run probe)',
      "ok CHECK of the pod (as a runtime calls libcni, with the sandbox's id; containerd never runs CHECK)",
      'ok scale to 5 pods',
      'ok delete the pod (DEL)',
      'ok kubelet restart',
      'ok containerd restart',
      'ok scale to 0 (DEL of every pod)',
    ]);
    expect(r.drill.audit).toEqual([]);
    expect(r.plugins.find((p) => p.name === 'bridge')!.simulated).toBe('simulated as build v1.1.1');
    expect(r.plugins.find((p) => p.name === 'macvlan')!.simulated).toBe('not simulated');
  });

  it('kindnet on containerd 2.x: libcni 1.2, ptp drill passes, CHECK refused for a 0.3.1 list (info only)', () => {
    const r = nodeReport(load('kindnet'), { pods: 3 });
    expect(r.runtime.libcni).toBe('1.2');
    expect(r.plugins.find((p) => p.name === 'ptp')!.simulated).toBe('simulated as build v1.6.2');
    expect(kinds(r, 'error')).toEqual([]);
    const check = r.findings.find((f) => f.kind === 'check')!;
    expect(check.severity).toBe('info');
    expect(check.message).toContain(
      'configuration version "0.3.1" does not support the CHECK command',
    );
    expect(r.drill.steps.filter((s) => s.outcome !== 'ok').map((s) => s.step)).toEqual([
      "CHECK of the pod (as a runtime calls libcni, with the sandbox's id; containerd never runs CHECK)",
    ]);
  });

  const notSimulated = (name: string, plugins: string) => {
    const r = nodeReport(load(name));
    expect(r.drill.skipped).toBe(
      `the loaded chain uses ${plugins}, which cnisim does not simulate; the drill would invent their behaviour`,
    );
    expect(
      r.findings.some(
        (f) =>
          f.kind === 'not-simulated' &&
          f.message.startsWith(`cnisim does not simulate ${plugins}:`),
      ),
    ).toBe(true);
    expect(kinds(r, 'error')).toEqual([]);
    return r;
  };

  it('flannel: loads cbr0, flannel named as not simulated', () => {
    const r = notSimulated('flannel', 'flannel');
    expect(r.loaded.map((n) => n.file)).toEqual(['/etc/cni/net.d/10-flannel.conflist']);
  });

  it('Calico: calico and calico-ipam not simulated; the kubeconfig is not a config', () => {
    const r = notSimulated('calico', 'calico, calico-ipam');
    expect(r.runtime).toMatchObject({ version: '2.0.5', libcni: '1.2' });
    expect(r.findings.find((f) => f.kind === 'not-a-config')!.evidence).toBe(
      '/etc/cni/net.d/calico-kubeconfig',
    );
    expect(r.notes).toContain('pod-cidr.txt is empty: the node has no pod CIDR in the bundle');
  });

  it('Cilium: cilium-cni not simulated; the renamed old config is not read; hostPort depends on Cilium', () => {
    const r = notSimulated('cilium', 'cilium-cni');
    expect(r.findings.find((f) => f.kind === 'not-a-config')!.message).toContain(
      '10-containerd-net.conflist.cilium_bak',
    );
    const cap = r.findings.find((f) => f.kind === 'capability')!;
    expect(cap.severity).toBe('info');
    expect(cap.message).toContain('work only if cilium-cni publishes them itself');
  });

  it("k3s: containerd's conf dir from crictl info; the bin dir difference is a note", () => {
    const r = notSimulated('k3s', 'flannel');
    expect(r.loaded[0]!.file).toBe('/var/lib/rancher/k3s/agent/etc/cni/net.d/10-flannel.conflist');
    expect(r.notes).toContain(
      "the runtime's bin dirs are [/var/lib/rancher/k3s/data/cni]; the simulated node has its plugins in /opt/cni/bin",
    );
  });

  it('AWS VPC CNI: aws-cni and egress-cni not simulated', () => {
    const r = notSimulated('aws-vpc-cni', 'aws-cni, egress-cni');
    expect(r.findings.find((f) => f.kind === 'check')!.message).toContain(
      '"disableCheck" changes nothing on containerd, which never runs CHECK',
    );
  });

  it('Multus: multus loaded first, the flannel list read by multus (info, not a stale file)', () => {
    const r = notSimulated('multus', 'multus');
    expect(r.loaded.map((n) => n.name)).toEqual(['multus-cni-network']);
    const ign = r.findings.find((f) => f.kind === 'ignored')!;
    expect(ign.severity).toBe('info');
    expect(ign.message).toContain('multus may read it as its delegate');
  });
});

describe('what would break', () => {
  const base = load('kubeadm-containerd');
  const conf = JSON.parse(base.confFiles['10-containerd-net.conflist']!) as {
    plugins: Array<Record<string, unknown>>;
  };
  const withConf = (
    files: Record<string, string>,
    extra: Partial<NodeBundle> = {},
  ): NodeBundle => ({
    ...base,
    confFiles: files,
    ...extra,
  });

  it('cniVersion 1.1.0 on v1.1.1 plugins: the exact libcni error, statically and from the drill', () => {
    const r = nodeReport(
      withConf({ '10-containerd-net.conflist': JSON.stringify({ ...conf, cniVersion: '1.1.0' }) }),
    );
    const text =
      'plugin type="bridge" failed (add): incompatible CNI versions; config is "1.1.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0" "1.0.0"]';
    expect(r.findings.find((f) => f.kind === 'cni-version')!.message).toContain(text);
    const add = r.drill.steps[1]!;
    expect(add.outcome).toBe('failed');
    expect(add.messages[0]).toContain(`failed to setup network for sandbox "<id>": ${text}`);
    expect(r.drill.steps.slice(2).every((s) => s.outcome === 'not-reached')).toBe(true);
  });

  it('malformed JSON: line and column, and the node has no network', () => {
    const r = nodeReport(
      withConf({
        '10-containerd-net.conflist':
          '{\n  "cniVersion": "1.0.0",\n  "name": "x"\n  "plugins": []\n}\n',
      }),
    );
    expect(r.networkReady).toBe(false);
    expect(r.loadError).toContain(
      'failed to load CNI config list file /etc/cni/net.d/10-containerd-net.conflist',
    );
    const j = r.findings.find((f) => f.kind === 'json-syntax')!;
    expect(j.evidence).toBe('/etc/cni/net.d/10-containerd-net.conflist:4:3');
    expect(j.severity).toBe('error');
    expect(r.drill.steps[0]!.outcome).toBe('failed');
  });

  it('a plugin missing from the bin dir: failed to find plugin, and the leak the failed clean-up leaves on 2.x', () => {
    const plugins = { ...base.plugins };
    delete plugins['portmap'];
    // containerd 1.7.22 keeps the sandbox whose clean-up failed (SANDBOX_UNKNOWN) and retries its
    // teardown: the address stays held, not orphaned.
    const on17 = nodeReport({ ...base, plugins });
    expect(on17.runtime.version).toBe('1.7.22');
    expect(
      on17.findings.filter((f) => f.kind === 'ipam-audit').map((f) => f.evidence),
    ).not.toContain('IPAM audit after the drill: orphan-reservation');
    // 2.x forgets it (sandbox_run.go: no CNI result, the clean-up error is dropped): a silent leak.
    const raw = 'containerd github.com/containerd/containerd/v2 v2.0.5 x';
    const r = nodeReport({ ...base, plugins, runtime: parseRuntimeVersion(raw) });
    expect(r.findings.find((f) => f.kind === 'plugin-missing')!.message).toBe(
      'The plugin "portmap" is not in the bin dir: ADD fails with: plugin type="portmap" failed (add): failed to find plugin "portmap" in path [/opt/cni/bin]',
    );
    expect(r.drill.steps[1]!.messages[0]).toContain(
      'failed to find plugin "portmap" in path [/opt/cni/bin]',
    );
    expect(r.findings.filter((f) => f.kind === 'ipam-audit').map((f) => f.evidence)).toContain(
      'IPAM audit after the drill: orphan-reservation',
    );
  });

  it('no portmap: hostPorts not published; portmap without the capability: the same', () => {
    const r = nodeReport(
      withConf({ 'a.conflist': JSON.stringify({ ...conf, plugins: [conf.plugins[0]] }) }),
      { noDrill: true },
    );
    expect(r.findings.find((f) => f.kind === 'capability')!.message).toContain('no portmap');
    const r2 = nodeReport(
      withConf({
        'a.conflist': JSON.stringify({ ...conf, plugins: [conf.plugins[0], { type: 'portmap' }] }),
      }),
      { noDrill: true },
    );
    expect(r2.findings.find((f) => f.kind === 'capability')!.message).toContain(
      'portmap is in "containerd-net" without "capabilities"',
    );
  });

  it('lexical order and maxConfNum: the later file is ignored; two loaded ranges overlap; a /26 is too small', () => {
    const other = JSON.stringify({
      ...conf,
      name: 'other',
      plugins: [
        {
          ...conf.plugins[0],
          ipam: { type: 'host-local', ranges: [[{ subnet: '10.88.0.0/26' }]] },
        },
      ],
    });
    const one = nodeReport(withConf({ ...base.confFiles, '20-other.conflist': other }), {
      noDrill: true,
    });
    const ign = one.findings.find((f) => f.kind === 'ignored')!;
    expect(ign.evidence).toBe('/etc/cni/net.d/20-other.conflist');
    expect(ign.severity).toBe('warning');
    const two = nodeReport(
      withConf(
        { ...base.confFiles, '20-other.conflist': other },
        { cni: { ...base.cni, maxConfNum: 2 } },
      ),
      { pods: 2 },
    );
    expect(two.loaded.map((n) => n.ifName)).toEqual(['eth0', 'eth1']);
    expect(kinds(two)).toContain('ipam-overlap');
    expect(two.findings.find((f) => f.kind === 'ipam-small')!.message).toContain(
      "holds 61 pod addresses, fewer than the kubelet's maxPods (110): pod 62 fails with: failed to allocate for range 0: no IP addresses available in range set: 10.88.0.1-10.88.0.62",
    );
    expect(two.drill.steps[1]!.messages[0]).toContain(
      '"cni0" already has an IP address different from 10.88.0.1/26',
    );
  });

  it("a range on the node's own network", () => {
    const c = JSON.stringify({
      ...conf,
      plugins: [
        {
          ...conf.plugins[0],
          ipam: { type: 'host-local', ranges: [[{ subnet: '192.168.56.0/24' }]] },
        },
        conf.plugins[1],
      ],
    });
    const r = nodeReport(withConf({ '10-containerd-net.conflist': c }), { noDrill: true });
    expect(r.findings.find((f) => f.kind === 'ipam-overlap')!.evidence).toBe(
      '/etc/cni/net.d/10-containerd-net.conflist 192.168.56.0/24 · ip-addr.txt eth0 192.168.56.0/24',
    );
  });

  it('containerd 2.0.1+ with a 1.1.0 list and plugins that predate STATUS: NotReady', () => {
    const r = nodeReport(
      withConf(
        { '10-containerd-net.conflist': JSON.stringify({ ...conf, cniVersion: '1.1.0' }) },
        {
          runtime: {
            kind: 'containerd',
            version: '2.0.1',
            raw: 'containerd github.com/containerd/containerd/v2 v2.0.1 x',
          },
        },
      ),
      { noDrill: true },
    );
    expect(r.findings.find((f) => f.kind === 'status')!.message).toContain(
      'bridge, portmap predate STATUS',
    );
  });

  it('CRI-O: static findings only, named as such', () => {
    const r = nodeReport({
      ...base,
      runtime: { kind: 'cri-o', version: '1.30.2', raw: 'crio version 1.30.2' },
    });
    expect(r.drill.skipped).toBe(
      "the runtime is CRI-O; cnisim simulates containerd's CRI plugin only, so the lifecycle is not dry-run",
    );
    expect(
      r.notes.some((n) => n.startsWith('the runtime is CRI-O, which cnisim does not simulate')),
    ).toBe(true);
  });

  it('before and after a rollout: the changed file and the findings it brings', () => {
    const after = withConf({
      '10-containerd-net.conflist': JSON.stringify({ ...conf, cniVersion: '1.1.0' }),
    });
    const r = compareBundles(base, after, { noDrill: true });
    expect(r.diff!.files).toEqual([{ file: '10-containerd-net.conflist', change: 'changed' }]);
    expect(r.diff!.newFindings.map((f) => f.kind)).toEqual([
      'cni-version',
      'cni-version',
      'cni-version',
    ]);
    expect(r.diff!.goneFindings).toEqual([]);
    expect(formatNodeReport(r)).toContain(
      'Differences from the before bundle:\n  changed  10-containerd-net.conflist',
    );
  });

  it('a bundle read from an archive reports the same as from its files', () => {
    const a = bundleFromArchive(tgzOf(testBundleFiles('flannel')));
    expect(a.ok && JSON.stringify(nodeReport(a.bundle))).toBe(
      JSON.stringify(nodeReport(load('flannel'))),
    );
  });
});
