// The plot's axis kinds (linear, log2, log10): their d3 scales and round-number ticks.

import { range, tickStep, ticks } from 'd3-array';
import { scaleLinear, scaleLog } from 'd3-scale';

/** Round-number ticks (1, 2, 5 × 10^k) covering [low, high]: the finest such step that gives at most `count` intervals. */
export function linearTicks(low, high, count = 5) {
  if (!(high - low > 0)) return [low];
  for (let c = count; c > 1; c -= 1) {
    if ((high - low) / tickStep(low, high, c) <= count + 1e-9) return ticks(low, high, c);
  }
  return ticks(low, high, 1);
}

/** Whole powers of `base` in [low, high], every so many so that at most `count` remain. */
function powerTicks(base, low, high, count) {
  const log = base === 2 ? Math.log2 : Math.log10;
  const first = Math.ceil(log(low) - 1e-9);
  const last = Math.floor(log(high) + 1e-9);
  const every = Math.max(1, Math.ceil((last - first + 1) / count));
  return range(first, last + 1, every).map((k) => base ** k);
}

/** Powers of two in [low, high], thinned so that at most `count` remain. */
export const log2Ticks = (low, high, count = 8) => powerTicks(2, low, high, count);

/** Powers of ten in [low, high], thinned so that at most `count` remain. */
const log10Ticks = (low, high, count = 7) => powerTicks(10, low, high, count);

// Each axis kind: its d3 scale and its ticks.
export const SCALES = {
  linear: { scale: () => scaleLinear(), ticks: linearTicks },
  log2: { scale: () => scaleLog().base(2), ticks: log2Ticks },
  log10: { scale: () => scaleLog().base(10), ticks: log10Ticks },
};
