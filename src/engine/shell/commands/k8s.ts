/**
 * The node's view of its cluster: journalctl (systemd 252), crictl (cri-tools 1.28 against
 * containerd 1.7's CRI), kubectl (1.32), systemctl and reboot. They read the world (the trace's
 * journal lines, containerd's sandboxes, the API server's objects); the changes (systemctl
 * restart / stop / start, reboot, kubectl delete pod) go through the cluster (ClusterHooks), which
 * records them as steps of the trace, after a step naming the command.
 *
 * On a node without a cluster there is no kubelet or containerd unit, no CRI socket and no API
 * server, and the tools answer as they do on such a machine.
 *
 * Values the model does not have are fixed (and listed in docs/shell.md): the kubelet version,
 * the node's OS and kernel in `kubectl get nodes -o wide`, the pause image. Not modelled: app
 * containers (crictl ps lists none), pod labels, the pause process's pid, journalctl's own
 * follow mode and most output formats (-o json / yaml).
 *
 * One file per command (journalctl.ts, crictl.ts, kubectl.ts, systemctl.ts, reboot.ts), what
 * they share in k8s-common.ts; this file lists them for the registry.
 */
import type { CommandSpec } from '../types';
import { containerd, crio } from './containerd';
import { crictl } from './crictl';
import { journalctl } from './journalctl';
import { kubectl } from './kubectl';
import { reboot } from './reboot';
import { systemctl } from './systemctl';

export const K8S_COMMANDS: CommandSpec[] = [
  { name: 'journalctl', dir: '/usr/bin', run: journalctl },
  { name: 'crictl', dir: '/usr/bin', run: crictl },
  { name: 'containerd', dir: '/usr/bin', run: containerd },
  { name: 'crio', dir: '/usr/bin', run: crio },
  { name: 'kubectl', dir: '/usr/bin', run: kubectl },
  { name: 'systemctl', dir: '/usr/bin', run: systemctl },
  { name: 'reboot', dir: '/usr/sbin', run: reboot },
];
