/**
 * Property: random and broken node bundles (random bytes, mutated and truncated archives, random
 * file sets with hostile paths and binary contents, random configs) give a bundle or one error
 * message, and a bundle gives a report: never an uncaught exception, never half a bundle.
 * Fixed seed (FC_SEED) and run counts; fast-check prints the seed and the counterexample.
 */
import fc from 'fast-check';
import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bundleFromArchive, bundleFromFiles, type BundleLoad } from '../bundle/bundle';
import type { BundleFile } from '../bundle/archive';
import { nodeReport } from '../bundle/report';
import { tar, testBundleFiles, tgzOf } from './bundle-files';
import { fcParams } from './config';

const INSTALLERS = [
  'kubeadm-containerd',
  'flannel',
  'calico',
  'cilium',
  'kindnet',
  'k3s',
  'aws-vpc-cni',
  'multus',
];

function wellFormed(r: BundleLoad): void {
  if (r.ok) {
    expect(typeof r.bundle.confFiles).toBe('object');
    expect(Array.isArray(r.bundle.notes)).toBe(true);
  } else {
    expect(typeof r.error).toBe('string');
    expect(r.error.length).toBeGreaterThan(0);
    expect((r as { bundle?: unknown }).bundle).toBeUndefined();
  }
}

const path = fc.oneof(
  fc.constantFrom(
    'etc/cni/net.d/10-a.conflist',
    'etc/cni/net.d/99-b.conf',
    'etc/cni/net.d/c.json',
    'etc/cni/net.d/sub/x.conflist',
    'opt-cni-bin/bridge',
    'opt-cni-bin/host-local',
    'opt-cni-bin/portmap',
    'opt-cni-bin/flannel',
    'runtime-version.txt',
    'crictl-info.json',
    'pod-cidr.txt',
    'ip-addr.txt',
    'net.d-listing.txt',
    '../etc/passwd',
    '/etc/shadow',
    'node-bundle/../../x',
    'a\\..\\..\\b',
    '',
    '.',
  ),
  fc.string({ maxLength: 40 }),
);

const conflist = fc.record({
  cniVersion: fc.oneof(fc.constantFrom('0.3.1', '0.4.0', '1.0.0', '1.1.0', ''), fc.jsonValue()),
  name: fc.oneof(fc.constantFrom('net', 'other'), fc.jsonValue()),
  plugins: fc.oneof(
    fc.array(
      fc.record({
        type: fc.constantFrom('bridge', 'ptp', 'portmap', 'flannel', 'host-local', 'calico', 'x'),
        ipam: fc.oneof(
          fc.record({
            type: fc.constantFrom('host-local', 'calico-ipam'),
            ranges: fc.array(
              fc.array(
                fc.record({
                  subnet: fc.constantFrom(
                    '10.88.0.0/16',
                    '10.88.0.0/30',
                    '192.168.0.0/24',
                    'x',
                    '::/0',
                  ),
                }),
                { maxLength: 2 },
              ),
              { maxLength: 2 },
            ),
          }),
          fc.jsonValue(),
        ),
        capabilities: fc.oneof(fc.constant({ portMappings: true }), fc.jsonValue()),
      }),
      { maxLength: 4 },
    ),
    fc.jsonValue(),
  ),
});

const content = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.string({ maxLength: 200 }).map((s) => strToU8(s)),
  conflist.map((c) => strToU8(JSON.stringify(c))),
  fc
    .constantFrom(
      '{"cniVersion":"1.0.0","supportedVersions":["0.3.1","0.4.0","1.0.0"]}',
      '{"cniVersion":"1.1.0","supportedVersions":["1.1.0"]}',
      'containerd github.com/containerd/containerd/v2 v2.0.3 abc',
      'containerd containerd.io 1.6.9 abc',
      'crio version 1.30.0',
      '{"config":{"cni":{"confDir":"/x","binDirs":["/y"],"maxConfNum":0}}}',
      '10.244.1.0/24',
      'fe80::/64',
      '2: eth0    inet 10.88.0.5/16 brd + scope global eth0',
    )
    .map((s) => strToU8(s)),
);

const files = fc.array(fc.record({ path, data: content }), { maxLength: 12 });

describe('node bundles, random and broken', () => {
  it('random bytes as an archive: a bundle or one message', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), fc.boolean(), (bytes, gz) => {
        wellFormed(bundleFromArchive(gz ? gzipSync(bytes) : bytes));
      }),
      fcParams(300),
    );
  }, 120_000);

  it('installer bundles, mutated and truncated: a bundle or one message', () => {
    const archives = INSTALLERS.map((n) => ({
      gz: tgzOf(testBundleFiles(n)),
      tar: tar(testBundleFiles(n).map((f) => ({ name: f.path, data: f.data }))),
    }));
    fc.assert(
      fc.property(
        fc.nat({ max: archives.length - 1 }),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { maxLength: 6 }),
        fc.option(fc.nat()),
        (i, gz, flips, cut) => {
          const src = gz ? archives[i]!.gz : archives[i]!.tar;
          const b = src.slice(0, cut === null ? src.length : cut % (src.length + 1));
          for (const [at, v] of flips) if (b.length) b[at % b.length] = v;
          wellFormed(bundleFromArchive(b));
        },
      ),
      fcParams(300),
    );
  }, 120_000);

  it('random file sets: a bundle or one message; a bundle gives a report (static findings)', () => {
    fc.assert(
      fc.property(files, (fs) => {
        const r = bundleFromFiles(fs as BundleFile[]);
        wellFormed(r);
        if (r.ok) {
          const rep = nodeReport(r.bundle, { noDrill: true });
          expect(Array.isArray(rep.findings)).toBe(true);
        }
        // The same files in an archive: the same verdict or a refusal of the archive's paths.
        wellFormed(
          bundleFromArchive(
            gzipSync(tar(fs.map((f) => ({ name: f.path.slice(0, 99), data: f.data })))),
          ),
        );
      }),
      fcParams(200),
    );
  }, 120_000);

  it('variations of a working node: the whole drill runs, each step reported, no crash', () => {
    const base = bundleFromFiles(testBundleFiles('kubeadm-containerd'));
    if (!base.ok) throw new Error(base.error);
    const b = base.bundle;
    const variation = fc.record({
      cniVersion: fc.constantFrom('0.3.1', '0.4.0', '1.0.0', '1.1.0'),
      subnet: fc.constantFrom('10.88.0.0/16', '10.88.0.0/29', '10.88.0.0/30', '192.168.56.0/24'),
      portmap: fc.constantFrom('with-capability', 'without-capability', 'absent'),
      second: fc.boolean(),
      maxConfNum: fc.constantFrom(0, 1, 2),
      drop: fc.constantFrom(null, 'portmap', 'host-local', 'bridge'),
      libcni2: fc.boolean(),
      pods: fc.integer({ min: 1, max: 6 }),
    });
    const outcomes = new Set<string>();
    fc.assert(
      fc.property(variation, (v) => {
        const bridge = {
          type: 'bridge',
          bridge: 'cni0',
          isGateway: true,
          ipMasq: true,
          ipam: { type: 'host-local', ranges: [[{ subnet: v.subnet }]] },
        };
        const plugins: unknown[] = [bridge];
        if (v.portmap !== 'absent')
          plugins.push(
            v.portmap === 'with-capability'
              ? { type: 'portmap', capabilities: { portMappings: true } }
              : { type: 'portmap' },
          );
        const confFiles: Record<string, string> = {
          '10-net.conflist': JSON.stringify({ cniVersion: v.cniVersion, name: 'net', plugins }),
        };
        if (v.second)
          confFiles['20-other.conflist'] = JSON.stringify({
            cniVersion: '1.0.0',
            name: 'other',
            plugins: [
              { ...bridge, bridge: 'cni1', ipam: { type: 'host-local', subnet: '10.99.0.0/24' } },
            ],
          });
        const pluginsIn = { ...b.plugins };
        if (v.drop) delete pluginsIn[v.drop];
        const rep = nodeReport(
          {
            ...b,
            confFiles,
            plugins: pluginsIn,
            cni: { ...b.cni, maxConfNum: v.maxConfNum },
            runtime: v.libcni2
              ? {
                  kind: 'containerd',
                  version: '2.0.2',
                  raw: 'containerd github.com/containerd/containerd/v2 v2.0.2 x',
                }
              : b.runtime,
          },
          { pods: v.pods },
        );
        expect(rep.drill.skipped).toBeNull();
        expect(rep.drill.steps).toHaveLength(8);
        outcomes.add(rep.drill.steps.map((s) => s.outcome[0]).join(''));
      }),
      fcParams(25),
    );
    // The variations reach both a clean drill and failing ones.
    expect(outcomes.has('oooooooo')).toBe(true);
    expect([...outcomes].some((o) => o.includes('f'))).toBe(true);
  }, 300_000);
});
