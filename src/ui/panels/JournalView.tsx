import { useMemo, useState } from 'react';
import { loadEngine, type Unit } from '../../engine';
import type { PanelProps } from './types';

const SHOWN = 400;

/** `journalctl -u kubelet -u containerd` of a node up to the current step, with a filter. */
export function JournalView({ session, step }: PanelProps) {
  const nodes = session.nodeNames;
  const [node, setNode] = useState(nodes[0]!);
  const [unit, setUnit] = useState<'all' | Unit>('all');
  const [filter, setFilter] = useState('');
  const events = session.events;
  const lines = useMemo(
    () =>
      loadEngine
        .now()
        .journalLines(events, node, step, unit === 'all' ? undefined : [unit])
        .filter((l) => (filter ? l.toLowerCase().includes(filter.toLowerCase()) : true)),
    [events, node, step, unit, filter],
  );
  const shown = lines.slice(-SHOWN);
  return (
    <div className="journal">
      <div className="filters">
        <label className="inline">
          Node<span className="visually-hidden"> of the journal</span>{' '}
          <select
            value={nodes.includes(node) ? node : nodes[0]}
            onChange={(e) => setNode(e.target.value)}
          >
            {nodes.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        <label className="inline">
          Unit{' '}
          <select value={unit} onChange={(e) => setUnit(e.target.value as 'all' | Unit)}>
            <option value="all">kubelet and the runtime</option>
            <option value="kubelet">kubelet</option>
            <option value="containerd">containerd</option>
            <option value="crio">crio</option>
          </select>
        </label>
        <label className="inline">
          Filter{' '}
          <input
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="text in the line"
          />
        </label>
      </div>
      <p className="muted">
        {lines.length > SHOWN
          ? `The last ${SHOWN} of ${lines.length} lines`
          : `${lines.length} lines`}
        {` up to step ${step + 1}`}
      </p>
      <pre className="journal-lines" aria-label={`Journal of ${node}`} tabIndex={0}>
        {shown.length ? shown.join('\n') : '-- No entries --'}
      </pre>
    </div>
  );
}
