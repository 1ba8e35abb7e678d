/**
 * systemctl: status, start, stop, restart and is-active of the kubelet and the runtime's unit
 * (containerd, or crio on a CRI-O node).
 */
import { journalLines } from '../../node/journal';
import type { CommandContext } from '../types';
import { DAYS, now, p2, UNIT_NAMES, wall } from './k8s-common';

type UnitName = 'kubelet' | 'containerd' | 'crio';

const UNITS: Record<UnitName, { description: string; docs: string; cmd: string }> = {
  kubelet: {
    description: 'kubelet: The Kubernetes Node Agent',
    docs: 'https://kubernetes.io/docs/',
    cmd: '/usr/bin/kubelet --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf --config=/var/lib/kubelet/config.yaml --container-runtime-endpoint=unix:///run/containerd/containerd.sock',
  },
  containerd: {
    description: 'containerd container runtime',
    docs: 'https://containerd.io',
    cmd: '/usr/bin/containerd',
  },
  crio: {
    description: 'Container Runtime Interface for OCI (CRI-O)',
    docs: 'https://github.com/cri-o/cri-o',
    cmd: '/usr/bin/crio',
  },
};

/** systemd's format_timestamp_relative. */
function relative(us: number): string {
  const S = 1_000_000;
  const M = 60 * S;
  const H = 60 * M;
  const D = 24 * H;
  const d = Math.max(0, us);
  const f = Math.floor;
  if (d >= 2 * D) return `${f(d / D)} days ago`;
  if (d >= 25 * H) return `1 day ${f((d - D) / H)}h ago`;
  if (d >= 6 * H) return `${f(d / H)}h ago`;
  if (d >= H) return `${f(d / H)}h ${f((d % H) / M)}min ago`;
  if (d >= 5 * M) return `${f(d / M)}min ago`;
  if (d >= M) return `${f(d / M)}min ${f((d % M) / S)}s ago`;
  if (d >= S) return `${f(d / S)}s ago`;
  if (d >= 1000) return `${f(d / 1000)}ms ago`;
  if (d > 0) return `${d}us ago`;
  return 'now';
}

function systemdTime(us: number): string {
  const d = wall(us);
  return `${DAYS[d.getUTCDay()]} ${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} UTC`;
}

/** When the unit last started or stopped (its daemon's state events). */
function lastTransition(ctx: CommandContext, unit: UnitName, up: boolean): number {
  const re = new RegExp(`^${unit} ${up ? 'started' : 'stopped'}`);
  const evs = ctx.sim.events;
  for (let i = evs.length - 1; i >= 0; i--) {
    const e = evs[i]!;
    if (e.node === ctx.nodeName && e.kind === 'state' && e.target === unit && re.test(e.summary))
      return e.time;
  }
  return 0;
}

function unitState(ctx: CommandContext, unit: UnitName): { up: boolean; pid: number } | null {
  const n = ctx.sim.state.nodes[ctx.nodeName];
  const crio = n?.containerd?.settings.runtime === 'cri-o';
  const s =
    unit === 'kubelet' ? n?.kubelet : (unit === 'crio') === crio ? n?.containerd : undefined;
  if (!s || !ctx.cluster) return null;
  return { up: s.up, pid: s.pid };
}

function systemctlStatus(ctx: CommandContext, unit: UnitName): number {
  const st = unitState(ctx, unit)!;
  const crio = ctx.sim.state.nodes[ctx.nodeName]?.containerd?.settings.runtime === 'cri-o';
  const u =
    unit === 'kubelet' && crio
      ? {
          ...UNITS.kubelet,
          cmd: UNITS.kubelet.cmd.replace(
            '/run/containerd/containerd.sock',
            '/var/run/crio/crio.sock',
          ),
        }
      : UNITS[unit];
  const t = now(ctx);
  let out = `${st.up ? '●' : '○'} ${unit}.service - ${u.description}\n`;
  out += `     Loaded: loaded (/lib/systemd/system/${unit}.service; enabled; preset: enabled)\n`;
  if (unit === 'kubelet')
    out +=
      '    Drop-In: /usr/lib/systemd/system/kubelet.service.d\n             └─10-kubeadm.conf\n';
  const since = lastTransition(ctx, unit, st.up);
  out += `     Active: ${st.up ? 'active (running)' : 'inactive (dead)'} since ${systemdTime(since)}; ${relative(t - since)}\n`;
  out += `       Docs: ${u.docs}\n`;
  if (st.up) {
    out += `   Main PID: ${st.pid} (${unit})\n`;
    out += `     CGroup: /system.slice/${unit}.service\n             └─${st.pid} ${u.cmd}\n`;
  }
  const journal = journalLines(ctx.sim.events, ctx.nodeName, ctx.sim.events.length - 1, [
    unit,
  ]).slice(-10);
  if (journal.length) out += '\n' + journal.map((l) => l + '\n').join('');
  ctx.out(out);
  return st.up ? 0 : 3;
}

export function systemctl(ctx: CommandContext): number {
  const args = ctx.argv
    .slice(1)
    .filter(
      (a) => a !== '--no-pager' && a !== '-l' && a !== '--full' && a !== '-q' && a !== '--quiet',
    );
  const [verb, ...rawUnits] = args;
  if (verb === undefined || ['list-units', 'list-unit-files', 'daemon-reload'].includes(verb)) {
    ctx.err(
      `cnisim: systemctl ${verb ?? ''}: not simulated (status, start, stop, restart, is-active)\n`,
    );
    return 1;
  }
  if (!['status', 'start', 'stop', 'restart', 'is-active'].includes(verb)) {
    ctx.err(`Unknown command verb ${verb}.\n`);
    return 1;
  }
  if (rawUnits.length === 0) {
    ctx.err(verb === 'status' ? 'cnisim: systemctl status: name a unit\n' : `Too few arguments.\n`);
    return 1;
  }
  let status = 0;
  for (const raw of rawUnits) {
    const name = raw.endsWith('.service') ? raw : `${raw}.service`;
    const unit = UNIT_NAMES[raw];
    const st = unit ? unitState(ctx, unit) : null;
    if (!unit || !st) {
      if (verb === 'status') {
        ctx.err(`Unit ${name} could not be found.\n`);
        status = 4;
      } else if (verb === 'is-active') {
        ctx.out('inactive\n');
        status = 3;
      } else {
        ctx.err(
          verb === 'stop'
            ? `Failed to stop ${name}: Unit ${name} not loaded.\n`
            : `Failed to ${verb} ${name}: Unit ${name} not found.\n`,
        );
        status = 5;
      }
      continue;
    }
    const hooks = ctx.cluster!;
    const node = ctx.nodeName;
    if (verb === 'status') {
      const r = systemctlStatus(ctx, unit);
      if (r !== 0) status = r;
    } else if (verb === 'is-active') {
      ctx.out(st.up ? 'active\n' : 'inactive\n');
      if (!st.up) status = 3;
    } else {
      ctx.outside(() => {
        ctx.note('systemd', 'cluster');
        if (verb === 'restart') {
          if (unit === 'kubelet') hooks.restartKubelet(node);
          else hooks.restartContainerd(node);
        } else if (verb === 'stop') {
          if (st.up) hooks.stopUnit(node, unit === 'kubelet' ? unit : 'containerd');
        } else if (!st.up) hooks.startUnit(node, unit === 'kubelet' ? unit : 'containerd');
      });
    }
  }
  return status;
}
