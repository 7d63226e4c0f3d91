// The cost figure's plot: multiply-adds of the pairs (Q Kᵀ), the four projections and a
// recurrent layer against sequence length on log axes, with the lengths where the curves
// cross marked and named. Every point is the core's (lab.cost, lab.layerComparison).

import { createPlot } from '../../lib/charts/plot.js';
import { htmlElement } from '../../lib/dom/elements.js';
import { formatAmount, formatCount } from '../../lib/format/index.js';

const SAMPLES_PER_DECADE = 10;
const KERNEL_WIDTH = 3; // k of the convolutional row of Table 1; the recurrent row does not use it

/** Where two power-law curves sampled at the same x cross, interpolated on log axes. */
export function crossing(xs, a, b) {
  for (let i = 1; i < xs.length; i += 1) {
    const before = Math.log(a[i - 1]) - Math.log(b[i - 1]);
    const after = Math.log(a[i]) - Math.log(b[i]);
    if (before === 0) return { x: xs[i - 1], y: a[i - 1] };
    if (before * after < 0) {
      const t = before / (before - after);
      const logX = Math.log(xs[i - 1]) + t * (Math.log(xs[i]) - Math.log(xs[i - 1]));
      const logY = Math.log(a[i - 1]) + t * (Math.log(a[i]) - Math.log(a[i - 1]));
      return { x: Math.exp(logX), y: Math.exp(logY) };
    }
  }
  return null;
}

/** Builds the plot into `parent`; returns { draw(setup) } for a valid { n, dModel, heads, bytesPerNumber }. */
export function createGrowthPlot(parent, { lab }) {
  const plotPanel = htmlElement('div', { class: 'figure-panel' }, null, parent);
  htmlElement('p', { class: 'panel-title' }, 'Multiply-adds against sequence length (m = n, log axes)', plotPanel);
  const plot = createPlot(plotPanel, {
    label: 'multiply-adds of the pairs, the projections and a recurrent layer against sequence length, log scales',
    xLabel: 'sequence length n = m (log scale)', yLabel: 'multiply-adds (log scale)',
    xScale: 'log10', yScale: 'log10',
    formatX: (v) => formatAmount(v).replace('\u00a0', ''),
  });
  const crossingNote = htmlElement('p', { class: 'cost-crossing' }, null, plotPanel);

  function draw(setup) {
    const top = Math.min(12, Math.max(5, Math.ceil(Math.log10(Math.max(setup.n, 4 * setup.dModel))) + 1));
    const xs = [];
    for (let i = 0; i <= top * SAMPLES_PER_DECADE; i += 1) {
      const n = Math.round(10 ** (i / SAMPLES_PER_DECADE));
      if (n !== xs[xs.length - 1]) xs.push(n);
    }
    const pairs = [];
    const projected = [];
    const recurrent = [];
    for (const [index, n] of xs.entries()) {
      let c;
      try {
        c = lab.cost({ n, m: n, dModel: setup.dModel, heads: setup.heads, bytesPerNumber: setup.bytesPerNumber });
      } catch {
        // Past 2^53 the core's counts are no longer exact, so it refuses them: the curves end here.
        xs.length = index;
        break;
      }
      pairs.push(c.qkMacs);
      projected.push(c.projectionMacs);
      recurrent.push(lab.layerComparison({ n, d: setup.dModel, k: KERNEL_WIDTH }).find((r) => r.layer === 'recurrent').complexityPerLayer);
    }
    const withRecurrent = crossing(xs, pairs, recurrent);
    const withProjections = crossing(xs, pairs, projected);
    const points = [withRecurrent, withProjections].filter(Boolean)
      // The lower crossing is labelled below-right of its dot, the upper one above-left, where no curve runs.
      .map((p, i) => ({ ...p, label: `n \u2248 ${formatCount(Math.round(p.x))}`, placement: i === 0 ? 'below-right' : 'above-left' }));
    plot.update({
      series: [
        { name: 'pairs, Q K\u1d40: n\u00b2\u00b7d', x: xs, y: pairs },
        { name: 'four projections: 4n\u00b7d\u00b2', x: xs, y: projected },
        { name: 'recurrent layer (Table 1): n\u00b7d\u00b2', x: xs, y: recurrent },
      ],
      marker: { x: setup.n, label: `n = ${formatCount(setup.n)}` },
      points,
    });
    const parts = [];
    if (withRecurrent) parts.push(`Q K\u1d40 costs more than a recurrent layer from n \u2248 ${formatCount(Math.round(withRecurrent.x))}`);
    if (withProjections) parts.push(`more than the four projections from n \u2248 ${formatCount(Math.round(withProjections.x))}`);
    crossingNote.textContent = parts.length
      ? `Read off the curves at d = ${formatCount(setup.dModel)}: ${parts.join(', and ')}.`
      : '';
  }

  return { draw };
}
