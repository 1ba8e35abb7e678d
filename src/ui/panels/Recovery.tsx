import { useEffect, useState } from 'react';
import { loadFaults } from '../../engine';
import { notOffered, recoverySteps } from '../recovery';
import { runInShell, useApp } from '../store';

/**
 * "How an operator recovers" from fault `fault` on `node`: the catalogue's steps, shown when
 * asked for (a disclosure), each command that is safe to run with a "Run" button that types it
 * into the node's shell.
 */
export function Recovery(props: { fault: string; node: string | null; pod?: string | null }) {
  const busy = useApp((s) => s.busy !== null);
  const faults = useFaults();
  const f = faults?.faultById(props.fault);
  if (!f) return null;
  const steps = recoverySteps(f.recovery.steps, { pod: props.pod ?? null });
  const held = f.recovery.steps.flatMap(notOffered);
  return (
    <details className="recovery">
      <summary>How an operator recovers</summary>
      <ol>
        {steps.map((s, i) => (
          <li key={i}>
            <p>{s.text}</p>
            {props.node && s.commands.length > 0 && (
              <div className="row-form">
                {s.commands.map((c) => (
                  <button
                    key={c.line}
                    type="button"
                    className="mono"
                    disabled={busy}
                    onClick={() => runInShell(props.node!, c.line)}
                    aria-label={`Run ${c.line} in the shell of ${props.node}`}
                  >
                    {`Run on ${props.node}: ${c.line}`}
                  </button>
                ))}
              </div>
            )}
          </li>
        ))}
      </ol>
      {held.length > 0 && (
        <p className="muted">
          {`Not offered as one click: ${held.join('; ')}. Type them in the shell once you have checked.`}
        </p>
      )}
    </details>
  );
}

type Faults = Awaited<ReturnType<typeof loadFaults>>;

/** The fault catalogue, once its chunk is loaded (a challenge's page may not have it yet). */
function useFaults(): Faults | null {
  const [m, setM] = useState<Faults | null>(() => {
    try {
      return loadFaults.now();
    } catch {
      return null;
    }
  });
  useEffect(() => {
    if (m) return;
    let live = true;
    void loadFaults().then((x) => live && setM(x));
    return () => {
      live = false;
    };
  }, [m]);
  return m;
}
