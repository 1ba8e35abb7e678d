import { useEffect, useRef, useState } from 'react';
import { useModal } from '../components/useModal';
import { ui, useApp } from '../store';
import type { ExportKind } from './exports';
import { makeEmbedSnippet, makeShareUrl } from './open';

const EXPORTS: { kind: ExportKind; label: string }[] = [
  { kind: 'mermaid', label: 'Sequence (Mermaid)' },
  { kind: 'sequence-svg', label: 'Sequence (SVG)' },
  { kind: 'topology-svg', label: 'Topology (SVG)' },
  { kind: 'topology-png', label: 'Topology (PNG)' },
  { kind: 'trace', label: 'Trace (JSON)' },
];

const exportsModule = () => import('./exports');

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** "Share": a link to the current sandbox, step and views. */
export function ShareDialog() {
  const open = useApp((s) => s.shareOpen);
  const version = useApp((s) => s.version);
  const ref = useModal(open);
  const input = useRef<HTMLInputElement>(null);
  const [link, setLink] = useState<{ url: string } | { error: string } | null>(null);
  const [status, setStatus] = useState('');
  const [embed, setEmbed] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    void makeShareUrl().then((r) => {
      if (!live) return;
      setLink(r);
      setStatus('');
    });
    return () => {
      live = false;
    };
  }, [open, version]);

  const onCopy = async () => {
    if (!link || !('url' in link)) return;
    if (await copy(link.url)) setStatus('Link copied.');
    else {
      input.current?.select();
      setStatus('Copying is not allowed here: the link is selected, press Ctrl+C (⌘C).');
    }
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby="share-title"
      onClose={() => ui.share(false)}
      className="share-dialog"
    >
      <h2 id="share-title">Share</h2>
      <p>
        A link to this sandbox at this step, with the views on screen. It holds everything: no
        account, no server.
      </p>
      {link === null && <p className="muted">Making the link…</p>}
      {link !== null && 'error' in link && (
        <p role="alert" className="notice notice-warning">
          {link.error}
        </p>
      )}
      {link !== null && 'url' in link && (
        <div className="share-row">
          <label htmlFor="share-link">Link</label>
          <input
            id="share-link"
            ref={input}
            readOnly
            value={link.url}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" onClick={() => void onCopy()}>
            Copy link
          </button>
        </div>
      )}
      <p role="status" className="muted">
        {status}
      </p>
      <h3>Embed</h3>
      <p>
        <button
          type="button"
          onClick={() =>
            void makeEmbedSnippet().then(async (r) => {
              if ('error' in r) {
                setStatus(r.error);
                return;
              }
              setEmbed(r.html);
              setStatus(
                (await copy(r.html))
                  ? 'Embed code copied.'
                  : 'Embed code written below: select it and copy it.',
              );
            })
          }
        >
          Embed
        </button>{' '}
        HTML for a page of your documentation (see docs/embedding.md).
      </p>
      {embed !== null && (
        <textarea
          aria-label="Embed code"
          readOnly
          rows={6}
          className="share-embed"
          value={embed}
          onFocus={(e) => e.currentTarget.select()}
        />
      )}
      <h3>Export</h3>
      <div className="share-exports" role="group" aria-label="Export">
        {EXPORTS.map((x) => (
          <button
            key={x.kind}
            type="button"
            onClick={() => void exportsModule().then((m) => m.exportAs(x.kind))}
          >
            {x.label}
          </button>
        ))}
      </div>
      <p>
        <label>
          Open a trace (JSON){' '}
          <input
            type="file"
            accept="application/json,.json"
            onChange={(e) => {
              const f = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (!f) return;
              ui.share(false);
              void exportsModule().then((m) => m.importTrace(f));
            }}
          />
        </label>
      </p>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
}
