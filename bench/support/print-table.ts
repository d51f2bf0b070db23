/** The console summary printed at the end of a run. */
import { formatRatio, formatTarget, formatValue, formatVerdict } from "./format";
import { floorSummary } from "./render-markdown";
import type { FigureResult } from "./results";

/** A plain-text table of every comparison, aligned in columns. */
export function formatSummaryTable(figures: readonly FigureResult[]): string {
  const header = ["#", "measure", "ours", "floor", "ratio", "target", "verdict"];
  const rows: string[][] = [];
  for (const f of figures) {
    if (f.error) {
      rows.push([String(f.number), f.title, "-", "-", "-", "-", `did not run: ${f.error.split("\n")[0]}`]);
      continue;
    }
    for (const c of f.comparisons) {
      rows.push([
        String(f.number),
        c.label,
        formatValue(c.ours.median, c.unit),
        floorSummary(c),
        formatRatio(c.ratio),
        formatTarget(c.target),
        formatVerdict(c.met),
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
