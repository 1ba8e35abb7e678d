/**
 * Expected outcomes of libcni v1.1.2 (the real library, GOPATH=/usr/share/gocode) driving the real
 * /usr/lib/cni/host-local: a Go program ran the steps of api.test.ts in order inside a throw-away
 * network namespace with cache dir /tmp/cnisim-ut-api/cache and host-local dataDir
 * /tmp/cnisim-ut-api/data, spying on every plugin exec (environment and stdin), and recorded
 * after each step the error (and its *types.Error code), the result, and every file with its
 * mode under both directories ("x/" keys are directories). Test data only.
 */

export interface ApiCall {
  env: Record<string, string>;
  stdin: string;
  plugin: string;
}

export type FileTree = Record<string, string | { data: string; mode: string }>;

export interface ApiStep {
  label: string;
  error: string;
  code: number | null;
  result: string;
  calls: ApiCall[];
  cache: FileTree;
  data: FileTree;
  supportedVersions?: string[];
}

export const API_STEPS: ApiStep[] = [
  {
    label: 'add',
    error: '',
    code: null,
    result:
      '{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.2/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{}}',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'ADD',
          CNI_CONTAINERID: 'c1',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
      'results/hlnet-c1-eth0': {
        data: '{"kind":"cniCacheV1","containerId":"c1","config":"eyJjbmlWZXJzaW9uIjoiMS4wLjAiLCJuYW1lIjoiaGxuZXQiLCJwbHVnaW5zIjpbeyJ0eXBlIjoiaG9zdC1sb2NhbCIsImlwYW0iOnsidHlwZSI6Imhvc3QtbG9jYWwiLCJkYXRhRGlyIjoiL3RtcC9jbmlzaW0tdXQtYXBpL2RhdGEiLCJyYW5nZXMiOltbeyJzdWJuZXQiOiIxMC4xLjAuMC8yNCJ9XV0sInJvdXRlcyI6W3siZHN0IjoiMC4wLjAuMC8wIn1dfX1dfQ==","ifName":"eth0","networkName":"hlnet","result":{"cniVersion":"1.0.0","dns":{},"ips":[{"address":"10.1.0.2/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}]}}',
        mode: '600',
      },
    },
    data: {
      './': '755',
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
    label: 'check',
    error: '',
    code: null,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'CHECK',
          CNI_CONTAINERID: 'c1',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","prevResult":{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.2/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{}},"type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
      'results/hlnet-c1-eth0': {
        data: '{"kind":"cniCacheV1","containerId":"c1","config":"eyJjbmlWZXJzaW9uIjoiMS4wLjAiLCJuYW1lIjoiaGxuZXQiLCJwbHVnaW5zIjpbeyJ0eXBlIjoiaG9zdC1sb2NhbCIsImlwYW0iOnsidHlwZSI6Imhvc3QtbG9jYWwiLCJkYXRhRGlyIjoiL3RtcC9jbmlzaW0tdXQtYXBpL2RhdGEiLCJyYW5nZXMiOltbeyJzdWJuZXQiOiIxMC4xLjAuMC8yNCJ9XV0sInJvdXRlcyI6W3siZHN0IjoiMC4wLjAuMC8wIn1dfX1dfQ==","ifName":"eth0","networkName":"hlnet","result":{"cniVersion":"1.0.0","dns":{},"ips":[{"address":"10.1.0.2/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}]}}',
        mode: '600',
      },
    },
    data: {
      './': '755',
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
    label: 'check as 0.4.0 (cached result converted)',
    error: '',
    code: null,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'CHECK',
          CNI_CONTAINERID: 'c1',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"0.4.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","prevResult":{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.1.0.2/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{}},"type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
      'results/hlnet-c1-eth0': {
        data: '{"kind":"cniCacheV1","containerId":"c1","config":"eyJjbmlWZXJzaW9uIjoiMS4wLjAiLCJuYW1lIjoiaGxuZXQiLCJwbHVnaW5zIjpbeyJ0eXBlIjoiaG9zdC1sb2NhbCIsImlwYW0iOnsidHlwZSI6Imhvc3QtbG9jYWwiLCJkYXRhRGlyIjoiL3RtcC9jbmlzaW0tdXQtYXBpL2RhdGEiLCJyYW5nZXMiOltbeyJzdWJuZXQiOiIxMC4xLjAuMC8yNCJ9XV0sInJvdXRlcyI6W3siZHN0IjoiMC4wLjAuMC8wIn1dfX1dfQ==","ifName":"eth0","networkName":"hlnet","result":{"cniVersion":"1.0.0","dns":{},"ips":[{"address":"10.1.0.2/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}]}}',
        mode: '600',
      },
    },
    data: {
      './': '755',
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
    label: 'del',
    error: '',
    code: null,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'DEL',
          CNI_CONTAINERID: 'c1',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","prevResult":{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.2/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{}},"type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
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
    label: 'del again',
    error: '',
    code: null,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'DEL',
          CNI_CONTAINERID: 'c1',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
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
    label: 'add with args and capability args',
    error: '',
    code: null,
    result:
      '{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.50/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{}}',
    calls: [
      {
        env: {
          CNI_ARGS: 'IgnoreUnknown=1;K8S_POD_NAME=p2',
          CNI_COMMAND: 'ADD',
          CNI_CONTAINERID: 'c2',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"capabilities":{"bandwidth":true,"ips":true,"portMappings":false},"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"capnet","runtimeConfig":{"ips":["10.1.0.50"]},"type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
      'results/capnet-c2-eth0': {
        data: '{"kind":"cniCacheV1","containerId":"c2","config":"eyJjbmlWZXJzaW9uIjoiMS4wLjAiLCJuYW1lIjoiY2FwbmV0IiwicGx1Z2lucyI6W3sidHlwZSI6Imhvc3QtbG9jYWwiLCJjYXBhYmlsaXRpZXMiOnsiaXBzIjp0cnVlLCJwb3J0TWFwcGluZ3MiOmZhbHNlLCJiYW5kd2lkdGgiOnRydWV9LCJpcGFtIjp7InR5cGUiOiJob3N0LWxvY2FsIiwiZGF0YURpciI6Ii90bXAvY25pc2ltLXV0LWFwaS9kYXRhIiwicmFuZ2VzIjpbW3sic3VibmV0IjoiMTAuMS4wLjAvMjQifV1dLCJyb3V0ZXMiOlt7ImRzdCI6IjAuMC4wLjAvMCJ9XX19XX0=","ifName":"eth0","networkName":"capnet","cniArgs":[["IgnoreUnknown","1"],["K8S_POD_NAME","p2"]],"capabilityArgs":{"ips":["10.1.0.50"],"portMappings":[{"containerPort":80,"hostPort":8080,"protocol":"tcp"}],"zeta":"z"},"result":{"cniVersion":"1.0.0","dns":{},"ips":[{"address":"10.1.0.50/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}]}}',
        mode: '600',
      },
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/10.1.0.50': {
        data: 'c2\r\neth0',
        mode: '644',
      },
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
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
    label: 'del with args',
    error: '',
    code: null,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: 'IgnoreUnknown=1;K8S_POD_NAME=p2',
          CNI_COMMAND: 'DEL',
          CNI_CONTAINERID: 'c2',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"capabilities":{"bandwidth":true,"ips":true,"portMappings":false},"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"capnet","prevResult":{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.50/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{}},"type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
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
    label: 'add twice (second fails)',
    error:
      'plugin type="host-local" name="second" failed (add): failed to allocate for range 0: 10.1.0.3 has been allocated to c3, duplicate allocation is not allowed',
    code: 999,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'ADD',
          CNI_CONTAINERID: 'c3',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","subnet":"10.1.0.0/24","type":"host-local"},"name":"hlnet","type":"host-local"}',
        plugin: 'host-local',
      },
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'ADD',
          CNI_CONTAINERID: 'c3',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","subnet":"10.1.0.0/24","type":"host-local"},"name":"hlnet","prevResult":{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.3/24","gateway":"10.1.0.1"}],"dns":{}},"type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
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
    label: 'add c4',
    error: '',
    code: null,
    result:
      '{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.4/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{}}',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'ADD',
          CNI_CONTAINERID: 'c4',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
      'results/hlnet-c4-eth0': {
        data: '{"kind":"cniCacheV1","containerId":"c4","config":"eyJjbmlWZXJzaW9uIjoiMS4wLjAiLCJuYW1lIjoiaGxuZXQiLCJwbHVnaW5zIjpbeyJ0eXBlIjoiaG9zdC1sb2NhbCIsImlwYW0iOnsidHlwZSI6Imhvc3QtbG9jYWwiLCJkYXRhRGlyIjoiL3RtcC9jbmlzaW0tdXQtYXBpL2RhdGEiLCJyYW5nZXMiOltbeyJzdWJuZXQiOiIxMC4xLjAuMC8yNCJ9XV0sInJvdXRlcyI6W3siZHN0IjoiMC4wLjAuMC8wIn1dfX1dfQ==","ifName":"eth0","networkName":"hlnet","result":{"cniVersion":"1.0.0","dns":{},"ips":[{"address":"10.1.0.4/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}]}}',
        mode: '600',
      },
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.4': {
        data: 'c4\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.4',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'del with missing plugin',
    error:
      'plugin type="missing" failed (delete): failed to find plugin "missing" in path [/usr/lib/cni]',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
      'results/hlnet-c4-eth0': {
        data: '{"kind":"cniCacheV1","containerId":"c4","config":"eyJjbmlWZXJzaW9uIjoiMS4wLjAiLCJuYW1lIjoiaGxuZXQiLCJwbHVnaW5zIjpbeyJ0eXBlIjoiaG9zdC1sb2NhbCIsImlwYW0iOnsidHlwZSI6Imhvc3QtbG9jYWwiLCJkYXRhRGlyIjoiL3RtcC9jbmlzaW0tdXQtYXBpL2RhdGEiLCJyYW5nZXMiOltbeyJzdWJuZXQiOiIxMC4xLjAuMC8yNCJ9XV0sInJvdXRlcyI6W3siZHN0IjoiMC4wLjAuMC8wIn1dfX1dfQ==","ifName":"eth0","networkName":"hlnet","result":{"cniVersion":"1.0.0","dns":{},"ips":[{"address":"10.1.0.4/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}]}}',
        mode: '600',
      },
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.4': {
        data: 'c4\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.4',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'del c4',
    error: '',
    code: null,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'DEL',
          CNI_CONTAINERID: 'c4',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","prevResult":{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.4/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{}},"type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.4',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'add c5',
    error: '',
    code: null,
    result:
      '{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.5/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{}}',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'ADD',
          CNI_CONTAINERID: 'c5',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
      'results/hlnet-c5-eth0': {
        data: '{"kind":"cniCacheV1","containerId":"c5","config":"eyJjbmlWZXJzaW9uIjoiMS4wLjAiLCJuYW1lIjoiaGxuZXQiLCJwbHVnaW5zIjpbeyJ0eXBlIjoiaG9zdC1sb2NhbCIsImlwYW0iOnsidHlwZSI6Imhvc3QtbG9jYWwiLCJkYXRhRGlyIjoiL3RtcC9jbmlzaW0tdXQtYXBpL2RhdGEiLCJyYW5nZXMiOltbeyJzdWJuZXQiOiIxMC4xLjAuMC8yNCJ9XV0sInJvdXRlcyI6W3siZHN0IjoiMC4wLjAuMC8wIn1dfX1dfQ==","ifName":"eth0","networkName":"hlnet","result":{"cniVersion":"1.0.0","dns":{},"ips":[{"address":"10.1.0.5/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}]}}',
        mode: '600',
      },
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.5': {
        data: 'c5\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.5',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'del with corrupt cache',
    error:
      'failed to get network "hlnet" cached result: decoding version from network config: unexpected end of JSON input',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
      'results/hlnet-c5-eth0': {
        data: '{',
        mode: '600',
      },
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.5': {
        data: 'c5\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.5',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'check with corrupt cache',
    error:
      'failed to get network "hlnet" cached result: decoding version from network config: unexpected end of JSON input',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
      'results/hlnet-c5-eth0': {
        data: '{',
        mode: '600',
      },
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.5': {
        data: 'c5\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.5',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'del with invalid cached result',
    error: 'failed to get network "hlnet" cached result: invalid CIDR address: 10.1',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
      'results/hlnet-c5-eth0': {
        data: '{"kind":"cniCacheV1","result":{"cniVersion":"1.0.0","ips":[{"address":"10.1"}]}}',
        mode: '600',
      },
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.5': {
        data: 'c5\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.5',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'del with a legacy (bare result) cache file',
    error: '',
    code: null,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'DEL',
          CNI_CONTAINERID: 'c5',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","prevResult":{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.9/24"}],"dns":{}},"type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.5',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'check 0.3.1',
    error: 'configuration version "0.3.1" does not support the CHECK command',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.5',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'check empty version',
    error: 'configuration version "" does not support the CHECK command',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.5',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'check version x',
    error: 'failed to convert major version part "x": strconv.Atoi: parsing "x": invalid syntax',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.5',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'check disableCheck',
    error: '',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.5',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'check without cache',
    error: 'host-local: Failed to find address added by container c9',
    code: 999,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'CHECK',
          CNI_CONTAINERID: 'c9',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"1.0.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.5',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'del version x',
    error: 'failed to convert major version part "x": strconv.Atoi: parsing "x": invalid syntax',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/last_reserved_ip.0': {
        data: '10.1.0.5',
        mode: '644',
      },
      'hlnet/lock': {
        data: '',
        mode: '750',
      },
    },
  },
  {
    label: 'add 0.3.1',
    error: '',
    code: null,
    result:
      '{"cniVersion":"0.3.1","ips":[{"version":"4","address":"10.1.0.6/24","gateway":"10.1.0.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{}}',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'ADD',
          CNI_CONTAINERID: 'c7',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"0.3.1","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
      'results/hlnet-c7-eth0': {
        data: '{"kind":"cniCacheV1","containerId":"c7","config":"eyJjbmlWZXJzaW9uIjoiMC4zLjEiLCJuYW1lIjoiaGxuZXQiLCJwbHVnaW5zIjpbeyJ0eXBlIjoiaG9zdC1sb2NhbCIsImlwYW0iOnsidHlwZSI6Imhvc3QtbG9jYWwiLCJkYXRhRGlyIjoiL3RtcC9jbmlzaW0tdXQtYXBpL2RhdGEiLCJyYW5nZXMiOltbeyJzdWJuZXQiOiIxMC4xLjAuMC8yNCJ9XV0sInJvdXRlcyI6W3siZHN0IjoiMC4wLjAuMC8wIn1dfX1dfQ==","ifName":"eth0","networkName":"hlnet","result":{"cniVersion":"0.3.1","dns":{},"ips":[{"address":"10.1.0.6/24","gateway":"10.1.0.1","version":"4"}],"routes":[{"dst":"0.0.0.0/0"}]}}',
        mode: '600',
      },
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
        mode: '644',
      },
      'hlnet/10.1.0.6': {
        data: 'c7\r\neth0',
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
    label: 'del 0.3.1',
    error: '',
    code: null,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'DEL',
          CNI_CONTAINERID: 'c7',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"0.3.1","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
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
    label: 'add invalid container id',
    error: 'plugin type="host-local" failed (add): invalid characters in containerID; c/8',
    code: 4,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
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
    label: 'add empty ifname',
    error: 'plugin type="host-local" failed (add): interface name is empty',
    code: 4,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
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
    label: 'add no network name',
    error: 'plugin type="host-local" failed (add): missing network name:',
    code: 7,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
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
    label: 'add missing plugin',
    error:
      'plugin type="missing" failed (add): failed to find plugin "missing" in path [/usr/lib/cni]',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
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
    label: 'add unsupported version',
    error:
      'plugin type="host-local" failed (add): incompatible CNI versions; config is "0.5.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0" "1.0.0"]',
    code: 1,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'ADD',
          CNI_CONTAINERID: 'c8',
          CNI_IFNAME: 'eth0',
          CNI_NETNS: '/var/run/netns/cnisim-ut-pod',
          CNI_PATH: '/usr/lib/cni',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin:
          '{"cniVersion":"0.5.0","ipam":{"dataDir":"/tmp/cnisim-ut-api/data","ranges":[[{"subnet":"10.1.0.0/24"}]],"routes":[{"dst":"0.0.0.0/0"}],"type":"host-local"},"name":"hlnet","type":"host-local"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
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
    label: 'del empty ifname',
    error:
      'failed to get network "hlnet" cached result: cache file path requires network name ("hlnet"), container ID ("c8"), and interface name ("")',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
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
    label: 'version host-local',
    error: '',
    code: null,
    result: '',
    calls: [
      {
        env: {
          CNI_ARGS: '',
          CNI_COMMAND: 'VERSION',
          CNI_CONTAINERID: '',
          CNI_IFNAME: 'dummy',
          CNI_NETNS: 'dummy',
          CNI_PATH: 'dummy',
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        },
        stdin: '{"cniVersion":"1.0.0"}',
        plugin: 'host-local',
      },
    ],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
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
    supportedVersions: ['0.1.0', '0.2.0', '0.3.0', '0.3.1', '0.4.0', '1.0.0'],
  },
  {
    label: 'version missing',
    error: 'failed to find plugin "nope" in path [/usr/lib/cni]',
    code: null,
    result: '',
    calls: [],
    cache: {
      './': '700',
      'results/': '700',
    },
    data: {
      './': '755',
      'capnet/': '755',
      'capnet/last_reserved_ip.0': {
        data: '10.1.0.50',
        mode: '644',
      },
      'capnet/lock': {
        data: '',
        mode: '750',
      },
      'hlnet/': '755',
      'hlnet/10.1.0.3': {
        data: 'c3\r\neth0',
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
];
