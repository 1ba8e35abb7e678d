import type { ReactNode } from 'react';
import {
  stat,
  loadEngine,
  type FsFile,
  type FsState,
  type TraceEvent,
  type WorldState,
} from '../../engine';
import { prettyJson, timeText } from '../format';
import { diff, json, type Change } from './diff';
import { FileText } from './FileText';
import type { PanelProps } from './types';

function fileAt(state: WorldState, node: string | null, path: string): FsFile | undefined {
  if (!node) return undefined;
  const fs = state.nodes[node]?.fs as FsState | undefined;
  if (!fs) return undefined;
  const e = stat(fs, path);
  return e?.kind === 'file' ? e : undefined;
}

function Json({ value }: { value: unknown }) {
  return (
    <pre className="json" tabIndex={0}>
      {json(value)}
    </pre>
  );
}

function BeforeAfter({ changes, empty }: { changes: Change[]; empty: string }) {
  if (changes.length === 0) return <p className="muted">{empty}</p>;
  return (
    <div className="changes">
      {changes.map((c) => (
        <div key={c.path} className="change">
          <h4 className="mono">{c.path || '(everything)'}</h4>
          {c.added || c.removed ? (
            <div className="before-after">
              <div>
                <h5>Removed</h5>
                {c.removed?.length ? <Json value={c.removed} /> : <p className="muted">—</p>}
              </div>
              <div>
                <h5>Added</h5>
                {c.added?.length ? <Json value={c.added} /> : <p className="muted">—</p>}
              </div>
            </div>
          ) : (
            <div className="before-after">
              <div>
                <h5>Before</h5>
                <Json value={c.before} />
              </div>
              <div>
                <h5>After</h5>
                <Json value={c.after} />
              </div>
            </div>
          )}
        </div>
      ))}
    </div>
  );
}

const CNI_ENV_ORDER = [
  'CNI_COMMAND',
  'CNI_CONTAINERID',
  'CNI_NETNS',
  'CNI_IFNAME',
  'CNI_ARGS',
  'CNI_PATH',
];

function EnvTable({ env }: { env: Record<string, string> }) {
  const keys = Object.keys(env).sort((a, b) => {
    const ia = CNI_ENV_ORDER.indexOf(a);
    const ib = CNI_ENV_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || (a < b ? -1 : 1);
  });
  return (
    <table className="kv">
      <caption>Environment</caption>
      <tbody>
        {keys.map((k) => (
          <tr key={k}>
            <th scope="row" className="mono">
              {k}
            </th>
            <td className="mono">{env[k]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** stdin as the plugin got it, the previous plugin's result folded away. */
function Stdin({ stdin }: { stdin: string }) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdin);
  } catch {
    parsed = null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return (
      <pre className="json" tabIndex={0}>
        {stdin}
      </pre>
    );
  }
  const { prevResult, ...rest } = parsed as Record<string, unknown>;
  return (
    <>
      <pre className="json" tabIndex={0}>
        {JSON.stringify(rest, null, 2)}
      </pre>
      {prevResult !== undefined && (
        <details className="fold">
          <summary>prevResult (the result of the plugin before it in the chain)</summary>
          <pre className="json" tabIndex={0}>
            {JSON.stringify(prevResult, null, 2)}
          </pre>
        </details>
      )}
    </>
  );
}

function findExit(events: readonly TraceEvent[], exec: number): TraceEvent<'exit'> | undefined {
  for (let i = exec + 1; i < events.length; i++) {
    const e = events[i]!;
    if (e.kind === 'exit' && e.parent === exec) return e;
  }
  return undefined;
}

function PluginCall({
  e,
  events,
}: {
  e: TraceEvent<'exec' | 'exit'>;
  events: readonly TraceEvent[];
}) {
  const up = e.kind === 'exec' ? e : e.parent !== undefined ? events[e.parent] : undefined;
  const exec = up?.kind === 'exec' ? up : undefined;
  const exit = e.kind === 'exit' ? e : exec ? findExit(events, exec.seq) : undefined;
  const env = exec?.payload.env ?? {};
  const stdin = exec?.payload.stdin ?? '';
  const out = exit?.payload;
  const code = out?.exitCode;
  const stdout = out?.stdout ?? '';
  const stderr = out?.stderr ?? '';
  const pretty = prettyJson(stdout);
  const failed = out !== undefined && (code !== 0 || out.signal !== undefined);
  return (
    <div className="plugin-call">
      <h3>
        {`Plugin call: ${exec?.target ?? e.source} ${env['CNI_COMMAND'] ?? ''}`}
        {exec && exec.seq !== e.seq && (
          <span className="muted">{` (exec at step ${exec.seq + 1})`}</span>
        )}
      </h3>
      {exec?.payload.startError !== undefined && (
        <p className="error-text">{`Could not start: ${exec.payload.startError}`}</p>
      )}
      <EnvTable env={env} />
      <h4>stdin</h4>
      <Stdin stdin={stdin} />
      {exit === undefined ? (
        <p className="muted">The plugin is still running: its exit is a later step.</p>
      ) : (
        <>
          <p className={failed ? 'error-text' : ''}>
            {`Exit code ${String(code ?? '?')}`}
            {out?.signal !== undefined ? ` (killed by signal: ${out.signal})` : ''}
            {exit.seq !== e.seq ? ` at step ${exit.seq + 1}` : ''}
          </p>
          <h4>{failed ? 'stdout (the error)' : 'stdout (the result)'}</h4>
          {stdout ? (
            <pre className="json" tabIndex={0}>
              {pretty ?? stdout}
            </pre>
          ) : (
            <p className="muted">(empty)</p>
          )}
          {stderr && (
            <>
              <h4>stderr</h4>
              <pre className="json" tabIndex={0}>
                {stderr}
              </pre>
            </>
          )}
        </>
      )}
    </div>
  );
}

function LibcniStep({
  e,
  after,
}: {
  e: TraceEvent<'libcni.call' | 'libcni.return' | 'libcni.cache'>;
  after: WorldState;
}) {
  const p = e.payload;
  const cache = 'cache' in p ? p.cache : undefined;
  const result = 'result' in p ? p.result : undefined;
  const error = 'error' in p ? p.error : undefined;
  const rest = Object.fromEntries(
    Object.entries(p).filter(([k]) => k !== 'cache' && k !== 'result' && k !== 'error'),
  );
  return (
    <div>
      <h3>{e.kind === 'libcni.call' ? 'libcni call' : 'libcni result'}</h3>
      <Json value={rest} />
      {error !== undefined && (
        <>
          <h4>Error</h4>
          <Json value={error} />
        </>
      )}
      {result !== undefined && (
        <details className="fold" open>
          <summary>Result</summary>
          <Json value={result} />
        </details>
      )}
      {cache?.file ? (
        <>
          <h4>{`Result cache (${cache.action ?? 'used'}${cache.state ? `, ${cache.state}` : ''}): ${cache.file}`}</h4>
          <FileText file={fileAt(after, e.node, cache.file)} label={cache.file} />
        </>
      ) : (
        cache && <p className="muted">{`Result cache: ${cache.action ?? 'not used'}`}</p>
      )}
    </div>
  );
}

function FsStep({
  e,
  before,
  after,
}: {
  e: TraceEvent<'fs'>;
  before: WorldState;
  after: WorldState;
}) {
  const path = e.payload.path;
  const was = fileAt(before, e.node, path);
  const now = fileAt(after, e.node, path);
  return (
    <div>
      <h3 className="mono">{path}</h3>
      <div className="before-after">
        <div>
          <h5>Before</h5>
          {was ? <FileText file={was} label={path} /> : <p className="muted">(no such file)</p>}
        </div>
        <div>
          <h5>After</h5>
          {now ? <FileText file={now} label={path} /> : <p className="muted">(no such file)</p>}
        </div>
      </div>
    </div>
  );
}

function nodePart(
  state: WorldState,
  node: string | null,
  part: 'kernel' | 'fs' | 'containerd',
): unknown {
  return node ? state.nodes[node]?.[part] : undefined;
}

/** What the event changed in the world, by kind. */
function Changes({ e, before, after }: { e: TraceEvent; before: WorldState; after: WorldState }) {
  switch (e.kind) {
    case 'kernel':
      return (
        <BeforeAfter
          changes={diff(nodePart(before, e.node, 'kernel'), nodePart(after, e.node, 'kernel'), {
            depth: 4,
            skip: ['now'],
          })}
          empty="No kernel object changed (a read, or an operation that failed)."
        />
      );
    case 'state':
      return (
        <BeforeAfter
          changes={diff(before.actors, after.actors, { depth: 1 })}
          empty="No state machine changed."
        />
      );
    case 'api':
      return (
        <BeforeAfter
          changes={diff(before.api, after.api, { depth: 2, skip: ['eventIds', 'correlator'] })}
          empty="No API object changed."
        />
      );
    case 'env':
      return (
        <>
          <BeforeAfter
            changes={[
              ...diff(nodePart(before, e.node, 'kernel'), nodePart(after, e.node, 'kernel'), {
                depth: 4,
                skip: ['now'],
              }),
              ...diff(nodePart(before, e.node, 'fs'), nodePart(after, e.node, 'fs'), {
                depth: 3,
              }).map((c) => ({ ...c, path: `fs.${c.path}` })),
              // A containerd release installed to run from its next start.
              ...diff(
                nodePart(before, e.node, 'containerd'),
                nodePart(after, e.node, 'containerd'),
                {
                  depth: 1,
                },
              ).map((c) => ({ ...c, path: `containerd.${c.path}` })),
            ]}
            empty="Nothing changed on the node."
          />
        </>
      );
    default:
      return null;
  }
}

export function Inspector({ session, step }: PanelProps) {
  if (step < 0) {
    return (
      <p className="muted">Before the first step: nothing runs yet. Press → to boot the nodes.</p>
    );
  }
  const events = session.events;
  const e = events[step];
  if (!e) return <p className="muted">No step selected.</p>;
  const before = session.stateAt(step - 1);
  const after = session.stateAt(step);
  const failed = loadEngine.now().isErrorEvent(e);
  let body: ReactNode;
  if (e.kind === 'exec' || e.kind === 'exit') body = <PluginCall e={e} events={events} />;
  else if (e.kind === 'libcni.call' || e.kind === 'libcni.return' || e.kind === 'libcni.cache')
    body = <LibcniStep e={e} after={after} />;
  else if (e.kind === 'fs') body = <FsStep e={e} before={before} after={after} />;
  else if (e.kind === 'log')
    body = (
      <pre className="json" tabIndex={0}>
        {e.payload.line}
      </pre>
    );
  else body = <Changes e={e} before={before} after={after} />;

  return (
    <article className="inspector" aria-label={`Step ${step + 1}`}>
      <dl className="step-facts">
        <div>
          <dt>Step</dt>
          <dd>{step + 1}</dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>{timeText(e.time)}</dd>
        </div>
        <div>
          <dt>Node</dt>
          <dd>{e.node ?? 'cluster'}</dd>
        </div>
        <div>
          <dt>From → to</dt>
          <dd>{`${e.source} → ${e.target}`}</dd>
        </div>
        <div>
          <dt>Kind</dt>
          <dd>{`${e.kind} (${e.level})`}</dd>
        </div>
      </dl>
      <p className={`step-summary-line ${failed ? 'error-text' : ''}`}>{e.summary}</p>
      {e.error !== undefined && <p className="error-text">{`Failed: ${e.error}`}</p>}
      {body}
      {e.kind !== 'exec' && e.kind !== 'exit' && e.kind !== 'log' && (
        <details className="fold">
          <summary>Event payload</summary>
          <Json value={e.payload} />
        </details>
      )}
    </article>
  );
}
