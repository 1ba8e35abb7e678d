/**
 * Every challenge, with one seed per fault it may hide: the ticket's symptom holds when the
 * candidate arrives, the right answer (cause + fix) is accepted because the fix really brings the
 * node back, a wrong cause is refused even once the node is fine, and a fix that does not address
 * the fault (restarting containerd) is refused because the node does not recover.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../faults/catalogue';
import {
  checkRecovery,
  checkSymptom,
  debriefOf,
  openChallenge,
  scoreChallenge,
  submitAnswer,
} from './challenge';
import { loadCourse } from './content';
import { drawHidden, faultNodes, foldedBeforeBoot, podsOn } from './hidden';
import type { Challenge } from './schema';

const challenges = loadCourse().challenges;

/** The first seed (from 1) that hides each variant. */
function seedsPerVariant(ch: Challenge): number[] {
  const seen = new Set<number>();
  const seeds: number[] = [];
  for (let s = 1; s <= 500 && seen.size < ch.variants.length; s++) {
    const h = drawHidden(ch, s);
    if (!seen.has(h.index)) {
      seen.add(h.index);
      seeds.push(s);
    }
  }
  return seeds;
}

describe('the challenges', () => {
  it('are at least 16, valid, and hide at least 16 faults of the catalogue', () => {
    expect(loadCourse().errors).toEqual([]);
    expect(challenges.length).toBeGreaterThanOrEqual(16);
    const ids = FAULTS.map((f) => f.id);
    const hidden = new Set<string>();
    for (const ch of challenges)
      for (const v of ch.variants) {
        expect(ids).toContain(v.fault);
        hidden.add(v.fault);
      }
    expect(hidden.size).toBeGreaterThanOrEqual(16);
    // Some happen once the workload runs (a hang, a teardown), not only before the node boots.
    expect([...hidden].filter((f) => !foldedBeforeBoot(f)).length).toBeGreaterThanOrEqual(6);
  });

  it('name pods as workloads do, never after the node they run on', () => {
    for (const ch of challenges) {
      const nodes = (ch.cluster['nodes'] as { name: string }[]).map((n) => n.name);
      for (const n of nodes)
        for (const pod of podsOn(ch, n)) {
          expect(pod).toMatch(/^[a-z]+-[a-z0-9]{9,10}-[a-z0-9]{5}$/);
          for (const m of nodes)
            expect([ch.id, pod]).not.toEqual([ch.id, expect.stringContaining(m)]);
        }
    }
  });

  it('say for every cause why it is not the ticket’s when it is refused', () => {
    for (const ch of challenges)
      for (const c of ch.causes) {
        expect(c.why.length).toBeGreaterThan(40);
        expect(c.why).not.toBe(c.text);
      }
  });

  it('draw the fault and its node from the seed, every variant and node within 60 seeds', () => {
    for (const ch of challenges) {
      const variants = new Set<number>();
      const nodes = new Set<string>();
      for (let s = 1; s <= 60; s++) {
        const h = drawHidden(ch, s);
        expect(drawHidden(ch, s)).toEqual(h);
        variants.add(h.index);
        nodes.add(h.node);
      }
      expect([ch.id, variants.size]).toEqual([ch.id, ch.variants.length]);
      expect([ch.id, [...nodes].sort()]).toEqual([ch.id, [...faultNodes(ch)].sort()]);
    }
  });
});

describe.each(challenges.map((c) => [c.id, c] as const))('challenge %s', (_, ch) => {
  const seeds = seedsPerVariant(ch);

  it.each(seeds)(
    'seed %i: the ticket holds, the right answer recovers the node',
    { timeout: 120_000 },
    (seed) => {
      const run = openChallenge(ch, seed);
      const v = run.hidden.variant;
      // The ticket names the node (or none) but never the fault or its cause.
      const cause = ch.causes.find((c) => c.id === v.cause)!;
      expect(run.ticket).not.toContain(v.fault);
      expect(run.ticket).not.toContain(cause.text);
      if (ch.ticket.includes('{node}')) expect(run.ticket).toContain(run.hidden.node);
      const symptom = checkSymptom(run).filter((g) => !g.met);
      expect(symptom.map((g) => `${g.id}: ${g.explanation}`)).toEqual([]);
      expect(checkRecovery(run, run.start).some((g) => !g.met)).toBe(true);

      // A challenge's fault injected after the start leaves no marker and no logged action.
      expect(run.session.markers.filter((m) => m.kind === 'fault')).toEqual([]);
      expect(run.session.actions.filter((a) => a.action.do === 'injectFault')).toEqual([]);
      // No step names what was done in the simulator's own words.
      const told = run.session.events
        .slice(0, run.start + 1)
        .filter((e) => /now hangs on|writes a debug line|no longer hangs/.test(e.summary));
      expect(told.map((e) => e.summary)).toEqual([]);
      // ... and the candidate does not arrive right on it: what the cluster did since follows.
      const injected = run.session.loggedActions().find((a) => a.hidden);
      if (injected) expect(run.start - injected.step).toBeGreaterThanOrEqual(20);
      // No cause is named like the fault (the choices' values are in the page).
      expect(ch.causes.map((c) => c.id)).not.toContain(foldedBeforeBoot(v.fault) ? '' : v.fault);

      const ok = submitAnswer(run, { cause: v.cause, fixes: v.fix });
      expect(ok.accepted ? [] : ['reason' in ok ? ok.reason : '']).toEqual([]);
      expect(ok.recovery.every((g) => g.met)).toBe(true);

      // The node is fine now, but a myth (a cause no variant has) is still refused, without
      // naming the right one; the debrief then says why it is a myth.
      const wrong = ch.causes.find((c) => !ch.variants.some((x) => x.cause === c.id))!;
      expect(wrong).toBeDefined();
      const no = submitAnswer(run, { cause: wrong.id, fixes: [] });
      expect(no.accepted).toBe(false);
      if (!no.accepted) {
        expect(no.reason).toBe('The node recovered, but that is not the root cause.');
        expect(no.reason).not.toContain(cause.text);
      }
      // The debrief then names the cause and says why the refused one is not it.
      const d = debriefOf(run);
      expect(d.cause.id).toBe(v.cause);
      expect(d.refused.map((r) => r.id)).not.toContain(v.cause);
      expect(d.refused.find((r) => r.id === wrong.id)?.why).toBe(wrong.why);
    },
  );

  it.each(seeds)(
    'seed %i: the right cause with a fix that does not fix it is refused',
    { timeout: 120_000 },
    (seed) => {
      const run = openChallenge(ch, seed);
      const v = run.hidden.variant;
      const wrongFix = v.fix.includes('restart-containerd') ? 'reboot-node' : 'restart-containerd';
      const verdict = submitAnswer(run, { cause: v.cause, fixes: [wrongFix] });
      expect(verdict.accepted).toBe(false);
      if (!verdict.accepted)
        expect(verdict.reason).toMatch(
          /^That is the root cause, but the node did not recover: expected /,
        );
    },
  );
});

describe('scoreChallenge', () => {
  it('takes points for hints, refused answers, steps and time, never below 10', () => {
    expect(scoreChallenge({ hintsUsed: 0, steps: 40, seconds: 300, wrongAnswers: 0 }).points).toBe(
      100,
    );
    expect(scoreChallenge({ hintsUsed: 2, steps: 70, seconds: 900, wrongAnswers: 1 }).points).toBe(
      100 - 30 - 10 - 2 - 5,
    );
    expect(
      scoreChallenge({ hintsUsed: 9, steps: 9999, seconds: 99999, wrongAnswers: 9 }).points,
    ).toBe(10);
  });
});
