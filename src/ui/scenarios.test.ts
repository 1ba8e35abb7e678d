import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../engine/scenario/run';
import { SCENARIO_NAMES, scenarioFileSession } from './scenarios';

const dir = new URL('../../scenarios/', import.meta.url);
const scenarioFile = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8'));

describe('scenario files in the app (#/scenario/<name>) and embeds (scenario:<name>)', () => {
  it('lists every file of scenarios/', () => {
    const names = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''))
      .sort();
    expect(SCENARIO_NAMES).toEqual(names);
  });

  it.each(SCENARIO_NAMES)(
    '%s opens at its start with the headless run’s trace, or says where times differ',
    { timeout: 60_000 },
    async (name) => {
      const r = await scenarioFileSession(name);
      if (typeof r === 'string') throw new Error(r);
      expect(r.session.cursor).toBe(-1);
      const run = runScenario(scenarioFile(name));
      if (!run.ok) throw new Error(run.errors.join('; '));
      const headless = run.cluster.events;
      r.session.seek(headless.length - 1);
      const events = r.session.events.slice(0, headless.length);
      const text = (e: { source: string; target: string; summary: string }) =>
        `${e.source}>${e.target} ${e.summary}`;
      // Identical, up to the first action made after an idle wait (which moves the clock).
      const step = /from step (\d+) on/.exec(r.warning ?? '');
      const same = step ? Number(step[1]) - 1 : headless.length;
      expect(events.slice(0, same).map(text)).toEqual(headless.slice(0, same).map(text));
      // After it, the same events, at earlier times.
      const untimed = (e: { kind: string; source: string; target: string }) =>
        `${e.kind} ${e.source}>${e.target}`;
      expect(events.map(untimed)).toEqual(headless.map(untimed));
      if (step) expect(events[same]!.time).toBeLessThan(headless[same]!.time);
    },
  );

  it('only the files with a wait in an idle cluster get a warning', async () => {
    const warned: string[] = [];
    for (const name of SCENARIO_NAMES) {
      const r = await scenarioFileSession(name);
      if (typeof r !== 'string' && r.warning) warned.push(name);
    }
    expect(warned).toEqual(['happy-path', 'ipam-exhaustion']);
  });

  it('an unknown name is a problem naming the files there are', async () => {
    expect(await scenarioFileSession('nope')).toMatch(
      /^There is no scenario "nope" \(scenarios: .*happy-path.*\)\.$/,
    );
  });
});
