/**
 * A rating over time as a small line drawn in inline SVG: no charting library (the page's whole budget is 150 KB
 * of JavaScript gzipped, and a line of a few hundred points needs none). The line is the OpenSkill ordinal after
 * each rated game, oldest on the left; the highest and lowest values are written beside it, and the chart's
 * accessible name says the same in words.
 */
import type { RatingPoint } from "../../client-sdk/index";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 90;
const LEFT = 40; // room for the values written on the left
const PAD = 6;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

const shown = (value: number) => value.toFixed(1);

/** The chart of `points` (one game's, oldest first), titled for a reader by `title`. */
export function ratingChart(title: string, points: readonly RatingPoint[]): SVGSVGElement {
  const values = points.map((point) => point.ordinal);
  const high = Math.max(...values);
  const low = Math.min(...values);
  const span = high - low || 1;
  const x = (index: number) =>
    LEFT + (points.length === 1 ? (WIDTH - LEFT - PAD) / 2 : (index * (WIDTH - LEFT - PAD)) / (points.length - 1));
  const y = (value: number) => PAD + ((high - value) * (HEIGHT - 2 * PAD)) / span;
  const first = values[0];
  const last = values[values.length - 1];
  const words = `${title}: after each of ${points.length} rated game${points.length === 1 ? "" : "s"}, from ${shown(first)} to ${shown(last)} (highest ${shown(high)}, lowest ${shown(low)})`;
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "rating-chart",
    role: "img",
    "aria-label": words,
  });
  chart.append(
    svg("line", { x1: LEFT, y1: PAD, x2: LEFT, y2: HEIGHT - PAD, class: "chart-axis" }),
    svg("text", { x: LEFT - 4, y: PAD + 4, "text-anchor": "end", class: "chart-value" }, shown(high)),
    svg("text", { x: LEFT - 4, y: HEIGHT - PAD, "text-anchor": "end", class: "chart-value" }, shown(low)),
    svg("polyline", {
      points: values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(" "),
      class: "chart-line",
    }),
    svg("circle", { cx: x(values.length - 1).toFixed(1), cy: y(last).toFixed(1), r: 3, class: "chart-last" }),
  );
  return chart;
}
