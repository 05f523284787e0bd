/**
 * The CLI's plain aligned tables (`profiles list`, `search`, `outdated`…): columns two spaces
 * apart, the last one unpadded and no trailing blanks, so a line never ends in spaces.
 */
export function table(header: string[], rows: string[][], rightAligned: ReadonlySet<number> = new Set()): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i]!) : i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd() + '\n';
  return line(header) + rows.map(line).join('');
}
