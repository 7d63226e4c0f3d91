// The "by hand" figure's last block: the dot-product score beside Bahdanau's additive score,
// computed by the core from fixed teaching matrices, to show that only the scoring line
// differs. The additive scores, weights and output are offered in the Export menu.

import { htmlElement } from '../../lib/dom/elements.js';
import { registerMatrix } from '../../lib/export/registry.js';
import {
  ADDITIVE_U, ADDITIVE_V, ADDITIVE_W, KEY_IDS, computeAdditive, fmtComponent, fmtVector,
} from './model.js';

// Formulas as text with <sub> for indices: [text, [subscript], text, …].
function setFormula(span, parts) {
  for (const part of parts) {
    if (Array.isArray(part)) htmlElement('sub', {}, part[0], span);
    else span.append(part);
  }
}

/** Builds the block into `parent`; returns { render(result, covered), clear() }. */
export function createAdditive(parent, { element, lab }) {
  const compare = htmlElement('div', { class: 'by-hand-compare' }, null, parent);
  htmlElement('p', { class: 'panel-title' }, 'Dot-product and additive scoring, side by side: only the first line differs', compare);
  const compareGrid = htmlElement('div', { class: 'by-hand-compare-grid' }, null, compare);
  function compareColumn(title) {
    const column = htmlElement('div', { class: 'by-hand-compare-col', role: 'group', 'aria-label': title }, null, compareGrid);
    htmlElement('h3', { class: 'by-hand-compare-title' }, title, column);
    const list = htmlElement('ol', { class: 'by-hand-compare-lines' }, null, column);
    return ['score', 'weights', 'output'].map((name, index) => {
      const item = htmlElement('li', { class: index === 0 ? 'by-hand-differs' : 'by-hand-same' }, null, list);
      const formula = htmlElement('span', { class: 'by-hand-formula' }, null, item);
      const value = htmlElement('output', { class: 'by-hand-num', 'aria-label': `${title}: ${name}` }, null, item);
      return { item, formula, value };
    });
  }
  const dotLines = compareColumn('Dot product');
  const addLines = compareColumn('Additive (Bahdanau)');
  setFormula(dotLines[0].formula, ['e', ['j'], ' = q\u00b7k', ['j'], ' / \u221ad', ['k'], ' = ']);
  // Bahdanau's output vector is written w_a here, so that it is not read as a value vector v_j.
  setFormula(addLines[0].formula, ['e', ['j'], ' = w', ['a'], '\u1d40 tanh(W q + U k', ['j'], ') = ']);
  for (const column of [dotLines, addLines]) {
    setFormula(column[1].formula, ['a = softmax(e) = ']);
    setFormula(column[2].formula, ['o = \u03a3 a', ['j'], ' v', ['j'], ' = ']);
  }
  const hiddenLine = htmlElement('p', { class: 'by-hand-compare-note' }, null, compare);
  const wqText = htmlElement('output', { class: 'by-hand-num', 'aria-label': 'W q' }, null, hiddenLine);
  const constants = htmlElement('p', { class: 'by-hand-compare-note' }, null, compare);
  const showMatrix = (rows) => `[${rows.map((r) => fmtVector(r, fmtComponent)).join(', ')}]`;
  constants.textContent = `Teaching constants (a real model learns them): W = ${showMatrix(ADDITIVE_W)}, `
    + `U = ${showMatrix(ADDITIVE_U)}, w\u2090 = ${fmtVector(ADDITIVE_V[0], fmtComponent)}.`;
  constants.dataset.w = JSON.stringify(ADDITIVE_W);
  constants.dataset.u = JSON.stringify(ADDITIVE_U);
  constants.dataset.v = JSON.stringify(ADDITIVE_V);
  constants.classList.add('by-hand-constants');

  let additive = null; // the core's additive answer for the current vectors
  const keyLabels = KEY_IDS.map((id) => `key ${id.slice(1)}`);
  const exported = (pick, colLabels, colTitle) => () => (additive ? {
    values: [Array.from(pick(additive))], rowLabels: ['q'], colLabels, rowTitle: 'query', colTitle,
  } : null);
  registerMatrix(element, 'additive scores w\u2090\u1d40 tanh(W q + U k\u2c7c)', exported((r) => r.scores.data, keyLabels, 'key'));
  registerMatrix(element, 'additive weights softmax(e)', exported((r) => r.weights.data, keyLabels, 'key'));
  registerMatrix(element, 'additive output (weights \u00b7 V)', exported((r) => r.output.data, ['x', 'y'], 'component'));

  return {
    /** Computes the additive score for `result`'s vectors and writes both columns (covered steps show "?"). */
    render(result, covered) {
      const { q, scaled, weights, output } = result;
      additive = computeAdditive(lab, result);
      dotLines[0].value.textContent = covered(2) ? '?' : fmtVector(scaled);
      dotLines[1].value.textContent = covered(3) ? '?' : fmtVector(weights);
      dotLines[2].value.textContent = covered(4) ? '?' : fmtVector(output);
      addLines[0].value.textContent = fmtVector(additive.scores.data);
      addLines[1].value.textContent = fmtVector(additive.weights.data);
      addLines[2].value.textContent = fmtVector(additive.output.data);
      hiddenLine.replaceChildren(`For q = ${fmtVector(q, fmtComponent)} the query half of the additive hidden layer is W q = `, wqText, '.');
      wqText.textContent = fmtVector(additive.wq.data);
    },
    clear() {
      additive = null;
    },
  };
}
