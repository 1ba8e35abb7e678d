/**
 * npm run conformance -- [DIR] [--only NAME] [--verbose]
 *
 * Replays every fixture in DIR (default: conformance/fixtures) against the engine and compares
 * each invocation's stdout and exit code, the libcni outcome and every state snapshot with the
 * recording. Prints a readable diff per failing fixture; the last line is `N passed, N failed`.
 * Fixtures listed in conformance/pending.json (name + reason) do not fail the run.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatDifference } from '../src/engine/conformance/diff';
import { type Fixture, replayFixture } from '../src/engine/conformance/replay';

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const verbose = args.includes('--verbose');
const maxDiffs = verbose ? Infinity : 12;
const dir = resolve(
  args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--only') ?? 'conformance/fixtures',
);
const pendingFile = resolve('conformance/pending.json');
const pending: Record<string, string> = existsSync(pendingFile)
  ? Object.fromEntries(
      (JSON.parse(readFileSync(pendingFile, 'utf8')) as { name: string; reason: string }[]).map(
        (p) => [p.name, p.reason],
      ),
    )
  : {};

const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
let passed = 0;
let failed = 0;
let pend = 0;
for (const f of files) {
  const fx = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Fixture;
  if (only && fx.name !== only) continue;
  let diffs;
  try {
    diffs = replayFixture(fx).differences;
  } catch (e) {
    diffs = [
      { where: 'replay', path: '', expected: 'no exception', got: (e as Error).stack ?? String(e) },
    ];
  }
  const reason = pending[fx.name];
  if (diffs.length === 0) {
    passed++;
    console.log(
      `PASS ${fx.name}${reason ? '  (listed as pending but passes: remove it from conformance/pending.json)' : ''}`,
    );
    continue;
  }
  if (reason) {
    pend++;
    console.log(`PENDING ${fx.name}: ${reason} (${diffs.length} differences)`);
    continue;
  }
  failed++;
  console.log(`FAIL ${fx.name}: ${diffs.length} differences`);
  for (const d of diffs.slice(0, maxDiffs)) console.log(formatDifference(d));
  if (diffs.length > maxDiffs)
    console.log(`  ... ${diffs.length - maxDiffs} more (--verbose shows all)`);
}
if (pend) console.log(`${pend} pending (see conformance/pending.json)`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
