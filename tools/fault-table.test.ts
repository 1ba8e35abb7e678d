import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../src/engine/faults';
import { DOC, END, faultTable, START, withTable } from './fault-table';

/** A markdown table's rows as trimmed cells (prettier pads the columns). */
function rows(table: string): string[][] {
  return table
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

describe('docs/embedding.md lists the fault ids inject accepts', () => {
  const doc = readFileSync(DOC, 'utf8');
  const section = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END));

  it('its table is the catalogue (else: npx tsx tools/fault-table.ts && npx prettier --write docs/embedding.md)', () => {
    expect(doc.indexOf(START)).toBeGreaterThan(0);
    expect(rows(section)).toEqual(rows(faultTable()));
  });

  it('every fault of the catalogue, with its parameters', () => {
    const ids = rows(section)
      .slice(1)
      .map((r) => r[0]);
    expect(ids).toEqual(FAULTS.map((f) => `\`${f.id}\``));
    for (const f of FAULTS)
      for (const p of Object.keys(f.params))
        expect(rows(section).find((r) => r[0] === `\`${f.id}\``)![3]).toContain(`\`${p}\``);
  });

  it('a catalogue change shows as a difference', () => {
    const fewer = faultTable(FAULTS.slice(1));
    expect(rows(withTable(doc, fewer).split(START)[1]!.split(END)[0]!)).not.toEqual(
      rows(faultTable()),
    );
  });
});
