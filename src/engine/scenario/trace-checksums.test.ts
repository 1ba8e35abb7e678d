/**
 * The example scenarios' traces, hashed: a change to the engine's structure (state storage,
 * layers, the trace's types) must leave every event of every example byte-identical. A change of
 * behaviour that moves a hash is deliberate: update testdata/trace-checksums.json in the same
 * commit and say in its message why the trace differs.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from './run';

const EXAMPLES = join(__dirname, '../../../scenarios');
const WANT = JSON.parse(
  readFileSync(join(__dirname, 'testdata/trace-checksums.json'), 'utf8'),
) as Record<string, { events: number; sha256: string }>;

function checksum(name: string): { events: number; sha256: string } {
  const r = runScenario(readFileSync(join(EXAMPLES, name), 'utf8'));
  if (!r.ok) throw new Error(`${name}: ${r.errors.join('; ')}`);
  const json = JSON.stringify(r.cluster.sim.events, (_k, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : v,
  );
  return {
    events: r.cluster.sim.events.length,
    sha256: createHash('sha256').update(json).digest('hex'),
  };
}

describe('the example scenarios replay to the recorded traces', () => {
  const files = readdirSync(EXAMPLES)
    .filter((f) => f.endsWith('.json'))
    .sort();

  it('every example has a recorded checksum', () => {
    expect(Object.keys(WANT).sort()).toEqual(files);
  });

  for (const f of files) {
    it(
      f,
      () => {
        expect(checksum(f)).toEqual(WANT[f]);
      },
      60_000,
    );
  }
});
