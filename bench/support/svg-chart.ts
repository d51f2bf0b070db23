/**
 * A line chart as a standalone SVG document, written by hand so that the benchmark needs no plotting
 * dependency. Linear axes from zero, one `<polyline>` per series (with a marker per point), axis labels, a
 * legend and a title; the text is escaped, so labels may hold any character.
 */
import type { LineChart } from "./results";

const WIDTH = 760;
const PLOT_HEIGHT = 320;
const MARGIN = { left: 72, right: 24, top: 56 };
/** Below the plot: tick labels and the x label, then the legend, two entries a row. */
const X_LABEL_SPACE = 52;
const LEGEND_ROW = 22;
const FONT = 'font-family="Helvetica, Arial, sans-serif"';

/** The SVG text of `chart`. Throws on a chart with no series or a series with no point. */
export function renderLineChart(chart: LineChart): string {
  if (chart.series.length === 0) throw new Error(`chart "${chart.title}": no series`);
  for (const s of chart.series) {
    if (s.points.length === 0) throw new Error(`chart "${chart.title}": series "${s.name}" has no point`);
    for (const [x, y] of s.points) {
      if (!Number.isFinite(x) || !Number.isFinite(y)) {
        throw new Error(`chart "${chart.title}": series "${s.name}" has a non-finite point (${x}, ${y})`);
      }
    }
  }
  const all = chart.series.flatMap((s) => s.points);
  const xAxis = niceAxis(Math.max(...all.map(([x]) => x)));
  const yAxis = niceAxis(Math.max(...all.map(([, y]) => y)));
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = PLOT_HEIGHT;
  const legendRows = Math.ceil(chart.series.length / 2);
  const HEIGHT = MARGIN.top + plotH + X_LABEL_SPACE + legendRows * LEGEND_ROW + 16;
  const px = (x: number) => round(MARGIN.left + (x / xAxis.max) * plotW);
  const py = (y: number) => round(MARGIN.top + plotH - (y / yAxis.max) * plotH);
  const bottom = MARGIN.top + plotH;
  const right = MARGIN.left + plotW;

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">`,
    `<title>${escapeXml(chart.title)}</title>`,
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="28" text-anchor="middle" font-size="17" font-weight="bold" ${FONT}>${escapeXml(chart.title)}</text>`,
  ];
  out.push('<g class="grid" stroke="#e3e3e3" stroke-width="1">');
  for (const t of yAxis.ticks)
    out.push(`<line x1="${MARGIN.left}" y1="${py(t)}" x2="${right}" y2="${py(t)}"/>`);
  for (const t of xAxis.ticks)
    out.push(`<line x1="${px(t)}" y1="${MARGIN.top}" x2="${px(t)}" y2="${bottom}"/>`);
  out.push("</g>");
  out.push(
    `<g class="axes" stroke="#333333" stroke-width="1.2">`,
    `<line x1="${MARGIN.left}" y1="${bottom}" x2="${right}" y2="${bottom}"/>`,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${bottom}"/>`,
    "</g>",
  );
  out.push(`<g class="tick-labels" font-size="12" fill="#333333" ${FONT}>`);
  for (const t of xAxis.ticks) {
    out.push(`<text x="${px(t)}" y="${bottom + 18}" text-anchor="middle">${formatTick(t)}</text>`);
  }
  for (const t of yAxis.ticks) {
    out.push(`<text x="${MARGIN.left - 8}" y="${py(t) + 4}" text-anchor="end">${formatTick(t)}</text>`);
  }
  out.push("</g>");
  out.push(
    `<text class="x-label" x="${MARGIN.left + plotW / 2}" y="${bottom + 42}" text-anchor="middle" font-size="13" ${FONT}>${escapeXml(chart.xLabel)}</text>`,
    `<text class="y-label" x="18" y="${MARGIN.top + plotH / 2}" text-anchor="middle" font-size="13" ` +
      `transform="rotate(-90 18 ${MARGIN.top + plotH / 2})" ${FONT}>${escapeXml(chart.yLabel)}</text>`,
  );
  for (const s of chart.series) {
    const dash = s.dashed ? ' stroke-dasharray="7 5"' : "";
    const points = s.points.map(([x, y]) => `${px(x)},${py(y)}`).join(" ");
    out.push(
      `<g class="series" data-name="${escapeXml(s.name)}">`,
      `<polyline fill="none" stroke="${s.color}" stroke-width="2.5"${dash} points="${points}"/>`,
      ...s.points.map(
        ([x, y]) =>
          `<circle cx="${px(x)}" cy="${py(y)}" r="3.5" fill="${s.dashed ? "#ffffff" : s.color}" stroke="${s.color}" stroke-width="2"/>`,
      ),
      "</g>",
    );
  }
  // The legend goes below the plot, where it can hide no line.
  const legendTop = bottom + X_LABEL_SPACE + 12;
  const columnW = plotW / 2;
  out.push(`<g class="legend" font-size="12" ${FONT}>`);
  chart.series.forEach((s, i) => {
    const x = MARGIN.left + (i % 2) * columnW;
    const y = legendTop + Math.floor(i / 2) * LEGEND_ROW;
    const dash = s.dashed ? ' stroke-dasharray="7 5"' : "";
    out.push(
      `<line x1="${x}" y1="${y}" x2="${x + 32}" y2="${y}" stroke="${s.color}" stroke-width="2.5"${dash}/>`,
      `<circle cx="${x + 16}" cy="${y}" r="3.5" fill="${s.dashed ? "#ffffff" : s.color}" stroke="${s.color}" stroke-width="2"/>`,
      `<text x="${x + 40}" y="${y + 4}">${escapeXml(s.name)}</text>`,
    );
  });
  out.push("</g>", "</svg>");
  return `${out.join("\n")}\n`;
}

/** An axis from 0 to a round maximum at or above `max`, with 4 to 10 ticks 1, 2 or 5 × 10^k apart. */
export function niceAxis(max: number): { max: number; ticks: number[] } {
  const top = max > 0 ? max : 1;
  const raw = top / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const axisMax = Math.ceil(top / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let t = 0; t <= axisMax + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  return { max: axisMax, ticks };
}

function formatTick(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(3)));
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Escapes the five XML special characters. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
