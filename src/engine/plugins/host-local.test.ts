/**
 * host-local against the real binary: every case of testdata/host-local.json replayed on a fresh
 * simulated node, comparing each run's stdout, stderr and exit code, and the files (contents
 * and modes) left in the dataDir: allocation order (rangeStart / rangeEnd, gateway skipping,
 * continuing after last_reserved_ip and wrapping around, one last_reserved_ip per range set,
 * a range set of several ranges), requested IPs (CNI_ARGS, runtimeConfig.ips, args.cni.ips),
 * release by container id + ifname and by the old id-only files, CHECK, result versions,
 * resolvConf, and the configuration error messages.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as vfs from '../fs/vfs';
import { Harness, cniEnv } from './harness';
import { DATA, dataFiles, goErr, ptNode, runPlugin } from './pt-harness';

/** One run of the real binary and what it printed (testdata/README.md). */
interface HlOp {
  cmd: string;
  cid: string;
  ifname: string;
  args: string;
  stdin: string;
  want: { stdout: string; stderr: string; exitCode: number };
}

/** A case: dataDir files before (`prefill`, `files`), the runs, every entry left after. */
interface HlCase {
  name: string;
  prefill: Record<string, string>;
  files: Record<string, string>;
  ops: HlOp[];
  after: Record<string, string | { data: string; mode: string }>;
}

const HOST_LOCAL_CASES = JSON.parse(
  readFileSync(new URL('./testdata/host-local.json', import.meta.url), 'utf8'),
) as HlCase[];

const DATA_DIR = '/tmp/cnisim-ut-hl';

type Tree = HlCase['after'];

function tree(h: Harness): Tree {
  const out: Tree = {};
  for (const p of vfs.walk(h.fs, DATA_DIR)) {
    if (p === DATA_DIR) continue;
    const e = vfs.stat(h.fs, p)!;
    const rel = p.slice(DATA_DIR.length + 1);
    if (e.kind === 'dir') out[`${rel}/`] = e.mode.toString(8);
    else out[rel] = { data: e.data, mode: e.mode.toString(8) };
  }
  return out;
}

/** The lock file's mode is checked once, below; elsewhere it would only repeat the same failure. */
function withoutLockMode(t: Tree): Tree {
  const out: Tree = {};
  for (const [k, v] of Object.entries(t)) {
    out[k] = k.endsWith('/lock') && typeof v !== 'string' ? { data: v.data, mode: '<lock>' } : v;
  }
  return out;
}

function replay(c: HlCase): {
  h: Harness;
  outs: Array<{ stdout: string; stderr: string; exitCode: number }>;
} {
  const h = new Harness();
  h.addNetns('cnisim-ut-pod');
  h.mkdir(DATA_DIR);
  for (const [rel, data] of Object.entries(c.prefill)) h.writeFile(`${DATA_DIR}/${rel}`, data);
  for (const [p, data] of Object.entries(c.files)) h.writeFile(p, data);
  const outs = c.ops.map((op) => {
    const r = h.run(
      'host-local',
      cniEnv(op.cmd, {
        cid: op.cid,
        netns: '/var/run/netns/cnisim-ut-pod',
        ifname: op.ifname,
        args: op.args,
      }),
      op.stdin,
    );
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  });
  return { h, outs };
}

describe('host-local (real binary recordings)', () => {
  describe.each(HOST_LOCAL_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const { h, outs } = replay(c);
    it.each(
      c.ops.map(
        (op, i) =>
          [`${i + 1}. ${op.cmd} ${op.cid}/${op.ifname}${op.args ? ` ${op.args}` : ''}`, i] as const,
      ),
    )('%s', (_label, i) => {
      expect(outs[i]).toEqual(c.ops[i]!.want);
    });
    it('leaves these files in the dataDir', () => {
      expect(withoutLockMode(tree(h))).toEqual(withoutLockMode(c.after));
    });
  });
});

describe('host-local data directory', () => {
  const c = HOST_LOCAL_CASES[0]!;
  const { h } = replay(c);

  it('reservation files hold "<containerID>\\r\\n<ifname>" (no trailing newline), mode 0644', () => {
    expect(tree(h)['hlnet/10.1.0.2']).toEqual({ data: 'c1\r\neth0', mode: '644' });
  });

  it('last_reserved_ip.<range set index> holds the address, mode 0644', () => {
    expect(tree(h)['hlnet/last_reserved_ip.0']).toEqual({ data: '10.1.0.6', mode: '644' });
  });

  it('the network directory is 0755 and the lock file is empty with go-filemutex mode 0750', () => {
    expect(tree(h)['hlnet/']).toBe('755');
    expect(tree(h)['hlnet/lock']).toEqual({ data: '', mode: '750' });
  });
});

describe('host-local: a route without dst (checked against the real v1.1.1 binaries)', () => {
  const hl = (name: string, subnet: string, type = 'host-local') =>
    `{"cniVersion":"1.0.0","name":"${name}","type":"${type}","bridge":"cnifx0","ipam":{"type":"host-local","dataDir":"${DATA}","subnet":"${subnet}","routes":[{"gw":"10.66.0.9"}]}}`;

  it('prints the zero IPNet as "<nil>", which a main plugin then fails to parse', () => {
    const h = ptNode();
    expect(runPlugin(h, 'host-local', 'ADD', { cid: 'c1' }, hl('hl', '10.66.0.0/24'))).toEqual({
      exitCode: 0,
      stdout: `{
    "cniVersion": "1.0.0",
    "ips": [
        {
            "address": "10.66.0.2/24",
            "gateway": "10.66.0.1"
        }
    ],
    "routes": [
        {
            "dst": "\\u003cnil\\u003e",
            "gw": "10.66.0.9"
        }
    ],
    "dns": {}
}`,
      stderr: '',
    });
    // bridge returns ExecAdd's error before it defers the IPAM DEL: the address stays reserved.
    expect(
      runPlugin(h, 'bridge', 'ADD', { cid: 'c2' }, hl('hl2', '10.67.0.0/24', 'bridge')),
    ).toEqual(goErr('invalid CIDR address: <nil>'));
    expect(dataFiles(h)).toContain('hl2/10.67.0.2: "c2\\r\\neth0"');
  });
});
