// Figure "All tokens at once": the whole of softmax(Q Kᵀ / √d_k) V for the toy sentence as
// three matrices, scores (n × m), weights (n × m, each row summing to 1) and output (n × d_v),
// with one query's row outlined through all three. Every value is the core's.

import { formatFixed, formatWeight, quoteToken } from '../lib/format/index.js';
import { createHeatmap } from '../lib/charts/heatmap.js';
import { toyScoreDomain } from '../lib/charts/score-domain.js';
import { createPicker } from '../lib/controls/picker.js';
import { figureBody, htmlElement } from '../lib/dom/elements.js';
import { createReadout } from '../lib/controls/readout.js';
import { registerMatrix } from '../lib/export/registry.js';
import { createFigureProblem } from '../lib/dom/figure-problem.js';
import { TOY_SENTENCE_LENGTH, clampToken, keepTokenInSentence, readToySentence, tokenOptions } from '../lib/format/tokens.js';
import './all-at-once.css'; // this figure's styles, bundled into styles.css

const DEFAULT_QUERY = 7; // "it", the row the lesson reads first

/** "8 × 16", the way the page writes a shape. */
function shapeText(m) {
  return `${m.rows} \u00d7 ${m.cols}`;
}


/** The smallest and largest entry, a colour domain that follows the data. */
function extent(m) {
  let low = Infinity;
  let high = -Infinity;
  for (const v of m.data) {
    low = Math.min(low, v);
    high = Math.max(high, v);
  }
  return [low, high];
}


/** A panel with a title made of a formula part and a shape part. */
function createPanel(parent, { title, className = '' }) {
  const panel = htmlElement('div', { class: `figure-panel ${className}`.trim() }, null, parent);
  const heading = htmlElement('p', { class: 'panel-title' }, null, panel);
  htmlElement('span', { class: 'all-at-once-step' }, title, heading);
  heading.append(' ');
  const shape = htmlElement('span', { class: 'all-at-once-shape' }, null, heading);
  return { panel, shape };
}

/** The figure's settings, as the store, the links and the README's table know them. */
export const SETTINGS = {
  'all-at-once.query': { type: 'integer', min: 0, max: TOY_SENTENCE_LENGTH - 1, default: DEFAULT_QUERY },
};

export function mount(element, { lab, state }) {
  const sentence = readToySentence(lab);
  const { tokens, n, tokenNames, features, X, WQ, WK, WV } = sentence;

  // Before the settings are defined: a link's token past this sentence is moved, with a notice.
  keepTokenInSentence(state, 'all-at-once.query', sentence);
  state.defineAll(SETTINGS);
  clampToken(state, 'all-at-once.query', sentence);

  // One full-width head on the projections: nothing but the picked row changes afterwards.
  const Q = lab.matmul(X, WQ);
  const K = lab.matmul(X, WK);
  const V = lab.matmul(X, WV);
  const { rawScores, scaledScores: S, weights: A, output: O } = lab.attention(Q, K, V);
  const sums = Array.from(lab.sums(A).rows);
  const stats = lab.rowStats(A);

  const body = figureBody(element);

  const controls = htmlElement('div', { class: 'figure-controls' }, null, body);
  const pick = (row) => state.set('all-at-once.query', row);
  const picker = createPicker(controls, {
    label: 'query token',
    options: tokenOptions(tokens),
    value: state.get('all-at-once.query'),
    hint: 'Its row is outlined in all three matrices.',
    onChange: (value) => pick(Number(value)),
  });

  const panels = htmlElement('div', { class: 'figure-panels all-at-once-panels' }, null, body);

  const scoresPanel = createPanel(panels, { title: '1. Scores S = Q K\u1d40 / \u221ad\u2096' });
  scoresPanel.shape.textContent = `${shapeText(S)} (n \u00d7 m)`;
  const scoresMap = createHeatmap(scoresPanel.panel, {
    rowLabels: tokens, colLabels: tokens, rowNames: tokenNames, colNames: tokenNames,
    rowTitle: 'query', colTitle: 'key', label: 'scaled scores S, queries by keys',
    // The lookup figure draws the same S: one colour scale for both (lib/charts/score-domain.js).
    domain: toyScoreDomain(lab, sentence), formatExact: (v) => formatFixed(v, 3), legend: 'scaled score',
    onActivateCell: (row) => pick(row),
  });

  const weightsPanel = createPanel(panels, { title: '2. Weights A = softmax(S), row by row' });
  weightsPanel.shape.textContent = `${shapeText(A)} (n \u00d7 m)`;
  const weightsMap = createHeatmap(weightsPanel.panel, {
    rowLabels: tokens, colLabels: tokens, rowNames: tokenNames, colNames: tokenNames,
    rowTitle: 'query', colTitle: 'key', label: 'weights A, queries by keys',
    rowNotes: { title: 'row sum', name: 'row sum', chars: 5 },
    onActivateCell: (row) => pick(row),
  });

  const outputPanel = createPanel(panels, { title: '3. Output O = A V', className: 'all-at-once-output' });
  outputPanel.shape.textContent = `${shapeText(O)} (n \u00d7 d\u1d65)`;
  const scroller = htmlElement('div', {
    class: 'all-at-once-scroll', role: 'region', tabindex: '0', 'aria-label': 'output matrix, scrolls sideways on narrow screens',
  }, null, outputPanel.panel);
  const outputMap = createHeatmap(scroller, {
    rowLabels: tokens, colLabels: features, rowNames: tokenNames,
    rowTitle: 'query', colTitle: 'feature', label: 'output O, queries by value features',
    domain: extent(O), formatExact: (v) => formatFixed(v, 3),
    onActivateCell: (row) => pick(row),
  });

  const readouts = htmlElement('div', { class: 'readouts all-at-once-readouts' }, null, body);
  const sumReadout = createReadout(readouts, 'row sum of the picked query');
  const topReadout = createReadout(readouts, 'largest weight on key');
  const problem = createFigureProblem(body);
  // The heat maps export S, A and O; the scores before the division are offered beside them.
  registerMatrix(element, 'raw scores Q K\u1d40', () => ({
    matrix: rawScores, rowLabels: tokens, colLabels: tokens, rowTitle: 'query', colTitle: 'key',
  }));

  scoresMap.update(S);
  weightsMap.update(A);
  weightsMap.setRowNotes(sums.map(formatWeight));
  outputMap.update(O);

  function render() {
    const query = state.get('all-at-once.query');
    picker.set(query);
    try {
      for (const map of [scoresMap, weightsMap, outputMap]) map.highlightRow(query);
      sumReadout.output.textContent = formatWeight(sums[query]);
      sumReadout.note.textContent = `(row ${query}, ${quoteToken(tokens[query])})`;
      const top = stats.argmax[query];
      topReadout.output.textContent = tokenNames[top];
      topReadout.note.textContent = `(weight ${formatWeight(stats.max[query])})`;
      problem.clear();
    } catch (error) {
      problem.show(error);
    }
  }

  state.subscribe(['all-at-once.query'], render);
  render();
}
