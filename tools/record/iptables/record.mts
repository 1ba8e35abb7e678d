/**
 * Golden-case RECORDER for the iptables model.
 *
 * NEEDS ROOT AND THE REAL iptables-nft 1.8.9 (Debian bookworm's `iptables` package) + iproute2.
 * It is NOT part of the test suite: the tests only replay the committed
 * `src/engine/kernel/iptables/golden/golden.json`.
 *
 *   sudo npx tsx tools/record/iptables/record.mts
 *
 * (it formats golden.json with prettier at the end). The cases are in cases.mts.
 *
 * Every case runs in its own throw-away network namespace (`cnisim-ipt-<pid>-<n>`), which is
 * deleted afterwards: the machine's own namespace is never touched. After each step the recorder
 * stores `iptables-save` and `ip6tables-save` output without the `# …` lines.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { GOLDEN_CASES } from './cases.mts';

interface RecordedStep {
  bin: string;
  argv: string[];
  exitCode: number;
  stdout: string;
  stderr: string;
  /** iptables-save output (without `#` lines) when it differs from the previous step, else null. */
  save4: string | null;
  save6: string | null;
}

const DATE_RE = /on \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}/g;

function run(ns: string, bin: string, argv: readonly string[]) {
  const r = spawnSync('ip', ['netns', 'exec', ns, bin, ...argv], { encoding: 'utf8' });
  if (r.error) throw r.error;
  return { exitCode: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function saveOf(ns: string, bin: string): string {
  const r = run(ns, bin, []);
  return r.stdout
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n');
}

const out: { name: string; steps: RecordedStep[] }[] = [];
let n = 0;
for (const c of GOLDEN_CASES) {
  const ns = `cnisim-ipt-${process.pid}-${n++}`;
  const add = spawnSync('ip', ['netns', 'add', ns], { encoding: 'utf8' });
  if (add.status !== 0) throw new Error(`ip netns add ${ns}: ${add.stderr}`);
  try {
    const steps: RecordedStep[] = [];
    let prev4 = '';
    let prev6 = '';
    for (const [bin, ...argv] of c.steps) {
      if (bin === undefined) continue;
      const r = run(ns, bin, argv);
      const save4 = saveOf(ns, 'iptables-save');
      const save6 = saveOf(ns, 'ip6tables-save');
      steps.push({
        bin,
        argv,
        exitCode: r.exitCode,
        stdout: r.stdout.replace(DATE_RE, 'on <DATE>'),
        stderr: r.stderr,
        save4: save4 === prev4 ? null : save4,
        save6: save6 === prev6 ? null : save6,
      });
      prev4 = save4;
      prev6 = save6;
    }
    out.push({ name: c.name, steps });
  } finally {
    spawnSync('ip', ['netns', 'del', ns]);
  }
}

const version = spawnSync('iptables', ['--version'], { encoding: 'utf8' }).stdout.trim();
const kernel = spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim();
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const file = join(root, 'src', 'engine', 'kernel', 'iptables', 'golden', 'golden.json');
writeFileSync(
  file,
  JSON.stringify({ recordedWith: { iptables: version, kernel }, cases: out }, null, 2) + '\n',
);
spawnSync('npx', ['prettier', '--write', file], { stdio: 'inherit' });
process.stdout.write(`wrote ${out.length} cases to ${file}\n`);
