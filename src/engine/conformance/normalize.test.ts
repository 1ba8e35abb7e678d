import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eui64LinkLocal } from '../net/mac';
import { Normalizer } from './normalize';
import { base64Decode, base64Encode } from '../base64';

const DIR = join(__dirname, '../../../conformance/fixtures');
const PATHS: Array<[string, string]> = [
  ['/opt/cni/bin', '<cniPath>'],
  ['/tmp/cnisim/data', '<dataDir>'],
  ['/var/lib/cni', '<cacheDir>'],
];

const fakeMac = (n: number) =>
  `0a:58:00:00:${(n >> 8).toString(16).padStart(2, '0')}:${(n & 255).toString(16).padStart(2, '0')}`;

function concretize(s: string): string {
  let out = s;
  out = out.replace(/fe80::eui64\(<mac:(\d+)>\)/g, (_, n) => eui64LinkLocal(fakeMac(Number(n))));
  out = out.replace(/<mac:(\d+)>/g, (_, n) => fakeMac(Number(n)));
  out = out.replace(/<veth:(\d+)>/g, (_, n) => `veth${Number(n).toString(16).padStart(8, '0')}`);
  out = out.replace(/<ll6:(\d+)>/g, (_, n) => `fe80::dead:${Number(n).toString(16)}`);
  for (const [real, ph] of PATHS) out = out.split(ph).join(real);
  return out;
}

function deep(v: unknown, key?: string, parent?: Record<string, unknown>): unknown {
  if (typeof v === 'string') {
    if (key === 'config' && parent?.['kind'] === 'cniCacheV1')
      return base64Encode(concretize(base64Decode(v) ?? ''));
    return concretize(v);
  }
  if (Array.isArray(v)) return v.map((x) => deep(x));
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, deep(x, k, o)]));
  }
  return v;
}

describe('normalisation matches the fixtures own numbering', () => {
  for (const f of readdirSync(DIR).filter((x) => x.endsWith('.json'))) {
    it(f, () => {
      const fx = JSON.parse(readFileSync(join(DIR, f), 'utf8')) as {
        steps: Record<string, unknown>[];
      };
      const n = new Normalizer({ paths: PATHS });
      for (const step of fx.steps) {
        const concrete = deep(step) as Record<string, unknown>;
        expect(n.step(concrete)).toEqual(step);
      }
    });
  }
});
