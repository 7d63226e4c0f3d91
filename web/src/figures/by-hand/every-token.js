// "Every token as a query" in the "by hand" figure: the three keys attend to themselves
// (Q = K), shown as a heat map of weights and a table of scaled scores and outputs. While the
// table is shown, its scores and output are offered in the Export menu (the heat map exports
// the weights on its own).

import { row } from '#attention-lab';
import { createHeatmap } from '../../lib/charts/heatmap.js';
import { scrollableWhenOverflowing } from '../../lib/dom/scroll-region.js';
import { htmlElement } from '../../lib/dom/elements.js';
import { registerMatrix } from '../../lib/export/registry.js';
import { formatFixed } from '../../lib/format/index.js';
import { NAME, computeEveryToken, fmtVector } from './model.js';

const TOKEN_LABELS = ['token 1', 'token 2', 'token 3'];
const COMPONENTS = ['x', 'y'];

/** Builds the block into `parent` (hidden until asked for); returns { render(on, result), clear() }. */
export function createEveryToken(parent, { element, state, lab }) {
  const fullBox = htmlElement('div', { class: 'by-hand-full', hidden: '' }, null, parent);
  const fullHead = htmlElement('div', { class: 'by-hand-full-head' }, null, fullBox);
  htmlElement('p', { class: 'panel-title' },
    'Every token as a query: Q = K = the three keys, V = the three values', fullHead);
  const closeFull = htmlElement('button', { type: 'button', class: 'by-hand-button' }, 'Hide the table', fullHead);
  closeFull.addEventListener('click', () => state.set(`${NAME}.table`, 0));
  const fullPanels = htmlElement('div', { class: 'figure-panels' }, null, fullBox);
  const fullMap = createHeatmap(htmlElement('div', { class: 'figure-panel' }, null, fullPanels), {
    rowLabels: TOKEN_LABELS, colLabels: TOKEN_LABELS, rowTitle: 'query', colTitle: 'key',
    label: 'weights of every token over every token', formatCell: (v) => formatFixed(v, 3),
  });
  const fullTableWrap = htmlElement('div', { class: 'figure-panel by-hand-table-wrap' }, null, fullPanels);
  const fullTable = htmlElement('table', { class: 'by-hand-table' }, null, fullTableWrap);
  scrollableWhenOverflowing(fullTableWrap, 'table of every token, scrolls sideways');
  htmlElement('caption', {}, 'Scaled scores and output of each token', fullTable);
  const fullHeadRow = htmlElement('tr', {}, null, htmlElement('thead', {}, null, fullTable));
  for (const label of ['query', 'scaled scores', 'output']) htmlElement('th', { scope: 'col' }, label, fullHeadRow);
  const fullBody = htmlElement('tbody', {}, null, fullTable);
  const fullRows = TOKEN_LABELS.map((label) => {
    const tr = htmlElement('tr', {}, null, fullBody);
    htmlElement('th', { scope: 'row' }, label, tr);
    return { scores: htmlElement('td', { class: 'by-hand-num' }, null, tr), output: htmlElement('td', { class: 'by-hand-num' }, null, tr) };
  });

  let fullResult = null; // the core's answer while the table is shown
  let unregister = [];
  function offer(on) {
    if (on === (unregister.length > 0)) return;
    unregister.forEach((undo) => undo());
    const full = (pick, colLabels, colTitle) => () => (fullResult
      ? { matrix: pick(fullResult), rowLabels: TOKEN_LABELS, colLabels, rowTitle: 'query', colTitle } : null);
    unregister = on ? [
      registerMatrix(element, 'every token as a query: scaled scores', full((r) => r.scaledScores, TOKEN_LABELS, 'key')),
      registerMatrix(element, 'every token as a query: output (weights \u00b7 V)', full((r) => r.output, COMPONENTS, 'component')),
    ] : [];
  }

  return {
    /** Shows (on) or hides the block; when shown, computes and draws it for `result`'s vectors. */
    render(on, result) {
      fullBox.hidden = !on;
      offer(on);
      fullResult = null;
      if (!on) return;
      const r = computeEveryToken(lab, result);
      fullResult = r;
      fullMap.update(r.weights);
      fullRows.forEach((cells, i) => {
        cells.scores.textContent = fmtVector(row(r.scaledScores, i));
        cells.output.textContent = fmtVector(row(r.output, i));
      });
    },
    /** Forgets the last result (the core failed), so nothing stale is exported. */
    clear() {
      fullResult = null;
    },
  };
}
