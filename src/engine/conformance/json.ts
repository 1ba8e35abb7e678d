/** Lenient JSON parsing for comparisons (the recorder parsed files with jq). */
export function goParseLoose(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
