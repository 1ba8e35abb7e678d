/**
 * types.LoadArgs: parsing CNI_ARGS ("K=V;K=V") into a plugin's args struct. Keys are matched to
 * Go field names exactly (case-sensitive); unknown keys fail unless IgnoreUnknown is true.
 */
import { goQuoteList, q } from '../gofmt';

export interface ArgField {
  /** Go field name, e.g. "IP", "MAC", "IgnoreUnknown". */
  name: string;
  /** UnmarshalText: returns the value or throws Error(message). */
  parse?: (text: string) => unknown;
  /** For a field that is not a TextUnmarshaler: its pointer type as reflect prints it. */
  notText?: string;
}

/** types.UnmarshallableBool */
export function parseUnmarshallableBool(text: string): boolean {
  const s = text.toLowerCase();
  if (s === '1' || s === 'true') return true;
  if (s === '0' || s === 'false') return false;
  throw new Error(`boolean unmarshal error: invalid input ${s}`);
}

export const IGNORE_UNKNOWN: ArgField = { name: 'IgnoreUnknown', parse: parseUnmarshallableBool };

/** The embedded types.CommonArgs struct is itself a field name LoadArgs finds (and cannot fill). */
export const COMMON_ARGS: ArgField = { name: 'CommonArgs', notText: '*types.CommonArgs' };

/** Returns the parsed fields by name; throws Error with Go's text. */
export function loadArgs(args: string, fields: readonly ArgField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (args === '') return out;
  const unknown: string[] = [];
  for (const pair of args.split(';')) {
    const kv = pair.split('=');
    if (kv.length !== 2) throw new Error(`ARGS: invalid pair ${q(pair)}`);
    const [key, value] = kv as [string, string];
    const f = fields.find((x) => x.name === key);
    if (!f) {
      unknown.push(pair);
      continue;
    }
    if (f.notText || !f.parse) {
      throw new Error(
        `ARGS: cannot unmarshal into field '${key}' - type '${f.notText ?? 'unknown'}' does not implement encoding.TextUnmarshaler`,
      );
    }
    try {
      out[key] = f.parse(value);
    } catch (e) {
      throw new Error(`ARGS: error parsing value of pair ${q(pair)}: ${(e as Error).message}`);
    }
  }
  if (unknown.length > 0 && out['IgnoreUnknown'] !== true) {
    throw new Error(`ARGS: unknown args ${goQuoteList(unknown)}`);
  }
  return out;
}
