/**
 * The shell of a node in a cluster (fixed seed, known pods): journalctl, crictl, kubectl,
 * systemctl, reboot and cnitool, each against what the cluster's state says, and the same
 * commands on a bare node (no units, no CRI socket, no API server). Read commands add nothing to
 * the trace; commands that change something add a step naming the command, then the changes.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { clusterPreset } from '../cluster/presets';
import { journalLines } from '../node/journal';
import { addNode } from '../node/setup';
import { Simulation, newWorld } from '../sim/world';
import { cnitoolContainerId } from './commands/cnitool';
import { parseJournalTime } from './commands/journalctl';
import { humanDuration, unitsHumanDuration } from './commands/k8s-common';
import { CLEAR_SEQUENCE } from './commands/misc';
import { Shell } from './shell';
import { tget, tvalues } from '../state/table';
import { isKind } from '../trace/trace';

const ONE_NODE = { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] };

/** A one-node cluster with web-0 and web-1 running for 5 s of virtual time. */
function cluster() {
  const c = new Cluster(ONE_NODE, { seed: 3 });
  c.createPod({ name: 'web-0' });
  c.createPod({ name: 'web-1' });
  c.runFor(5_000_000);
  const sh = (line: string) => c.shell('node-1', line);
  const pod = (name: string) => tget(c.sim.state.api!.pods, `default/${name}`)!;
  const sandbox = (name: string) =>
    tvalues(c.sim.node('node-1').containerd!.sandboxes).find((s) => s.pod.name === name)!;
  return { c, sh, pod, sandbox };
}

function bareNode() {
  const sim = new Simulation(addNode(newWorld(1), { name: 'node', plugins: ['bridge'] }));
  return { sim, sh: new Shell(sim, 'node') };
}

describe('read commands add no step to the trace', () => {
  it.each([
    'ip -j addr',
    'ip route',
    'ip netns list',
    'bridge link',
    'tc qdisc show',
    'iptables-save',
    'iptables -t nat -S',
    'ls -la /var/lib/cni/results',
    'cat /etc/cni/net.d/10-containerd-net.conflist | grep -c bridge',
    'find /var/lib/cni -type f | sort | head -n 2',
    'journalctl -u containerd | wc -l',
    'crictl pods',
    'crictl inspectp $(crictl pods -q --name web-0)',
    'kubectl get pods -o wide',
    'kubectl describe pod web-0',
    'systemctl status kubelet',
    'help',
    'history',
  ])('%s', (line) => {
    const { c, sh } = cluster();
    const n = c.events.length;
    const r = sh(line);
    expect(r.stderr).toBe('');
    expect(c.events.length).toBe(n);
  });
});

describe('journalctl', () => {
  it('-u containerd: the unit lines of the journal, up to now', () => {
    const { c, sh } = cluster();
    const want = journalLines(c.events, 'node-1', undefined, ['containerd']);
    expect(want.length).toBeGreaterThan(2);
    expect(sh('journalctl -u containerd --no-pager').stdout).toBe(
      want.map((l) => l + '\n').join(''),
    );
    expect(sh('journalctl -u containerd.service -n 2').stdout).toBe(
      want
        .slice(-2)
        .map((l) => l + '\n')
        .join(''),
    );
    expect(sh('journalctl -u containerd -n 1 -o cat').stdout).toMatch(
      /^time="[^"]+" level=info msg="RunPodSandbox for .* returns sandbox id \\"[0-9a-f]{64}\\""\n$/,
    );
    expect(sh('journalctl -u containerd | grep -c RunPodSandbox').stdout).toBe('4\n');
  });

  it('--since and --until select by time; a bad time is refused as journalctl does', () => {
    const { sh } = cluster();
    expect(sh("journalctl -u containerd --since '2025-03-03 10:16:00'").stdout).toBe(
      '-- No entries --\n',
    );
    expect(sh("journalctl -u containerd --since '-1min' | wc -l").stdout).toBe('4\n');
    expect(sh('journalctl -u containerd --until 10:14:00').stdout).toBe('-- No entries --\n');
    expect(sh('journalctl --since yesterday -u containerd | wc -l').stdout).toBe('4\n');
    expect(sh('journalctl --since foo')).toMatchObject({
      stderr: 'Failed to parse timestamp: foo\n',
      exitCode: 1,
    });
  });

  it('-f is refused with a reason; a node without a kubelet has no kubelet entries', () => {
    const { sh } = cluster();
    const f = sh('journalctl -u kubelet -f');
    expect(f.exitCode).toBe(1);
    expect(f.stderr).toMatch(/-f \(follow\) is not supported/);
    expect(bareNode().sh.run('journalctl -u kubelet').stdout).toBe('-- No entries --\n');
  });

  it('a healthy kubelet has its start in the journal: systemd, then its first lines', () => {
    const { c, sh } = cluster();
    const r = sh('journalctl -u kubelet');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^Mar 03 10:15:00 node-1 systemd\[1\]: Started kubelet\.service - kubelet: The Kubernetes Node Agent\.$/,
    );
    expect(lines[1]).toMatch(
      /^Mar 03 10:15:00 node-1 kubelet\[(\d+)\]: I0303 10:15:00\.\d{6} +\1 server\.go:486\] "Kubelet version" kubeletVersion="v1\.32\.4"$/,
    );
    expect(lines[2]).toMatch(
      /server\.go:488\] "Golang settings" GOGC="" GOMAXPROCS="" GOTRACEBACK=""$/,
    );
    // A restart: systemd stops the old process, a new one (a new pid) logs its start again.
    const pid = /kubelet\[(\d+)\]/.exec(lines[1]!)![1];
    sh('systemctl restart kubelet');
    c.runFor(5_000_000);
    const after = sh('journalctl -u kubelet -o cat').stdout;
    expect(after).toContain(
      'Stopping kubelet.service - kubelet: The Kubernetes Node Agent...\nkubelet.service: Deactivated successfully.\nStopped kubelet.service - kubelet: The Kubernetes Node Agent.\nStarted kubelet.service - kubelet: The Kubernetes Node Agent.\n',
    );
    const versions = [...after.matchAll(/ (\d+) server\.go:486\] "Kubelet version"/g)].map(
      (m) => m[1],
    );
    expect(versions).toHaveLength(2);
    expect(versions[0]).toBe(pid);
    expect(versions[1]).not.toBe(pid);
    // journalctl -u containerd still shows only containerd's lines.
    expect(sh('journalctl -u containerd').stdout).not.toContain('kubelet');
  });

  it('a reboot starts a new boot: lines of both boots are separated', () => {
    const { c, sh } = cluster();
    sh('reboot');
    c.runFor(60_000_000);
    const out = sh('journalctl -u containerd').stdout.split('\n');
    const sep = out.findIndex((l) => /^-- Boot [0-9a-f]{32} --$/.test(l));
    expect(sep).toBeGreaterThan(0);
    expect(out.slice(sep + 1).some((l) => l.includes('RunPodSandbox'))).toBe(true);
    expect(sh('journalctl -b -u containerd').stdout).not.toMatch(/-- Boot/);
  });

  it('parses the time forms journalctl takes', () => {
    const now = 65_000_000; // 10:16:05
    expect(parseJournalTime('now', now)).toBe(now);
    expect(parseJournalTime('-5s', now)).toBe(60_000_000);
    expect(parseJournalTime('1 min ago', now)).toBe(5_000_000);
    expect(parseJournalTime('10:15:30', now)).toBe(30_000_000);
    expect(parseJournalTime('2025-03-03 10:15', now)).toBe(0);
    expect(parseJournalTime('today', now)).toBe(-(10 * 3600 + 15 * 60) * 1_000_000);
    expect(parseJournalTime('soon', now)).toBeNull();
  });
});

describe('crictl', () => {
  it('pods: the sandboxes, newest first, as crictl lays them out', () => {
    const { sh, sandbox } = cluster();
    const a = sandbox('web-0');
    const b = sandbox('web-1');
    expect(sh('crictl pods').stdout).toBe(
      'POD ID              CREATED             STATE               NAME                NAMESPACE           ATTEMPT             RUNTIME\n' +
        `${b.id.slice(0, 13)}       4 seconds ago       Ready               web-1               default             0                   (default)\n` +
        `${a.id.slice(0, 13)}       4 seconds ago       Ready               web-0               default             0                   (default)\n`,
    );
    expect(sh('crictl pods -q').stdout).toBe(`${b.id}\n${a.id}\n`);
    expect(sh('crictl pods -q --name web-0').stdout).toBe(`${a.id}\n`);
    expect(sh('crictl pods --name nope | wc -l').stdout).toBe('1\n');
  });

  it('inspectp: status with the IPs and metadata, the netns path in the runtime spec', () => {
    const { sh, pod, sandbox } = cluster();
    const s = sandbox('web-0');
    const r = sh(`crictl inspectp ${s.id.slice(0, 8)}`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\{\n {2}"status": \{\n {4}"id": "/);
    const j = JSON.parse(r.stdout) as {
      status: Record<string, unknown> & { network: { ip: string; additionalIps: unknown[] } };
      info: { runtimeSpec: { linux: { namespaces: Array<{ type: string; path?: string }> } } };
    };
    expect(j.status['id']).toBe(s.id);
    expect(j.status['state']).toBe('SANDBOX_READY');
    expect(j.status['metadata']).toEqual({
      attempt: 0,
      name: 'web-0',
      namespace: 'default',
      uid: pod('web-0').spec.uid,
    });
    expect(j.status.network).toEqual({ additionalIps: [], ip: pod('web-0').podIP });
    expect(Object.keys(j.status)).toEqual([
      'id',
      'metadata',
      'state',
      'createdAt',
      'network',
      'linux',
      'labels',
      'annotations',
      'runtimeHandler',
    ]);
    expect(j.info.runtimeSpec.linux.namespaces.find((n) => n.type === 'network')?.path).toBe(
      s.netns,
    );
    expect(sh('crictl inspectp nope')).toMatchObject({ exitCode: 1 });
  });

  it('ps: containers are not modelled, and it says so', () => {
    const r = cluster().sh('crictl ps');
    expect(r.stdout).toMatch(/^CONTAINER {11}IMAGE {15}CREATED/);
    expect(r.stderr).toBe(
      'cnisim: containers are not modelled, only pod sandboxes: see crictl pods\n',
    );
  });

  it('without containerd: connection refused (stopped) or no socket (a bare node)', () => {
    const { sh } = cluster();
    sh('systemctl stop containerd');
    const r = sh('crictl pods');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      'dial unix /run/containerd/containerd.sock: connect: connection refused',
    );
    expect(bareNode().sh.run('crictl pods').stderr).toContain('connect: no such file or directory');
  });

  it('the durations crictl and kubectl print', () => {
    expect(unitsHumanDuration(500_000)).toBe('Less than a second');
    expect(unitsHumanDuration(4_000_000)).toBe('4 seconds');
    expect(unitsHumanDuration(61_000_000)).toBe('About a minute');
    expect(unitsHumanDuration(3_600_000_000)).toBe('About an hour');
    expect(humanDuration(5_000_000)).toBe('5s');
    expect(humanDuration(119_000_000)).toBe('119s');
    expect(humanDuration(130_000_000)).toBe('2m10s');
    expect(humanDuration(3 * 3_600_000_000 + 60_000_000)).toBe('3h1m');
  });
});

describe('kubectl', () => {
  it('get pods, -o wide, -A, -n', () => {
    const { sh, pod } = cluster();
    expect(sh('kubectl get pods').stdout).toBe(
      'NAME    READY   STATUS    RESTARTS   AGE\n' +
        'web-0   1/1     Running   0          5s\n' +
        'web-1   1/1     Running   0          5s\n',
    );
    expect(sh('kubectl get po -o wide -A').stdout).toBe(
      'NAMESPACE   NAME    READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES\n' +
        `default     web-0   1/1     Running   0          5s    ${pod('web-0').podIP}   node-1   <none>           <none>\n` +
        `default     web-1   1/1     Running   0          5s    ${pod('web-1').podIP}   node-1   <none>           <none>\n`,
    );
    expect(sh('kubectl get pods -n kube-system')).toMatchObject({
      stdout: '',
      stderr: 'No resources found in kube-system namespace.\n',
      exitCode: 0,
    });
    expect(sh('kubectl get pod web-1 -o name').stdout).toBe('pod/web-1\n');
    expect(sh('kubectl get pods nope')).toMatchObject({
      stderr: 'Error from server (NotFound): pods "nope" not found\n',
      exitCode: 1,
    });
  });

  it('get nodes and events', () => {
    const { sh } = cluster();
    expect(sh('kubectl get nodes').stdout).toBe(
      'NAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   5s    v1.32.4\n',
    );
    const ev = sh('kubectl get events').stdout.split('\n');
    expect(ev[0]).toBe('LAST SEEN   TYPE     REASON      OBJECT      MESSAGE');
    expect(ev[1]).toBe(
      '5s          Normal   Scheduled   pod/web-0   Successfully assigned default/web-0 to node-1',
    );
  });

  it("get nodes -o wide names each node's own runtime and release, as the kubelet reports it", () => {
    const c = new Cluster(
      {
        nodes: [
          { name: 'node-1', podCIDR: '10.244.1.0/24', containerd: { version: '2.0.0' } },
          {
            name: 'node-2',
            podCIDR: '10.244.2.0/24',
            runtime: { name: 'cri-o', version: '1.31.13' },
          },
        ],
      },
      { seed: 3 },
    );
    c.runFor(1_000_000);
    const rows = c.shell('node-1', 'kubectl get nodes -o wide').stdout.split('\n');
    expect(rows[1]).toMatch(/^node-1 .* containerd:\/\/2\.0\.0$/);
    expect(rows[2]).toMatch(/^node-2 .* cri-o:\/\/1\.31\.13$/);
    expect(c.shell('node-1', 'crictl version').stdout).toContain('RuntimeVersion:  v2.0.0\n');
  });

  it("get nodes -o wide and describe pod show the node's InternalIP: its default route's address", () => {
    const c = new Cluster(clusterPreset('host-gw')!.spec, { seed: 3 });
    c.scale('web', 1);
    c.run();
    const eth0 = (n: string) =>
      /inet (\S+)\//.exec(c.shell(n, 'ip -4 -o addr show dev eth0').stdout)?.[1];
    const ips = ['node-1', 'node-2'].map(eth0);
    expect(ips.every((ip) => ip && /^\d+\.\d+\.\d+\.\d+$/.test(ip))).toBe(true);
    const rows = c.shell('node-1', 'kubectl get nodes -o wide').stdout.split('\n');
    expect(rows[1]!.split(/ +/)[5]).toBe(ips[0]);
    expect(rows[2]!.split(/ +/)[5]).toBe(ips[1]);
    const pod = c.shell('node-1', 'kubectl get pods -o name').stdout.trim().split('/')[1]!;
    const node = /Node:\s+(node-\d)\/(\S*)/.exec(
      c.shell('node-1', `kubectl describe pod ${pod}`).stdout,
    );
    expect(node?.[2]).toBe(ips[Number(node![1]!.slice(5)) - 1]);
    // The default cluster's nodes have no NIC: nothing to report.
    const bare = new Cluster(undefined, { seed: 3 });
    bare.run();
    expect(
      bare.shell('node-1', 'kubectl get nodes -o wide').stdout.split('\n')[1]!.split(/ +/)[5],
    ).toBe('<none>');
  });

  it('describe pod: the pod, its conditions and its Events section', () => {
    const { sh, pod } = cluster();
    const out = sh('kubectl describe pod web-0').stdout;
    expect(out).toContain(
      `Name:             web-0\nNamespace:        default\nPriority:         0\nService Account:  default\nNode:             node-1/\nStart Time:       Mon, 03 Mar 2025 10:15:00 +0000\n`,
    );
    expect(out).toContain(
      `IP:               ${pod('web-0').podIP}\nIPs:\n  IP:  ${pod('web-0').podIP}\n`,
    );
    expect(out).toContain('Conditions:\n  Type              Status\n  Initialized       True \n');
    expect(out).toMatch(
      /\nEvents:\n {2}Type {4}Reason {5}Age {3}From {15}Message\n {2}---- {4}------ {5}---- {2}---- {15}-------\n {2}Normal {2}Scheduled {2}5s {4}default-scheduler {2}Successfully assigned default\/web-0 to node-1\n/,
    );
  });

  it('delete pod: a step naming the command, the graceful deletion, then the kubelet tears down', () => {
    const { c, sh } = cluster();
    const n = c.events.length;
    expect(sh('kubectl delete pod web-0')).toMatchObject({
      stdout: 'pod "web-0" deleted\n',
      exitCode: 0,
    });
    expect(c.events[n]).toMatchObject({
      source: 'operator',
      target: 'apiserver',
      summary: 'kubectl delete pod web-0',
    });
    expect(c.events[n + 1]!.summary).toBe('delete pod default/web-0 (graceful)');
    expect(sh('kubectl get pod web-0').stdout).toMatch(/web-0 {3}0\/1 {5}Terminating/);
    c.runFor(40_000_000);
    expect(sh('kubectl get pod web-0').exitCode).toBe(1);
    expect(sh('kubectl delete pod web-0')).toMatchObject({
      stderr: 'Error from server (NotFound): pods "web-0" not found\n',
      exitCode: 1,
    });
  });

  it('a node without an API server: connection refused', () => {
    const r = bareNode().sh.run('kubectl get pods');
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n').slice(-2)).toEqual([
      'The connection to the server localhost:8080 was refused - did you specify the right host or port?',
      '',
    ]);
    expect(r.stderr.match(/memcache\.go:265\]/g)).toHaveLength(5);
  });
});

describe('systemctl and reboot', () => {
  it('restart kubelet: a step to systemd, the kubelet stops, and starts again later', () => {
    const { c, sh } = cluster();
    const n = c.events.length;
    expect(sh('systemctl restart kubelet')).toMatchObject({ stdout: '', exitCode: 0 });
    expect(c.events[n]).toMatchObject({
      source: 'operator',
      target: 'systemd',
      summary: 'systemctl restart kubelet',
    });
    expect(c.events[n + 1]!.summary).toBe('kubelet stopped');
    expect(sh('systemctl is-active kubelet')).toMatchObject({ stdout: 'inactive\n', exitCode: 3 });
    c.runFor(3_000_000);
    const st = sh('systemctl status kubelet');
    expect(st.exitCode).toBe(0);
    expect(st.stdout).toMatch(
      /^● kubelet\.service - kubelet: The Kubernetes Node Agent\n {5}Loaded: loaded \(\/lib\/systemd\/system\/kubelet\.service; enabled; preset: enabled\)\n/,
    );
    expect(st.stdout).toMatch(
      /\n {5}Active: active \(running\) since Mon 2025-03-03 10:15:07 UTC; 1s ago\n/,
    );
    expect(st.stdout).toMatch(/\n {3}Main PID: \d+ \(kubelet\)\n/);
  });

  it('stop and start containerd; status shows its journal lines', () => {
    const { c, sh } = cluster();
    sh('systemctl stop containerd');
    const down = sh('systemctl status containerd');
    expect(down.exitCode).toBe(3);
    expect(down.stdout).toMatch(/^○ containerd\.service - containerd container runtime\n/);
    expect(down.stdout).toMatch(/Active: inactive \(dead\) since/);
    sh('systemctl start containerd');
    c.runFor(1_000_000);
    const up = sh('systemctl status containerd');
    expect(up.exitCode).toBe(0);
    expect(up.stdout).toMatch(/\n\nMar 03 10:15:0\d node-1 containerd\[\d+\]: time=/);
  });

  it('a node without the units answers as systemd does', () => {
    const { sh } = bareNode();
    expect(sh.run('systemctl status kubelet')).toMatchObject({
      stderr: 'Unit kubelet.service could not be found.\n',
      exitCode: 4,
    });
    expect(sh.run('systemctl restart containerd')).toMatchObject({
      stderr: 'Failed to restart containerd.service: Unit containerd.service not found.\n',
      exitCode: 5,
    });
    expect(sh.run('systemctl stop kubelet')).toMatchObject({
      stderr: 'Failed to stop kubelet.service: Unit kubelet.service not loaded.\n',
      exitCode: 5,
    });
    expect(sh.run('reboot').exitCode).toBe(1);
  });

  it('reboot: the session ends; namespaces and the pods sandboxes are gone, then come back', () => {
    const { c, sh, sandbox } = cluster();
    const old = sandbox('web-0').netns;
    const r = sh('reboot; echo still here');
    expect(r).toMatchObject({ stdout: '', exitCode: 0 });
    expect(sh(`ls ${old}`).exitCode).toBe(2);
    c.runFor(60_000_000);
    expect(sh('crictl pods --name web-0 -s ready -q').stdout).toMatch(/^[0-9a-f]{64}\n$/);
    expect(sh('ip netns list | wc -l').stdout).toBe('2\n');
  });
});

describe('cnitool', () => {
  it('the container id is cnitool- and 10 bytes of the SHA-512 of the netns path', () => {
    const path = '/var/run/netns/test';
    const want = createHash('sha512').update(path).digest('hex').slice(0, 20);
    expect(cnitoolContainerId(path)).toBe(`cnitool-${want}`);
  });

  it('add, check, del with CNI_PATH: the result, the cache file, the steps', () => {
    const { c, sh } = cluster();
    sh('ip netns add test');
    const n = c.events.length;
    const add = sh('CNI_PATH=/opt/cni/bin cnitool add containerd-net /var/run/netns/test');
    expect(add.exitCode).toBe(0);
    const result = JSON.parse(add.stdout) as { ips: Array<{ address: string }> };
    expect(add.stdout).toMatch(/^\{\n {4}"cniVersion": "1\.0\.0",\n/);
    expect(add.stdout.endsWith('}')).toBe(true);
    expect(result.ips[0]!.address).toBe('10.244.1.4/24');
    expect(c.events[n]).toMatchObject({ source: 'operator', target: 'libcni' });
    expect(c.events.some((e, i) => i > n && e.kind === 'exec' && e.target === 'bridge')).toBe(true);
    const id = cnitoolContainerId('/var/run/netns/test');
    expect(sh('ls /var/lib/cni/results').stdout).toContain(`containerd-net-${id}-eth0\n`);
    expect(sh('ip -n test -br -4 addr').stdout).toMatch(
      /^eth0@if\d+ {9}UP {13}10\.244\.1\.4\/24 \n$/,
    );
    expect(
      sh('CNI_PATH=/opt/cni/bin cnitool check containerd-net /var/run/netns/test'),
    ).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(
      sh('CNI_PATH=/opt/cni/bin cnitool del containerd-net /var/run/netns/test').exitCode,
    ).toBe(0);
    expect(sh('ls /var/lib/cni/results').stdout).not.toContain(id);
  });

  it('its environment: CNI_IFNAME, CNI_ARGS and CAP_ARGS reach the plugins; bad ones are refused', () => {
    const { c, sh } = cluster();
    sh('ip netns add test');
    const n = c.events.length;
    const r = sh(
      'cd /var/run/netns && CNI_PATH=/opt/cni/bin CNI_IFNAME=net1 CNI_ARGS=IgnoreUnknown=1 CAP_ARGS=\'{"portMappings":[]}\' cnitool add containerd-net test',
    );
    expect(r.stderr).toBe('');
    const exec = c.events
      .slice(n)
      .filter(isKind('exec'))
      .find((e) => e.target === 'bridge')!;
    const env = exec.payload.env;
    expect(env['CNI_IFNAME']).toBe('net1');
    expect(env['CNI_ARGS']).toBe('IgnoreUnknown=1');
    // A relative netns is made absolute from the working directory.
    expect(env['CNI_NETNS']).toBe('/var/run/netns/test');
    expect(sh('CNI_ARGS=a cnitool add containerd-net x')).toMatchObject({
      stderr: 'invalid CNI_ARGS pair "a"\n',
      exitCode: 1,
    });
    expect(sh("CAP_ARGS='[1]' cnitool add containerd-net x").stderr).toBe(
      'json: cannot unmarshal array into Go value of type map[string]interface {}\n',
    );
    expect(sh('cnitool add nope x').stderr).toBe(
      'no net configuration with name "nope" in /etc/cni/net.d\n',
    );
    expect(sh('cnitool del containerd-net /var/run/netns/test').stderr).toBe(
      'plugin type="portmap" failed (delete): no paths provided\n',
    );
  });

  it('prints its usage with too few arguments; status and gc run', () => {
    const { sh } = cluster();
    const u = sh('cnitool add x');
    expect(u.exitCode).toBe(1);
    expect(u.stderr).toMatch(/^cnitool: Add, check, remove, gc or status network interfaces/);
    expect(sh('CNI_PATH=/opt/cni/bin cnitool status containerd-net x').exitCode).toBe(0);
    expect(sh('CNI_PATH=/opt/cni/bin cnitool gc containerd-net x').exitCode).toBe(0);
    // gc without GC args: no attachment is valid, every cache entry of the network goes.
    expect(sh('ls /var/lib/cni/results | grep -c containerd-net').stdout).toBe('0\n');
  });
});

describe('help, history, clear', () => {
  it('help lists the commands; history numbers the lines; clear prints the xterm sequence', () => {
    const { sh } = bareNode();
    expect(sh.run('help').stdout).toMatch(/\nnetwork:\n {2}ip bridge tc iptables/);
    sh.run('echo a');
    expect(sh.run('history').stdout).toBe('    1  help\n    2  echo a\n    3  history\n');
    expect(sh.run('clear').stdout).toBe(CLEAR_SEQUENCE);
  });

  it('ls prints columns on a terminal, one name per line elsewhere', () => {
    const sim = new Simulation(
      addNode(newWorld(1), {
        name: 'node',
        plugins: ['bridge', 'loopback', 'host-local', 'portmap'],
      }),
    );
    const tty = new Shell(sim, 'node', { tty: true, env: { COLUMNS: '40' } });
    // What GNU ls -C prints for these names in 40 and 30 columns (tabs of 8).
    expect(tty.run('ls /opt/cni/bin').stdout).toBe('bridge\thost-local  loopback  portmap\n');
    expect(tty.run('ls -w 30 /opt/cni/bin').stdout).toBe(
      'bridge\t    loopback\nhost-local  portmap\n',
    );
    expect(tty.run('ls /opt/cni/bin | head -n 1').stdout).toBe('bridge\n');
    expect(new Shell(sim, 'node').run('ls /opt/cni/bin').stdout).toBe(
      'bridge\nhost-local\nloopback\nportmap\n',
    );
  });
});
