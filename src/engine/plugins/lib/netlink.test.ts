/**
 * vishvananda/netlink's routeHandle as the plugins' ConfigureIface meets it, checked against the
 * real v1.1.1 bridge run in throw-away namespaces with a shell-script IPAM plugin that printed
 * `{"cniVersion":"1.0.0","ips":[{"address":"10.68.0.5/24"}],"routes":[{}]}`: a route without
 * dst, gateway or source is refused before any syscall, after the address is on eth0.
 */
import { describe, expect, it } from 'vitest';
import { runToEnd } from '../../os/sys';
import { execProgram, type ProgramRegistry } from '../../os/process';
import { PROGRAMS } from '../registry';
import { PATH_ENV, PLUGIN_DIR, cniEnv } from '../harness';
import { NS_A, POD_A, goErr, nsView, ptNode } from '../pt-harness';

describe('RouteAdd without Dst.IP, Src or Gw', () => {
  it('bridge ADD fails in ConfigureIface with the library error', () => {
    const h = ptNode({ plugins: ['bridge', 'myipam'] });
    const programs: ProgramRegistry = {
      lookup: (program, build) =>
        program === 'myipam'
          ? // eslint-disable-next-line require-yield
            function* (p) {
              if (p.getenv('CNI_COMMAND') === 'ADD')
                p.stdout +=
                  '{"cniVersion":"1.0.0","ips":[{"address":"10.68.0.5/24"}],"routes":[{}]}\n';
              return 0;
            }
          : PROGRAMS.lookup(program, build),
    };
    const r = runToEnd(
      execProgram({
        sim: h.sim,
        node: h.node,
        programs,
        caller: 'test',
        path: `${PLUGIN_DIR}/bridge`,
        env: {
          PATH: PATH_ENV,
          ...cniEnv('ADD', { cid: 'c1', netns: NS_A, ifname: 'eth0', args: null }),
        },
        stdin:
          '{"cniVersion":"1.0.0","name":"x","type":"bridge","bridge":"cnifx1","ipam":{"type":"myipam"}}',
      }),
    );
    expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual(
      goErr(
        "failed to add route '{<nil> <nil>} via <nil> dev eth0': one of Dst.IP, Src, or Gw must not be nil",
      ),
    );
    h.settle();
    expect(nsView(h, POD_A)).toContain(
      '10.68.0.0/24 dev eth0 proto kernel scope link src 10.68.0.5',
    );
  });
});
