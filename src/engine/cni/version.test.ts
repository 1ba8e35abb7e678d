/**
 * Spec version parsing and comparison against version.ParseVersion and
 * version.GreaterThanOrEqualTo of containernetworking/cni v1.1.2 (values printed by Go).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseVersion, versionGte, versionsFrom, ALL_VERSIONS_V1_0 } from './version';

/** Printed by Go (testdata/README.md). */
const { parseVersion: PARSE_VERSION, versionGte: VERSION_GTE } = JSON.parse(
  readFileSync(new URL('./testdata/version.json', import.meta.url), 'utf8'),
) as {
  /** [input, [major, minor, micro], error ("" = none)] */
  parseVersion: Array<[string, [number, number, number], string]>;
  /** [a, b, GreaterThanOrEqualTo(a, b), error] */
  versionGte: Array<[string, string, boolean, string]>;
};

describe('parseVersion (version.ParseVersion)', () => {
  it.each(PARSE_VERSION)('%j -> %j %j', (input, parts, error) => {
    const r = parseVersion(input);
    if (error) expect(r).toEqual({ ok: false, error });
    else expect(r).toEqual({ ok: true, parts });
  });
});

describe('versionGte (version.GreaterThanOrEqualTo)', () => {
  it.each(VERSION_GTE)('%j >= %j: %j %j', (a, b, value, error) => {
    const r = versionGte(a, b);
    if (error) expect(r).toEqual({ ok: false, error });
    else expect(r).toEqual({ ok: true, value });
  });
});

describe('supported versions', () => {
  it('version.All of libcni v1.1.2 (what the v1.1.1 plugins report)', () => {
    expect([...ALL_VERSIONS_V1_0]).toEqual(['0.1.0', '0.2.0', '0.3.0', '0.3.1', '0.4.0', '1.0.0']);
  });

  it('VersionsStartingFrom("0.3.0")', () => {
    // version.VersionsStartingFrom("0.3.0").SupportedVersions() in v1.1.2.
    expect(versionsFrom(ALL_VERSIONS_V1_0, '0.3.0')).toEqual(['0.3.0', '0.3.1', '0.4.0', '1.0.0']);
  });
});
