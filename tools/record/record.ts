/**
 * cnisim fixture recorder: runs scenario specs against the real CNI plugins and writes fixtures in
 * the format of conformance/fixtures (see tools/record/README.md).
 *
 *   sudo npx tsx tools/record/record.ts [options] <scenario.json | dir>...
 *   sudo npx tsx tools/record/record.ts --all          # tools/record/scenarios -> conformance/local
 *
 * Options:
 *   --out DIR       output dir (default: conformance/local)
 *   --driver BIN    prebuilt Go driver (default: build tools/record/driver into /tmp/cnirec/bin)
 *   --keep-tmp      keep the sandbox temp dirs (namespaces are always deleted)
 *   --only NAME,..  record only these scenario names
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRequirements, ensureDriver, loadScenarios } from './lib/cli';
import { recordScenario } from './lib/recorder';
import { jqSorted } from './lib/util';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');

function usage(msg?: string): never {
  if (msg) console.error(msg);
  console.error(
    'usage: npx tsx tools/record/record.ts [--out DIR] [--driver BIN] [--keep-tmp] [--only a,b] [--plugin NAME=BIN] (--all | <scenario.json|dir>...)',
  );
  process.exit(2);
}

function main(): void {
  const args = process.argv.slice(2);
  let out = join(repo, 'conformance', 'local');
  let driver = '/tmp/cnirec/bin/cnidriver';
  let keepTmp = false;
  let only: string[] | undefined;
  const pluginBins: Record<string, string> = {};
  const inputs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    const next = () => args[++i] ?? usage(`${a} needs a value`);
    if (a === '--out') out = resolve(next());
    else if (a === '--driver') driver = resolve(next());
    else if (a === '--keep-tmp') keepTmp = true;
    else if (a === '--only') only = next().split(',');
    else if (a === '--plugin') {
      const [name, bin] = next().split('=');
      if (!name || !bin) usage('--plugin needs NAME=BIN');
      pluginBins[name] = resolve(bin);
    } else if (a === '--all') inputs.push(join(here, 'scenarios'));
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else inputs.push(resolve(a));
  }
  if (inputs.length === 0) usage();
  checkRequirements();
  ensureDriver(driver);
  mkdirSync(out, { recursive: true });
  let scenarios = loadScenarios(inputs);
  if (only) scenarios = scenarios.filter((s) => only.includes(s.name));
  let failed = 0;
  for (const sc of scenarios) {
    const t0 = Date.now();
    console.log(`recording ${sc.name} (${sc.steps.length + 1} steps)`);
    try {
      const doc = recordScenario(sc, {
        driverBin: driver,
        pluginBins,
        keepTmp,
        log: (m) => console.log(m),
      });
      writeFileSync(join(out, `${sc.name}.json`), jqSorted(doc));
      console.log(`  -> ${join(out, `${sc.name}.json`)} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      console.error(`  FAILED ${sc.name}: ${e instanceof Error ? e.stack : String(e)}`);
    }
  }
  console.log(`${scenarios.length - failed} recorded, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

main();
