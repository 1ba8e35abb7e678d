/**
 * What the schemas' error messages share (scenarios, saved sessions, the course): a zod issue's
 * fields as they read them, the path of a field as a person writes it, and the words for the
 * types zod names. No zod here: each schema keeps its own wording of the issues.
 */

/** The fields of a zod issue the messages read. */
export interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  expected?: string;
  values?: unknown[];
  keys?: string[];
  options?: unknown[];
  note?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
}

/** `nodes[1].podCIDR`, `goals[2].hint.nudge`, `nodes[0].cniConfigs["10-net.conflist"]`. */
export function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (typeof p === 'string' && /^[A-Za-z_$][\w$]*$/.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out || '(top level)';
}

/** zod's names of the expected types, in words. */
export const EXPECTED_TYPE: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  record: 'an object',
};
