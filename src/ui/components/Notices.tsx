import { dismissNotice, useApp } from '../store';

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
          <button type="button" onClick={() => dismissNotice(n.id)} aria-label="Dismiss notice">
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
