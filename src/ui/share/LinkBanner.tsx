import './share.css';
import { parseRoute } from '../route';
import { useApp } from '../store';
import { backToMine, keepAsMine, linkNotOpened } from './open';

/**
 * Shown while a shared link's sandbox (or a scenario file, #/scenario/<name>) is open: the
 * user's own is kept until they choose.
 */
export function LinkBanner() {
  const source = useApp((s) => s.source);
  const idle = useApp((s) => s.phase === 'ready' && s.busy === null);
  // The session changes with the address: read the route again when it does.
  const session = useApp((s) => s.session);
  if (source !== 'link') return null;
  const route = parseRoute(location.hash);
  const what = route.kind === 'scenario' ? `the scenario “${route.name}”` : 'a shared sandbox';
  // A link that could not be opened leaves the default sandbox, which is not worth keeping over
  // the user's own.
  const failed = linkNotOpened(session);
  return (
    <section className="link-banner" aria-label="Shared sandbox">
      {failed ? (
        <p>
          <strong>The link could not be opened:</strong> this is the default sandbox. What you do
          here is not saved: your own sandbox is kept as it was.
        </p>
      ) : (
        <p>
          <strong>You opened {what}.</strong> What you do here is not saved: your own sandbox is
          kept as it was.
        </p>
      )}
      <button type="button" disabled={!idle} onClick={() => void backToMine()}>
        Back to my sandbox
      </button>
      {!failed && (
        <button type="button" disabled={!idle} onClick={keepAsMine}>
          Keep this as my sandbox
        </button>
      )}
    </section>
  );
}
