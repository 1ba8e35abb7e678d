/**
 * The traffic recordings (testdata/traffic/, made by tools/record/traffic/record.py with the real
 * plugins, kernel and tools in throw-away namespaces) replayed in the simulator (traffic.ts):
 * every CNI ADD (its addresses), every command (exit code, stdout, stderr) and, after each case,
 * every node's `iptables-save -c`, `conntrack -L` and forwarding sysctls. What the simulator
 * cannot do yet is listed, with the reason, in testdata/traffic/expected-failures.json (and the
 * README there): those checks run as expected failures (`it.fails`), so a check that starts to
 * match fails until its entry is removed.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type TrafficRecording, type TrafficReplay, replayTraffic } from './traffic';

const DIR = new URL('./testdata/traffic/', import.meta.url);
const EXPECTED_FAILURES = JSON.parse(
  readFileSync(new URL('expected-failures.json', DIR), 'utf8'),
) as { id: string; reason: string }[];
const known = new Map(EXPECTED_FAILURES.map((e) => [e.id, e.reason]));
const README = readFileSync(new URL('README.md', DIR), 'utf8');

const recordings = readdirSync(DIR)
  .filter((f) => f.endsWith('.json') && f !== 'expected-failures.json')
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, DIR), 'utf8')) as TrafficRecording);

const ids = new Set<string>();
/** `id`: `<case>#<step>` or `<case>@<node> <what>`, the key of expected-failures.json. */
function check(id: string, title: string, fn: () => void): void {
  ids.add(id);
  const reason = known.get(id);
  if (reason) it.fails(`${title} (expected failure: ${reason})`, fn);
  else it(title, fn);
}

for (const rec of recordings) {
  describe(rec.name, () => {
    let replay: TrafficReplay | null = null;
    const got = (): TrafficReplay => (replay ??= replayTraffic(rec));
    rec.steps.forEach((st, i) => {
      const id = `${rec.name}#${i + 1}`;
      if (st.cni) {
        check(id, `${id} cni ADD ${st.pod} on ${st.node}`, () => {
          const g = got().steps[i]!;
          expect({ ok: g.result?.ok, ips: g.result?.ips }).toEqual({
            ok: st.result?.ok,
            ips: st.result?.ips,
          });
        });
        return;
      }
      check(id, `${id} [${st.node}] ${st.cmd}`, () => {
        const g = got().steps[i]!;
        expect({ exitCode: g.exitCode, stdout: g.stdout, stderr: g.stderr }).toEqual({
          exitCode: st.exitCode,
          stdout: st.stdout,
          stderr: st.stderr,
        });
      });
    });
    for (const node of rec.nodes) {
      for (const what of ['iptablesSave', 'conntrack', 'sysctls'] as const) {
        const id = `${rec.name}@${node} ${what}`;
        check(id, id, () => {
          expect(got().after[node]![what]).toEqual(rec.after[node]![what]);
        });
      }
    }
  });
}

describe('the expected failures', () => {
  it('name checks that exist, each with a reason, each in the README', () => {
    for (const e of EXPECTED_FAILURES) {
      expect(ids.has(e.id)).toBe(true);
      expect(e.reason.length).toBeGreaterThan(10);
      expect(README).toContain(`\`${e.id}\``);
    }
  });
});
