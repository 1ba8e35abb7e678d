import { useState } from 'react';
import type { FsFile } from '../../engine';
import { prettyJson } from '../format';

/** Shows `\r` visibly: host-local's reservation files end their lines with `\r\n`. */
function Lines({ text }: { text: string }) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return (
    <pre className="file-text" tabIndex={0}>
      {lines.map((l, i) => {
        const cr = l.endsWith('\r');
        return (
          <span key={i} className="file-line">
            {cr ? l.slice(0, -1) : l}
            <span className="eol" title={cr ? 'carriage return + line feed' : 'line feed'}>
              {cr ? '\\r\\n' : i < lines.length - 1 || text.endsWith('\n') ? '\\n' : ''}
            </span>
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}

/** A file's content: JSON pretty-printed (or raw on request), line endings visible, binaries named. */
export function FileText({ file, label }: { file: FsFile | undefined; label: string }) {
  const [raw, setRaw] = useState(false);
  if (!file) return <p className="muted">{label}: no such file at this step.</p>;
  if (file.exec) {
    return (
      <p>
        {`Simulated executable: the ${file.exec.program} plugin, build ${file.exec.build}`}
        {file.exec.hangOn?.length ? ` (hangs on ${file.exec.hangOn.join(', ')})` : ''}
      </p>
    );
  }
  if (file.nsfs) return <p>Network namespace bind mount (nsfs).</p>;
  const pretty = prettyJson(file.data);
  const crlf = file.data.includes('\r\n');
  return (
    <div className="file-view">
      <p className="file-meta muted">
        {`${file.data.length} bytes · mode ${file.mode.toString(8).padStart(4, '0')}`}
        {crlf ? ' · lines end with \\r\\n' : ''}
        {pretty !== null && (
          <>
            {' · '}
            <button type="button" className="link" onClick={() => setRaw(!raw)}>
              {raw ? 'Pretty JSON' : 'Raw bytes'}
            </button>
          </>
        )}
      </p>
      {pretty !== null && !raw ? (
        <pre className="file-text json" tabIndex={0}>
          {pretty}
        </pre>
      ) : (
        <Lines text={file.data} />
      )}
    </div>
  );
}
