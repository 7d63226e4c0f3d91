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
  // Said when the learner opens the table, so that pressing the preset visibly does something.
  const announcer = htmlElement('p', { class: 'by-hand-sr', role: 'status' }, null, parent);
  const fullHead = htmlElement('div', { class: 'by-hand-full-head' }, null, fullBox);
  htmlElement('p', { class: 'panel-title' },
    'Every token as a query: Q = K = the three keys, V = the three values', fullHead);
  const closeFull = htmlElement('button', { type: 'button', class: 'by-hand-button' }, 'Hide the table', fullHead);
  closeFull.addEventListener('click', () => state.set(`${NAME}.table`, false));
  const coverNote = htmlElement('p', { class: 'by-hand-waiting', hidden: '' },
    'Token 1 is the query of the steps (q = k1 in the worked example), so this table would give their answers away: '
    + 'each part stays covered until you check its step, or switch the cover off.', fullBox);
  const fullPanels = htmlElement('div', { class: 'figure-panels' }, null, fullBox);
  const fullMap = createHeatmap(htmlElement('div', { class: 'figure-panel' }, null, fullPanels), {
    rowLabels: TOKEN_LABELS, colLabels: TOKEN_LABELS, rowTitle: 'query', colTitle: 'key',
    label: 'weights of every token over every token', formatCell: (v) => formatFixed(v, 3),
    emptyText: 'covered until step 3 is checked',
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
  let shown = null; // whether the block was shown at the last render (null before the first)
  let isCovered = () => false; // the figure's covered(step), from the last render
  let unregister = [];
  function offer(on) {
    if (on === (unregister.length > 0)) return;
    unregister.forEach((undo) => undo());
    // A part still covered in the steps exports empty, as the steps' own matrices do.
    const full = (pick, colLabels, colTitle, step) => () => (fullResult ? {
      values: Array.from({ length: fullResult.output.rows }, (_, i) => Array.from(row(pick(fullResult), i), (v) => (isCovered(step) ? null : v))),
      rowLabels: TOKEN_LABELS, colLabels, rowTitle: 'query', colTitle,
    } : null);
    unregister = on ? [
      registerMatrix(element, 'every token as a query: scaled scores', full((r) => r.scaledScores, TOKEN_LABELS, 'key', 2)),
      registerMatrix(element, 'every token as a query: output (weights \u00b7 V)', full((r) => r.output, COMPONENTS, 'component', 4)),
    ] : [];
  }

  return {
    /**
     * Shows (on) or hides the block; when shown, computes and draws it for `result`'s vectors,
     * with the parts whose step covered(step) says is still covered drawn as "?" (or empty cells).
     */
    render(on, result, covered = () => false) {
      isCovered = covered;
      fullBox.hidden = !on;
      offer(on);
      fullResult = null;
      // Opened by the learner (not by a link at load): bring the table into view and say so.
      const opened = on && shown === false;
      shown = on;
      announcer.textContent = opened
        ? 'Every token as a query: the 3 \u00d7 3 table of weights, scaled scores and outputs is shown under the presets.'
        : '';
      if (opened) requestAnimationFrame(() => fullBox.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
      if (!on) return;
      const r = computeEveryToken(lab, result);
      fullResult = r;
      fullMap.update(covered(3) ? { ...r.weights, data: r.weights.data.map(() => NaN) } : r.weights);
      fullRows.forEach((cells, i) => {
        cells.scores.textContent = covered(2) ? '[?, ?, ?]' : fmtVector(row(r.scaledScores, i));
        cells.output.textContent = covered(4) ? '[?, ?]' : fmtVector(row(r.output, i));
      });
      coverNote.hidden = ![2, 3, 4].some(covered);
    },
    /** Forgets the last result (the core failed), so nothing stale is exported. */
    clear() {
      fullResult = null;
    },
  };
}
