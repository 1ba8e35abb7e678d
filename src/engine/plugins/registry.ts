/**
 * The programs a simulated node can run, by name and build. Installing a plugin on a node means
 * writing its binary (a file that names the program and build) into a directory of CNI_PATH.
 */
import type { Program, ProgramRegistry } from '../os/process';
import { bridgeProgram } from './bridge';
import { BUILDS, type PluginBuild } from './lib/build';
import { hostLocalProgram } from './host-local';
import { loopbackProgram } from './loopback';
import { portmapProgram } from './portmap';
import { unmodelledProgram } from './unmodelled';

export type Factory = (b: PluginBuild) => Program;

/**
 * The modelled plugins the default sandbox's conflist does not use. Their code is not imported
 * here, so that the landing's engine (landing.ts) loads without it: importing `plugins/late.ts`
 * provides it (the app's whole engine, the shell's cnitool, scenario runs, conformance, node
 * bundles, the test kit and the tests do). Running one before throws: never a plugin that
 * behaves otherwise.
 */
export const LATE_PLUGINS = [
  'bandwidth',
  'firewall',
  'ptp',
  'static',
  'tuning',
  'calico',
  'calico-ipam',
  'flannel',
  'macvlan',
] as const;
export type LatePlugin = (typeof LATE_PLUGINS)[number];

const late: Partial<Record<LatePlugin, Factory>> = {};

/** Gives the registry the late plugins (see `LATE_PLUGINS`). */
export function provideLatePlugins(factories: Record<LatePlugin, Factory>): void {
  Object.assign(late, factories);
}

function lateFactory(name: LatePlugin): Factory {
  return (b) => {
    const f = late[name];
    if (!f) throw new Error(`cnisim: the ${name} plugin is not loaded (import plugins/late.ts)`);
    return f(b);
  };
}

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
  bandwidth: lateFactory('bandwidth'),
  bridge: bridgeProgram,
  firewall: lateFactory('firewall'),
  'host-local': hostLocalProgram,
  loopback: loopbackProgram,
  portmap: portmapProgram,
  ptp: lateFactory('ptp'),
  static: lateFactory('static'),
  tuning: lateFactory('tuning'),
  calico: lateFactory('calico'),
  'calico-ipam': lateFactory('calico-ipam'),
  flannel: lateFactory('flannel'),
  // Modelled as the v1.1.1 build only (plugins/main/macvlan/macvlan.go changed much by v1.6.2:
  // linkInContainer, bcqueuelen, ndisc_notify, a DEL that no longer looks the master up).
  macvlan: (b) => (b.id === 'v1.1.1' ? lateFactory('macvlan')(b) : unmodelledProgram('macvlan')(b)),
};

/** In the package, not modelled (yet): VERSION only. */
export const UNMODELLED_PLUGINS = ['dhcp', 'host-device', 'ipvlan', 'sbr', 'vlan', 'vrf'];
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
