/**
 * The recording comparer: placeholders inside a cache file's base64 config follow the same
 * renaming as everywhere else, and Go heap addresses a plugin prints match any other.
 */
import { describe, expect, it } from 'vitest';
import { base64Encode } from '../base64';
import { diffValues, Renaming } from './diff';

const cache = (config: string, mac: string) => ({
  kind: 'cniCacheV1',
  containerId: 'c1',
  config: base64Encode(config),
  result: { interfaces: [{ name: 'eth0', mac }] },
});

describe('diffValues', () => {
  it('compares a cache config decoded, under the renaming of the rest of the file', () => {
    const ren = new Renaming();
    const expected = cache('{"mac": "<mac:1>"}', '<mac:1>');
    expect(diffValues(expected, cache('{"mac": "<mac:12>"}', '<mac:12>'), 's', '', ren)).toEqual(
      [],
    );
    // The same renaming: <mac:1> stands for <mac:12>, so a config naming <mac:3> differs.
    const other = diffValues(expected, cache('{"mac": "<mac:3>"}', '<mac:12>'), 's', '', ren);
    expect(other.map((d) => d.path)).toEqual(['config']);
    expect(diffValues(expected, cache('{"mac": "<mac:1>", "x": 1}', '<mac:1>'), 's')).toHaveLength(
      1,
    );
  });

  it('matches Go heap addresses, and nothing else that looks like one', () => {
    const msg = (p: string) =>
      `Error: Tuning configured all-multicast mode of eth0 is ${p}, current`;
    expect(diffValues(msg('0xc0000a6bd0'), msg('0xc0000a8c7c'), 's')).toEqual([]);
    expect(diffValues(msg('0xc0000a6bd0'), msg('true'), 's')).toHaveLength(1);
    expect(diffValues('mark 0xc0000000', 'mark 0xc0000001', 's')).toHaveLength(1);
  });
});
