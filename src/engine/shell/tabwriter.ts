/**
 * Go's text/tabwriter (AlignLeft, a space as padding character), which kubectl and crictl print
 * their tables with: tab-terminated cells of consecutive lines form a column block whose width is
 * the widest cell plus the padding (at least minwidth); the text after a line's last tab is not
 * part of a column and is not padded.
 */
export interface TabwriterOptions {
  minwidth: number;
  padding: number;
}

interface Cell {
  text: string;
  width: number;
}

function runeCount(s: string): number {
  return [...s].length;
}

export function tabwrite(text: string, o: TabwriterOptions): string {
  const rawLines = text.split('\n');
  const trailingNewline = text.endsWith('\n');
  if (trailingNewline) rawLines.pop();
  const lines: Cell[][] = rawLines.map((l) =>
    l.split('\t').map((t) => ({ text: t, width: runeCount(t) })),
  );
  const widths: number[] = [];
  let out = '';

  const writeLines = (line0: number, line1: number): void => {
    for (let i = line0; i < line1; i++) {
      const line = lines[i]!;
      line.forEach((c, j) => {
        out += c.text;
        if (j < line.length - 1 && j < widths.length) out += ' '.repeat(widths[j]! - c.width);
      });
      if (i < lines.length - 1 || trailingNewline) out += '\n';
    }
  };

  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let cur = line0; cur < line1; cur++) {
      const line = lines[cur]!;
      if (column >= line.length - 1) continue;
      writeLines(line0, cur);
      line0 = cur;
      let width = o.minwidth;
      for (; cur < line1; cur++) {
        const l = lines[cur]!;
        if (column >= l.length - 1) break;
        const w = l[column]!.width + o.padding;
        if (w > width) width = w;
      }
      widths.push(width);
      format(line0, cur);
      widths.pop();
      line0 = cur;
    }
    writeLines(line0, line1);
  };

  format(0, lines.length);
  return out;
}
