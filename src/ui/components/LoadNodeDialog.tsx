import { useState, type DragEvent } from 'react';
import { loadNodeBundle, type BundleFile } from '../../engine';
import { useModal } from './useModal';

type Outcome = { kind: 'report'; text: string; errors: number } | { kind: 'error'; text: string };

const enc = (s: string) => new TextEncoder().encode(s);

/**
 * "Load a node" (docs/your-node.md): a real node's bundle, dropped as a .tar.gz or pasted as
 * files, built into a node, dry-run, and its report shown. The engine part loads on first use.
 */
export function LoadNodeButton() {
  const [open, setOpen] = useState(false);
  const ref = useModal(open);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [confName, setConfName] = useState('10-net.conflist');
  const [conf, setConf] = useState('');
  const [versions, setVersions] = useState('');
  const [runtime, setRuntime] = useState('');
  const [podCIDR, setPodCIDR] = useState('');

  const run = async (input: { archive: Uint8Array } | { files: BundleFile[] }) => {
    setBusy(true);
    setOutcome(null);
    try {
      const m = await loadNodeBundle();
      const b =
        'archive' in input ? m.bundleFromArchive(input.archive) : m.bundleFromFiles(input.files);
      if (!b.ok) setOutcome({ kind: 'error', text: b.error });
      else {
        const r = m.nodeReport(b.bundle);
        setOutcome({
          kind: 'report',
          text: m.formatNodeReport(r),
          errors: r.findings.filter((f) => f.severity === 'error').length,
        });
      }
    } catch (e) {
      setOutcome({ kind: 'error', text: `The bundle could not be read: ${String(e)}` });
    } finally {
      setBusy(false);
    }
  };

  const readFile = async (f: File | undefined) => {
    if (!f) return;
    await run({ archive: new Uint8Array(await f.arrayBuffer()) });
  };

  const pasted = () => {
    const files: BundleFile[] = [];
    if (conf.trim())
      files.push({
        path: `etc/cni/net.d/${confName.trim() || '10-net.conflist'}`,
        data: enc(conf),
      });
    for (const line of versions.split('\n')) {
      const m = /^\s*([A-Za-z0-9._+-]+)\s*[:=]?\s*(.*)$/.exec(line);
      if (m && m[1]) files.push({ path: `opt-cni-bin/${m[1]}`, data: enc(m[2] ?? '') });
    }
    if (runtime.trim()) files.push({ path: 'runtime-version.txt', data: enc(runtime) });
    if (podCIDR.trim()) files.push({ path: 'pod-cidr.txt', data: enc(podCIDR) });
    void run({ files });
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    void readFile(e.dataTransfer.files[0]);
  };

  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Load a node
      </button>
      <dialog
        ref={ref}
        aria-labelledby="load-node-title"
        onClose={() => setOpen(false)}
        className="load-node"
      >
        <h2 id="load-node-title">Load a node</h2>
        <p>
          A real node&apos;s CNI set-up, collected with the command in docs/your-node.md: cnisim
          builds the node, dry-runs the pod lifecycle on it and says what would break.
        </p>
        <div className="drop-zone" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
          <label>
            Bundle (.tar.gz){' '}
            <input
              type="file"
              accept=".gz,.tgz,.tar"
              onChange={(e) => void readFile(e.target.files?.[0])}
            />
          </label>
          <span> or drop it here</span>
        </div>
        <details>
          <summary>Or paste the files</summary>
          <label>
            Config file name{' '}
            <input value={confName} onChange={(e) => setConfName(e.target.value)} />
          </label>
          <label>
            Config (/etc/cni/net.d)
            <textarea
              rows={8}
              value={conf}
              onChange={(e) => setConf(e.target.value)}
              spellCheck={false}
            />
          </label>
          <label>
            Plugins: one per line, name then its VERSION answer
            <textarea
              rows={4}
              value={versions}
              onChange={(e) => setVersions(e.target.value)}
              spellCheck={false}
            />
          </label>
          <label>
            containerd --version{' '}
            <input value={runtime} onChange={(e) => setRuntime(e.target.value)} />
          </label>
          <label>
            Pod CIDR <input value={podCIDR} onChange={(e) => setPodCIDR(e.target.value)} />
          </label>
          <button type="button" onClick={pasted} disabled={busy}>
            Check these files
          </button>
        </details>
        <div role="status" aria-live="polite">
          {busy
            ? 'Building the node and running the drill…'
            : outcome?.kind === 'report'
              ? `Report ready: ${outcome.errors} error(s).`
              : ''}
        </div>
        {outcome?.kind === 'error' && (
          <p role="alert" className="mono">
            {outcome.text}
          </p>
        )}
        {outcome?.kind === 'report' && (
          <pre className="node-report" aria-label="Node report" tabIndex={0}>
            {outcome.text}
          </pre>
        )}
        <form method="dialog">
          <button type="submit">Close</button>
        </form>
      </dialog>
    </>
  );
}
