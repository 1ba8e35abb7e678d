import { useApp } from '../store';
import { podsData } from './pods-data';
import { PodsTable } from './PodsTable';
import type { PanelProps } from './types';

/** `kubectl get pods -o wide` at the current step, and `kubectl describe` of the selected pod. */
export function PodsView({ session, step }: PanelProps) {
  const selected = useApp((s) => s.selectedPod);
  return (
    <PodsTable
      data={podsData(session, step, (k) => k === selected)}
      step={step}
      selected={selected}
    />
  );
}
