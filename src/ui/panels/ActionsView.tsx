import { useId, useState, type FormEvent, type ReactNode } from 'react';
import {
  entriesIn,
  loadEngine,
  tkeys,
  tvalues,
  type FsState,
  type SessionAction,
} from '../../engine';
import { faultNodeOf, lastFaultNode, uiFaults } from '../faults';
import {
  releaseDetails,
  releaseInfo,
  releaseProblem,
  releaseSpan,
  releaseSuggestions,
} from '../release';
import { cmd, useApp } from '../store';
import { Recovery } from './Recovery';
import type { PanelProps } from './types';

function Field(props: { label: string; children: ReactNode }) {
  return (
    <label className="field">
      <span>{props.label}</span>
      {props.children}
    </label>
  );
}

function NodeSelect(props: {
  nodes: readonly string[];
  value: string;
  onChange(v: string): void;
  auto?: boolean;
  label?: string;
}) {
  return (
    <Field label={props.label ?? 'Node'}>
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.auto && <option value="">any (fewest pods)</option>}
        {props.nodes.map((n) => (
          <option key={n}>{n}</option>
        ))}
      </select>
    </Field>
  );
}

function useRunner() {
  const [last, setLast] = useState<string | null>(null);
  const run = async (action: SessionAction, done?: string) => {
    const r = await cmd.perform(action);
    if (r) setLast(done ?? `Done at step ${(r.first ?? r.step) + 1}.`);
    return r;
  };
  return { last, run, setLast };
}

function Section(props: { title: string; children: ReactNode; intro?: string }) {
  return (
    <section className="action-section">
      <h3>{props.title}</h3>
      {props.intro && <p className="muted">{props.intro}</p>}
      {props.children}
    </section>
  );
}

/** Everything a user can do to the cluster, at the current step. */
export function ActionsView({ session, step }: PanelProps) {
  const busy = useApp((s) => s.busy !== null);
  const nodes = session.nodeNames;
  const state = session.stateAt(step);
  const pods = (state.api ? tkeys(state.api.pods) : []).sort();
  const podNames = new Set((state.api ? tvalues(state.api.pods) : []).map((p) => p.spec.name));
  let n = 0;
  while (podNames.has(`web-${n}`)) n++;
  const { last, run, setLast } = useRunner();

  const [podName, setPodName] = useState('');
  // null until the person picks: then the node of the last node-scoped fault, if any.
  const [podNodePicked, setPodNode] = useState<string | null>(null);
  const faultedNode = lastFaultNode(session, step);
  const podNode = podNodePicked ?? faultedNode ?? '';
  const [deployment, setDeployment] = useState('web');
  const [replicas, setReplicas] = useState(3);
  const [depNode, setDepNode] = useState('');
  const [target, setTarget] = useState('');
  const [opNode, setOpNode] = useState(nodes[0]!);
  const [build, setBuild] = useState('v1.1.1');
  // '' installs the whole package; a name, that plugin alone (a missing one comes back too).
  const [installWhat, setInstallWhat] = useState('');
  const FAULTS = uiFaults();
  const [faultId, setFaultId] = useState(FAULTS[0]?.id ?? '');
  const [faultNodePick, setFaultNodePick] = useState('');
  const [filePath, setFilePath] = useState('/etc/cni/net.d/99-extra.conflist');
  const [fileData, setFileData] = useState('');
  const [confirmNew, setConfirmNew] = useState(false);
  const presets = useApp((s) => s.engine?.CLUSTER_PRESETS ?? []);
  const [presetId, setPresetId] = useState('');

  const pod = pods.includes(target) ? target : (pods[0] ?? '');
  const fault = FAULTS.find((f) => f.id === faultId);
  const faultAction = fault
    ? fault.action(session, step, fault.nodeScoped && faultNodePick ? faultNodePick : undefined)
    : 'Choose a fault.';
  const faultTarget =
    typeof faultAction === 'string' ? null : faultNodeOf(session, step, faultAction);
  const [releaseText, setReleaseText] = useState('');
  const releaseId = useId();
  const running = releaseInfo(state.nodes[opNode]?.containerd);
  const releaseError = releaseText.trim() ? releaseProblem(releaseText) : null;
  const submit = (f: () => void) => (e: FormEvent) => {
    e.preventDefault();
    f();
  };
  // The plugin binaries in the node's /opt/cni/bin at this step.
  const installed = (node: string): string[] => {
    const fs = state.nodes[node]?.fs as FsState | undefined;
    return (fs ? entriesIn(fs, '/opt/cni/bin') : [])
      .filter(([, e]) => e.kind === 'file' && e.exec !== undefined)
      .map(([name]) => name)
      .sort();
  };

  // What installing the plugins package writes: every binary it ships, and any other plugin the
  // node has (a bundle's calico, flannel), so that a plugin removed from /opt/cni/bin comes back.
  const packagePlugins = (node: string): string[] =>
    [...new Set([...loadEngine.now().REFERENCE_PACKAGE, ...installed(node)])].sort();

  return (
    <div className="actions">
      <p className="muted">
        {`Actions happen at the current step (${step + 1}). After stepping back, an action replaces
        everything after the step: the sandbox is replayed up to here with the same seed.`}
      </p>
      {last && (
        <p className="done" role="status">
          {last}
        </p>
      )}

      <Section title="Pods">
        <form
          className="row-form"
          onSubmit={submit(() => {
            const name = podName.trim() || `web-${n}`;
            void run({ do: 'createPod', name, ...(podNode ? { node: podNode } : {}) }).then(
              (r) => r && setPodName(''),
            );
          })}
        >
          <Field label="Pod name">
            <input
              value={podName}
              placeholder={`web-${n}`}
              onChange={(e) => setPodName(e.target.value)}
            />
          </Field>
          <NodeSelect
            nodes={nodes}
            value={podNode}
            onChange={setPodNode}
            auto
            label="Node for the pod"
          />
          <button type="submit" disabled={busy}>
            Create pod
          </button>
          {faultedNode && podNode !== faultedNode && (
            <p className="muted">{`The fault injected on ${faultedNode} shows only in pods on ${faultedNode}.`}</p>
          )}
        </form>
        <form
          className="row-form"
          onSubmit={submit(
            () =>
              void run({
                do: 'scale',
                deployment,
                replicas,
                ...(depNode ? { node: depNode } : {}),
              }),
          )}
        >
          <Field label="Deployment">
            <input value={deployment} onChange={(e) => setDeployment(e.target.value)} />
          </Field>
          <Field label="Replicas">
            <input
              type="number"
              min={0}
              max={250}
              value={replicas}
              onChange={(e) => setReplicas(Number(e.target.value))}
            />
          </Field>
          <NodeSelect
            nodes={nodes}
            value={depNode}
            onChange={setDepNode}
            auto
            label="Node for the replicas"
          />
          <button type="submit" disabled={busy}>
            Scale deployment
          </button>
        </form>
        <form className="row-form" onSubmit={submit(() => void run({ do: 'deletePod', pod }))}>
          <Field label="Pod">
            <select value={pod} onChange={(e) => setTarget(e.target.value)} disabled={!pods.length}>
              {pods.length === 0 && <option value="">no pods</option>}
              {pods.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </Field>
          <button type="submit" disabled={busy || !pod}>
            Delete pod
          </button>
          <button
            type="button"
            disabled={busy || !pod}
            onClick={() => void run({ do: 'cniCheck', pod })}
          >
            Run CHECK
          </button>
        </form>
      </Section>

      <Section title="Nodes">
        <div className="row-form">
          <NodeSelect nodes={nodes} value={opNode} onChange={setOpNode} />
          <button
            type="button"
            disabled={busy}
            onClick={() => void run({ do: 'restartKubelet', node: opNode })}
          >
            Restart kubelet
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => void run({ do: 'restartContainerd', node: opNode })}
          >
            Restart containerd
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => void run({ do: 'reboot', node: opNode })}
          >
            Reboot node
          </button>
        </div>
        <div className="row-form">
          <span className="muted">{`libcni on ${opNode}, as a runtime calls it:`}</span>
          <button
            type="button"
            disabled={busy}
            onClick={() => void run({ do: 'cniGc', node: opNode })}
          >
            Run GC
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => void run({ do: 'cniStatus', node: opNode })}
          >
            Run STATUS
          </button>
        </div>
        <form
          className="row-form"
          onSubmit={submit(() => {
            void (async () => {
              for (const plugin of installWhat ? [installWhat] : packagePlugins(opNode)) {
                const r = await run({ do: 'installPlugin', node: opNode, plugin, build });
                if (!r) return;
              }
            })();
          })}
        >
          <Field label="Plugins to install">
            <select value={installWhat} onChange={(e) => setInstallWhat(e.target.value)}>
              <option value="">every plugin of the package</option>
              {packagePlugins(opNode).map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
          </Field>
          <Field label="Plugin build">
            <select value={build} onChange={(e) => setBuild(e.target.value)}>
              {Object.keys(loadEngine.now().BUILDS).map((b) => (
                <option key={b}>{b}</option>
              ))}
            </select>
          </Field>
          <button type="submit" disabled={busy}>
            Install plugins
          </button>
        </form>
        <form
          className="row-form"
          onSubmit={submit(() => {
            const version = releaseText.trim();
            if (!version || releaseError) return;
            void run({ do: 'setContainerdVersion', node: opNode, version }).then((r) => {
              if (!r) return;
              setReleaseText('');
              setLast(
                `containerd ${version} installed on ${opNode} at step ${(r.first ?? r.step) + 1}: it takes effect on restart (Restart containerd, or Reboot node).`,
              );
            });
          })}
        >
          <Field label="containerd release to install">
            <input
              className="mono"
              value={releaseText}
              list={`${releaseId}-list`}
              placeholder="e.g. 2.0.0"
              inputMode="decimal"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={releaseError !== null}
              aria-describedby={releaseError ? `${releaseId}-error` : `${releaseId}-help`}
              onChange={(e) => setReleaseText(e.target.value)}
            />
          </Field>
          <datalist id={`${releaseId}-list`}>
            {releaseSuggestions().map((r) => (
              <option key={r.version} value={r.version} label={`newest of ${r.range}`} />
            ))}
          </datalist>
          <button
            type="submit"
            disabled={
              busy || !releaseText.trim() || releaseError !== null || running?.runtime === 'cri-o'
            }
          >
            Install containerd release
          </button>
          {running?.runtime === 'cri-o' && (
            <p className="muted">
              {`${opNode} runs CRI-O ${running.version} (${releaseDetails(running)}), not containerd: a scenario's "runtime" field sets its release.`}
            </p>
          )}
          {running?.runtime === 'containerd' && (
            <p className="muted">
              {`${opNode} runs containerd ${running.version} (${releaseDetails(running)}): its libcni follows from the release.`}
              {running.installed
                ? ` containerd ${running.installed} is installed: it takes effect on restart.`
                : ''}
            </p>
          )}
          <p className="muted" id={`${releaseId}-help`}>
            {`Any release from ${releaseSpan()} (suggested: the newest of each behaviour range). It takes effect on restart: Restart containerd, or Reboot node.`}
          </p>
          {releaseError && (
            <p className="error-text" id={`${releaseId}-error`} role="alert">
              {releaseError}
            </p>
          )}
        </form>
      </Section>

      <Section
        title="Faults"
        intro="Break the node the way real ones break; the explanation says what to look for."
      >
        {FAULTS.length === 0 ? (
          <p className="muted">The fault catalogue is not available in this build.</p>
        ) : (
          <form
            className="row-form"
            onSubmit={submit(() => {
              if (!fault || typeof faultAction === 'string') return;
              void run(faultAction).then((r) => {
                const on = r?.output?.faultNode;
                if (!r || !on) return;
                setLast(
                  fault.nodeScoped
                    ? `Fault injected on ${on} at step ${(r.first ?? r.step) + 1}: ${fault.title}. It shows in pods on ${on}: "Create pod" now offers ${on}.`
                    : `Fault injected on ${on} at step ${(r.first ?? r.step) + 1}: ${fault.title}.`,
                );
                if (fault.nodeScoped) setPodNode(null);
              });
            })}
          >
            <Field label="Fault">
              <select value={faultId} onChange={(e) => setFaultId(e.target.value)}>
                {FAULTS.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.title}
                  </option>
                ))}
              </select>
            </Field>
            {fault?.nodeScoped && (
              <Field label="Fault's node">
                <select value={faultNodePick} onChange={(e) => setFaultNodePick(e.target.value)}>
                  <option value="">first where it can be made</option>
                  {nodes.map((x) => (
                    <option key={x}>{x}</option>
                  ))}
                </select>
              </Field>
            )}
            <button type="submit" disabled={busy || typeof faultAction === 'string'}>
              Inject fault
            </button>
            {faultTarget && <span className="muted">{`on ${faultTarget}`}</span>}
            {typeof faultAction === 'string' && <p className="muted">{faultAction}</p>}
            {fault && <p className="explanation">{fault.explanation}</p>}
            {fault && (
              <Recovery
                fault={fault.id}
                node={faultTarget ?? faultedNode ?? null}
                pod={
                  typeof faultAction !== 'string' && faultAction.do === 'injectFault'
                    ? ((faultAction.params?.['pod'] as string | undefined) ?? null)
                    : null
                }
              />
            )}
          </form>
        )}
      </Section>

      <Section title="Files">
        <form
          className="col-form"
          onSubmit={submit(
            () => void run({ do: 'writeFile', node: opNode, path: filePath, data: fileData }),
          )}
        >
          <NodeSelect nodes={nodes} value={opNode} onChange={setOpNode} label="Node of the file" />
          <Field label="Path">
            <input
              value={filePath}
              onChange={(e) => setFilePath(e.target.value)}
              className="mono"
            />
          </Field>
          <Field label="Content">
            <textarea
              value={fileData}
              onChange={(e) => setFileData(e.target.value)}
              rows={3}
              className="mono"
            />
          </Field>
          <div className="row-form">
            <button type="submit" disabled={busy}>
              Write file
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => void run({ do: 'removeFile', node: opNode, path: filePath })}
            >
              Remove file
            </button>
          </div>
        </form>
      </Section>

      <Section
        title="Sandbox"
        intro="Start over with the default cluster (two nodes, not wired to each other; bridge ipMasq: true) or a cluster network preset (bridge ipMasq: false, the agent's masquerade rule)."
      >
        <Field label="Cluster">
          <select
            value={presetId}
            onChange={(e) => setPresetId(e.target.value)}
            disabled={confirmNew}
          >
            <option value="">Default: two nodes, no cluster network</option>
            {presets.map((p) => (
              <option key={p.id} value={p.id} title={p.summary}>
                {p.title} (network.mode {p.id})
              </option>
            ))}
          </select>
        </Field>
        {presetId && <p className="muted">{presets.find((p) => p.id === presetId)?.summary}</p>}
        {confirmNew ? (
          <div className="row-form">
            <span>Discard every action and step?</span>
            <button
              type="button"
              className="danger"
              onClick={() => {
                setConfirmNew(false);
                cmd.newSandbox(presetId || undefined);
              }}
            >
              Discard and start over
            </button>
            <button type="button" onClick={() => setConfirmNew(false)}>
              Keep my sandbox
            </button>
          </div>
        ) : (
          <button type="button" disabled={busy} onClick={() => setConfirmNew(true)}>
            New sandbox
          </button>
        )}
      </Section>
    </div>
  );
}
