/**
 * calico against what Calico's source says where calico.test.ts only checks the outcome:
 * SetupRoutes' error text (cni-plugin/pkg/dataplane/linux/dataplane_linux.go, wrapped by
 * DoNetworking) and configureSysctls' order.
 */
import { describe, expect, it } from 'vitest';
import * as K from '../kernel/kernel';
import { kernelOp } from './harness';
import { goErr, ptNode, runPlugin } from './pt-harness';

const STDIN =
  '{"cniVersion":"1.0.0","name":"k8s-pod-network","type":"calico","ipam":{"type":"calico-ipam"}}';
const ARGS = 'IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=nginx';

describe('calico, from the source', () => {
  it("names the route in the way when the pod's host route is on another interface", () => {
    const h = ptNode({ plugins: ['calico', 'calico-ipam'] });
    kernelOp(h, (k) => {
      K.routeAdd(k, k.root, {
        family: 4,
        dst: { v: 4, n: 0xc0a80000n },
        prefix: 32,
        dev: 1,
        scope: 'link',
      });
    });
    expect(runPlugin(h, 'calico', 'ADD', { cid: 'c1', args: ARGS }, STDIN)).toEqual(
      goErr(
        "error adding host side routes for interface: calic440f455693, error: route (Ifindex: 2, Dst: 192.168.0.0/32, Scope: link) already exists for an interface other than 'calic440f455693': route (Ifindex: 1, Dst: 192.168.0.0/32, Scope: link, Iface: lo)",
      ),
    );
  });

  it('writes the host veth sysctls in configureSysctls order', () => {
    const h = ptNode({ plugins: ['calico', 'calico-ipam'] });
    const before = h.sim.events.length;
    expect(runPlugin(h, 'calico', 'ADD', { cid: 'c1', args: ARGS }, STDIN).exitCode).toBe(0);
    const sysctls = h.sim.events
      .slice(before)
      .map((e) => e.summary)
      .filter((s) => s.startsWith('sysctl -w') && s.includes('calic440f455693'));
    expect(sysctls).toEqual([
      'sysctl -w net.ipv4.conf.calic440f455693.route_localnet=1',
      'sysctl -w net.ipv4.neigh.calic440f455693.proxy_delay=0',
      'sysctl -w net.ipv4.conf.calic440f455693.proxy_arp=1',
      'sysctl -w net.ipv4.conf.calic440f455693.forwarding=1',
      'sysctl -w net.ipv6.conf.calic440f455693.accept_ra=0',
    ]);
  });
});
