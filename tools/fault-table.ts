/**
 * The fault ids the embed's `inject` message accepts, as the table in docs/embedding.md (between
 * its `faults` markers), made from the fault catalogue (src/engine/faults/catalogue.ts).
 * `npx tsx tools/fault-table.ts` rewrites the table; tools/fault-table.test.ts fails when the
 * document and the catalogue differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FAULTS, type FaultDef } from '../src/engine/faults';

export const DOC = resolve(import.meta.dirname, '..', 'docs', 'embedding.md');
export const START = '<!-- faults: made by tools/fault-table.ts from the catalogue -->';
export const END = '<!-- /faults -->';

const WHEN: Record<FaultDef['when'], string> = {
  any: 'at the step',
  'pod-running': 'a Running pod',
  'before-delete': 'a pod, before it is deleted',
  'during-add': "a pod's ADD",
};

function param(name: string, p: FaultDef['params'][string]): string {
  const values = p.values ? ` (${p.values.map((v) => `\`${v}\``).join(', ')})` : '';
  const dflt = p.default !== undefined ? `, default \`${p.default}\`` : '';
  return `\`${name}\`${values}${dflt}`;
}

/** The markdown table of every fault: id, title, what it acts on, its `params`. */
export function faultTable(faults: readonly FaultDef[] = FAULTS): string {
  const rows = faults.map((f) => {
    const params = Object.entries(f.params).map(([n, p]) => param(n, p));
    return `| \`${f.id}\` | ${f.title} | ${WHEN[f.when]} | ${params.join('; ') || '—'} |`;
  });
  return [
    '| `fault`  | what it is | acts on | `params` |',
    '| -------- | ---------- | ------- | -------- |',
    ...rows,
  ].join('\n');
}

/** The document with its table made from the catalogue. */
export function withTable(doc: string, table = faultTable()): string {
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${DOC}: no "${START}" … "${END}" section`);
  return `${doc.slice(0, a + START.length)}\n\n${table}\n\n${doc.slice(b)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(DOC, withTable(readFileSync(DOC, 'utf8')));
  console.log(`${DOC}: ${FAULTS.length} faults`);
}
