import { dirChildren, entryIn, namesIn, stat, type FsState, loadEngine } from '../../engine';
import { ui, useApp } from '../store';
import { FileText } from './FileText';
import type { PanelProps } from './types';

/** The directories the panel opens at: CNI's own, and where libcni and host-local keep state. */
const roots = () => [
  '/etc/cni/net.d',
  '/opt/cni/bin',
  loadEngine.now().resultsDir(),
  loadEngine.now().DEFAULT_DATA_DIR,
];

function Tree({
  fs,
  dir,
  node,
  selected,
}: {
  fs: FsState;
  dir: string;
  node: string;
  selected: string | null;
}) {
  const children = dirChildren(fs, dir);
  if (!children) return <p className="muted">(no such directory)</p>;
  const names = namesIn(fs, dir).sort();
  if (names.length === 0) return <p className="muted">(empty)</p>;
  return (
    <ul className="tree">
      {names.map((name) => {
        const path = `${dir}/${name}`;
        const e = entryIn(fs, dir, name)!;
        if (e.kind === 'dir') {
          return (
            <li key={name}>
              <details open>
                <summary className="mono">{`${name}/`}</summary>
                <Tree fs={fs} dir={path} node={node} selected={selected} />
              </details>
            </li>
          );
        }
        return (
          <li key={name}>
            <button
              type="button"
              className="link mono"
              aria-pressed={path === selected}
              onClick={() => ui.selectFile({ node, path })}
            >
              {name}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** Each node's CNI directories at the current step, and a viewer for the selected file. */
export function FilesView({ session, step }: PanelProps) {
  const selectedFile = useApp((s) => s.selectedFile);
  const nodes = session.nodeNames;
  const node = selectedFile && nodes.includes(selectedFile.node) ? selectedFile.node : nodes[0]!;
  const state = session.stateAt(step);
  const fs = state.nodes[node]?.fs as FsState | undefined;
  const path = selectedFile?.node === node ? selectedFile.path : null;
  const entry = path && fs ? stat(fs, path) : undefined;
  return (
    <div className="files">
      <label className="inline">
        Node<span className="visually-hidden"> of the files</span>{' '}
        <select value={node} onChange={(e) => ui.selectFile({ node: e.target.value, path: '' })}>
          {nodes.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
      </label>
      <div className="files-body">
        <nav className="file-tree" aria-label={`Files of ${node}`}>
          {fs ? (
            roots().map((r) => (
              <section key={r}>
                <h3 className="mono">{r}</h3>
                <Tree fs={fs} dir={r} node={node} selected={path} />
              </section>
            ))
          ) : (
            <p className="muted">No such node at this step.</p>
          )}
        </nav>
        <section className="file-viewer" aria-label="File viewer">
          {path ? (
            <>
              <h3 className="mono">{path}</h3>
              {entry?.kind === 'file' ? (
                <FileText file={entry} label={path} />
              ) : (
                <p className="muted">This file does not exist at this step.</p>
              )}
            </>
          ) : (
            <p className="muted">Choose a file to see its content at this step.</p>
          )}
        </section>
      </div>
    </div>
  );
}
