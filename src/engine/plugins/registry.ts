/**
 * The programs a simulated node can run, by name and build. Installing a plugin on a node means
 * writing its binary (a file that names the program and build) into a directory of CNI_PATH.
 */
import type { Program, ProgramRegistry } from '../os/process';
import { bandwidthProgram } from './bandwidth';
import { bridgeProgram } from './bridge';
import { firewallProgram } from './firewall';
import { flannelProgram } from './flannel';
import { calicoIpamProgram, calicoProgram } from './calico';
import { BUILDS, type PluginBuild } from './lib/build';
import { hostLocalProgram } from './host-local';
import { loopbackProgram } from './loopback';
import { portmapProgram } from './portmap';
import { ptpProgram } from './ptp';
import { staticProgram } from './static';
import { tuningProgram } from './tuning';
import { unmodelledProgram } from './unmodelled';

type Factory = (b: PluginBuild) => Program;

/** Every binary Debian's containernetworking-plugins 1.1.1 ships: a node's /opt/cni/bin. */
export const REFERENCE_PACKAGE = [
  'bandwidth',
  'bridge',
  'dhcp',
  'firewall',
  'host-device',
  'host-local',
  'ipvlan',
  'loopback',
  'macvlan',
  'portmap',
  'ptp',
  'sbr',
  'static',
  'tuning',
  'vlan',
  'vrf',
];

export const PLUGIN_FACTORIES: Record<string, Factory> = {
  bandwidth: bandwidthProgram,
  bridge: bridgeProgram,
  firewall: firewallProgram,
  'host-local': hostLocalProgram,
  loopback: loopbackProgram,
  portmap: portmapProgram,
  ptp: ptpProgram,
  static: staticProgram,
  tuning: tuningProgram,
  calico: calicoProgram,
  'calico-ipam': calicoIpamProgram,
  flannel: flannelProgram,
};

/** In the package, not modelled (yet): VERSION only. */
export const UNMODELLED_PLUGINS = [
  'dhcp',
  'host-device',
  'ipvlan',
  'macvlan',
  'sbr',
  'vlan',
  'vrf',
];
for (const name of UNMODELLED_PLUGINS) PLUGIN_FACTORIES[name] ??= unmodelledProgram(name);

const cache = new Map<string, Program>();

export const PROGRAMS: ProgramRegistry = {
  lookup(program, build) {
    const key = `${program}@${build}`;
    let p = cache.get(key);
    if (!p) {
      const f = PLUGIN_FACTORIES[program];
      const b = BUILDS[build];
      if (!f || !b) return undefined;
      p = f(b);
      cache.set(key, p);
    }
    return p;
  },
};

export const MODELLED_PLUGINS = Object.keys(PLUGIN_FACTORIES).filter(
  (p) => !UNMODELLED_PLUGINS.includes(p),
);
