import { useEffect, useRef, useState } from 'react';
import { dismissNotice, useApp, type Notice } from '../store';
import { lifetime, shown } from './noticeLife';

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

/** Dismisses notice `n` after its lifetime unless `held` (see noticeLife.ts); errors stay. */
export function useNoticeExpiry(n: Notice, held = false): void {
  const ms = lifetime(n);
  useEffect(() => {
    if (ms === null || held) return;
    // Held, then released: the notice gets its whole time again.
    const t = setTimeout(() => dismissNotice(n.id), ms);
    return () => clearTimeout(t);
  }, [n.id, ms, held]);
}

/** One notice; it dismisses itself after its lifetime unless `held`. */
function NoticeItem({
  n,
  held,
  onDismiss,
}: {
  n: Notice;
  held: boolean;
  onDismiss: (e: React.MouseEvent<HTMLButtonElement>) => void;
}) {
  useNoticeExpiry(n, held);
  return (
    <li className={`notice notice-${n.kind}`} role={n.kind === 'info' ? 'status' : 'alert'}>
      <span>{n.text}</span>
      {n.download && (
        <button type="button" onClick={() => save(n.download!)}>
          {n.download.label}
        </button>
      )}
      <button type="button" onClick={onDismiss} aria-label="Dismiss notice">
        ×
      </button>
    </li>
  );
}

/**
 * Messages for the user: a refused action, a sandbox that could not be restored. Info and
 * warnings go by themselves, errors stay until dismissed; at most three show.
 */
export function Notices() {
  const notices = useApp((s) => s.notices);
  const [hover, setHover] = useState(false);
  const [focus, setFocus] = useState(false);
  /** Where the keyboard focus was before it came into the notices: it goes back there. */
  const cameFrom = useRef<HTMLElement | null>(null);
  if (notices.length === 0) return null;
  const list = shown(notices);
  /**
   * Dismissing a notice whose button has the focus would drop the focus to the page: it moves to
   * the next notice's Dismiss button, or, after the last, back to where it came from.
   */
  const dismiss = (id: number, e: React.MouseEvent<HTMLButtonElement>) => {
    if (document.activeElement === e.currentTarget) {
      // Moved first: the other notices' buttons stay (keyed), this one's goes.
      const others = [
        ...(e.currentTarget
          .closest('ul')
          ?.querySelectorAll<HTMLButtonElement>('button[aria-label="Dismiss notice"]') ?? []),
      ].filter((b) => b !== e.currentTarget);
      const back = cameFrom.current?.isConnected ? cameFrom.current : null;
      (others[0] ?? back ?? document.querySelector<HTMLElement>('main, [role="main"]'))?.focus();
    }
    dismissNotice(id);
  };
  return (
    <ul
      className="notices"
      aria-label="Notices"
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      onFocus={(e) => {
        const from = e.relatedTarget as HTMLElement | null;
        if (from && !e.currentTarget.contains(from)) cameFrom.current = from;
        setFocus(true);
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocus(false);
      }}
    >
      {list.map((n) => (
        <NoticeItem key={n.id} n={n} held={hover || focus} onDismiss={(e) => dismiss(n.id, e)} />
      ))}
    </ul>
  );
}
