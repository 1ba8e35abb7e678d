import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundlePath } from './node-bundle';
import { main, parseArgs, USAGE, type Io } from './sim';

const ROOT = join(__dirname, '..');

function run(argv: string[], files: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    readFile: (p) => {
      if (p in files) return files[p]!;
      return readFileSync(join(ROOT, p), 'utf8');
    },
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  };
  const code = main(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run sim: arguments', () => {
  it('reads a file and the options, in either --opt value or --opt=value form', () => {
    expect(parseArgs(['s.json'])).toEqual({
      ok: true,
      args: { file: 's.json', json: false, journal: 10 },
    });
    expect(
      parseArgs(['--seed', '7', 's.json', '--until=pod-running:web-0', '--json', '--journal', '0']),
    ).toEqual({
      ok: true,
      args: { file: 's.json', seed: 7, until: 'pod-running:web-0', json: true, journal: 0 },
    });
  });

  it('refuses what it cannot use, saying why', () => {
    const error = (argv: string[]) => {
      const r = parseArgs(argv);
      return r.ok ? null : r.error;
    };
    expect(error([])).toBe('no scenario file given');
    expect(error(['a.json', 'b.json'])).toBe('one scenario file at a time (got a.json and b.json)');
    expect(error(['a.json', '--seed'])).toBe(
      '--seed: expected a number from 0 to 4294967295, got nothing',
    );
    expect(error(['a.json', '--seed', '-1'])).toMatch(/^--seed: expected a number/);
    expect(error(['a.json', '--until', 'pod-runing:x'])).toMatch(
      /^--until: unknown condition "pod-runing"/,
    );
    expect(error(['a.json', '--verbose'])).toBe('unknown option --verbose');
    expect(parseArgs(['--help'])).toEqual({ ok: false, error: USAGE, help: true });
  });
});

describe('npm run sim', () => {
  it('prints where an example ends', () => {
    const r = run(['scenarios/happy-path.json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^Scenario happy-path — Two nodes, a deployment scaled up and down \(seed 1\)\n/,
    );
    expect(r.out).toMatch(
      /\nStopped at (\d+m)?\d+\.\d+s of virtual time after \d+ events: completed/,
    );
    expect(r.out).toMatch(
      /\n {2}NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\n {2}web-\S+\s+1\/1\s+Running/,
    );
    expect(r.out).toContain('\nNode node-1: Ready\n');
    expect(r.out).toContain('\nAudit: nothing found\n');
    expect(r.out).toMatch(
      /\nJournal of node-1 \(last \d+ lines\):\n {2}Mar 03 10:15:\d\d node-1 containerd\[\d+\]: /,
    );
    expect(r.out).toMatch(/\nTrace: \d+ events \(/);
  });

  it('injects a fault of the catalogue and shows its symptoms', () => {
    const r = run(['scenarios/del-fails-with-result.json']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('inject fault del-fails-with-result {"pod":"web-0"}');
    expect(r.out).toMatch(/\n {2}web-0\s+0\/1\s+Terminating\s+0\s+\S+\s+10\.244\.1\.2\s+node-1\n/);
    expect(r.out).toMatch(
      /level=error msg="StopPodSandbox for \\"[0-9a-f]{64}\\" failed" error="failed to destroy network for sandbox \\"[0-9a-f]{64}\\": plugin type=\\"portmap\\" failed \(delete\): failed to find plugin \\"portmap\\" in path \[\/opt\/cni\/bin\]"/,
    );
  });

  it('prints JSON, and stops where --until holds', () => {
    const r = run([
      'scenarios/corrupted-cache-delete.json',
      '--json',
      '--until',
      'event:FailedKillPod',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.stop.reason).toBe('until');
    expect(j.trace.events).toBe(j.step + 1);
    expect(j.pods.find((p: { name: string }) => p.name === 'web-0').status).toBe('Terminating');
    expect(j.nodes.map((n: { name: string }) => n.name)).toEqual(['node-1', 'node-2']);
    expect(j.nodes[0]).toMatchObject({ networkReady: true, containerd: { up: true } });
    expect(Array.isArray(j.audit)).toBe(true);
  });

  it('the seed changes the run', () => {
    const a = JSON.parse(run(['scenarios/happy-path.json', '--json', '--seed', '5']).out);
    const b = JSON.parse(run(['scenarios/happy-path.json', '--json']).out);
    expect(a.seed).toBe(5);
    expect(a.pods[0].name).not.toBe(b.pods[0].name);
  });

  it('runs a CRI-O 1.36 node (continuous STATUS polling) and refuses 1.37 naming the releases', () => {
    const base = JSON.parse(readFileSync(join(ROOT, 'scenarios/crio-conf-removed.json'), 'utf8'));
    const on = (version: string) => {
      const s = structuredClone(base);
      s.nodes[1].runtime = { name: 'cri-o', version };
      return JSON.stringify(s);
    };
    const r = run(['c.json', '--journal', '400'], { 'c.json': on('1.36.x') });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/cri-o 1\.36\.3 \(behaviour 1\.36; ocicni v0\.5\.0, libcni v1\.3\.0\)/);
    expect(r.out).toContain(
      'msg="Continuous CNI STATUS monitoring enabled (grace period: 1m0s, poll interval: 5s)"',
    );
    // The conflist removed: node-2 goes NotReady a minute later, as containerd's node-1 does at once.
    expect(r.out).toContain(
      'msg="CNI plugin unhealthy beyond grace period (1m0s): no CNI configuration',
    );
    expect(r.out).toMatch(/\nNode node-2: NotReady \(container runtime network not ready: /);
    const bad = run(['c.json'], { 'c.json': on('1.37.0') });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('1.36.0–1.36.3; behaviour ranges 1.28–1.30, 1.31, 1.32–1.35, 1.36');
  });

  it('exits 1 with the problems of an invalid file, 2 on bad arguments', () => {
    const bad = JSON.stringify({
      version: 1,
      nodes: [
        { name: 'node-1', podCIDR: '10.244.1.0/24' },
        { name: 'node-2', podCIDR: '10.244.1' },
      ],
    });
    const r = run(['bad.json'], { 'bad.json': bad });
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      'sim: bad.json is not a valid scenario:\n  nodes[1].podCIDR: expected a CIDR like 10.244.1.0/24',
    );
    expect(run(['x.json'], { 'x.json': '{' }).err).toMatch(
      /^sim: x\.json is not a valid scenario:\n {2}not valid JSON: /,
    );
    const missing = run(['scenarios/none.json']);
    expect(missing).toMatchObject({
      code: 1,
      err: 'sim: cannot read scenarios/none.json: no such file',
    });
    const usage = run(['--frobnicate']);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/^sim: unknown option --frobnicate\nusage: npm run sim -- FILE/);
    expect(run(['--help'])).toMatchObject({ code: 0, out: USAGE });
  });
});

describe('npm run sim: --exec', () => {
  it('runs shell lines where the run stopped, one session per node', () => {
    const r = run([
      'scenarios/corrupted-cache-delete.json',
      '--exec',
      'node-1: cd /var/lib/cni/results',
      '--exec=node-1: cat containerd-net-*',
      '--exec',
      'node-2: pwd; ls /var/lib/cni/results | wc -l',
      '--exec',
      'node-1: journalctl -u containerd | grep -c "cached result"',
    ]);
    const lines = r.out.split('\n');
    expect(lines.slice(0, 3)).toEqual(['{"kind":', '/root', '0']);
    expect(Number(lines[3])).toBeGreaterThan(0);
    expect(r.code).toBe(0);
  });

  it('exits with the last line status; --json gives each line its streams', () => {
    const r = run(['scenarios/happy-path.json', '--json', '--exec', 'node-1: cat /nope']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toEqual([
      {
        node: 'node-1',
        line: 'cat /nope',
        stdout: '',
        stderr: 'cat: /nope: No such file or directory\n',
        exitCode: 1,
      },
    ]);
    expect(run(['scenarios/happy-path.json', '--exec', 'node-9: ls'])).toMatchObject({
      code: 2,
      err: 'sim: --exec: no node node-9 (nodes: node-1, node-2)',
    });
    const bad = parseArgs(['s.json', '--exec', 'ls -l']);
    expect(bad.ok || bad.error).toMatch(/^--exec: expected 'NODE: LINE'/);
  });
});

describe('npm run sim -- --node', () => {
  const td = (n: string) => join(ROOT, 'src/engine/bundle/testdata', n);

  it('reads --node, --before and --pods, and only with each other', () => {
    expect(parseArgs(['--node', 'b.tgz', '--before=a', '--pods', '3', '--json'])).toEqual({
      ok: true,
      args: { file: '', json: true, journal: 10, node: 'b.tgz', before: 'a', pods: 3 },
    });
    const error = (argv: string[]) => {
      const r = parseArgs(argv);
      return r.ok ? null : r.error;
    };
    expect(error(['--node', 'b', 's.json'])).toBe(
      '--node: a bundle or a scenario file, not both (got s.json)',
    );
    expect(error(['s.json', '--before', 'a'])).toBe('--before goes with --node');
    expect(error(['--node', 'b', '--pods', '0'])).toBe(
      '--pods: expected a number from 1 to 120, got 0',
    );
  });

  it('prints the report of a folder bundle; exit 0 without errors', () => {
    const r = run(['--node', td('flannel')]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      'Loaded by the runtime: cbr0 from /etc/cni/net.d/10-flannel.conflist (eth0)',
    );
    expect(r.out).toContain(
      'Dry-run: not run: the loaded chain uses flannel, which cnisim does not simulate',
    );
  });

  it('--json, and --before with the differences; exit 3 when the report has errors', () => {
    const r = run(['--node', td('multus'), '--before', td('flannel'), '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { diff: { files: unknown[] }; loaded: Array<{ name: string }> };
    expect(j.loaded.map((n) => n.name)).toEqual(['multus-cni-network']);
    expect(j.diff.files).toEqual([{ file: '00-multus.conf', change: 'added' }]);
  });

  it('exit 3 when the report has errors (a plugin missing from the bin dir)', () => {
    const out: string[] = [];
    const io: Io = {
      readFile: () => '',
      readBundle: () => {
        const b = readBundlePath(td('kubeadm-containerd'));
        if (b.ok) delete b.bundle.plugins['portmap'];
        return b;
      },
      out: (t) => out.push(t),
      err: (t) => out.push(t),
    };
    expect(main(['--node', 'x', '--pods', '1'], io)).toBe(3);
    expect(out.join('\n')).toContain(
      'ERROR [plugin-missing] The plugin "portmap" is not in the bin dir',
    );
  });

  it('a bad bundle: a clear message and exit 1', () => {
    const r = run(['--node', join(ROOT, 'package.json')]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `sim: ${join(ROOT, 'package.json')} is not a usable node bundle: not a node bundle: neither a .tar.gz nor a tar archive (see docs/your-node.md)`,
    );
    const missing = run(['--node', join(ROOT, 'no-such-bundle')]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('no-such-bundle: no such file or folder');
  });
});

describe('docs/your-node.md: the collection command', () => {
  it('collects a bundle the loader reads, and copies no file but the network configs', () => {
    const doc = readFileSync(join(ROOT, 'docs/your-node.md'), 'utf8');
    const m = /```sh\nsudo sh -c '([\s\S]*?)'\n```/.exec(doc);
    expect(m).not.toBeNull();
    const tmp = mkdtempSync(join(tmpdir(), 'cnisim-collect-'));
    const conf = join(tmp, 'net.d');
    const bin = join(tmp, 'bin');
    mkdirSync(join(conf, 'multus.d'), { recursive: true });
    mkdirSync(bin);
    const list = readFileSync(
      join(
        ROOT,
        'src/engine/bundle/testdata/kubeadm-containerd/etc/cni/net.d/10-containerd-net.conflist',
      ),
    );
    writeFileSync(join(conf, '10-containerd-net.conflist'), list);
    writeFileSync(join(conf, 'calico-kubeconfig'), 'token: SECRET\n');
    writeFileSync(join(conf, 'multus.d', 'multus.kubeconfig'), 'token: SECRET\n');
    for (const p of ['bridge', 'host-local', 'portmap']) {
      writeFileSync(
        join(bin, p),
        `#!/bin/sh\n[ "$CNI_COMMAND" = VERSION ] && echo '{"cniVersion":"1.0.0","supportedVersions":["0.3.1","0.4.0","1.0.0"]}'\n`,
        { mode: 0o755 },
      );
    }
    execFileSync('sh', ['-c', m![1]!], {
      cwd: tmp,
      env: {
        PATH: '/usr/bin:/bin',
        CNI_CONF_DIR: conf,
        CNI_BIN_DIR: bin,
        POD_CIDR: '10.244.1.0/24',
      },
      stdio: 'pipe',
    });
    const r = readBundlePath(join(tmp, 'node-bundle.tar.gz'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.keys(r.bundle.confFiles)).toEqual(['10-containerd-net.conflist']);
    expect(r.bundle.confFiles['10-containerd-net.conflist']).toBe(list.toString());
    expect(r.bundle.listing).toEqual([
      '10-containerd-net.conflist',
      'calico-kubeconfig',
      'multus.d/',
    ]);
    expect(Object.keys(r.bundle.plugins).sort()).toEqual(['bridge', 'host-local', 'portmap']);
    expect(r.bundle.plugins['bridge']!.supportedVersions).toEqual(['0.3.1', '0.4.0', '1.0.0']);
    expect(r.bundle.podCIDR).toBe('10.244.1.0/24');
    const all = execFileSync('tar', ['-xzOf', join(tmp, 'node-bundle.tar.gz')]).toString();
    expect(all).not.toContain('SECRET');
    rmSync(tmp, { recursive: true, force: true });
  });
});
