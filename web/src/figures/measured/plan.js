// What one run of the "measured in your browser" figure will time, and the arithmetic its
// drawing needs: the sizes, where each form must stop before it starts (the core's budgets,
// lab.limits), the slope between two measured sizes, and the n² reference line. Pure
// functions, so they are the same in the Worker, on the main thread and under node.

import { formatAmount, formatBytes, formatCount, formatDuration } from '../../lib/format/index.js';

/** The smallest n a run times; the sizes double from here up to the largest asked for. */
const SMALLEST_N = 8;
/** The largest sizes a learner may pick (measured.nmax). */
export const LARGEST_CHOICES = [64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384];
/** The two forms, in the order each size times them. */
export const FORMS = ['direct', 'streaming'];
/** Bytes per number of each precision the JS API takes. */
export const BYTES = { float32: 4, float64: 8 };
/**
 * The most memory one direct call may return to the page: its three n×n matrices and the
 * output, as copies the page owns (the core held as much again while it ran). In float64 at
 * n = 4,096 that would be about 400 MB returned and 800 MB in all, enough to end a phone's tab.
 */
const PAGE_MEMORY_BUDGET_BYTES = 250e6;
/** One call that takes longer than this ends its form: the next size would take about 4 times as long. */
export const CALL_BUDGET_SECONDS = 2;

/** 8, 16, 32, … up to `largest` (a power of two from the choices). */
export function sizesUpTo(largest) {
  const sizes = [];
  for (let n = SMALLEST_N; n <= largest; n *= 2) sizes.push(n);
  return sizes;
}

/**
 * Why `form` cannot run self-attention at n = m = n with width d within the core's budgets
 * (`limits` is lab.limits), as a sentence; null when it can. The direct form makes n×m
 * matrices (scores, scaled scores, weights), so its first limit is the entries of one matrix,
 * and its work, n·m·(2d + limits.pairWork) multiply-adds, must fit one call. The streaming form
 * does n·m·2d; where that passes one call's limit it runs as several calls over blocks of query
 * rows (rowsPerCall), so only a single row that did not fit would stop it.
 */
export function budgetStop(form, n, d, precision, limits) {
  if (form === 'direct' && n * n > limits.maxEntries) {
    return `its ${formatCount(n)}\u00d7${formatCount(n)} score matrix would hold ${formatAmount(n * n)} numbers `
      + `(${formatBytes(n * n * BYTES[precision])} in ${precision}, and it makes three such matrices), more than the core\u2019s `
      + `limit of ${formatAmount(limits.maxEntries)} numbers for one matrix`;
  }
  const returned = (3 * n * n + n * d) * BYTES[precision];
  if (form === 'direct' && returned > PAGE_MEMORY_BUDGET_BYTES) {
    return `its three ${formatCount(n)}×${formatCount(n)} matrices would come back as ${formatBytes(returned)} `
      + `in ${precision}, more than this figure’s ${formatBytes(PAGE_MEMORY_BUDGET_BYTES)} for one call `
      + '(a phone’s tab could run out of memory)';
  }
  const work = form === 'direct' ? n * n * (2 * d + limits.pairWork) : n * 2 * d;
  const [cap] = callLimit(precision, limits);
  if (work > cap) {
    return `it would take ${formatAmount(work)} multiply-adds${form === 'direct' ? '' : ' for one query row'}, more than the core\u2019s budget of `
      + `${formatAmount(cap)} for one call (about a second of work)`;
  }
  return null;
}

const callLimit = (precision, limits) => (precision === 'float32'
  ? [limits.maxMultiplyAddsFloat32, 'maxMultiplyAddsFloat32'] : [limits.maxMultiplyAdds, 'maxMultiplyAdds']);

/**
 * The most query rows one streaming call at n keys of width d may take within the multiply-add
 * limit of one call (a power of two, at most n): n when one call does it all.
 */
export function rowsPerCall(n, d, precision, limits) {
  const [cap] = callLimit(precision, limits);
  let rows = n;
  while (rows > 1 && rows * n * 2 * d > cap) rows /= 2;
  return rows;
}

/** The largest size of `sizes` that `form` may run within the budgets (null when none). */
export function largestWithinBudget(form, sizes, d, precision, limits) {
  const fits = sizes.filter((n) => budgetStop(form, n, d, precision, limits) === null);
  return fits.length ? fits[fits.length - 1] : null;
}

/** Why a form stops after a call that took `seconds` at n (the time budget), as a sentence. */
export function timeStop(n, seconds) {
  return `one call at n = ${formatCount(n)} took ${formatDuration(seconds)}, more than this figure\u2019s `
    + `${formatDuration(CALL_BUDGET_SECONDS)} for one call, and the next size would take about four times as long`;
}

/**
 * The measured growth exponent: the slope of log t against log n, fitted by least squares over
 * the points [{ n, seconds }]. Times that quadruple at every doubling of n read 2, the n² of
 * the lesson. null for fewer than two points or a time that is not positive.
 */
export function slope(points) {
  if (points.length < 2 || !points.every((p) => p.seconds > 0 && p.n > 0)) return null;
  const xs = points.map((p) => Math.log(p.n));
  const ys = points.map((p) => Math.log(p.seconds));
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const [mx, my] = [mean(xs), mean(ys)];
  let sxy = 0;
  let sxx = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i] - my);
    sxx += (x - mx) ** 2;
  });
  return sxx > 0 ? sxy / sxx : null;
}

/** [10^a, 10^b], the whole decades around positive values (at least one decade wide). */
export function decades(values) {
  const positive = values.filter((v) => Number.isFinite(v) && v > 0);
  if (!positive.length) return [1, 10];
  const low = Math.floor(Math.log10(Math.min(...positive)));
  const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(...positive))));
  return [10 ** low, 10 ** high];
}

/**
 * The line y = c·n² through the anchor point, cut to the plot's box [xLow, xHigh] ×
 * [yLow, yHigh]: its two ends { x: [a, b], y: [ya, yb] } (a straight line on log-log axes),
 * or null when it does not cross the box.
 */
export function squareLine(anchor, [xLow, xHigh], [yLow, yHigh]) {
  const c = anchor.y / (anchor.x * anchor.x);
  if (!(c > 0 && Number.isFinite(c))) return null;
  const from = Math.max(xLow, Math.sqrt(yLow / c));
  const to = Math.min(xHigh, Math.sqrt(yHigh / c));
  if (!(to > from)) return null;
  return { x: [from, to], y: [c * from * from, c * to * to] };
}

/**
 * The spread of repeated timings of one size: the 10th to the 90th percentile of `samples`
 * when there are ten or more (one stray slow batch on a busy machine does not set it), else
 * the fastest to the slowest.
 */
export function spreadOf(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length < 10) return { low: sorted[0], high: sorted[sorted.length - 1] };
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];
  return { low: at(0.1), high: at(0.9) };
}

/** The slope the largest sizes should show: time ∝ n² for both forms. */
export const EXPECTED_SLOPE = 2;
/** A fitted slope this far from EXPECTED_SLOPE says more about the machine than about the forms. */
export const SLOPE_TOLERANCE = 0.4;

/** The median of a non-empty list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
