/**
 * What the node's cluster tools (journalctl, crictl, kubectl, systemctl, reboot) share: fixed
 * versions and paths, the wall clock of the trace and the duration formats of their Go libraries.
 */
import type { Unit } from '../../node/journal';
import { BASE_TIME_MS, DAYS, MONTHS } from '../../trace/time';
import type { CommandContext } from '../types';

export const KUBELET_VERSION = 'v1.32.4';
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.9';
export const CONTAINERD_SOCK = '/run/containerd/containerd.sock';

export { DAYS, MONTHS };
export const p2 = (n: number) => String(n).padStart(2, '0');

export function wall(us: number): Date {
  return new Date(BASE_TIME_MS + Math.floor(us / 1000));
}

/** k8s.io/apimachinery duration.HumanDuration (kubectl's AGE). */
export function humanDuration(us: number): string {
  const seconds = Math.floor(us / 1_000_000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 192)
    return hours % 24 === 0
      ? `${Math.floor(hours / 24)}d`
      : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** github.com/docker/go-units HumanDuration (crictl's CREATED, with " ago"). */
export function unitsHumanDuration(us: number): string {
  const seconds = Math.floor(us / 1_000_000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.floor(seconds / 60);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.floor(us / 3_600_000_000 + 0.5);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.floor(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.floor(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24 / 30)} months`;
  return `${Math.floor(us / 3_600_000_000 / 24 / 365)} years`;
}

/** The world as the command sees it: now is the end of the trace. */
export function now(ctx: CommandContext): number {
  return ctx.sim.state.clock;
}

/** The units the model has, by the names systemctl and journalctl -u take. */
export const UNIT_NAMES: Record<string, Unit> = {
  kubelet: 'kubelet',
  'kubelet.service': 'kubelet',
  containerd: 'containerd',
  'containerd.service': 'containerd',
  crio: 'crio',
  'crio.service': 'crio',
};
