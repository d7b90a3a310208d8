/*
 * chart.ts -- a rating history as a line chart, the geometry only: the
 * points (time, rating, deviation) to the path of the line, the band of
 * one deviation around it, the dots and the axes' ticks, in the SVG's own
 * units.  accountview.ts draws them; test/chart.test.ts checks them.  No
 * chart library: a line, a band and a few labels are all a rating needs.
 *
 * What must stay true: time runs left to right and a higher rating is
 * higher on the chart; every point is inside the plot; one point, or
 * points all at one time or one rating, still draw (a flat line across).
 */

export interface ChartPoint {
  at: number; // UNIX seconds
  rating: number;
  rd: number;
}

export interface ChartBox {
  width: number;
  height: number;
  /** Room for the labels: left (ratings), bottom (dates), top, right. */
  left: number;
  bottom: number;
  top: number;
  right: number;
}

export interface Chart {
  line: string; // the d of a <path>
  band: string; // the d of the closed band rating ± rd
  dots: { x: number; y: number; p: ChartPoint }[];
  yTicks: { y: number; value: number }[];
  xTicks: { x: number; at: number }[];
}

/** A "nice" step for about `n` ticks over `span` (1, 2 or 5 times a power
 * of ten). */
export function niceStep(span: number, n: number): number {
  const raw = span / Math.max(1, n);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

const r1 = (v: number): number => Math.round(v * 10) / 10;

export function chart(points: readonly ChartPoint[], box: ChartBox): Chart {
  const pts = [...points].sort((a, b) => a.at - b.at);
  const x0 = box.left;
  const x1 = box.width - box.right;
  const y0 = box.top;
  const y1 = box.height - box.bottom;
  if (!pts.length) return { line: '', band: '', dots: [], yTicks: [], xTicks: [] };
  // the ratings' range, with the band, rounded out to whole ticks
  let lo = Math.min(...pts.map((p) => p.rating - p.rd));
  let hi = Math.max(...pts.map((p) => p.rating + p.rd));
  if (hi - lo < 20) {
    const mid = (hi + lo) / 2;
    lo = mid - 10;
    hi = mid + 10;
  }
  const step = niceStep(hi - lo, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const t0 = pts[0]!.at;
  const t1 = pts[pts.length - 1]!.at;
  const x = (at: number): number =>
    t1 === t0 ? (x0 + x1) / 2 : x0 + ((at - t0) / (t1 - t0)) * (x1 - x0);
  const y = (v: number): number => y1 - ((v - lo) / (hi - lo)) * (y1 - y0);
  const clampY = (v: number): number => Math.max(y0, Math.min(y1, y(v)));
  // one point: a flat line across the plot, so it reads as a level
  const xs = pts.length === 1 ? [x0, x1] : pts.map((p) => x(p.at));
  const row = pts.length === 1 ? [pts[0]!, pts[0]!] : pts;
  const line = row.map((p, i) => `${i ? 'L' : 'M'}${r1(xs[i]!)} ${r1(y(p.rating))}`).join(' ');
  const upper = row.map((p, i) => `${i ? 'L' : 'M'}${r1(xs[i]!)} ${r1(clampY(p.rating + p.rd))}`);
  const lower = row.map((p, i) => `L${r1(xs[i]!)} ${r1(clampY(p.rating - p.rd))}`).reverse();
  const band = `${upper.join(' ')} ${lower.join(' ')} Z`;
  const dots = pts.map((p) => ({ x: r1(x(p.at)), y: r1(y(p.rating)), p }));
  const yTicks: Chart['yTicks'] = [];
  for (let v = lo; v <= hi + step / 2; v += step)
    yTicks.push({ y: r1(y(v)), value: Math.round(v) });
  const xTicks: Chart['xTicks'] =
    t1 === t0
      ? [{ x: r1(x(t0)), at: t0 }]
      : [
          { x: r1(x0), at: t0 },
          { x: r1(x1), at: t1 },
        ];
  return { line, band, dots, yTicks, xTicks };
}
