/** Shared CLI helpers of the recorder tools. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateScenario, type Scenario } from './spec';
import { run, runOk } from './util';

export const recordDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = resolve(recordDir, '..', '..');
const here = recordDir;

function fail(msg: string): never {
  console.error(msg);
  process.exit(2);
}

export function checkRequirements(): void {
  if (process.getuid?.() !== 0) fail('the recorder must run as root (network namespaces)');
  for (const tool of ['ip', 'iptables-save', 'ip6tables-save', 'tc', 'jq', 'ping', 'go']) {
    if (run(['bash', '--norc', '--noprofile', '-c', `command -v ${tool}`]).exitCode !== 0) {
      fail(`missing tool: ${tool} (see tools/record/README.md)`);
    }
  }
  if (!existsSync('/usr/lib/cni/bridge')) fail('containernetworking-plugins is not installed');
}

/** Builds the Go driver when missing or older than its source. */
export function ensureDriver(bin: string): string {
  const src = join(here, 'driver', 'main.go');
  if (!existsSync(bin) || statSync(bin).mtimeMs < statSync(src).mtimeMs) {
    runOk([join(here, 'build-driver.sh'), bin]);
  }
  return bin;
}

export function loadScenarios(paths: string[]): Scenario[] {
  const files: string[] = [];
  for (const p of paths) {
    if (statSync(p).isDirectory()) {
      for (const f of readdirSync(p).sort()) if (f.endsWith('.json')) files.push(join(p, f));
    } else files.push(p);
  }
  return files.map((f) => validateScenario(JSON.parse(readFileSync(f, 'utf8')), f));
}
