/**
 * host-local runs recorded from the real /usr/lib/cni/host-local (containernetworking-plugins
 * 1.1.1+ds1, Debian bookworm): each case ran its operations in order, with
 * `ip netns exec <node> env -i PATH=... CNI_COMMAND=... CNI_CONTAINERID=<cid>
 * CNI_NETNS=/var/run/netns/cnisim-ut-pod CNI_IFNAME=<ifname> CNI_ARGS=<args>
 * CNI_PATH=/usr/lib/cni`, the stdin shown, and a fresh dataDir /tmp/cnisim-ut-hl (prefilled
 * with `prefill`, other files from `files`). `want` is what the binary printed; `after` every
 * file and directory (with its mode) left in the dataDir. Test data only.
 */

export interface HlOp {
  cmd: string;
  cid: string;
  ifname: string;
  args: string;
  stdin: string;
  want: { stdout: string; stderr: string; exitCode: number };
}

export interface HlCase {
  name: string;
  prefill: Record<string, string>;
  files: Record<string, string>;
  ops: HlOp[];
  after: Record<string, string | { data: string; mode: string }>;
}

export const HOST_LOCAL_CASES: HlCase[] = [
  {
    name: 'sequential allocation skips the gateway and stops before the broadcast address',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.2/29",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.3/29",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c3',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.4/29",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c4',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.5/29",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c5',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.6/29",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c6',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "failed to allocate for range 0: no IP addresses available in range set: 10.1.0.1-10.1.0.6"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c7',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "failed to allocate for range 0: no IP addresses available in range set: 10.1.0.1-10.1.0.6"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.2': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.3': {
        data: 'c2\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.4': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.5': {
        data: 'c4\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.6': {
        data: 'c5\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.6',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'rangeStart, rangeEnd and a gateway inside the range',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24", "rangeStart": "10.1.0.10", "rangeEnd": "10.1.0.12", "gateway": "10.1.0.11"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.10/24",\n            "gateway": "10.1.0.11"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24", "rangeStart": "10.1.0.10", "rangeEnd": "10.1.0.12", "gateway": "10.1.0.11"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.12/24",\n            "gateway": "10.1.0.11"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c3',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24", "rangeStart": "10.1.0.10", "rangeEnd": "10.1.0.12", "gateway": "10.1.0.11"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "failed to allocate for range 0: no IP addresses available in range set: 10.1.0.10-10.1.0.12"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.10': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.12': {
        data: 'c2\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.12',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'allocation continues after the last reserved address and wraps around',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.2/29",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.3/29",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'DEL',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c3',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.4/29",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c4',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.5/29",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c5',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.6/29",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c6',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.2/29",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c7',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/29"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "failed to allocate for range 0: no IP addresses available in range set: 10.1.0.1-10.1.0.6"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.2': {
        data: 'c6\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.3': {
        data: 'c2\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.4': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.5': {
        data: 'c4\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.6': {
        data: 'c5\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.2',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'one last_reserved_ip file per range set (dual stack)',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}], [{"subnet": "fd00::/120"}]], "routes": [{"dst": "0.0.0.0/0"}, {"dst": "::/0"}], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.2/24",\n            "gateway": "10.1.0.1"\n        },\n        {\n            "address": "fd00::2/120",\n            "gateway": "fd00::1"\n        }\n    ],\n    "routes": [\n        {\n            "dst": "0.0.0.0/0"\n        },\n        {\n            "dst": "::/0"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}], [{"subnet": "fd00::/120"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.3/24",\n            "gateway": "10.1.0.1"\n        },\n        {\n            "address": "fd00::3/120",\n            "gateway": "fd00::1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.2': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.3': {
        data: 'c2\r\neth0',
        mode: '644',
      },
      'hlnet/fd00::2': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/fd00::3': {
        data: 'c2\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.3',
        mode: '644',
      },
      'hlnet/last_reserved_ip.1': {
        data: 'fd00::3',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'a range set of two ranges is walked range after range',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/30"}, {"subnet": "10.2.0.0/30"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.2/30",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/30"}, {"subnet": "10.2.0.0/30"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.2.0.2/30",\n            "gateway": "10.2.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c3',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/30"}, {"subnet": "10.2.0.0/30"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "failed to allocate for range 0: no IP addresses available in range set: 10.1.0.1-10.1.0.2,10.2.0.1-10.2.0.2"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.2': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/10.2.0.2': {
        data: 'c2\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.2.0.2',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'old-style subnet/gateway keys and routes',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"subnet": "10.3.0.0/16", "gateway": "10.3.0.254", "routes": [{"dst": "0.0.0.0/0"}, {"dst": "192.168.0.0/16", "gw": "10.3.0.1"}], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.3.0.1/16",\n            "gateway": "10.3.0.254"\n        }\n    ],\n    "routes": [\n        {\n            "dst": "0.0.0.0/0"\n        },\n        {\n            "dst": "192.168.0.0/16",\n            "gw": "10.3.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.3.0.1': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.3.0.1',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'IPv6 subnet',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "fd00:1::/64"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "fd00:1::2/64",\n            "gateway": "fd00:1::1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "fd00:1::/64", "rangeStart": "fd00:1::ffff", "rangeEnd": "fd00:1::1:1"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "fd00:1::ffff/64",\n            "gateway": "fd00:1::1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/fd00:1::2': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/fd00:1::ffff': {
        data: 'c2\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: 'fd00:1::ffff',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'requested IP through CNI_ARGS',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: 'IP=10.1.0.20',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.20/24",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: 'IP=10.1.0.20',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "failed to allocate for range 0: requested IP address 10.1.0.20 is not available in range set 10.1.0.1-10.1.0.254"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c3',
        ifname: 'eth0',
        args: 'IgnoreUnknown=1;K8S_POD_NAME=x;IP=10.1.0.21',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.21/24",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c4',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.22/24",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.20': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.21': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.22': {
        data: 'c4\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.22',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'requested IP through runtimeConfig.ips',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}, "runtimeConfig": {"ips": ["10.1.0.30"]}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.30/24",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}, "runtimeConfig": {"ips": ["10.1.0.31/24"]}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.31/24",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.30': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.31': {
        data: 'c2\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.31',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'requested IP through args.cni.ips',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}, "args": {"cni": {"ips": ["10.1.0.40"]}}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.40/24",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.40': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.40',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'requested IPs for both families',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}], [{"subnet": "fd00::/120"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}, "runtimeConfig": {"ips": ["fd00::50", "10.1.0.50"]}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.50/24",\n            "gateway": "10.1.0.1"\n        },\n        {\n            "address": "fd00::50/120",\n            "gateway": "fd00::1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.50': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/fd00::50': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'hlnet/last_reserved_ip.1': {
        data: 'fd00::50',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'requested IP errors',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: 'IP=10.1.0.1',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "failed to allocate for range 0: requested ip 10.1.0.1 is subnet\'s gateway"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: 'IP=10.9.0.1',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "failed to allocate all requested IPs: 10.9.0.1"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c3',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}], [{"subnet": "fd00::/120"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}, "runtimeConfig": {"ips": ["10.1.0.60", "10.9.0.1"]}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "failed to allocate all requested IPs: 10.9.0.1"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.60',
        mode: '644',
      },
      'hlnet/last_reserved_ip.1': {
        data: 'fd00::2',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'duplicate allocation for the same container and interface',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.2/24",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "failed to allocate for range 0: 10.1.0.2 has been allocated to c1, duplicate allocation is not allowed"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth1',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.3/24",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.2': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.3': {
        data: 'c1\r\neth1',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.3',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'DEL releases by container id and interface, then by container id alone',
    prefill: {
      'hlnet/10.1.0.7': 'c9\r\neth1',
      'hlnet/10.1.0.8': 'c9',
      'hlnet/10.1.0.9': 'c9\r\neth0',
      'hlnet/10.1.0.10': 'c8',
    },
    files: {},
    ops: [
      {
        cmd: 'DEL',
        cid: 'c9',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'DEL',
        cid: 'c9',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'DEL',
        cid: 'c8',
        ifname: 'eth3',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '',
          stderr: '',
          exitCode: 0,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.7': {
        data: 'c9\r\neth1',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'DEL is idempotent and CHECK finds the reservation',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'DEL',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.2/24",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'CHECK',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'CHECK',
        cid: 'c2',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "host-local: Failed to find address added by container c2"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'CHECK',
        cid: 'c1',
        ifname: 'eth1',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "host-local: Failed to find address added by container c1"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'DEL',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'DEL',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'CHECK',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "host-local: Failed to find address added by container c1"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.2',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'result versions',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "0.3.1", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}], [{"subnet": "fd00::/120"}]], "routes": [{"dst": "0.0.0.0/0"}], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "0.3.1",\n    "ips": [\n        {\n            "version": "4",\n            "address": "10.1.0.2/24",\n            "gateway": "10.1.0.1"\n        },\n        {\n            "version": "6",\n            "address": "fd00::2/120",\n            "gateway": "fd00::1"\n        }\n    ],\n    "routes": [\n        {\n            "dst": "0.0.0.0/0"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "0.2.0", "name": "hlnet", "type": "host-local", "ipam": {"subnet": "10.1.0.0/24", "routes": [{"dst": "0.0.0.0/0"}], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "0.2.0",\n    "ip4": {\n        "ip": "10.1.0.3/24",\n        "gateway": "10.1.0.1",\n        "routes": [\n            {\n                "dst": "0.0.0.0/0"\n            }\n        ]\n    },\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c3',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "0.1.0", "name": "hlnet", "type": "host-local", "ipam": {"subnet": "10.1.0.0/24", "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "0.1.0",\n    "ip4": {\n        "ip": "10.1.0.4/24",\n        "gateway": "10.1.0.1"\n    },\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c4',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "0.2.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}], [{"subnet": "fd00::/120"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "0.2.0",\n    "ip4": {\n        "ip": "10.1.0.5/24",\n        "gateway": "10.1.0.1"\n    },\n    "ip6": {\n        "ip": "fd00::3/120",\n        "gateway": "fd00::1"\n    },\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c5',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "0.4.0", "name": "hlnet", "type": "host-local", "ipam": {"subnet": "fd00::/120", "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "0.4.0",\n    "ips": [\n        {\n            "version": "6",\n            "address": "fd00::4/120",\n            "gateway": "fd00::1"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.2': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.3': {
        data: 'c2\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.4': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.5': {
        data: 'c4\r\neth0',
        mode: '644',
      },
      'hlnet/fd00::2': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/fd00::3': {
        data: 'c4\r\neth0',
        mode: '644',
      },
      'hlnet/fd00::4': {
        data: 'c5\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: 'fd00::4',
        mode: '644',
      },
      'hlnet/last_reserved_ip.1': {
        data: 'fd00::3',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'resolvConf',
    prefill: {},
    files: {
      '/tmp/cnisim-ut-hl-resolv.conf':
        '# comment\nnameserver 10.0.0.10\nnameserver 10.0.0.11\ndomain example.com\nsearch a.example.com b.example.com\noptions ndots:5 timeout:1\n; other\n',
    },
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"subnet": "10.1.0.0/24", "resolvConf": "/tmp/cnisim-ut-hl-resolv.conf", "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.2/24",\n            "gateway": "10.1.0.1"\n        }\n    ],\n    "dns": {\n        "nameservers": [\n            "10.0.0.10",\n            "10.0.0.11"\n        ],\n        "domain": "example.com",\n        "search": [\n            "a.example.com",\n            "b.example.com"\n        ],\n        "options": [\n            "ndots:5",\n            "timeout:1"\n        ]\n    }\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"subnet": "10.1.0.0/24", "resolvConf": "/tmp/cnisim-ut-hl-missing.conf", "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "open /tmp/cnisim-ut-hl-missing.conf: no such file or directory"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.2': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.2',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    name: 'config errors',
    prefill: {},
    files: {},
    ops: [
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin: '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local"}',
        want: {
          stdout: '{\n    "code": 999,\n    "msg": "IPAM config missing \'ipam\' key"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '{\n    "code": 999,\n    "msg": "no IP ranges specified"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"subnet": "10.1.0.0/33", "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '{\n    "code": 999,\n    "msg": "invalid CIDR address: 10.1.0.0/33"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"subnet": "10.1.0.1/24", "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "invalid range set 0: Network has host bits set. For a subnet mask of length 24 the network address is 10.1.0.0"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"subnet": "10.1.0.0/31", "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "invalid range set 0: Network 10.1.0.0/31 too small to allocate from"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"subnet": "fd00::/127", "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "invalid range set 0: Network fd00::/127 too small to allocate from"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24", "rangeStart": "10.2.0.1"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "invalid range set 0: RangeStart 10.2.0.1 not in network 10.1.0.0/24"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24", "rangeEnd": "10.2.0.1"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "invalid range set 0: RangeEnd 10.2.0.1 not in network 10.1.0.0/24"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24", "rangeStart": "10.1.0.50", "rangeEnd": "10.1.0.40"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "invalid range set 0: RangeStart 10.1.0.50 not in network 10.1.0.0/24"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}, {"subnet": "fd00::/120"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "invalid range set 0: mixed address families"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}, {"subnet": "10.1.0.0/25"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "invalid range set 0: subnets 10.1.0.1-10.1.0.254 and 10.1.0.1-10.1.0.126 overlap"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}], [{"subnet": "10.1.0.128/25"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '{\n    "code": 999,\n    "msg": "range set 0 overlaps with 1"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "0.2.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}], [{"subnet": "10.2.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "CNI version 0.2.0 does not support more than 1 address per family"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '{\n    "code": 999,\n    "msg": "invalid range set 0: empty range set"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "invalid range set 0: IP \\u003cnil\\u003e not v4 nor v6"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '{\n    "code": 999,\n    "msg": "no IP ranges specified"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24", "gateway": "10.9.9.9"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "cniVersion": "1.0.0",\n    "ips": [\n        {\n            "address": "10.1.0.1/24",\n            "gateway": "10.9.9.9"\n        }\n    ],\n    "dns": {}\n}',
          stderr: '',
          exitCode: 0,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24", "rangeStart": "x"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '{\n    "code": 999,\n    "msg": "invalid IP address: x"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": 5, "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "json: cannot unmarshal number into Go struct field IPAMConfig.ipam.ranges of type []allocator.RangeSet"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"subnet": "10.1.0.0/24", "routes": [{"dst": "x"}], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '{\n    "code": 999,\n    "msg": "invalid CIDR address: x"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c1',
        ifname: 'eth0',
        args: '',
        stdin: '{"cniVersion":"1.0.0","name":"hlnet","type":"host-local","ipam":5}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "json: cannot unmarshal number into Go struct field Net.ipam of type allocator.IPAMConfig"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: 'IP=x',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "ARGS: error parsing value of pair \\"IP=x\\": invalid IP address x"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: 'FOO=bar',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '{\n    "code": 999,\n    "msg": "ARGS: unknown args [\\"FOO=bar\\"]"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: 'CommonArgs=1',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "ARGS: cannot unmarshal into field \'CommonArgs\' - type \'*types.CommonArgs\' does not implement encoding.TextUnmarshaler"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: 'IP=10.1.0.5/33',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout:
            '{\n    "code": 999,\n    "msg": "ARGS: error parsing value of pair \\"IP=10.1.0.5/33\\": invalid IP address 10.1.0.5/33"\n}',
          stderr: '',
          exitCode: 1,
        },
      },
      {
        cmd: 'ADD',
        cid: 'c2',
        ifname: 'eth0',
        args: 'IP',
        stdin:
          '{"cniVersion": "1.0.0", "name": "hlnet", "type": "host-local", "ipam": {"ranges": [[{"subnet": "10.1.0.0/24"}]], "type": "host-local", "dataDir": "/tmp/cnisim-ut-hl"}}',
        want: {
          stdout: '{\n    "code": 999,\n    "msg": "ARGS: invalid pair \\"IP\\""\n}',
          stderr: '',
          exitCode: 1,
        },
      },
    ],
    after: {
      'hlnet/': '755',
      'hlnet/10.1.0.1': {
        data: 'c1\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.1',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
];
