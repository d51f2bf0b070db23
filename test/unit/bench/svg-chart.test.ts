/**
 * The benchmark's hand-written SVG line chart (bench/support/svg-chart.ts): a well-formed document with one
 * polyline per series holding one point per measurement, placed on the axes by value, with its labels escaped.
 */
import { strict as assert } from "node:assert";
import type { LineChart } from "../../../bench/support/results";
import { niceAxis, renderLineChart } from "../../../bench/support/svg-chart";
import { findAll, parseXml } from "./xml";

const chart: LineChart = {
  file: "test.svg",
  title: "up & preview <N>",
  xLabel: "N (vaults)",
  yLabel: "seconds",
  series: [
    {
      name: "up, ours",
      color: "#1f5fbf",
      points: [
        [50, 8],
        [200, 30],
        [500, 95],
      ],
    },
    {
      name: "up, no-op",
      color: "#1f5fbf",
      dashed: true,
      points: [
        [50, 6],
        [200, 25],
        [500, 80],
      ],
    },
    {
      name: 'refresh "ours"',
      color: "#d9601a",
      points: [
        [50, 5],
        [200, 12],
        [500, 31],
      ],
    },
  ],
};

function points(attribute: string): Array<[number, number]> {
  return attribute.split(" ").map((pair) => {
    const [x, y] = pair.split(",").map(Number);
    return [x!, y!];
  });
}

describe("bench: the SVG line chart", () => {
  const svg = renderLineChart(chart);
  const root = parseXml(svg);

  it("is a well-formed SVG document", () => {
    assert.equal(root.name, "svg");
    assert.equal(root.attributes.xmlns, "http://www.w3.org/2000/svg");
    assert.ok(Number(root.attributes.width) > 0 && Number(root.attributes.height) > 0);
  });

  it("has one polyline per series, each with one point per measurement", () => {
    const lines = findAll(root, "polyline");
    assert.equal(lines.length, chart.series.length);
    assert.deepEqual(
      lines.map((line) => points(line.attributes.points!).length),
      chart.series.map((s) => s.points.length),
    );
  });

  it("places the points by value: x grows with N, a larger y is drawn higher, dashed series dashed", () => {
    const lines = findAll(root, "polyline");
    for (const line of lines) {
      const xs = points(line.attributes.points!).map(([x]) => x);
      assert.deepEqual(
        xs,
        [...xs].sort((a, b) => a - b),
      );
    }
    // The same N (the last point): 95 s (ours) is above 80 s (no-op), which is above 31 s.
    const lastY = lines.map((line) => points(line.attributes.points!).at(-1)![1]);
    assert.ok(lastY[0]! < lastY[1]! && lastY[1]! < lastY[2]!, `y coordinates ${lastY.join(", ")}`);
    assert.equal(lines[1]!.attributes["stroke-dasharray"] !== undefined, true);
    assert.equal(lines[0]!.attributes["stroke-dasharray"], undefined);
  });

  it("shows the title, the axis labels and a legend entry per series, escaped", () => {
    const texts = findAll(root, "text").map((t) => t.text);
    for (const label of [chart.title, chart.xLabel, chart.yLabel, ...chart.series.map((s) => s.name)]) {
      assert.ok(texts.includes(label), `missing text ${JSON.stringify(label)}`);
    }
    assert.ok(svg.includes("up &amp; preview &lt;N&gt;"));
  });

  it("starts both axes at zero and ends them at a round value above the largest", () => {
    assert.deepEqual(niceAxis(95), { max: 100, ticks: [0, 20, 40, 60, 80, 100] });
    assert.deepEqual(niceAxis(500), { max: 500, ticks: [0, 100, 200, 300, 400, 500] });
    assert.deepEqual(niceAxis(0.7), { max: 0.8, ticks: [0, 0.2, 0.4, 0.6, 0.8] });
    const axis = niceAxis(31.4);
    assert.ok(axis.max >= 31.4 && axis.ticks[0] === 0 && axis.ticks.at(-1) === axis.max);
  });

  it("refuses a series without points or with a non-finite value, naming the series", () => {
    assert.throws(
      () => renderLineChart({ ...chart, series: [{ name: "empty", color: "#000", points: [] }] }),
      /series "empty" has no point/,
    );
    assert.throws(
      () =>
        renderLineChart({ ...chart, series: [{ name: "nan", color: "#000", points: [[1, Number.NaN]] }] }),
      /series "nan" has a non-finite point/,
    );
  });

  it("the XML reader used here rejects what is not well-formed", () => {
    assert.throws(() => parseXml("<svg><g></svg>"), /closes/);
    assert.throws(() => parseXml('<svg a="1" a="2"/>'), /duplicate attribute/);
    assert.throws(() => parseXml("<svg>a & b</svg>"), /bare &/);
    assert.throws(() => parseXml("<svg/><svg/>"), /after the root/);
  });
});
