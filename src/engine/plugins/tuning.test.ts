/**
 * tuning against the real v1.1.1 binary (bridge -> tuning, run in throw-away namespaces): what
 * ADD changes on the pod's eth0 and the backup file it writes (byte for byte), CHECK and the drift
 * it detects, DEL restoring the backup (also after a partial ADD) and DEL twice, sysctl keys and
 * values, the override order of the MAC sources, and the errors with the real binary's texts.
 */
import { describe, expect, it } from 'vitest';
import { resultJSON } from '../cni/result';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import type { KernelState, Link } from '../kernel/types';
import { TestNode } from '../testkit';
import { tget } from '../state/table';
import { isKind } from '../trace/trace';

const DATA_DIR = '/tmp/tuning';
const MAC = '02:42:0a:16:00:aa';

function conflist(tuning: Record<string, unknown>): string {
  return JSON.stringify({
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
  });
}

const LINK_SETTINGS = { mac: MAC, mtu: 1300, promisc: true, allmulti: true };

function node(tuning: Record<string, unknown> = LINK_SETTINGS): TestNode {
  return new TestNode({
    conflist: conflist(tuning),
    plugins: ['bridge', 'host-local', 'tuning'],
  });
}

const RT = { containerId: 'c1' };

function podNs(t: TestNode, pod = 'pod-a'): { k: KernelState; ns: string } {
  const k = t.sim.node(t.node).kernel;
  return { k, ns: tget(k.mounts, t.netnsPath(pod))! };
}

function eth0(t: TestNode): Link | undefined {
  const { k, ns } = podNs(t);
  return K.linkByName(tget(k.netns, ns)!, 'eth0');
}

function files(t: TestNode): Record<string, { data: string; mode: number }> {
  const fs = t.sim.node(t.node).fs;
  const out: Record<string, { data: string; mode: number }> = {};
  for (const p of vfs.walk(fs, DATA_DIR)) {
    const e = vfs.stat(fs, p);
    if (e?.kind === 'file') out[p.slice(DATA_DIR.length + 1)] = { data: e.data, mode: e.mode };
  }
  return out;
}

function stdin(prev: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    cniVersion: '1.0.0',
    name: 'tunnet',
    type: 'tuning',
    dataDir: DATA_DIR,
    ...(prev ? { prevResult: prev } : {}),
    ...extra,
  });
}

function err(msg: string) {
  return { exitCode: 1, stdout: { code: 999, msg }, stderr: '' };
}

const OK = { exitCode: 0, stdout: '', stderr: '' };

/** A run's outcome, stdout parsed (Go escapes < and > in JSON strings). */
function out(r: { exitCode: number; stdout: string; stderr: string }) {
  return {
    exitCode: r.exitCode,
    stdout: r.stdout === '' ? '' : (JSON.parse(r.stdout) as unknown),
    stderr: r.stderr,
  };
}

/** Changes the pod's kernel state as `ip -n pod-a ...` would. */
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

/** ADDs pod-a (c1) through libcni with only bridge's part (tuning without settings). */
function bridgeResult(t: TestNode): Record<string, unknown> {
  const r = t.add('pod-a', RT);
  expect(r.error).toBeUndefined();
  return resultJSON(r.result!, t.libcni.lib) as Record<string, unknown>;
}

describe('tuning ADD', () => {
  it('sets mac, mtu, promisc and allmulti after saving the old values, and reports the new MAC', () => {
    const t = node();
    t.createNetns('pod-a');
    const r = t.add('pod-a', RT);
    expect(r.error).toBeUndefined();
    const l = eth0(t)!;
    expect(l).toMatchObject({ mac: MAC, mtu: 1300, promisc: 1, allmulti: true });
    const res = resultJSON(r.result!, t.libcni.lib) as {
      interfaces: Array<{ name: string; mac: string }>;
    };
    expect(res.interfaces.find((i) => i.name === 'eth0')!.mac).toBe(MAC);
    // The bridge's own result said the MAC eth0 was created with: that is what the backup holds.
    const bridgeMac = (
      JSON.parse(
        t.sim.events.filter(isKind('exit')).find((e) => e.source === 'bridge')!.payload.stdout,
      ) as { interfaces: Array<{ name: string; mac: string }> }
    ).interfaces.find((i) => i.name === 'eth0')!.mac;
    expect(files(t)).toEqual({
      'c1_eth0.json': {
        data: `{\n "mac": "${bridgeMac}",\n "promisc": false,\n "mtu": 1500,\n "allmulti": false\n}`,
        mode: 0o600,
      },
    });
    expect(vfs.stat(t.sim.node(t.node).fs, DATA_DIR)).toMatchObject({ kind: 'dir', mode: 0o600 });
    // txQLen does not exist in 1.1.1: it is ignored.
    const t2 = node({ mtu: 1400, txQLen: 500 });
    expect(t2.add('pod-a', RT).error).toBeUndefined();
    expect(eth0(t2)).toMatchObject({ mtu: 1400, txqlen: 1000 });
    expect(files(t2)['c1_eth0.json']!.data).toBe('{\n "mtu": 1500\n}');
  });

  it('writes sysctls in the pod namespace, IFNAME replaced, and does not back them up', () => {
    const t = node({
      sysctl: { 'net.ipv4.conf.IFNAME.arp_ignore': '1', 'net.core.somaxconn': '1024' },
    });
    expect(t.add('pod-a', RT).error).toBeUndefined();
    const { k, ns } = podNs(t);
    expect(K.sysctlGet(k, ns, 'net.ipv4.conf.eth0.arp_ignore')).toBe('1');
    expect(K.sysctlGet(k, ns, 'net.core.somaxconn')).toBe('1024');
    expect(K.sysctlGet(k, k.root, 'net.core.somaxconn')).toBe('4096');
    expect(files(t)).toEqual({});
    // DEL does not restore sysctls.
    expect(t.del('pod-a', RT).error).toBeUndefined();
    expect(K.sysctlGet(k, ns, 'net.core.somaxconn')).toBe('1024');
  });

  it('takes the MAC from CNI_ARGS, then runtimeConfig, then args.cni', () => {
    const t = node({});
    const prev = bridgeResult(t);
    const mac = (extra: Record<string, unknown>, args = '') => {
      const r = t.invoke('tuning', 'ADD', 'pod-a', stdin(prev, extra), {
        CNI_CONTAINERID: 'c1',
        CNI_ARGS: args,
      });
      expect(r.exitCode).toBe(0);
      return eth0(t)!.mac;
    };
    expect(mac({ mac: '02:00:00:00:00:01' }, 'IgnoreUnknown=1;MAC=02:00:00:00:00:02')).toBe(
      '02:00:00:00:00:02',
    );
    expect(
      mac({ runtimeConfig: { mac: '02:00:00:00:00:03' } }, 'IgnoreUnknown=1;MAC=02:00:00:00:00:02'),
    ).toBe('02:00:00:00:00:03');
    expect(
      mac({
        runtimeConfig: { mac: '02:00:00:00:00:03' },
        args: { cni: { mac: '02:00:00:00:00:04', mtu: 1280 } },
      }),
    ).toBe('02:00:00:00:00:04');
    expect(eth0(t)!.mtu).toBe(1280);
  });

  it('passes a 0.2.0 prevResult through', () => {
    const t = node({});
    t.createNetns('pod-a');
    const prev = { cniVersion: '0.2.0', ip4: { ip: '10.1.1.1/24' } };
    const r = t.invoke('tuning', 'ADD', 'pod-a', stdin(prev, { cniVersion: '0.2.0' }));
    expect(out(r)).toEqual({
      exitCode: 0,
      stdout: { cniVersion: '0.2.0', ip4: { ip: '10.1.1.1/24' }, dns: {} },
      stderr: '',
    });
  });
});

describe('tuning sysctl keys and values', () => {
  const cases: Array<[string, Record<string, string>, string | null]> = [
    [
      'a key outside net',
      { 'kernel.hostname': 'evil' },
      'invalid net sysctl key: "kernel.hostname"',
    ],
    ['the net directory itself', { net: 'x' }, 'invalid net sysctl key: "net"'],
    [
      'a key whose ".." becomes "//"',
      { 'net/../kernel/hostname': 'x' },
      'open /proc/sys/net/kernel/hostname: no such file or directory',
    ],
    [
      'a key of a missing interface',
      { 'net.ipv4.conf.eth9.arp_ignore': '1' },
      'open /proc/sys/net/ipv4/conf/eth9/arp_ignore: no such file or directory',
    ],
    [
      'IFNAME replaced once only',
      { 'net.ipv4.IFNAME.IFNAME': '1' },
      'open /proc/sys/net/ipv4/eth0/IFNAME: no such file or directory',
    ],
    ['a directory', { 'net.ipv4.conf': '1' }, 'open /proc/sys/net/ipv4/conf: is a directory'],
    [
      'a read-only file',
      { 'net.ipv4.conf.all.mc_forwarding': '1' },
      'open /proc/sys/net/ipv4/conf/all/mc_forwarding: permission denied',
    ],
    [
      'a value that is not a number',
      { 'net.core.somaxconn': 'abc' },
      'write /proc/sys/net/core/somaxconn: invalid argument',
    ],
    [
      'a number out of int range',
      { 'net.ipv4.conf.eth0.arp_ignore': '99999999999' },
      'write /proc/sys/net/ipv4/conf/eth0/arp_ignore: invalid argument',
    ],
    ['an empty value', { 'net.core.somaxconn': '' }, null],
  ];
  it.each(cases)('%s', (_name, sysctl, msg) => {
    const t = node({});
    const prev = bridgeResult(t);
    const r = t.invoke('tuning', 'ADD', 'pod-a', stdin(prev, { sysctl }), {
      CNI_CONTAINERID: 'c1',
    });
    if (msg === null) expect(r.exitCode).toBe(0);
    else expect(out(r)).toEqual(err(msg));
    const { k, ns } = podNs(t);
    expect(K.sysctlGet(k, ns, 'net.core.somaxconn')).toBe('4096');
  });

  it('parses values like the kernel: blanks, hex, octal, trailing words', () => {
    const t = node({});
    const prev = bridgeResult(t);
    const set = (v: string) => {
      const r = t.invoke(
        'tuning',
        'ADD',
        'pod-a',
        stdin(prev, { sysctl: { 'net.ipv4.conf.eth0.arp_ignore': v } }),
        { CNI_CONTAINERID: 'c1' },
      );
      const { k, ns } = podNs(t);
      return r.exitCode === 0 ? K.sysctlGet(k, ns, 'net.ipv4.conf.eth0.arp_ignore') : 'EINVAL';
    };
    expect(set(' 0x10\n')).toBe('16');
    expect(set('010')).toBe('8');
    expect(set('5 junk')).toBe('5');
    expect(set('-1')).toBe('-1');
    expect(set('+5')).toBe('EINVAL');
    expect(set('12abc')).toBe('EINVAL');
    expect(set('1e3')).toBe('EINVAL');
    expect(set('2147483648')).toBe('EINVAL');
    expect(set('-2147483648')).toBe('-2147483648');
  });
});

describe('tuning CHECK', () => {
  it('passes after ADD and detects a changed MTU, MAC, promiscuity or allmulti', () => {
    const t = node();
    const added = t.add('pod-a', RT);
    expect(added.error).toBeUndefined();
    const prev = resultJSON(added.result!, t.libcni.lib);
    expect(t.check('pod-a', RT).error).toBeUndefined();
    operator(t, (k, ns, i) => K.linkSetMtu(k, ns, i, 1500));
    expect(t.check('pod-a', RT).error?.msg).toBe(
      'Error: Tuning configured MTU of eth0 is 1300, current value is 1500',
    );
    operator(t, (k, ns, i) => K.linkSetMtu(k, ns, i, 1300));
    operator(t, (k, ns, i) => K.linkSetPromisc(k, ns, i, false));
    expect(t.check('pod-a', RT).error?.msg).toBe(
      'Error: Tuning link eth0 configured promisc is true, current value is 0',
    );
    operator(t, (k, ns, i) => K.linkSetPromisc(k, ns, i, true));
    // A changed MAC: bridge, first in the chain, already fails; tuning alone says this.
    operator(t, (k, ns, i) => K.linkSetMac(k, ns, i, '02:42:0a:16:00:bb'));
    const r = t.invoke('tuning', 'CHECK', 'pod-a', stdin(prev, LINK_SETTINGS), {
      CNI_CONTAINERID: 'c1',
    });
    expect(out(r)).toEqual(
      err(
        `Error: Tuning configured Ethernet of eth0 is ${MAC}, current value is 02:42:0a:16:00:bb`,
      ),
    );
    operator(t, (k, ns, i) => K.linkSetMac(k, ns, i, MAC));
    operator(t, (k, ns, i) => K.linkSetAllmulti(k, ns, i, false));
    // Go prints the *bool: an address, different on every run.
    expect(t.check('pod-a', RT).error?.msg).toMatch(
      /^Error: Tuning configured all-multicast mode of eth0 is 0xc[0-9a-f]+, current value is false$/,
    );
  });

  it('compares the MAC as text and checks promiscuity even when not configured', () => {
    const t = node({ mac: MAC.toUpperCase() });
    const added = t.add('pod-a', RT);
    expect(added.error).toBeUndefined();
    expect(eth0(t)!.mac).toBe(MAC);
    const prev = resultJSON(added.result!, t.libcni.lib);
    const r = t.invoke('tuning', 'CHECK', 'pod-a', stdin(prev, { mac: MAC.toUpperCase() }), {
      CNI_CONTAINERID: 'c1',
    });
    expect(out(r)).toEqual(
      err(
        `Error: Tuning configured Ethernet of eth0 is ${MAC.toUpperCase()}, current value is ${MAC}`,
      ),
    );
    const t2 = node({});
    expect(t2.add('pod-a', RT).error).toBeUndefined();
    operator(t2, (k, ns, i) => K.linkSetPromisc(k, ns, i, true));
    expect(t2.check('pod-a', RT).error?.msg).toBe(
      'Error: Tuning link eth0 configured promisc is false, current value is 1',
    );
  });

  it('does not replace IFNAME in sysctl keys, so such a key always fails', () => {
    const t = node({ sysctl: { 'net.ipv4.conf.IFNAME.arp_ignore': '1' } });
    expect(t.add('pod-a', RT).error).toBeUndefined();
    expect(t.check('pod-a', RT).error?.msg).toBe(
      'open /proc/sys/net/ipv4/conf/IFNAME/arp_ignore: no such file or directory',
    );
    const t2 = node({ sysctl: { 'net.core.somaxconn': '1024' } });
    const added = t2.add('pod-a', RT);
    expect(added.error).toBeUndefined();
    expect(t2.check('pod-a', RT).error).toBeUndefined();
    const prev = resultJSON(added.result!, t2.libcni.lib);
    const r = t2.invoke(
      'tuning',
      'CHECK',
      'pod-a',
      stdin(prev, { sysctl: { 'net.core.somaxconn': '1' } }),
      { CNI_CONTAINERID: 'c1' },
    );
    expect(out(r)).toEqual(
      err(
        'Error: Tuning configured value of /proc/sys/net/core/somaxconn is 1, current value is 1024',
      ),
    );
  });

  it('fails without prevResult, or without the link', () => {
    const t = node();
    const prev = bridgeResult(t);
    expect(
      out(t.invoke('tuning', 'CHECK', 'pod-a', stdin(null), { CNI_CONTAINERID: 'c1' })),
    ).toEqual(err('Required prevResult missing'));
    expect(
      out(
        t.invoke('tuning', 'CHECK', 'pod-a', stdin(prev), {
          CNI_CONTAINERID: 'c1',
          CNI_IFNAME: 'eth7',
        }),
      ),
    ).toEqual(err('Cannot find container link eth7'));
  });
});

describe('tuning DEL', () => {
  it('restores the saved values and removes the backup; DEL twice changes nothing', () => {
    const t = node();
    t.createNetns('pod-a');
    const before = () => eth0(t)!;
    const added = t.add('pod-a', RT);
    expect(added.error).toBeUndefined();
    const saved = JSON.parse(files(t)['c1_eth0.json']!.data) as { mac: string };
    const prev = resultJSON(added.result!, t.libcni.lib);
    const del = t.invoke('tuning', 'DEL', 'pod-a', stdin(prev, LINK_SETTINGS), {
      CNI_CONTAINERID: 'c1',
    });
    expect(out(del)).toEqual(OK);
    expect(before()).toMatchObject({ mac: saved.mac, mtu: 1500, promisc: 0, allmulti: false });
    expect(files(t)).toEqual({});
    expect(
      out(
        t.invoke('tuning', 'DEL', 'pod-a', stdin(prev, LINK_SETTINGS), { CNI_CONTAINERID: 'c1' }),
      ),
    ).toEqual(OK);
    expect(t.del('pod-a', RT).error).toBeUndefined();
    expect(eth0(t)).toBeUndefined();
  });

  it('restores what a partial ADD had saved', () => {
    // mac is set, then the MTU is refused: the backup holds the old MAC and MTU.
    const t = node({ mac: MAC, mtu: 50 });
    const r = t.add('pod-a', RT);
    expect(r.error?.message).toBe('plugin type="tuning" failed (add): invalid argument');
    expect(eth0(t)).toMatchObject({ mac: MAC, mtu: 1500 });
    const saved = JSON.parse(files(t)['c1_eth0.json']!.data) as { mac: string; mtu: number };
    expect(saved.mtu).toBe(1500);
    expect(t.del('pod-a', RT).error).toBeUndefined();
    expect(files(t)).toEqual({});
  });

  it('keeps a backup overwritten by a failed ADD: the next DEL restores the MAC tuning had set', () => {
    const t = node();
    const added = t.add('pod-a', RT);
    expect(added.error).toBeUndefined();
    const prev = resultJSON(added.result!, t.libcni.lib);
    const r = t.invoke('tuning', 'ADD', 'pod-a', stdin(prev, { mac: 'zz' }), {
      CNI_CONTAINERID: 'c1',
    });
    expect(out(r)).toEqual(err('invalid args zz for MAC addr: address zz: invalid MAC address'));
    expect(files(t)['c1_eth0.json']!.data).toBe(`{\n "mac": "${MAC}"\n}`);
    expect(out(t.invoke('tuning', 'DEL', 'pod-a', stdin(prev), { CNI_CONTAINERID: 'c1' }))).toEqual(
      OK,
    );
    expect(eth0(t)).toMatchObject({ mac: MAC, mtu: 1300, promisc: 1 });
    expect(files(t)).toEqual({});
  });

  it('ignores a missing netns, a missing link and an unreadable backup (which stays)', () => {
    const t = node();
    expect(t.add('pod-a', RT).error).toBeUndefined();
    const r = t.invoke('tuning', 'DEL', 'pod-a', stdin(null), {
      CNI_CONTAINERID: 'c1',
      CNI_NETNS: '/var/run/netns/nosuch',
    });
    expect(out(r)).toEqual(OK);
    expect(Object.keys(files(t))).toEqual(['c1_eth0.json']);
    const other = t.invoke('tuning', 'DEL', 'pod-a', stdin(null), {
      CNI_CONTAINERID: 'c1',
      CNI_IFNAME: 'eth7',
    });
    expect(out(other)).toEqual(OK);
    t.sim.state = {
      ...t.sim.state,
      nodes: {
        ...t.sim.state.nodes,
        [t.node]: {
          ...t.sim.node(t.node),
          fs: vfs.writeFile(t.sim.node(t.node).fs, `${DATA_DIR}/c1_eth0.json`, '{"mtu": "x"}'),
        },
      },
    };
    expect(out(t.invoke('tuning', 'DEL', 'pod-a', stdin(null), { CNI_CONTAINERID: 'c1' }))).toEqual(
      OK,
    );
    expect(Object.keys(files(t))).toEqual(['c1_eth0.json']);
    expect(eth0(t)!.mtu).toBe(1300);
  });
});

describe('tuning errors', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, string>, string]> = [
    [
      'an mtu that is a string',
      { mtu: 'x' },
      {},
      'failed to load netconf: json: cannot unmarshal string into Go struct field TuningConf.mtu of type int',
    ],
    ['an unknown CNI_ARGS key', {}, { CNI_ARGS: 'FOO=zz' }, 'ARGS: unknown args ["FOO=zz"]'],
    [
      'an invalid MAC',
      { mac: 'zz' },
      {},
      'invalid args zz for MAC addr: address zz: invalid MAC address',
    ],
    ['a multicast MAC', { mac: '01:00:00:00:00:01' }, {}, 'cannot assign requested address'],
    ['an MTU too small', { mtu: 50 }, {}, 'invalid argument'],
    ['an MTU too large', { mtu: 70000 }, {}, 'invalid argument'],
    ['a negative MTU', { mtu: -5 }, {}, 'invalid argument'],
    [
      'a missing interface',
      { mac: MAC },
      { CNI_IFNAME: 'eth9' },
      'failed to get "eth9": Link not found',
    ],
    [
      'a missing netns',
      { mac: MAC },
      { CNI_NETNS: '/var/run/netns/nosuch' },
      'failed to Statfs "/var/run/netns/nosuch": no such file or directory',
    ],
    [
      'a prevResult that does not parse',
      { prevResult: { cniVersion: '1.0.0', ips: [{ address: 'x' }] } },
      {},
      'could not parse prevResult: invalid CIDR address: x',
    ],
    [
      'a dataDir that is a file',
      { mac: MAC, dataDir: '/etc/hostname' },
      {},
      'failed to save file eth0.json: open /etc/hostname/c1_eth0.json: not a directory',
    ],
  ];
  it.each(cases)('ADD with %s', (_name, extra, env, msg) => {
    const t = node({});
    t.sim.state = {
      ...t.sim.state,
      nodes: {
        ...t.sim.state.nodes,
        [t.node]: {
          ...t.sim.node(t.node),
          fs: vfs.writeFile(vfs.mkdirAll(t.sim.node(t.node).fs, '/etc'), '/etc/hostname', 'node\n'),
        },
      },
    };
    const prev = bridgeResult(t);
    const r = t.invoke('tuning', 'ADD', 'pod-a', stdin(prev, extra), {
      CNI_CONTAINERID: 'c1',
      ...env,
    });
    expect(out(r)).toEqual(err(msg));
  });

  it('needs a prevResult for ADD', () => {
    const t = node({});
    t.createNetns('pod-a');
    expect(out(t.invoke('tuning', 'ADD', 'pod-a', stdin(null)))).toEqual(
      err('Required prevResult missing'),
    );
  });

  it('panics on args.cni.sysctl without a sysctl map, in every command', () => {
    const t = node({});
    const prev = bridgeResult(t);
    for (const cmd of ['ADD', 'CHECK', 'DEL']) {
      const r = t.invoke(
        'tuning',
        cmd,
        'pod-a',
        stdin(prev, { args: { cni: { sysctl: { 'net.core.somaxconn': '1000' } } } }),
        { CNI_CONTAINERID: 'c1' },
      );
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n').slice(0, 5)).toEqual([
        'panic: assignment to entry in nil map',
        '',
        'goroutine 1 [running]:',
        expect.stringMatching(/^main\.parseConf\(\{0xc[0-9a-f]+, 0x[0-9a-f]+, 0x200\}, /),
        '\tgithub.com/containernetworking/plugins/plugins/meta/tuning/tuning.go:116 +0x385',
      ]);
      expect(r.stderr).toContain(
        `main.cmd${cmd === 'ADD' ? 'Add' : cmd === 'DEL' ? 'Del' : 'Check'}(`,
      );
    }
    // With a sysctl map (even empty) the args are merged into it.
    const ok = t.invoke(
      'tuning',
      'ADD',
      'pod-a',
      stdin(prev, { sysctl: {}, args: { cni: { sysctl: { 'net.core.somaxconn': '1000' } } } }),
      { CNI_CONTAINERID: 'c1' },
    );
    expect(ok.exitCode).toBe(0);
    const { k, ns } = podNs(t);
    expect(K.sysctlGet(k, ns, 'net.core.somaxconn')).toBe('1000');
  });
});
