/**
 * encoding/json output as the Go plugins and libcni write it (thin layer over gojson): compact
 * (json.Marshal) or indented (json.MarshalIndent), objects in insertion order (structs) unless
 * sorted (maps), HTML characters escaped, numbers formatted as float64.
 */
import { parseGo } from '../gojson/decode';
import { goJSONString, marshal, sortKeysDeep as goSortKeysDeep } from '../gojson/encode';

export function goJsonString(s: string): string {
  return goJSONString(s, true);
}

/** json.Marshal (no indent) or json.MarshalIndent(v, '', indent). */
export function goMarshal(v: unknown, indent?: string): string {
  const r = indent ? marshal(v, { indent, prefix: '' }) : marshal(v);
  return r.error === null ? r.text : 'null';
}

/** A deep copy with every object's keys in Go's map order (a map[string]interface{} re-marshalled). */
export function sortKeysDeep<T>(v: T): T {
  return goSortKeysDeep(v);
}

/** json.Marshal of a map[string]interface{} (sorted keys, compact). */
export function goMarshalMap(v: unknown): string {
  const r = marshal(v, { sortMapKeys: true });
  return r.error === null ? r.text : 'null';
}

/** json.Unmarshal into interface{}: the value, or Go's error text. */
export function goParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const r = parseGo(text);
  return r.error === null ? { ok: true, value: r.value } : { ok: false, error: r.error };
}
