/**
 * tuning in the v1.6.2 build (not installed here, so from the upstream source, see tuning.ts):
 * the sysctl allow-list in /etc/cni/tuning/allowlist.conf, txQLen (set, backed up, restored on
 * DEL, compared by CHECK), duplicate sysctl keys refused, IFNAME replaced after the dots and in
 * CHECK too. Each case also runs on v1.1.1, whose recorded behaviour must not move.
 */
import { describe, expect, it } from 'vitest';
import { resultJSON } from '../cni/result';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import type { KernelState, Link } from '../kernel/types';
import { TestNode } from '../testkit';
import { ALLOWLIST_FILE } from './tuning';
import { tget } from '../state/table';

const DATA_DIR = '/tmp/tuning';
const RT = { containerId: 'c1' };

function node(
  tuning: Record<string, unknown>,
  opts: { build?: string; allowlist?: string } = {},
): TestNode {
  return new TestNode({
    conflist: JSON.stringify({
      cniVersion: '1.0.0',
      name: 'tunnet',
      plugins: [
        {
          type: 'bridge',
          bridge: 'cni0',
          isGateway: true,
          ipMasq: false,
          ipam: { type: 'host-local', subnet: '10.22.0.0/24' },
        },
        { type: 'tuning', dataDir: DATA_DIR, ...tuning },
      ],
    }),
    plugins: ['bridge', 'host-local', 'tuning'],
    build: opts.build ?? 'v1.6.2',
    ...(opts.allowlist !== undefined ? { files: { [ALLOWLIST_FILE]: opts.allowlist } } : {}),
  });
}

function pod(t: TestNode): { k: KernelState; ns: string } {
  const k = t.sim.node(t.node).kernel;
  return { k, ns: tget(k.mounts, t.netnsPath('pod-a'))! };
}

function sysctl(t: TestNode, key: string): string | undefined {
  const { k, ns } = pod(t);
  return K.sysctlGet(k, ns, key);
}

function eth0(t: TestNode): Link | undefined {
  const { k, ns } = pod(t);
  return K.linkByName(tget(k.netns, ns)!, 'eth0');
}

function backup(t: TestNode): string | undefined {
  const e = vfs.stat(t.sim.node(t.node).fs, `${DATA_DIR}/c1_eth0.json`);
  return e?.kind === 'file' ? e.data : undefined;
}

/** Changes eth0 in the pod as `ip -n pod-a link set eth0 ...` would. */
function operator(t: TestNode, f: (k: KernelState, ns: string, eth0: number) => void): void {
  t.sim.apply(
    {
      node: t.node,
      source: 'test',
      target: 'kernel',
      kind: 'env',
      level: 'kernel',
      summary: 'operator',
      payload: { op: 'env' },
    },
    (d) => {
      const k = d.nodes[t.node]!.kernel as KernelState;
      const ns = tget(k.mounts, t.netnsPath('pod-a'))!;
      f(k, ns, K.linkByName(tget(k.netns, ns)!, 'eth0')!.ifindex);
    },
  );
}

/** pod-a added with tuning doing nothing; returns the chain's result for direct invocations. */
function prevOf(t: TestNode): unknown {
  const r = t.add('pod-a', RT);
  expect(r.error).toBeUndefined();
  return resultJSON(r.result!, t.libcni.lib);
}

function stdin(prev: unknown, extra: Record<string, unknown>): string {
  return JSON.stringify({
    cniVersion: '1.0.0',
    name: 'tunnet',
    type: 'tuning',
    dataDir: DATA_DIR,
    prevResult: prev,
    ...extra,
  });
}

function run(t: TestNode, cmd: string, text: string, env: Record<string, string> = {}) {
  const r = t.invoke('tuning', cmd, 'pod-a', text, { CNI_CONTAINERID: 'c1', ...env });
  return r.exitCode === 0
    ? { ok: true as const }
    : { ok: false as const, msg: (JSON.parse(r.stdout) as { msg: string }).msg };
}

describe('tuning v1.6.2: txQLen', () => {
  it('sets it last, saves the old length, CHECK sees drift, DEL restores it', () => {
    const t = node({ mtu: 1400, txQLen: 500 });
    expect(t.add('pod-a', RT).error).toBeUndefined();
    expect(eth0(t)).toMatchObject({ mtu: 1400, txqlen: 500 });
    expect(backup(t)).toBe('{\n "mtu": 1500,\n "txQLen": 1000\n}');
    expect(t.check('pod-a', RT).error).toBeUndefined();

    operator(t, (k, ns, i) => K.linkSetTxqlen(k, ns, i, 64));
    expect(t.check('pod-a', RT).error?.msg).toBe(
      'Error: Tuning configured Transmit Queue Length of eth0 is 500, current value is 64',
    );

    expect(t.del('pod-a', RT).error).toBeUndefined();
    // DEL of the chain runs tuning first: eth0 got its length back before bridge deleted it.
    const restore = t.sim.events.filter(
      (e) => e.kind === 'kernel' && e.summary.includes('txqueuelen'),
    );
    expect(restore.at(-1)?.summary).toContain('txqueuelen 1000');
    expect(backup(t)).toBeUndefined();
  });

  it('restores the length on a DEL of tuning alone, and 0 is a length, not "unset"', () => {
    const t = node({});
    const prev = prevOf(t);
    expect(run(t, 'ADD', stdin(prev, { txQLen: 0 }))).toEqual({ ok: true });
    expect(eth0(t)!.txqlen).toBe(0);
    expect(backup(t)).toBe('{\n "txQLen": 1000\n}');
    expect(run(t, 'CHECK', stdin(prev, { txQLen: 0 }))).toEqual({ ok: true });
    expect(run(t, 'DEL', stdin(prev, { txQLen: 0 }))).toEqual({ ok: true });
    expect(eth0(t)!.txqlen).toBe(1000);
    expect(backup(t)).toBeUndefined();
  });

  it('takes args.cni.txQLen over the config', () => {
    const t = node({});
    const prev = prevOf(t);
    expect(run(t, 'ADD', stdin(prev, { txQLen: 500, args: { cni: { txQLen: 2000 } } }))).toEqual({
      ok: true,
    });
    expect(eth0(t)!.txqlen).toBe(2000);
  });

  it('is ignored by v1.1.1, whose Go struct has no such field', () => {
    const t = node({ mtu: 1400, txQLen: 500 }, { build: 'v1.1.1' });
    expect(t.add('pod-a', RT).error).toBeUndefined();
    expect(eth0(t)).toMatchObject({ mtu: 1400, txqlen: 1000 });
    expect(backup(t)).toBe('{\n "mtu": 1500\n}');
    operator(t, (k, ns, i) => K.linkSetTxqlen(k, ns, i, 64));
    expect(t.check('pod-a', RT).error).toBeUndefined();
    expect(t.del('pod-a', RT).error).toBeUndefined();
  });
});

describe('tuning v1.6.2: the sysctl allow-list', () => {
  const ALL = '^net\\.ipv4\\.conf\\.all\\.[a-z_]*$';

  it('accepts a key matching a line and refuses one matching none, before touching anything', () => {
    const t = node({}, { allowlist: `\n  ${ALL}  \n\n^net\\.ipv4\\.conf\\.IFNAME\\.\n` });
    const prev = prevOf(t);
    expect(
      run(
        t,
        'ADD',
        stdin(prev, {
          sysctl: {
            'net.ipv4.conf.all.log_martians': '1',
            'net.ipv4.conf.IFNAME.arp_ignore': '1',
          },
        }),
      ),
    ).toEqual({ ok: true });
    expect(sysctl(t, 'net.ipv4.conf.all.log_martians')).toBe('1');
    expect(sysctl(t, 'net.ipv4.conf.eth0.arp_ignore')).toBe('1');

    // The key is matched as written: eth0 spelled out is not IFNAME.
    const refused = run(
      t,
      'ADD',
      stdin(prev, { mtu: 1400, sysctl: { 'net.ipv4.conf.eth0.arp_filter': '1' } }),
    );
    expect(refused).toEqual({
      ok: false,
      msg: `Sysctl net.ipv4.conf.eth0.arp_filter is not allowed. Only the following sysctls are allowed: [${ALL} ^net\\.ipv4\\.conf\\.IFNAME\\.]`,
    });
    expect(sysctl(t, 'net.ipv4.conf.eth0.arp_filter')).toBe('0');
    expect(eth0(t)!.mtu).toBe(1500);
    expect(backup(t)).toBeUndefined();
  });

  it('refuses through libcni too, and CHECK and DEL do not read it', () => {
    const t = node({ sysctl: { 'net.core.somaxconn': '1024' } }, { allowlist: `${ALL}\n` });
    const r = t.add('pod-a', RT);
    expect(r.error?.msg).toBe(
      `Sysctl net.core.somaxconn is not allowed. Only the following sysctls are allowed: [${ALL}]`,
    );
    const t2 = node({ sysctl: { 'net.core.somaxconn': '1024' } });
    const prev = prevOf(t2);
    t2.sim.apply(
      {
        node: t2.node,
        source: 'test',
        target: 'fs',
        kind: 'env',
        level: 'kernel',
        summary: 'allow-list',
        payload: { op: 'env' },
      },
      (d) => {
        d.nodes[t2.node]!.fs = vfs.writeFile(
          vfs.mkdirAll(d.nodes[t2.node]!.fs as vfs.FsState, '/etc/cni/tuning'),
          ALLOWLIST_FILE,
          `${ALL}\n`,
        ) as never;
      },
    );
    const conf = stdin(prev, { sysctl: { 'net.core.somaxconn': '1024' } });
    expect(run(t2, 'CHECK', conf)).toEqual({ ok: true });
    expect(run(t2, 'DEL', conf)).toEqual({ ok: true });
  });

  it('reports a pattern RE2 cannot compile, and an allow-list that is a directory', () => {
    const t = node({}, { allowlist: '(net\n' });
    const prev = prevOf(t);
    const conf = stdin(prev, { sysctl: { 'net.core.somaxconn': '1024' } });
    expect(run(t, 'ADD', conf)).toEqual({
      ok: false,
      msg: 'error parsing regexp: missing closing ): `(net`',
    });
    const t2 = new TestNode({
      plugins: ['tuning'],
      build: 'v1.6.2',
      files: { [`${ALLOWLIST_FILE}/x`]: '' },
    });
    t2.createNetns('pod-a');
    expect(run(t2, 'ADD', conf)).toEqual({
      ok: false,
      msg: `read ${ALLOWLIST_FILE}: is a directory`,
    });
  });

  it('does not exist for v1.1.1', () => {
    const t = node(
      { sysctl: { 'net.core.somaxconn': '1024' } },
      { build: 'v1.1.1', allowlist: ALL },
    );
    expect(t.add('pod-a', RT).error).toBeUndefined();
    expect(sysctl(t, 'net.core.somaxconn')).toBe('1024');
  });
});

describe('tuning v1.6.2: sysctl keys', () => {
  const DUP =
    '"sysctl": {"net.core.somaxconn": "1000", "net.ipv4.conf.all.log_martians": "1", "net.core.somaxconn": "2000"}';

  it('refuses a key written twice in ADD and CHECK; v1.1.1 keeps the last value', () => {
    for (const build of ['v1.6.2', 'v1.1.1']) {
      const t = node({}, { build });
      const prev = JSON.stringify(prevOf(t));
      const text = `{"cniVersion": "1.0.0", "name": "tunnet", "type": "tuning", "prevResult": ${prev}, ${DUP}}`;
      if (build === 'v1.6.2') {
        const dup = { ok: false, msg: 'duplicated sysctl keys are not allowed' };
        expect(run(t, 'ADD', text)).toEqual(dup);
        expect(run(t, 'CHECK', text)).toEqual(dup);
        expect(run(t, 'DEL', text)).toEqual({ ok: true });
        expect(sysctl(t, 'net.core.somaxconn')).toBe('4096');
      } else {
        expect(run(t, 'ADD', text)).toEqual({ ok: true });
        expect(sysctl(t, 'net.core.somaxconn')).toBe('2000');
      }
    }
  });

  it('reports a sysctl of the wrong type before the config is parsed', () => {
    const t = node({});
    const prev = prevOf(t);
    expect(run(t, 'ADD', stdin(prev, { sysctl: 'x' }))).toEqual({
      ok: false,
      msg: 'json: cannot unmarshal string into Go struct field sysctlCheck.sysctl of type map[main.sysctlKey]string',
    });
    const old = node({}, { build: 'v1.1.1' });
    const prevOld = prevOf(old);
    expect(run(old, 'ADD', stdin(prevOld, { sysctl: 'x' }))).toEqual({
      ok: false,
      msg: 'failed to load netconf: json: cannot unmarshal string into Go struct field TuningConf.sysctl of type map[string]string',
    });
  });

  it('makes dots slashes before replacing IFNAME, and quotes the slashed key', () => {
    const cases: Array<[string, Record<string, string>, Record<string, string>, string, string]> = [
      [
        'an interface name with a dot',
        { 'net.ipv4.conf.IFNAME.arp_ignore': '1' },
        { CNI_IFNAME: 'v.1' },
        'open /proc/sys/net/ipv4/conf/v.1/arp_ignore: no such file or directory',
        'open /proc/sys/net/ipv4/conf/v/1/arp_ignore: no such file or directory',
      ],
      [
        'a key outside net',
        { 'kernel.hostname': 'x' },
        {},
        'invalid net sysctl key: "kernel/hostname"',
        'invalid net sysctl key: "kernel.hostname"',
      ],
    ];
    for (const [name, sysctl, env, v16, v111] of cases) {
      for (const [build, msg] of [
        ['v1.6.2', v16],
        ['v1.1.1', v111],
      ] as const) {
        const t = node({}, { build });
        const prev = prevOf(t);
        expect(run(t, 'ADD', stdin(prev, { sysctl }), env), `${name} (${build})`).toEqual({
          ok: false,
          msg,
        });
      }
    }
  });

  it('replaces IFNAME in CHECK too, so a per-interface key passes', () => {
    const t = node({ sysctl: { 'net.ipv4.conf.IFNAME.arp_ignore': '1' } });
    expect(t.add('pod-a', RT).error).toBeUndefined();
    expect(t.check('pod-a', RT).error).toBeUndefined();
    operator(t, (k, ns) => K.sysctlSet(k, ns, 'net.ipv4.conf.eth0.arp_ignore', '2'));
    expect(t.check('pod-a', RT).error?.msg).toBe(
      'Error: Tuning configured value of /proc/sys/net/ipv4/conf/eth0/arp_ignore is 1, current value is 2',
    );
  });
});
