/**
 * The Inspector's markup: a step's event with what it did, from its trace and its detail
 * (inspector-data.ts), so that the live Inspector (Inspector.tsx) and the landing's precomputed
 * trace (../LandingPane.tsx) draw the same. Nothing here reads the engine.
 */
import type { ReactNode } from 'react';
import type { FsFile, TraceEvent } from '../../engine';
import { prettyJson, timeText } from '../format';
import { json } from '../format';
import { FileText } from './FileText';
import type { ShownChange, StepDetail } from './inspector-data';

function Json({ value }: { value: unknown }) {
  return (
    <pre className="json" tabIndex={0}>
      {json(value)}
    </pre>
  );
}

function BeforeAfter({ changes, empty }: { changes: readonly ShownChange[]; empty: string }) {
  if (changes.length === 0) return <p className="muted">{empty}</p>;
  return (
    <div className="changes">
      {changes.map((c) => (
        <div key={c.path} className="change">
          <h4 className="mono">{c.path || '(everything)'}</h4>
          {'added' in c ? (
            <div className="before-after">
              <div>
                <h5>Removed</h5>
                {c.removed !== null ? <Json value={c.removed} /> : <p className="muted">—</p>}
              </div>
              <div>
                <h5>Added</h5>
                {c.added !== null ? <Json value={c.added} /> : <p className="muted">—</p>}
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
  cacheFile,
}: {
  e: TraceEvent<'libcni.call' | 'libcni.return' | 'libcni.cache'>;
  cacheFile: FsFile | null;
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
          <FileText file={cacheFile ?? undefined} label={cache.file} />
        </>
      ) : (
        cache && <p className="muted">{`Result cache: ${cache.action ?? 'not used'}`}</p>
      )}
    </div>
  );
}

function FsStep({ e, was, now }: { e: TraceEvent<'fs'>; was: FsFile | null; now: FsFile | null }) {
  const path = e.payload.path;
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

const EMPTY: Partial<Record<TraceEvent['kind'], string>> = {
  kernel: 'No kernel object changed (a read, or an operation that failed).',
  state: 'No state machine changed.',
  api: 'No API object changed.',
  env: 'Nothing changed on the node.',
};

/** The Inspector of a step, from its trace and its detail (live, or the landing's precomputed). */
export function InspectorStep({
  events,
  step,
  detail,
}: {
  events: readonly TraceEvent[];
  step: number;
  detail: StepDetail | null;
}) {
  if (step < 0) {
    return (
      <p className="muted">Before the first step: nothing runs yet. Press → to boot the nodes.</p>
    );
  }
  const e = events[step];
  if (!e || !detail) return <p className="muted">No step selected.</p>;
  const failed = detail.failed;
  let body: ReactNode;
  if (e.kind === 'exec' || e.kind === 'exit') body = <PluginCall e={e} events={events} />;
  else if (e.kind === 'libcni.call' || e.kind === 'libcni.return' || e.kind === 'libcni.cache')
    body = <LibcniStep e={e} cacheFile={detail.cacheFile ?? null} />;
  else if (e.kind === 'fs')
    body = <FsStep e={e} was={detail.was ?? null} now={detail.now ?? null} />;
  else if (e.kind === 'log')
    body = (
      <pre className="json" tabIndex={0}>
        {e.payload.line}
      </pre>
    );
  else if (detail.changes)
    body = <BeforeAfter changes={detail.changes} empty={EMPTY[e.kind] ?? ''} />;
  else body = null;

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
