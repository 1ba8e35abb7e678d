/**
 * Results across spec versions: create.Create / CreateFromBytes (parsing with the library's
 * errors) and Result.GetAsVersion (internal/convert) of containernetworking/cni v1.1.2, compared
 * with what Go's json.Marshal printed for the same input. Every spec version both ways.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goMarshal } from './json';
import { createFromBytes, createResult } from './create';
import { LIB_V1_1, getAsVersion, resultJSON, type Result } from './result';

/** Printed by Go (testdata/README.md). */
const {
  create: CREATE,
  convertSources: CONVERT_SOURCES,
  convert: CONVERT,
} = JSON.parse(readFileSync(new URL('./testdata/result.json', import.meta.url), 'utf8')) as {
  /** create.Create(version, bytes) ("frombytes": CreateFromBytes): [version, bytes, error, json] */
  create: Array<[string, string, string, string]>;
  /** The results converted below, by key (the version is the key up to its first "-"). */
  convertSources: Record<string, string>;
  /** create.Create(source).GetAsVersion(to): [source key, to, error, json.Marshal(converted)] */
  convert: Array<[string, string, string, string]>;
};

function marshal(r: Result): string {
  return goMarshal(resultJSON(r, LIB_V1_1));
}

function attempt(f: () => Result): { error: string; json: string } {
  try {
    return { error: '', json: marshal(f()) };
  } catch (e) {
    return { error: (e as Error).message, json: '' };
  }
}

describe('create.Create / CreateFromBytes', () => {
  it.each(CREATE)('Create(%j, %s)', (version, text, error, json) => {
    const r = attempt(() =>
      version === 'frombytes'
        ? createFromBytes(text, LIB_V1_1)
        : createResult(version, text, LIB_V1_1),
    );
    expect(r).toEqual({ error, json });
  });
});

describe('Result.GetAsVersion (internal/convert)', () => {
  it.each(CONVERT)('%s -> %j', (key, to, error, json) => {
    const from = key.split('-')[0]!;
    const r = attempt(() =>
      getAsVersion(createResult(from, CONVERT_SOURCES[key]!, LIB_V1_1), to, LIB_V1_1),
    );
    expect(r).toEqual({ error, json });
  });

  it('an empty cniVersion counts as the result type own version (types100: 1.0.0)', () => {
    // Go: (&types100.Result{}).GetAsVersion("0.4.0") sets CNIVersion to 1.0.0 first.
    const r = createResult(
      '1.0.0',
      '{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.5/24"}]}',
      LIB_V1_1,
    );
    const out = getAsVersion({ ...r, cniVersion: '' }, '0.4.0', LIB_V1_1);
    expect(marshal(out)).toBe(
      '{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.1.0.5/24"}],"dns":{}}',
    );
  });
});
