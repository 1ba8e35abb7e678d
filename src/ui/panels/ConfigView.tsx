import {
  lazy,
  Suspense,
  useDeferredValue,
  useLayoutEffect,
  useRef,
  useState,
  type RefObject,
} from 'react';
import { entriesIn, entryIn, LIMITS, type FsState } from '../../engine';
import { cmd, useApp } from '../store';
import { ErrorBoundary } from '../components/ErrorBoundary';
import type { Handover } from './JsonEditor';
import { jsonProblem } from './jsonProblem';
import type { PanelProps } from './types';

// CodeMirror (~100 KiB gzip) arrives when the editor is first shown.
const JsonEditor = lazy(() => import('./JsonEditor'));

const CONF_DIR = '/etc/cni/net.d';

/** The longest file a session's action may write. */
const MAX_FILE = LIMITS.text;

/** 1268951 → "1,268,951" (without Intl, whose first use costs tens of ms). */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The plain text area shown until CodeMirror has arrived. Its text is the editor's state (what is
 * typed in it is kept); if it has the keyboard when CodeMirror replaces it, it says where the
 * cursor was (`handover`), and the editor takes the keyboard there: typing goes on in the editor,
 * not into the app's shortcuts.
 */
function FallbackEditor(props: {
  label: string;
  value: string;
  onChange(text: string): void;
  handover: RefObject<Handover | null>;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const { handover } = props;
  useLayoutEffect(() => {
    const el = area.current;
    return () => {
      // Runs before the text area leaves the page, while it may still have the keyboard.
      if (el && document.activeElement === el)
        handover.current = { anchor: el.selectionStart, head: el.selectionEnd };
    };
  }, [handover]);
  return (
    <textarea
      ref={area}
      className="mono editor-fallback"
      aria-label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      rows={16}
    />
  );
}

/** A node's CNI configuration, editable; applying writes the file on the node at this step. */
export function ConfigView({ session, step }: PanelProps) {
  const busy = useApp((s) => s.busy !== null);
  const nodes = session.nodeNames;
  const [node, setNode] = useState(nodes[0]!);
  const state = session.stateAt(step);
  const fs = state.nodes[node]?.fs as FsState | undefined;
  const files = (fs ? entriesIn(fs, CONF_DIR) : [])
    .filter(([, e]) => e.kind === 'file')
    .map(([name]) => name)
    .sort();
  const [file, setFile] = useState(files[0] ?? '10-containerd-net.conflist');
  const name = files.includes(file) ? file : (files[0] ?? file);
  const path = `${CONF_DIR}/${name}`;
  const entry = fs ? entryIn(fs, CONF_DIR, name) : undefined;
  const onDisk = entry?.kind === 'file' ? entry.data : '';
  // The user's edit of this node's file, if any; otherwise what is on disk at this step.
  const [edit, setEdit] = useState<{ node: string; path: string; text: string } | null>(null);
  const text = edit && edit.node === node && edit.path === path ? edit.text : onDisk;
  const dirty = text !== onDisk;
  // A paste refused for its size: said until the next edit.
  const [refused, setRefused] = useState<number | null>(null);
  const handover = useRef<Handover | null>(null);
  const setText = (t: string) => {
    setRefused(null);
    setEdit({ node, path, text: t });
  };

  // Parsed in a render of its own: a large text's parse is not added to the edit's task.
  const problem = jsonProblem(useDeferredValue(text));
  const c = state.nodes[node]?.containerd;
  const k = state.nodes[node]?.kubelet;

  return (
    <div className="config">
      <div className="row-form">
        <label className="inline">
          Node<span className="visually-hidden"> of the conflist</span>{' '}
          <select value={node} onChange={(e) => setNode(e.target.value)}>
            {nodes.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        <label className="inline">
          File{' '}
          <select value={name} onChange={(e) => setFile(e.target.value)}>
            {files.length === 0 && <option value={name}>{`${name} (new)`}</option>}
            {files.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
      </div>
      <ErrorBoundary what="The conflist editor">
        <Suspense
          fallback={
            <FallbackEditor
              label={`Contents of ${path} on ${node}`}
              value={text}
              onChange={setText}
              handover={handover}
            />
          }
        >
          <JsonEditor
            value={text}
            onChange={setText}
            label={`Contents of ${path} on ${node}`}
            maxLength={MAX_FILE}
            onRefused={setRefused}
            takeHandover={() => {
              const h = handover.current;
              handover.current = null;
              return h;
            }}
          />
        </Suspense>
      </ErrorBoundary>
      <div className="editor-status" aria-live="polite">
        {refused !== null ? (
          <p className="error-text">
            {`Not pasted: the file would be ${grouped(refused)} characters long; a file on a node holds at most ${grouped(MAX_FILE)} characters.`}
          </p>
        ) : problem ? (
          <p className="error-text">{`Invalid JSON at ${problem}`}</p>
        ) : (
          <p className="muted">
            {dirty ? 'Valid JSON, not applied yet.' : `As on ${node} at this step.`}
          </p>
        )}
      </div>
      <div className="row-form">
        <button
          type="button"
          disabled={busy || !dirty}
          onClick={() => void cmd.perform({ do: 'writeFile', node, path, data: text })}
        >
          {`Apply to ${node}`}
        </button>
        <button type="button" disabled={!dirty} onClick={() => setEdit(null)}>
          Revert
        </button>
        {problem && dirty && (
          <span className="muted">Applying invalid JSON shows how the node reacts to it.</span>
        )}
      </div>
      <section className="net-status" aria-label={`Network status of ${node}`}>
        <h3>{`${node} at this step`}</h3>
        <ul>
          <li>
            {c
              ? c.cni.error
                ? `containerd: no network loaded: ${c.cni.error}`
                : `containerd: networks ${c.cni.networks.map((x) => `${x.name} (${x.ifName})`).join(', ') || 'none'}`
              : 'containerd: not running'}
          </li>
          <li>
            {k
              ? `kubelet: NetworkReady=${k.networkReady ? 'true' : 'false'}${k.networkMessage ? ` (${k.networkMessage})` : ''}`
              : 'kubelet: not running'}
          </li>
        </ul>
      </section>
    </div>
  );
}
