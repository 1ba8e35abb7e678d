import './share.css';
import { useApp } from '../store';
import { backToMine, keepAsMine } from './open';

/** Shown while a shared link's sandbox is open: the user's own is kept until they choose. */
export function LinkBanner() {
  const source = useApp((s) => s.source);
  const idle = useApp((s) => s.phase === 'ready' && s.busy === null);
  if (source !== 'link') return null;
  return (
    <section className="link-banner" aria-label="Shared sandbox">
      <p>
        <strong>You opened a shared sandbox.</strong> What you do here is not saved: your own
        sandbox is kept as it was.
      </p>
      <button type="button" disabled={!idle} onClick={() => void backToMine()}>
        Back to my sandbox
      </button>
      <button type="button" disabled={!idle} onClick={keepAsMine}>
        Keep this as my sandbox
      </button>
    </section>
  );
}
