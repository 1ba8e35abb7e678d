#!/usr/bin/env python3
"""Records real pod traffic through the real CNI plugins, in throw-away network namespaces.

Usage (root): python3 tools/record/traffic/record.py OUT_DIR [--flannel BIN] [--only a,b]

Every case (cases.py) builds its nodes as network namespaces (`<prefix>node-1`, ...), its pods as
namespaces of their own, an underlay as veth pairs between node namespaces and an "outside"
namespace where a case asks for one, adds the pods with the real plugins from Debian's
containernetworking-plugins (/usr/lib/cni; flannel from --flannel), runs the case's commands
inside the node namespaces with bash and writes, per case, OUT_DIR/<case>.json: every command
with its stdout, stderr and exit code, the result of every CNI ADD, and after the case each
node's `iptables-save -c` and `conntrack -L` (normalised: see normalise()).

SAFETY: every command runs under `ip netns exec <prefix><node>`; pods are `<prefix><pod>`; the
host-local dataDir, the flannel files and CNI_PATH are temp dirs; processes left in the
namespaces (listeners) are killed by pid and every namespace is deleted at the end, also on
error. br_netfilter is host-wide, but bridge-nf-call-iptables is set inside the node namespaces
only. Nothing touches the machine's own namespace, /var/lib/cni, /etc/cni or /run/flannel.

How pods are added: each plugin of the case's conflist runs in order with the stdin libcni
builds (the plugin entry + name, cniVersion, prevResult of the previous plugin, runtimeConfig
with portMappings for a plugin with that capability), env CNI_COMMAND=ADD, CNI_CONTAINERID,
CNI_NETNS=/var/run/netns/<prefix><pod>, CNI_IFNAME=eth0, CNI_PATH=<temp dir of links to the
plugins>: what libcni v1.1.2's AddNetworkList does, without its cache.
"""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import CASES  # noqa: E402

PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
PLUGIN_DIR = '/usr/lib/cni'


def sh(argv, input_text=None, timeout=30):
    r = subprocess.run(argv, input=input_text, capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr


class Sandbox:
    def __init__(self, flannel):
        self.prefix = 'trf%06x-' % random.randrange(1 << 24)
        self.tmp = tempfile.mkdtemp(prefix='cnirec-traffic.')
        self.cni_path = os.path.join(self.tmp, 'cni')
        os.makedirs(self.cni_path)
        for name in os.listdir(PLUGIN_DIR):
            os.symlink(os.path.join(PLUGIN_DIR, name), os.path.join(self.cni_path, name))
        if flannel:
            os.symlink(flannel, os.path.join(self.cni_path, 'flannel'))
        self.namespaces = []

    def real(self, logical):
        return self.prefix + logical

    def add_ns(self, logical):
        sh(['ip', 'netns', 'add', self.real(logical)])
        self.namespaces.append(self.real(logical))

    def node_dir(self, node):
        d = os.path.join(self.tmp, node)
        os.makedirs(d, exist_ok=True)
        return d

    def translate(self, cmd):
        """Logical namespace names and placeholders -> real ones."""
        p = self.prefix
        out = re.sub(r'\bip netns (exec|add|del|pids) (\S+)', lambda m: 'ip netns %s %s%s' % (m.group(1), p, m.group(2)), cmd)
        out = re.sub(r'\bip -n (\S+)', lambda m: 'ip -n %s%s' % (p, m.group(1)), out)
        out = re.sub(r'\bnetns (\S+)', lambda m: m.group(0) if m.group(1).startswith(p) or m.group(1) in ('exec', 'add', 'del', 'pids') else 'netns %s%s' % (p, m.group(1)), out)
        out = out.replace('<tmp>', self.tmp)
        return out

    def run(self, node, cmd, timeout=30):
        return sh(['ip', 'netns', 'exec', self.real(node), 'env', '-i', 'PATH=' + PATH, 'bash', '--norc', '--noprofile', '-c', self.translate(cmd)], timeout=timeout)

    def destroy(self):
        for ns in self.namespaces:
            _, pids, _ = sh(['ip', 'netns', 'pids', ns])
            for pid in pids.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for ns in reversed(self.namespaces):
            sh(['ip', 'netns', 'del', ns])
        shutil.rmtree(self.tmp, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# normalisation

MAC_RE = re.compile(r'(?<![0-9A-Fa-f:])[0-9a-f]{2}(?::[0-9a-f]{2}){5}(?![0-9A-Fa-f:])')
VETH_RE = re.compile(r'\bveth[0-9a-f]{8}\b')


class Normaliser:
    def __init__(self, sb):
        self.sb = sb
        self.macs = {}
        self.veths = {}

    def text(self, s):
        s = s.replace(self.sb.tmp, '<tmp>').replace(self.sb.prefix, '')

        def mac(m):
            v = m.group(0)
            if v in ('00:00:00:00:00:00', 'ff:ff:ff:ff:ff:ff'):
                return v
            self.macs.setdefault(v, '<mac:%d>' % (len(self.macs) + 1))
            return self.macs[v]

        def veth(m):
            self.veths.setdefault(m.group(0), '<veth:%d>' % (len(self.veths) + 1))
            return self.veths[m.group(0)]

        s = MAC_RE.sub(mac, s)
        s = VETH_RE.sub(veth, s)
        return s

    def deep(self, v):
        if isinstance(v, str):
            return self.text(v)
        if isinstance(v, list):
            return [self.deep(x) for x in v]
        if isinstance(v, dict):
            return {k: self.deep(x) for k, x in v.items()}
        return v


def norm_ping(s):
    """ping's timings (per-reply time, the total time, the rtt summary); in tcpdump lines the
    ICMP id and the VXLAN source port (a hash of the inner flow)."""
    s = re.sub(r'\bid [0-9]+,', 'id <id>,', s)
    s = re.sub(r'\.[0-9]+ > ([0-9.]+)\.8472:', r'.<sport> > \1.8472:', s)
    s = re.sub(r'time=[0-9.]+ ms', 'time=<t> ms', s)
    s = re.sub(r', time [0-9]+ms', ', time <t>ms', s)
    s = re.sub(r'rtt min/avg/max/mdev = [0-9./]+ ms', 'rtt min/avg/max/mdev = <rtt> ms', s)
    return s


def norm_conntrack(out):
    """conntrack -L: the timeout column, ICMP ids and ephemeral ports (32768 and up) replaced,
    lines sorted (the table's order is a hash)."""
    lines = []
    for l in out.splitlines():
        l = re.sub(r'\bid=[0-9]+', 'id=<id>', l)
        l = re.sub(r'\b(sport|dport)=([0-9]+)', lambda m: m.group(0) if int(m.group(2)) < 32768 else m.group(1) + '=<eport>', l)
        parts = l.split()
        # "<proto> <num> <timeout> ..." (icmp 1 29 src=...)
        if len(parts) > 3 and parts[1].isdigit() and parts[2].isdigit():
            parts[2] = '<timeout>'
        lines.append(' '.join(parts))
    return sorted(lines)


def norm_iptables_save(out):
    return [l for l in out.splitlines() if not l.startswith('#')]


# ---------------------------------------------------------------------------------------------


def cni_add(sb, case, step):
    node, pod = step['node'], step['pod']
    conflist = json.loads(sb.translate(case['conflists'][step['conflist']]))
    prev = None
    invocations = []
    for plugin in conflist['plugins']:
        conf = dict(plugin)
        conf['name'] = conflist['name']
        conf['cniVersion'] = conflist['cniVersion']
        if prev is not None:
            conf['prevResult'] = prev
        caps = plugin.get('capabilities', {})
        if caps.get('portMappings') and step.get('portMappings'):
            conf['runtimeConfig'] = {'portMappings': step['portMappings']}
        env = {
            'CNI_COMMAND': 'ADD', 'CNI_CONTAINERID': step['containerId'],
            'CNI_NETNS': '/var/run/netns/' + sb.real(pod), 'CNI_IFNAME': 'eth0', 'CNI_ARGS': '',
            'CNI_PATH': sb.cni_path, 'PATH': PATH,
        }
        argv = ['ip', 'netns', 'exec', sb.real(node), 'env', '-i'] + ['%s=%s' % kv for kv in env.items()]
        argv.append(os.path.join(sb.cni_path, plugin['type']))
        rc, out, err = sh(argv, input_text=json.dumps(conf, sort_keys=True, separators=(',', ':')))
        invocations.append({'plugin': plugin['type'], 'exitCode': rc})
        if rc != 0:
            return {'ok': False, 'invocations': invocations, 'error': out + err}
        prev = json.loads(out)
    ips = [ip['address'] for ip in prev.get('ips', [])]
    return {'ok': True, 'ips': ips, 'invocations': invocations}


def placement(case):
    """Which node each pod (and extra) namespace belongs to: a pod's node adds it; an extra
    namespace belongs to the first node whose commands name it."""
    out = {}
    for st in case['steps']:
        if 'cni' in st:
            out.setdefault(st['pod'], st['node'])
    for ns in case.get('extraNamespaces', []):
        for st in case['steps']:
            if 'cmd' in st and re.search(r'\b%s\b' % re.escape(ns), st['cmd']):
                out.setdefault(ns, st['node'])
                break
    return out


def record_case(case, flannel):
    sb = Sandbox(flannel)
    n = Normaliser(sb)
    try:
        for ns in case['nodes'] + case.get('extraNamespaces', []) + [p for p in case['pods']]:
            sb.add_ns(ns)
        steps = []
        for st in case['steps']:
            if 'cni' in st:
                res = cni_add(sb, case, st)
                steps.append({**st, 'result': res})
                continue
            rc, out, err = sb.run(st['node'], st['cmd'], timeout=st.get('timeout', 30))
            if st.get('sleep'):
                time.sleep(st['sleep'])
            rec = {**st, 'exitCode': rc, 'stdout': norm_ping(out), 'stderr': norm_ping(err)}
            steps.append(rec)
        after = {}
        for node in case['nodes']:
            _, ipt, _ = sb.run(node, 'iptables-save -c')
            crc, ct, cterr = sb.run(node, 'conntrack -L')
            _, sysctls, _ = sb.run(node, 'sysctl net.ipv4.ip_forward net.bridge.bridge-nf-call-iptables net.ipv4.conf.all.rp_filter net.ipv4.conf.default.rp_filter')
            after[node] = {
                'iptablesSave': norm_iptables_save(ipt),
                'conntrack': {'exitCode': crc, 'entries': norm_conntrack(ct), 'stderr': cterr},
                'sysctls': sysctls.splitlines(),
            }
        _, kernel, _ = sh(['uname', '-r'])
        _, pkg, _ = sh(['dpkg-query', '-W', '-f', '${Version}', 'containernetworking-plugins'])
        doc = {
            'formatVersion': 1,
            'name': case['name'],
            'description': case['description'],
            'notes': case.get('notes', []),
            'recordedWith': {
                'plugins': 'containernetworking-plugins ' + pkg,
                'flannel': 'flannel-io/cni-plugin v1.1.2 (tools/record/traffic/build-flannel.sh)' if flannel else None,
                'kernel': kernel.strip(),
                'tools': 'iputils-ping 20221126, conntrack-tools 1.4.7, iptables-nft 1.8.9, netcat-openbsd 1.219',
                'recorder': 'tools/record/traffic/record.py',
            },
            'nodes': case['nodes'],
            'namespaces': placement(case),
            'pods': case['pods'],
            'extraNamespaces': case.get('extraNamespaces', []),
            'conflists': case['conflists'],
            'steps': steps,
            'after': after,
        }
        if not flannel:
            del doc['recordedWith']['flannel']
        return n.deep(doc)
    finally:
        sb.destroy()


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        sys.exit(2)
    out = args[0]
    flannel = None
    only = None
    i = 1
    while i < len(args):
        if args[i] == '--flannel':
            flannel = os.path.abspath(args[i + 1])
            i += 2
        elif args[i] == '--only':
            only = args[i + 1].split(',')
            i += 2
        else:
            sys.exit('unknown option ' + args[i])
    os.makedirs(out, exist_ok=True)
    for case in CASES:
        if only and case['name'] not in only:
            continue
        if case.get('needsFlannel') and not flannel:
            sys.exit('%s needs --flannel BIN' % case['name'])
        doc = record_case(case, flannel if case.get('needsFlannel') else None)
        with open(os.path.join(out, case['name'] + '.json'), 'w') as f:
            json.dump(doc, f, indent=2, sort_keys=True)
            f.write('\n')
        # the repository's format check covers these files: format them as the iptables recorder does
        sh(['npx', 'prettier', '--write', os.path.join(out, case['name'] + '.json')], timeout=120)
        print('%s:' % case['name'])
        for s in doc['steps']:
            if 'cni' in s:
                print('  cni ADD %s -> %s' % (s['pod'], s['result'].get('ips') or s['result']))
            else:
                print('  [%s] %s -> %s' % (s['node'], s['cmd'][:100], s['exitCode']))


if __name__ == '__main__':
    main()
