/**
 * The Pods view's markup, from its data (pods-data.ts), so that the live view (PodsView.tsx) and
 * the landing's precomputed trace (../LandingPane.tsx) draw the same.
 */
import { memo } from 'react';
import type { PodRow } from '../../engine';
import { releaseDetails } from '../release';
import { ui } from '../store';
import type { PodsData } from './pods-data';

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

/** The Pods view of a step, from its data (live, or the landing's precomputed). */
export function PodsTable({
  data,
  step,
  selected,
}: {
  data: PodsData;
  step: number;
  selected: string | null;
}) {
  if (!data.api) return <p className="muted">No API server at this step.</p>;
  const { rows, nodes } = data;
  const sel = selected ? data.describe[selected] : undefined;
  return (
    <div className="pods">
      <p className="node-status">
        {nodes.map((n) => {
          const rel = n.release;
          return (
            <span key={n.name} className="node-head" role="group" aria-label={`Node ${n.name}`}>
              <span className={`badge ${n.ready === 'True' ? 'ok' : 'bad'}`}>
                {`${n.name}: Ready=${n.ready}`}
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
                  <dd>{sel.node}</dd>
                </div>
                <div>
                  <dt>IP</dt>
                  <dd className="mono">{sel.ip}</dd>
                </div>
                <div>
                  <dt>Conditions</dt>
                  <dd>{sel.conditions}</dd>
                </div>
              </dl>
              <pre className="json" tabIndex={0}>
                {sel.events}
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
