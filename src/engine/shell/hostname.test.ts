/** hostname as Debian's (3.23) prints it: the node's name, `-I`, and its usage on a bad option. */
import { describe, expect, it } from 'vitest';
import { addNode, netnsAdd } from '../node/setup';
import { Simulation, newWorld } from '../sim/world';
import { Shell } from './shell';

function shell(): Shell {
  const sim = new Simulation(addNode(newWorld(1), { name: 'node-1', plugins: ['bridge'] }));
  netnsAdd(sim, 'node-1', '/var/run/netns/empty');
  return new Shell(sim, 'node-1', { cwd: '/root' });
}

describe('hostname', () => {
  it('prints the node name, short and long alike', () => {
    const sh = shell();
    for (const cmd of ['hostname', 'hostname -s', 'hostname --fqdn'])
      expect(sh.run(cmd)).toMatchObject({ stdout: 'node-1\n', stderr: '', exitCode: 0 });
  });

  it('-I lists IPv4 then IPv6 addresses, without lo and link-local ones, each with a space', () => {
    const sh = shell();
    sh.run('ip link add br9 type bridge && ip link set br9 up');
    sh.run('ip addr add fd00:9::1/64 dev br9 nodad && ip addr add 10.9.0.1/24 dev br9');
    expect(sh.run('hostname -I').stdout).toBe('10.9.0.1 fd00:9::1 \n');
    // An empty namespace: only lo, so only the newline (as the real one prints).
    expect(sh.run('ip netns exec empty hostname -I').stdout).toBe('\n');
  });

  it('a bad option prints the usage and exits 255; setting the name is refused', () => {
    const sh = shell();
    const r = sh.run('hostname -x');
    expect(r.exitCode).toBe(255);
    expect(r.stderr).toMatch(/^hostname: invalid option -- 'x'\nUsage: hostname \[-b\]/);
    expect(sh.run('hostname node-9')).toMatchObject({ exitCode: 1 });
    expect(sh.run('hostname').stdout).toBe('node-1\n');
  });
});
