import type { PanelProps } from './types';

const ABOUT: Record<string, string> = {
  sequence:
    'The sequence diagram: kubelet, containerd, libcni, each plugin and the kernel exchanging the messages around this step.',
  topology:
    'The topology: nodes, namespaces, bridges, veth pairs and addresses, with what this step changed highlighted.',
  machines:
    'The state charts of the kubelet, containerd, sandboxes, libcni calls and plugin processes.',
  metrics: 'IPAM use against pods, orphan veths and leaked IPs over the steps, per node.',
};

/** A place kept for a view that is not part of this build yet. */
export function SlotView({ slot }: PanelProps) {
  return (
    <div className="slot">
      <p>{ABOUT[slot] ?? 'This view'}</p>
      <p className="muted">This view is not part of this build yet.</p>
    </div>
  );
}
