import { dismissNotice, useApp, type Notice } from '../store';

/** Saves a notice's file (a damaged save) through a temporary link. */
function save(file: NonNullable<Notice['download']>): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Messages for the user: a refused action, a sandbox that could not be restored. */
export function Notices() {
  const notices = useApp((s) => s.notices);
  if (notices.length === 0) return null;
  return (
    <ul className="notices" aria-label="Notices">
      {notices.map((n) => (
        <li
          key={n.id}
          className={`notice notice-${n.kind}`}
          role={n.kind === 'info' ? 'status' : 'alert'}
        >
          <span>{n.text}</span>
          {n.download && (
            <button type="button" onClick={() => save(n.download!)}>
              {n.download.label}
            </button>
          )}
          <button type="button" onClick={() => dismissNotice(n.id)} aria-label="Dismiss notice">
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
