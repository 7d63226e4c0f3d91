// What the learn figure shows of a run: for each copy its attention weights, its readouts and
// a divergence note, then the three curves and the curves as a table. Every number arrives from
// the core through the session (index.js); this module only lays it out.

import { createHeatmap } from '../../lib/charts/heatmap.js';
import { createPlot } from '../../lib/charts/plot.js';
import { createReadout } from '../../lib/controls/readout.js';
import { htmlElement } from '../../lib/dom/elements.js';
import { formatCount, formatSignificant, formatWeightExact } from '../../lib/format/index.js';
import { MEASURES } from './curves.js';
import { TARGET_LOSS, TARGET_TEXT, targetSentence } from './target.js';

const SQRT_DK = '\u221ad\u2096';
export const COPIES = [
  { which: 'scaled', title: `Scaled: softmax(Q K\u1d40 / ${SQRT_DK})`, short: 'scaled' },
  { which: 'unscaled', title: 'Unscaled: softmax(Q K\u1d40)', short: 'unscaled' },
];

/** Many decades on the page: three significant digits, powers of ten for the tiny ones. */
export function formatMeasure(value) {
  if (!Number.isFinite(value)) return '\u2014';
  if (value !== 0 && Math.abs(value) < 1e-3) return formatWeightExact(value);
  return formatSignificant(value, 3);
}

/** The two copies' panels, the plots and the table, appended to body. */
export function createLearnReadouts(body, { tokens }) {
  const panels = htmlElement('div', { class: 'figure-panels figure-panels-even learn-copies' }, null, body);
  const labels = Array.from({ length: tokens }, (_, i) => String(i));
  const views = {};
  for (const copy of COPIES) {
    const panel = htmlElement('div', { class: 'figure-panel' }, null, panels);
    htmlElement('p', { class: 'panel-title' }, copy.title, panel);
    const heatmap = createHeatmap(panel, {
      rowLabels: labels, colLabels: labels, rowTitle: 'query', colTitle: 'key',
      label: `${copy.short} copy: attention weights of the first training sequence, queries by keys`,
      exportName: `${copy.short} copy: weights`,
      rowNotes: { title: 'right key', name: 'right key', chars: 3 },
    });
    const readouts = htmlElement('div', { class: 'readouts learn-readouts' }, null, panel);
    const read = Object.fromEntries(MEASURES.map((m) => [m.key, createReadout(readouts, `${copy.short} copy: ${m.title}`)]));
    const target = htmlElement('p', { class: 'learn-target' }, null, panel);
    const diverged = htmlElement('p', { class: 'learn-diverged', hidden: '' }, null, panel);
    views[copy.which] = { heatmap, read, target, diverged };
  }

  const plots = htmlElement('div', { class: 'learn-plots' }, null, body);
  const plotPanel = (title) => {
    const panel = htmlElement('div', { class: 'figure-panel' }, null, plots);
    htmlElement('p', { class: 'panel-title' }, title, panel);
    return panel;
  };
  const lossPlot = createPlot(plotPanel('Loss (log scale)'), {
    label: 'loss of both copies against the step, log scale', exportName: 'loss curves',
    xLabel: 'step', yLabel: 'loss (squared error)', yScale: 'log10',
  });
  const spreadPlot = createPlot(plotPanel('Mean p(1\u2212p) over every weight'), {
    label: 'mean p(1 minus p) of both copies against the step', exportName: 'mean p(1\u2212p) curves',
    xLabel: 'step', yLabel: 'mean p(1\u2212p)', yDomain: [0, 0.25],
  });
  const gradientPlot = createPlot(plotPanel('Gradient norm \u2016dW_Q\u2016 (log scale)'), {
    label: 'norm of the gradient of W_Q for both copies against the step, log scale', exportName: 'gradient norm curves',
    xLabel: 'step', yLabel: '\u2016dL/dW_Q\u2016', yScale: 'log10',
  });

  const tableBox = htmlElement('details', { class: 'learn-table' }, null, body);
  htmlElement('summary', {}, 'The curves as a table', tableBox);
  const tableWrap = htmlElement('div', { class: 'learn-table-wrap', role: 'region', tabindex: '0', 'aria-label': 'training curves table' }, null, tableBox);
  const table = htmlElement('table', { class: 'figure-table' }, null, tableWrap);
  htmlElement('caption', {}, 'Both copies at about a dozen steps from the start to now (every step is in the Export menu).', table);
  const headRow = htmlElement('tr', {}, null, htmlElement('thead', {}, null, table));
  htmlElement('th', { scope: 'col' }, 'step', headRow);
  for (const copy of COPIES) {
    for (const m of MEASURES) htmlElement('th', { scope: 'col' }, `${copy.short} ${m.title}`, headRow);
  }
  const tableBody = htmlElement('tbody', {}, null, table);
  // The target row: where each copy first got below the target loss.
  const targetRow = htmlElement('tr', {}, null, htmlElement('tfoot', {}, null, table));
  htmlElement('th', { scope: 'row' }, `loss < ${TARGET_TEXT}`, targetRow);
  const targetCells = Object.fromEntries(COPIES.map((copy) =>
    [copy.which, htmlElement('td', { colspan: String(MEASURES.length) }, null, targetRow)]));

  /** Where each copy stands against the target ({ reachedAt, steps, diverged } per copy). */
  function showTarget(standing) {
    for (const copy of COPIES) {
      const text = targetSentence(standing[copy.which]);
      views[copy.which].target.textContent = `Target: ${text}.`;
      views[copy.which].target.classList.toggle('learn-target-reached', standing[copy.which].reachedAt !== null);
      targetCells[copy.which].textContent = `${copy.short}: ${text}`;
    }
  }

  /** One copy: its weights, the readouts of `shown` (a step record, if any) and its state. */
  function showCopy(which, copyState, shown) {
    const view = views[which];
    view.heatmap.update(copyState.weights);
    if (shown) {
      for (const m of MEASURES) view.read[m.key].output.textContent = formatMeasure(shown[m.key]);
      view.read.loss.note.textContent = `at step ${formatCount(shown.step)}`;
    }
    view.diverged.hidden = !copyState.diverged;
    view.diverged.textContent = copyState.diverged
      ? `This copy diverged at step ${formatCount(copyState.steps)}: its loss or gradient left any sane range, so it stopped there. Lower the learning rate and reset.`
      : '';
  }

  let rightKeys = '';
  /** The right key of each query, beside both maps; redrawn only when it changes. */
  function showRightKeys(keys) {
    if (keys.join() === rightKeys) return;
    rightKeys = keys.join();
    for (const copy of COPIES) views[copy.which].heatmap.setRowNotes(keys);
  }

  function fillTable(curves) {
    tableBody.replaceChildren();
    for (const row of curves.tableRows()) {
      const tr = htmlElement('tr', {}, null, tableBody);
      htmlElement('th', { scope: 'row' }, formatCount(row.step), tr);
      for (const copy of COPIES) {
        for (const m of MEASURES) htmlElement('td', {}, row[copy.which] ? formatMeasure(row[copy.which][m.key]) : '\u2014', tr);
      }
    }
  }

  /** The three plots from the thinned curves, and the table when it is open. */
  function showCurves(curves) {
    // Redrawn up to 15 times a second while training: each curve is one path and a dot at its end.
    const series = (key) => COPIES.map((copy) => ({ name: `${copy.short} copy`, dots: 'last', ...curves.thinned(copy.which, key) }));
    const losses = series('loss');
    // The target as a flat line over the steps taken so far, drawn and listed like a curve.
    const last = Math.max(1, ...losses.map((l) => l.x[l.x.length - 1] ?? 0));
    const target = { name: `target: loss ${TARGET_TEXT}`, x: [0, last], y: [TARGET_LOSS, TARGET_LOSS] };
    lossPlot.update({ series: [...losses, target] });
    spreadPlot.update({ series: series('meanPOneMinusP') });
    gradientPlot.update({ series: series('gradientNormQ') });
    if (tableBox.open) fillTable(curves);
  }

  return { showCopy, showTarget, showRightKeys, showCurves, fillTable, tableBox };
}
