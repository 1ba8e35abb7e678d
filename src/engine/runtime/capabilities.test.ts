/**
 * The capability args a runtime hands libcni, as the plugin reads them in runtimeConfig and as
 * the result cache keeps them (kubelet-containerd.md §2.5). containerd passes go-cni's
 * PortMapping, BandWidth and DNS (types.go at v1.1.3 – v1.1.13): Go structs without json tags,
 * so json.Marshal writes their Go field names in declaration order, zero values included
 * (containerd sandbox_run.go toCNIPortMappings, toCNIBandWidth, toCNIDNS; burst math.MaxUint32).
 * CRI-O passes ocicni's tagged structs (lower-case keys; burst math.MaxUint32*8-1) and no
 * portMappings or dns.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../cluster/cluster';
import { NODE, oneNode } from '../faults/testing';
import { cniCommand, isKind } from '../trace/trace';

const BW = { 'kubernetes.io/ingress-bandwidth': '1M' };
const withBandwidth = (runtime?: Record<string, unknown>) => {
  const list = JSON.stringify({
    cniVersion: '1.0.0',
    name: 'containerd-net',
    plugins: [
      {
        type: 'bridge',
        bridge: 'cni0',
        isGateway: true,
        ipam: { type: 'host-local', ranges: [[{ subnet: '10.244.1.0/24' }]] },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
      { type: 'bandwidth', capabilities: { bandwidth: true } },
    ],
  });
  const c = oneNode({ cniConfigs: { '10-containerd-net.conflist': list }, ...(runtime ?? {}) });
  c.runFor(2_000_000);
  c.createPod({
    name: 'web-0',
    hostPorts: [{ hostPort: 8080, containerPort: 80, protocol: 'TCP' }],
    annotations: BW,
  } as never);
  c.runFor(8_000_000);
  return c;
};
const stdinOf = (c: Cluster, plugin: string): string =>
  c.events
    .filter(isKind('exec'))
    .find((e) => cniCommand(e) === 'ADD' && e.payload.path === `/opt/cni/bin/${plugin}`)!.payload
    .stdin as string;

describe('capability args in runtimeConfig and in the cache', () => {
  it('containerd: go-cni structs, Go field names in field order', () => {
    const c = withBandwidth();
    expect(stdinOf(c, 'portmap')).toContain(
      '"runtimeConfig":{"portMappings":[{"HostPort":8080,"ContainerPort":80,"Protocol":"tcp","HostIP":""}]}',
    );
    expect(stdinOf(c, 'bandwidth')).toContain(
      '"runtimeConfig":{"bandwidth":{"IngressRate":1000000,"IngressBurst":4294967295,"EgressRate":0,"EgressBurst":0}}',
    );
    const cache = c.shell(NODE, 'cat /var/lib/cni/results/containerd-net-*').stdout;
    expect(cache).toContain(
      '"dns":{"Servers":["10.96.0.10"],"Searches":["default.svc.cluster.local","svc.cluster.local","cluster.local"],"Options":["ndots:5"]}',
    );
    // The plugins decode them as encoding/json does (case-insensitive): the hostPort works.
    expect(c.shell(NODE, 'iptables -t nat -S').stdout).toContain(
      '--dport 8080 -j DNAT --to-destination 10.244.1.2:80',
    );
  });

  it('CRI-O: ocicni’s tagged bandwidth, no portMappings', () => {
    const c = withBandwidth({ runtime: { name: 'cri-o', version: '1.31.13' } });
    expect(stdinOf(c, 'bandwidth')).toContain(
      '"runtimeConfig":{"bandwidth":{"egressBurst":0,"egressRate":0,"ingressBurst":34359738359,"ingressRate":1000000}}',
    );
    expect(stdinOf(c, 'portmap')).not.toContain('runtimeConfig');
  });
});
