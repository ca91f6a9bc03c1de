/**
 * The value axis of the statistics charts: it ends on a round number above the tallest bar, so no
 * bar touches the top of the chart. Counts only: the steps are whole numbers.
 */
export interface ValueAxis {
  /** The axis' maximum, a multiple of `step`, always above the tallest bar. */
  top: number;
  step: number;
  ticks: number[];
}

/** At most about this many intervals between 0 and the top. */
const INTERVALS = 5;

function niceStep(raw: number): number {
  if (raw <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const nice = [1, 2, 2.5, 5, 10].map((f) => f * magnitude).find((s) => s >= raw && Number.isInteger(s));
  return nice ?? 10 * magnitude;
}

/** The axis for bars up to `tallest`: at least 10% headroom, rounded up to a whole step. */
export function valueAxis(tallest: number): ValueAxis {
  const max = Number.isFinite(tallest) && tallest > 0 ? tallest : 0;
  const step = niceStep((max * 1.1) / INTERVALS);
  let top = Math.ceil((max * 1.1) / step) * step;
  if (top <= max) top += step;
  const ticks: number[] = [];
  for (let tick = 0; tick <= top; tick += step) ticks.push(tick);
  return { top, step, ticks };
}

/** The tallest bar of the rows: the sum of the series when stacked, else the largest single value. */
export function tallestBar(rows: object[], keys: string[], stacked: boolean): number {
  let tallest = 0;
  for (const row of rows) {
    const values = keys.map((key) => Number((row as Record<string, unknown>)[key]) || 0);
    const height = stacked ? values.reduce((a, b) => a + b, 0) : Math.max(0, ...values);
    tallest = Math.max(tallest, height);
  }
  return tallest;
}
