/** Texts the views share. Everything here returns plain strings: React renders them as text. */

/** Virtual time in seconds with microseconds: `12.004150 s`. */
export function timeText(us: number): string {
  return `${(us / 1_000_000).toFixed(6)} s`;
}

/** Pretty JSON of a text when it parses as JSON, else null. */
export function prettyJson(text: string): string | null {
  const t = text.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return null;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return null;
  }
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Whether keyboard shortcuts should leave this key press alone (typing, widgets with keys). */
export function ownsKeys(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('input, textarea, select, [contenteditable="true"], .cm-editor')) return true;
  const role = target.getAttribute('role');
  if ((role === 'tab' || role === 'slider') && key.startsWith('Arrow')) return true;
  if ((key === ' ' || key === 'Enter') && target.closest('button, a, summary, [role="button"]'))
    return true;
  return false;
}

/** JSON for display: pretty, with bigints as text. */
export function json(v: unknown): string {
  if (v === undefined) return '(none)';
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x), 2);
}
