import { useState } from 'react';
import { runSinglePodAdd, type DemoRun } from '../engine/index';

/** Runs the engine once; an exception becomes an error message instead of a blank page. */
function runDemo(): DemoRun {
  try {
    return runSinglePodAdd();
  } catch (err) {
    return {
      steps: [],
      podIp: null,
      error: err instanceof Error ? err.message : String(err),
    };
  }
}

export function App() {
  // The engine is pure and synchronous: run it once, when the page loads.
  const [run] = useState(runDemo);

  return (
    <>
      <header className="site-header">
        <h1>cnisim</h1>
        <p>
          cnisim simulates how a Kubernetes node&apos;s container runtime calls CNI plugins to give
          a pod its network, and shows every step, entirely in your browser.
        </p>
      </header>
      <main>
        <section className="demo" aria-labelledby="demo-heading">
          <h2 id="demo-heading">ADD for one pod</h2>
          <p>
            The runtime asks the network <code>cni-sandbox</code> (bridge <code>cni0</code>,
            host-local IPAM on <code>10.88.0.0/16</code>) to attach a new pod on a fresh node.
          </p>

          {run.error !== null && (
            <div className="error" role="alert">
              <h3>ADD failed</h3>
              <p>{run.error}</p>
            </div>
          )}

          <p className="pod-ip">
            <label htmlFor="pod-ip">Pod IP:</label>{' '}
            <output id="pod-ip">{run.podIp ?? 'none'}</output>
          </p>

          <h3 id="steps-heading">Steps ({run.steps.length})</h3>
          {run.steps.length === 0 ? (
            <p>No steps were recorded.</p>
          ) : (
            <ol className="steps" aria-labelledby="steps-heading">
              {run.steps.map((step) => (
                <li key={step.index}>
                  <span className="step-index">{step.index}</span>
                  <span className="step-route">
                    <span className="step-source">{step.source}</span>
                    <span aria-hidden="true"> → </span>
                    <span className="visually-hidden"> to </span>
                    <span className="step-target">{step.target}</span>
                  </span>
                  <span className="step-summary">{step.summary}</span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </main>
      <footer className="site-footer">
        <p>A teaching simulator: nothing here touches a real network.</p>
      </footer>
    </>
  );
}
