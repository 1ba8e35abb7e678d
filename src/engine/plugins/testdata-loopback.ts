/**
 * loopback runs recorded from the real /usr/lib/cni/loopback (containernetworking-plugins
 * 1.1.1+ds1, Debian bookworm), in the same way and with the same step kinds as
 * testdata-bridge.ts (fresh namespaces per scenario; pods made with `ip netns add`, lo down;
 * MACs numbered the same way).
 * Test data only.
 */
import type { ScenarioStep } from './testdata';

export const LOOPBACK_SCENARIOS: Array<{ name: string; steps: ScenarioStep[]; want: unknown[] }> = [
  {
    name: 'ADD, CHECK, DEL, DEL again',
    steps: [
      {
        t: 'ping',
        pod: 'cnisim-ut-pod-a',
        dst: '127.0.0.1',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'ADD',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "1.0.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
      },
      {
        t: 'snap',
        ns: ['cnisim-ut-pod-a'],
        files: false,
      },
      {
        t: 'ping',
        pod: 'cnisim-ut-pod-a',
        dst: '127.0.0.1',
      },
      {
        t: 'ping',
        pod: 'cnisim-ut-pod-a',
        dst: '::1',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'CHECK',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "1.0.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'DEL',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "1.0.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
      },
      {
        t: 'snap',
        ns: ['cnisim-ut-pod-a'],
        files: false,
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'CHECK',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "1.0.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'DEL',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "1.0.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'DEL',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "1.0.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
        netns: '',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'DEL',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "1.0.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
        netns: '/var/run/netns/cnisim-ut-nope',
      },
    ],
    want: [
      {
        exitCode: 2,
      },
      {
        exitCode: 0,
        stderr: '',
        stdout:
          '{\n    "cniVersion": "1.0.0",\n    "interfaces": [\n        {\n            "name": "lo",\n            "mac": "00:00:00:00:00:00",\n            "sandbox": "/var/run/netns/cnisim-ut-pod-a"\n        }\n    ],\n    "ips": [\n        {\n            "interface": 0,\n            "address": "127.0.0.1/8"\n        },\n        {\n            "interface": 0,\n            "address": "::1/128"\n        }\n    ],\n    "dns": {}\n}',
      },
      {
        ns: {
          'cnisim-ut-pod-a': {
            links: [
              {
                addrs: [
                  {
                    broadcast: null,
                    family: 'inet',
                    local: '127.0.0.1',
                    prefixlen: 8,
                    scope: 'host',
                  },
                  {
                    broadcast: null,
                    family: 'inet6',
                    local: '::1',
                    prefixlen: 128,
                    scope: 'host',
                  },
                ],
                flags: ['LOOPBACK', 'LOWER_UP', 'UP'],
                hairpin: null,
                ifindex: 1,
                kind: 'loopback',
                mac: '00:00:00:00:00:00',
                master: null,
                mtu: 65536,
                name: 'lo',
                operstate: 'UNKNOWN',
                portState: null,
                promiscuity: 0,
              },
            ],
            routes4: [],
            routes6: [],
          },
        },
      },
      {
        exitCode: 0,
      },
      {
        exitCode: 0,
      },
      {
        exitCode: 0,
        stderr: '',
        stdout: '',
      },
      {
        exitCode: 0,
        stderr: '',
        stdout: '',
      },
      {
        ns: {
          'cnisim-ut-pod-a': {
            links: [
              {
                addrs: [
                  {
                    broadcast: null,
                    family: 'inet',
                    local: '127.0.0.1',
                    prefixlen: 8,
                    scope: 'host',
                  },
                ],
                flags: ['LOOPBACK'],
                hairpin: null,
                ifindex: 1,
                kind: 'loopback',
                mac: '00:00:00:00:00:00',
                master: null,
                mtu: 65536,
                name: 'lo',
                operstate: 'DOWN',
                portState: null,
                promiscuity: 0,
              },
            ],
            routes4: [],
            routes6: [],
          },
        },
      },
      {
        exitCode: 1,
        stderr: '',
        stdout: '{\n    "code": 999,\n    "msg": "loopback interface is down"\n}',
      },
      {
        exitCode: 0,
        stderr: '',
        stdout: '',
      },
      {
        exitCode: 0,
        stderr: '',
        stdout: '',
      },
      {
        exitCode: 0,
        stderr: '',
        stdout: '',
      },
    ],
  },
  {
    name: 'ADD with a prevResult returns it',
    steps: [
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'ADD',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "1.0.0", "name": "lonet", "type": "loopback", "prevResult": {"cniVersion": "1.0.0", "interfaces": [{"name": "eth0", "mac": "0a:58:0a:16:00:02", "sandbox": "/var/run/netns/x"}], "ips": [{"interface": 0, "address": "10.22.0.2/24", "gateway": "10.22.0.1"}], "dns": {}}}',
        ifname: 'eth0',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'ADD',
        pod: 'cnisim-ut-pod-b',
        cid: 'c1',
        conf: '{"cniVersion": "0.4.0", "name": "lonet", "type": "loopback", "prevResult": {"cniVersion": "0.4.0", "ips": [{"version": "4", "address": "10.22.0.2/24"}]}}',
        ifname: 'eth0',
      },
    ],
    want: [
      {
        exitCode: 0,
        stderr: '',
        stdout:
          '{\n    "cniVersion": "1.0.0",\n    "interfaces": [\n        {\n            "name": "eth0",\n            "mac": "<mac:1>",\n            "sandbox": "/var/run/netns/x"\n        }\n    ],\n    "ips": [\n        {\n            "interface": 0,\n            "address": "10.22.0.2/24",\n            "gateway": "10.22.0.1"\n        }\n    ],\n    "dns": {}\n}',
      },
      {
        exitCode: 0,
        stderr: '',
        stdout:
          '{\n    "cniVersion": "0.4.0",\n    "ips": [\n        {\n            "version": "4",\n            "address": "10.22.0.2/24"\n        }\n    ],\n    "dns": {}\n}',
      },
    ],
  },
  {
    name: 'result versions',
    steps: [
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'ADD',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "0.3.1", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'ADD',
        pod: 'cnisim-ut-pod-b',
        cid: 'c1',
        conf: '{"cniVersion": "0.2.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'ADD',
        pod: 'cnisim-ut-pod-a',
        cid: 'c2',
        conf: '{"cniVersion": "0.1.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'ADD',
        pod: 'cnisim-ut-pod-b',
        cid: 'c2',
        conf: '{"cniVersion": "0.4.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
      },
    ],
    want: [
      {
        exitCode: 0,
        stderr: '',
        stdout:
          '{\n    "cniVersion": "0.3.1",\n    "interfaces": [\n        {\n            "name": "lo",\n            "mac": "00:00:00:00:00:00",\n            "sandbox": "/var/run/netns/cnisim-ut-pod-a"\n        }\n    ],\n    "ips": [\n        {\n            "interface": 0,\n            "address": "127.0.0.1/8"\n        },\n        {\n            "interface": 0,\n            "address": "::1/128"\n        }\n    ],\n    "dns": {}\n}',
      },
      {
        exitCode: 0,
        stderr: '',
        stdout:
          '{\n    "cniVersion": "0.2.0",\n    "interfaces": [\n        {\n            "name": "lo",\n            "mac": "00:00:00:00:00:00",\n            "sandbox": "/var/run/netns/cnisim-ut-pod-b"\n        }\n    ],\n    "ips": [\n        {\n            "interface": 0,\n            "address": "127.0.0.1/8"\n        },\n        {\n            "interface": 0,\n            "address": "::1/128"\n        }\n    ],\n    "dns": {}\n}',
      },
      {
        exitCode: 0,
        stderr: '',
        stdout:
          '{\n    "cniVersion": "0.1.0",\n    "interfaces": [\n        {\n            "name": "lo",\n            "mac": "00:00:00:00:00:00",\n            "sandbox": "/var/run/netns/cnisim-ut-pod-a"\n        }\n    ],\n    "ips": [\n        {\n            "interface": 0,\n            "address": "127.0.0.1/8"\n        },\n        {\n            "interface": 0,\n            "address": "::1/128"\n        }\n    ],\n    "dns": {}\n}',
      },
      {
        exitCode: 0,
        stderr: '',
        stdout:
          '{\n    "cniVersion": "0.4.0",\n    "interfaces": [\n        {\n            "name": "lo",\n            "mac": "00:00:00:00:00:00",\n            "sandbox": "/var/run/netns/cnisim-ut-pod-b"\n        }\n    ],\n    "ips": [\n        {\n            "interface": 0,\n            "address": "127.0.0.1/8"\n        },\n        {\n            "interface": 0,\n            "address": "::1/128"\n        }\n    ],\n    "dns": {}\n}',
      },
    ],
  },
  {
    name: 'errors',
    steps: [
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'ADD',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "1.0.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
        netns: '/var/run/netns/cnisim-ut-nope',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'CHECK',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "1.0.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
        netns: '/var/run/netns/cnisim-ut-nope',
      },
      {
        t: 'ip',
        ns: 'cnisim-ut-pod-a',
        args: 'addr add 10.0.0.1/8 dev lo',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'ADD',
        pod: 'cnisim-ut-pod-a',
        cid: 'c1',
        conf: '{"cniVersion": "1.0.0", "name": "lonet", "type": "loopback"}',
        ifname: 'eth0',
      },
      {
        t: 'snap',
        ns: ['cnisim-ut-pod-a'],
        files: false,
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'ADD',
        pod: 'cnisim-ut-pod-b',
        cid: 'c1',
        conf: '{"cniVersion":"1.0.0","name":"lonet","type":"loopback","prevResult":{"cniVersion":"1.0.0","ips":[{"address":"10.1"}]}}',
        ifname: 'eth0',
      },
      {
        t: 'run',
        plugin: 'loopback',
        cmd: 'ADD',
        pod: 'cnisim-ut-pod-b',
        cid: 'c1',
        conf: '{"cniVersion":"1.0.0","name":"lonet","type":"loopback","dns":5}',
        ifname: 'eth0',
      },
    ],
    want: [
      {
        exitCode: 1,
        stderr: '',
        stdout:
          '{\n    "code": 999,\n    "msg": "failed to Statfs \\"/var/run/netns/cnisim-ut-nope\\": no such file or directory"\n}',
      },
      {
        exitCode: 1,
        stderr: '',
        stdout:
          '{\n    "code": 999,\n    "msg": "failed to Statfs \\"/var/run/netns/cnisim-ut-nope\\": no such file or directory"\n}',
      },
      {
        exitCode: 0,
      },
      {
        exitCode: 1,
        stderr: '',
        stdout:
          '{\n    "code": 999,\n    "msg": "loopback interface found with non-loopback address \\"10.0.0.1\\""\n}',
      },
      {
        ns: {
          'cnisim-ut-pod-a': {
            links: [
              {
                addrs: [
                  {
                    broadcast: null,
                    family: 'inet',
                    local: '127.0.0.1',
                    prefixlen: 8,
                    scope: 'host',
                  },
                  {
                    broadcast: null,
                    family: 'inet',
                    local: '10.0.0.1',
                    prefixlen: 8,
                    scope: 'global',
                  },
                  {
                    broadcast: null,
                    family: 'inet6',
                    local: '::1',
                    prefixlen: 128,
                    scope: 'host',
                  },
                ],
                flags: ['LOOPBACK', 'LOWER_UP', 'UP'],
                hairpin: null,
                ifindex: 1,
                kind: 'loopback',
                mac: '00:00:00:00:00:00',
                master: null,
                mtu: 65536,
                name: 'lo',
                operstate: 'UNKNOWN',
                portState: null,
                promiscuity: 0,
              },
            ],
            routes4: [],
            routes6: [],
          },
        },
      },
      {
        exitCode: 1,
        stderr: '',
        stdout:
          '{\n    "code": 999,\n    "msg": "failed to parse prevResult: could not parse prevResult: invalid CIDR address: 10.1"\n}',
      },
      {
        exitCode: 1,
        stderr: '',
        stdout:
          '{\n    "code": 999,\n    "msg": "failed to parse network config: json: cannot unmarshal number into Go struct field NetConf.dns of type types.DNS"\n}',
      },
    ],
  },
];
