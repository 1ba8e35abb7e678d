import { memo } from 'react';
import { loadEngine, tget, type PodRow } from '../../engine';
import { releaseDetails, releaseInfo } from '../release';
import { ui, useApp } from '../store';
import type { PanelProps } from './types';

const Row = memo(
  function Row({ r, id, selected }: { r: PodRow; id: string; selected: boolean }) {
    return (
      <tr className={selected ? 'selected' : ''}>
        <th scope="row">
          <button
            type="button"
            className="link"
            aria-pressed={selected}
            onClick={() => ui.selectPod(selected ? null : id)}
          >
            {r.namespace === 'default' ? r.name : id}
          </button>
        </th>
        <td>{r.ready}</td>
        <td className={`status status-${r.status}`}>{r.status}</td>
        <td>{r.restarts}</td>
        <td>{r.age}</td>
        <td className="mono">{r.ip}</td>
        <td>{r.node}</td>
      </tr>
    );
  },
  (a, b) =>
    a.selected === b.selected &&
    a.id === b.id &&
    (Object.keys(a.r) as (keyof PodRow)[]).every((k) => a.r[k] === b.r[k]),
);

/** `kubectl get pods -o wide` at the current step, and `kubectl describe` of the selected pod. */
export function PodsView({ session, step }: PanelProps) {
  const selected = useApp((s) => s.selectedPod);
  const state = session.stateAt(step);
  const api = state.api;
  if (!api) return <p className="muted">No API server at this step.</p>;
  const rows = loadEngine.now().podRows(api, state.clock);
  const nodes = Object.values(api.nodes);
  const sel = selected ? tget(api.pods, selected) : undefined;
  return (
    <div className="pods">
      <p className="node-status">
        {nodes.map((n) => {
          const rel = releaseInfo(state.nodes[n.name]?.containerd);
          return (
            <span key={n.name} className="node-head" role="group" aria-label={`Node ${n.name}`}>
              <span className={`badge ${n.ready.status === 'True' ? 'ok' : 'bad'}`}>
                {`${n.name}: Ready=${n.ready.status}`}
              </span>
              {rel && (
                <span className="badge release" title={releaseDetails(rel)}>
                  {`${rel.runtime} ${rel.version}`}
                  <span className="visually-hidden">{` (${releaseDetails(rel)})`}</span>
                </span>
              )}
              {rel?.installed && (
                <span className="badge pending">
                  {`${rel.installed} installed: takes effect on restart`}
                </span>
              )}
            </span>
          );
        })}
      </p>
      {rows.length === 0 ? (
        <p className="muted">No pods at this step.</p>
      ) : (
        <div className="table-scroll">
          <table className="data">
            <caption className="visually-hidden">Pods at step {step + 1}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Ready</th>
                <th scope="col">Status</th>
                <th scope="col">Restarts</th>
                <th scope="col">Age</th>
                <th scope="col">IP</th>
                <th scope="col">Node</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const key = `${r.namespace}/${r.name}`;
                return <Row key={key} r={r} id={key} selected={key === selected} />;
              })}
            </tbody>
          </table>
        </div>
      )}
      {selected && (
        <section className="describe" aria-label={`Describe ${selected}`}>
          <h3 className="mono">{`kubectl describe pod ${selected.replace(/^default\//, '')}`}</h3>
          {sel ? (
            <>
              <dl className="facts">
                <div>
                  <dt>Node</dt>
                  <dd>{sel.spec.nodeName}</dd>
                </div>
                <div>
                  <dt>IP</dt>
                  <dd className="mono">{sel.podIP ?? '<none>'}</dd>
                </div>
                <div>
                  <dt>Conditions</dt>
                  <dd>{sel.conditions.map((c) => `${c.type}=${c.status}`).join(', ')}</dd>
                </div>
              </dl>
              <pre className="json" tabIndex={0}>
                {loadEngine
                  .now()
                  .describeEvents(api, `pod/${sel.spec.name}`, sel.spec.namespace, state.clock)
                  .join('\n')}
              </pre>
            </>
          ) : (
            <p className="muted">The pod does not exist at this step.</p>
          )}
        </section>
      )}
    </div>
  );
}
