/**
 * iproute2's json_writer (lib/json_writer.c): the exact layout of `ip -j` (compact) and `ip -j -p`
 * (pretty) output. Values are written in the order given, the way iproute2's print_* calls emit
 * them.
 */

export type JsonValue =
  string | number | boolean | null | JsonValue[] | { readonly [k: string]: JsonValue | undefined };

export class JsonWriter {
  private out = '';
  private depth = 0;
  private sep = '';

  constructor(private readonly pretty: boolean) {}

  private eol(): void {
    if (!this.pretty) return;
    this.out += '\n' + '    '.repeat(this.depth);
  }

  private eor(): void {
    if (this.sep) this.out += this.sep;
    this.sep = ',';
  }

  private begin(c: string): void {
    this.eor();
    this.out += c;
    this.depth++;
    this.sep = '';
  }

  private end(c: string): void {
    this.depth--;
    if (this.sep) this.eol();
    this.out += c;
    this.sep = ',';
  }

  private name(n: string): void {
    this.eor();
    this.eol();
    this.sep = '';
    this.out += quote(n) + (this.pretty ? ': ' : ':');
  }

  value(v: JsonValue): void {
    if (Array.isArray(v)) {
      this.begin('[');
      if (this.pretty) this.out += ' ';
      for (const x of v) this.value(x);
      if (this.pretty && this.sep) this.out += ' ';
      this.sep = '';
      this.end(']');
      return;
    }
    if (v !== null && typeof v === 'object') {
      this.begin('{');
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined) continue;
        this.name(k);
        this.value(x);
      }
      this.end('}');
      return;
    }
    this.eor();
    this.out += typeof v === 'string' ? quote(v) : String(v);
  }

  text(): string {
    return this.out;
  }
}

/** jsonw_puts: only these characters are escaped. */
function quote(s: string): string {
  let o = '"';
  for (const ch of s) {
    switch (ch) {
      case '\t':
        o += '\\t';
        break;
      case '\n':
        o += '\\n';
        break;
      case '\r':
        o += '\\r';
        break;
      case '\f':
        o += '\\f';
        break;
      case '\b':
        o += '\\b';
        break;
      case '\\':
        o += '\\\\';
        break;
      case '"':
        o += '\\"';
        break;
      case "'":
        o += "\\'";
        break;
      default:
        o += ch;
    }
  }
  return o + '"';
}

/** What `ip -j [-p]` prints for a list of objects (with its final newline). */
export function jsonOutput(items: JsonValue[], pretty: boolean): string {
  const w = new JsonWriter(pretty);
  w.value(items);
  return w.text() + '\n';
}
