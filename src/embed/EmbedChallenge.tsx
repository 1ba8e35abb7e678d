/**
 * A challenge in an embed, compact (a lazy chunk): its title and ticket above the views. The
 * candidate investigates here; the answer, hints and debrief are in the app ("Open in cnisim").
 */
import { routeHash } from '../ui/route';
import './embed-lesson.css';
import { useEmbed } from './state';

export default function EmbedChallenge() {
  const open = useEmbed((s) => s.challenge);
  if (!open) return null;
  const answer = new URL(
    `./${routeHash({ kind: 'challenge', id: open.id, seed: open.seed })}`,
    location.href,
  ).href;
  return (
    <section className="embed-lesson" aria-labelledby="embed-challenge-title">
      <div className="embed-lesson-head">
        <h2 id="embed-challenge-title">Challenge: {open.title}</h2>
        <span className="muted">
          {open.difficulty} · seed {open.seed}
        </span>
      </div>
      <blockquote className="ticket">{open.ticket}</blockquote>
      <p className="muted">
        Step through what happened, then{' '}
        <a href={answer} target="_blank" rel="noopener">
          answer in cnisim<span aria-hidden="true"> ↗</span>
        </a>{' '}
        (root cause, fix, hints and the debrief).
      </p>
    </section>
  );
}
