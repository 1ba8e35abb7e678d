/**
 * The bridge plugin lists the whole nat table at every ADD (go-iptables' ChainExists runs
 * `iptables -t nat -S`) and the trace keeps every listing: as copies, the sum grows with the
 * square of the pods (23 MB of a 500-pod cluster's 120 MB). Listings are ropes of lines shared
 * between them, and the plugin parses a copy of its own, so what the trace keeps of one listing
 * is a pointer pair per line (issue 13 e).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { emptyIptables, runIptables, type IptablesState } from '../../kernel/iptables';
import { flatCopy } from './goiptables';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** nat with `pods` CNI-style chains, one POSTROUTING jump and two rules each. */
function natWith(pods: number): IptablesState {
  let s = emptyIptables();
  for (let i = 0; i < pods; i++) {
    const chain = `CNI-${(0x10000000 + i).toString(16)}ab12cd34ef56`;
    const comment = `name: "cbr0" id: "${(0x2000000 + i).toString(16).padStart(64, '0')}"`;
    for (const argv of [
      ['-t', 'nat', '-N', chain],
      [
        '-t',
        'nat',
        '-A',
        chain,
        '-d',
        '10.22.0.0/16',
        '-m',
        'comment',
        '--comment',
        comment,
        '-j',
        'ACCEPT',
      ],
      ['-t', 'nat', '-A', chain, '!', '-d', '224.0.0.0/4', '-j', 'MASQUERADE'],
      ['-t', 'nat', '-A', 'POSTROUTING', '-s', `10.22.${i >> 8}.${i & 255}`, '-j', chain],
    ]) {
      const r = runIptables(s, 'ipv4', argv);
      expect(r.exitCode, r.stderr).toBe(0);
      s = r.state;
    }
  }
  return s;
}

describe('what the trace keeps of a nat listing (issue 13)', () => {
  it('is a fraction of its text once the caller has parsed its copy', () => {
    const state = natWith(200);
    const kept: string[] = [];
    const listings = 200;
    const before = heapAfterGc();
    let length = 0;
    let lines = 0;
    for (let i = 0; i < listings; i++) {
      const out = runIptables(state, 'ipv4', ['-t', 'nat', '-S']).stdout;
      const parsed = flatCopy(out).split('\n');
      expect(parsed.filter((l) => l.startsWith('-N')).length).toBe(200);
      kept.push(out);
      length = out.length;
      lines = parsed.length - 1;
    }
    const perListing = (heapAfterGc() - before) / listings;
    expect(kept[0]).toBe(kept[listings - 1]);
    expect(lines).toBe(804);
    // A copy costs a byte a character (about 78 a line here); a rope of shared lines about 32
    // bytes a line.
    expect(length / lines).toBeGreaterThan(70);
    expect(perListing, `${Math.round(perListing)} B per listing of ${lines} lines`).toBeLessThan(
      48 * lines,
    );
  });
});
