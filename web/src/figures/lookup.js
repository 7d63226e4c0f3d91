// Figure "The lookup picture": the toy sentence projected into queries, keys and values, the
// shape of every matrix on the way from X to the output, and one experiment: tie W_K to W_Q
// and watch the score matrix turn symmetric. Every shape is read off a matrix the core just
// computed, and every score is the core's.

import { formatFixed, quoteToken } from '../lib/format/index.js';
import { createHeatmap } from '../lib/charts/heatmap.js';
import { toyScoreDomain } from '../lib/charts/score-domain.js';
import { figureBody, htmlElement, svgElement, uniqueId } from '../lib/dom/elements.js';
import { createReadout } from '../lib/controls/readout.js';
import { createToggle } from '../lib/controls/toggle.js';
import { registerMatrix } from '../lib/export/registry.js';
import { createFigureProblem } from '../lib/dom/figure-problem.js';
import { readToySentence } from '../lib/format/tokens.js';
import './lookup.css'; // this figure's styles, bundled into styles.css

const SYMMETRY_TOLERANCE = 1e-9; // floating-point noise, far below the 3 decimals shown
const SHAPE_UNIT = 3; // size of one matrix entry in the little shape sketches (viewBox units)

/** "8 × 16", the way the page writes a shape. */
function shapeText(m) {
  return `${m.rows} \u00d7 ${m.cols}`;
}

/** Appends a matrix name in italics, with an optional superscript: W with Q above, as in the formulas. */
function symbol(parent, base, sup = null) {
  const span = htmlElement('span', { class: 'lookup-symbol' }, null, parent);
  span.append(base);
  if (sup) htmlElement('sup', {}, sup, span);
  return span;
}

/** A small rectangle drawn to scale with the matrix's rows and columns. */
function shapeSketch(parent, m) {
  const width = m.cols * SHAPE_UNIT;
  const height = m.rows * SHAPE_UNIT;
  const svg = svgElement('svg', {
    viewBox: `0 0 ${width + 2} ${height + 2}`, width: width + 2, height: height + 2,
    class: 'lookup-sketch', 'aria-hidden': 'true', focusable: 'false',
  }, parent);
  svgElement('rect', { x: 1, y: 1, width, height, class: 'lookup-sketch-box' }, svg);
  // One faint line per row, so "one row per token" can be seen.
  for (let i = 1; i < m.rows; i += 1) {
    svgElement('line', { x1: 1, x2: width + 1, y1: 1 + i * SHAPE_UNIT, y2: 1 + i * SHAPE_UNIT, class: 'lookup-sketch-row' }, svg);
  }
  return svg;
}



/** Sᵀ: the same numbers, rows and columns exchanged (no arithmetic). */
function transposed(S) {
  const data = new Float64Array(S.data.length);
  for (let i = 0; i < S.rows; i += 1) for (let j = 0; j < S.cols; j += 1) data[j * S.rows + i] = S.data[i * S.cols + j];
  return { rows: S.cols, cols: S.rows, data };
}

/** 1. The three projections, with their shapes. */
function drawProjections(body, { X, WQ, WK, WV, Q, K, V }) {
  const projections = htmlElement('div', { class: 'lookup-part' }, null, body);
  htmlElement('p', { class: 'panel-title' }, 'Three projections of the same eight rows', projections);
  const projectionList = htmlElement('ul', { class: 'lookup-projections', 'aria-label': 'the three projections and their shapes' }, null, projections);
  const rolesOf = {
    Q: { role: 'queries: what each token is looking for', weight: WQ, result: Q, width: 'd\u2096' },
    K: { role: 'keys: what each token offers', weight: WK, result: K, width: 'd\u2096' },
    V: { role: 'values: what each token hands over', weight: WV, result: V, width: 'd\u1d65' },
  };
  for (const [name, { role, weight, result, width }] of Object.entries(rolesOf)) {
    const item = htmlElement('li', { class: 'lookup-projection' }, null, projectionList);
    const formula = htmlElement('p', { class: 'lookup-formula' }, null, item);
    symbol(formula, name);
    formula.append(' = ');
    symbol(formula, 'X');
    formula.append('\u2009');
    symbol(formula, 'W', name);
    const shape = htmlElement('p', { class: 'lookup-shape' }, null, item);
    shapeSketch(shape, result);
    htmlElement('span', { class: 'lookup-shape-value' }, shapeText(result), shape);
    htmlElement('span', { class: 'lookup-shape-detail' }, `(n \u00d7 ${width})`, shape);
    htmlElement('p', { class: 'lookup-shape-detail' },
      `from (${shapeText(X)}) times (${shapeText(weight)})`, item);
    htmlElement('p', { class: 'lookup-role' }, role, item);
  }
  htmlElement('p', { class: 'lookup-note' },
    `X has one row per token (n = ${X.rows}) and ${X.cols} features per row (d_model = ${X.cols}). `
      + `With a single full-width head, d\u2096 = ${Q.cols} and d\u1d65 = ${V.cols}.`, projections);
}

/** 2. The flow from queries and keys to the output, every box with its computed shape. */
function drawFlow(body, { Q, K, V, untied }) {
  const flowPart = htmlElement('div', { class: 'lookup-part' }, null, body);
  htmlElement('p', { class: 'panel-title', id: uniqueId('lookup-flow-title') }, 'The path from queries to output', flowPart);
  const flow = htmlElement('ol', { class: 'lookup-flow', 'aria-labelledby': flowPart.firstChild.id }, null, flowPart);
  const steps = [
    { what: 'queries and keys', boxes: [['Q', Q], ['K', K]] },
    { what: 'scaled scores Q K\u1d40 / \u221ad\u2096, one per query\u2013key pair', boxes: [['S', untied.scaledScores]] },
    { what: 'softmax along each row: weights that sum to 1', boxes: [['A', untied.weights]] },
    { what: 'weights and values', boxes: [['A', untied.weights], ['V', V]] },
    { what: 'output A V, one blended value row per query', boxes: [['O', untied.output]] },
  ];
  for (const step of steps) {
    const item = htmlElement('li', { class: 'lookup-step' }, null, flow);
    const boxes = htmlElement('div', { class: 'lookup-boxes' }, null, item);
    for (const [base, m] of step.boxes) {
      const box = htmlElement('span', { class: 'lookup-box' }, null, boxes);
      symbol(box, base);
      shapeSketch(box, m);
      htmlElement('span', { class: 'lookup-shape-value' }, shapeText(m), box);
    }
    htmlElement('span', { class: 'lookup-step-text' }, step.what, item);
  }
}

/** The figure's settings, as the store, the links and the README's table know them. */
export const SETTINGS = {
  'lookup.tie': { type: 'boolean', default: false },
};

export function mount(element, { lab, state }) {
  const sentence = readToySentence(lab);
  const { tokens, tokenNames, X, WQ, WK, WV } = sentence;
  const it = tokens.indexOf('it');
  const cat = tokens.indexOf('cat');

  state.defineAll(SETTINGS);

  const Q = lab.matmul(X, WQ);
  const K = lab.matmul(X, WK);
  const V = lab.matmul(X, WV);
  const untied = lab.attention(Q, K, V);
  // One colour scale for both settings, so that toggling compares like with like, and the same
  // one as the all-at-once figure's drawing of these scores.
  const domain = toyScoreDomain(lab, sentence);

  const body = figureBody(element, 'figure-body lookup-body');

  drawProjections(body, { X, WQ, WK, WV, Q, K, V });
  drawFlow(body, { Q, K, V, untied });

  // 3. The experiment: tie W_K to W_Q.
  const experiment = htmlElement('div', { class: 'lookup-part' }, null, body);
  const controls = htmlElement('div', { class: 'figure-controls' }, null, experiment);
  createToggle(controls, {
    state, key: 'lookup.tie', label: 'tie W_K to W_Q',
    hint: 'Uses the query matrix for the keys too, so every key equals its own token\u2019s query.',
  });

  const panels = htmlElement('div', { class: 'figure-panels' }, null, experiment);
  const mapPanel = htmlElement('div', { class: 'figure-panel' }, null, panels);
  const mapTitle = htmlElement('p', { class: 'panel-title' }, null, mapPanel);
  const heatmap = createHeatmap(mapPanel, {
    rowLabels: tokens, colLabels: tokens, rowNames: tokenNames, colNames: tokenNames,
    rowTitle: 'query', colTitle: 'key', label: 'scaled scores, queries by keys', domain,
    formatExact: (v) => formatFixed(v, 3), legend: 'scaled score',
  });
  const readPanel = htmlElement('div', { class: 'figure-panel' }, null, panels);
  htmlElement('p', { class: 'panel-title' }, 'Does the map read the same across its diagonal?', readPanel);
  const readouts = htmlElement('div', { class: 'readouts' }, null, readPanel);
  const symmetry = createReadout(readouts, 'score matrix');
  const asymmetry = createReadout(readouts, 'largest |S \u2212 S\u1d40|');
  const itToCat = createReadout(readouts, `score ${quoteToken('it')} \u2192 ${quoteToken('cat')}`);
  const catToIt = createReadout(readouts, `score ${quoteToken('cat')} \u2192 ${quoteToken('it')}`);
  const scale = createReadout(readouts, 'colour scale');
  const verdict = htmlElement('p', { class: 'lookup-verdict', 'aria-live': 'polite' }, null, readPanel);
  const problem = createFigureProblem(experiment);

  // The rest of the result behind the heat map (which exports the scaled scores), for the Export menu.
  let last = null;
  const exported = (key, colLabels, colTitle) => () => (last
    ? { matrix: last[key], rowLabels: tokens, colLabels, rowTitle: 'query', colTitle }
    : null);
  registerMatrix(element, 'raw scores Q K\u1d40', exported('rawScores', tokens, 'key'));
  registerMatrix(element, 'weights softmax(S)', exported('weights', tokens, 'key'));
  registerMatrix(element, 'output (weights \u00b7 V)', exported('output', Array.from(sentence.features), 'feature'));

  function render() {
    const isTied = state.get('lookup.tie');
    let S;
    try {
      // The keys are recomputed from X with W_K, or with W_Q standing in for it.
      last = lab.attention(Q, lab.matmul(X, isTied ? WQ : WK), V);
      S = last.scaledScores;
      problem.clear();
    } catch (error) {
      last = null;
      problem.show(error);
      return;
    }
    const gap = lab.maxAbsDifference(S, transposed(S));
    const symmetric = gap < SYMMETRY_TOLERANCE;
    const forward = S.data[it * S.cols + cat];
    const backward = S.data[cat * S.cols + it];

    heatmap.update(S);
    mapTitle.textContent = isTied
      ? `Scores with K = X W_Q (${shapeText(S)})`
      : `Scores with separate W_Q and W_K (${shapeText(S)})`;
    symmetry.output.textContent = symmetric ? 'symmetric' : 'not symmetric';
    symmetry.note.textContent = symmetric ? '(S = S\u1d40)' : '(S \u2260 S\u1d40)';
    asymmetry.output.textContent = formatFixed(gap, 3);
    itToCat.output.textContent = formatFixed(forward, 3);
    itToCat.note.textContent = `(row ${it}, column ${cat})`;
    catToIt.output.textContent = formatFixed(backward, 3);
    catToIt.note.textContent = `(row ${cat}, column ${it})`;
    scale.output.textContent = `${formatFixed(domain[0], 2)} \u2026 ${formatFixed(domain[1], 2)}`;
    scale.note.textContent = '(dark to yellow, the same for both settings)';
    const comparison = forward === backward ? 'exactly as high as' : forward > backward ? 'higher than' : 'lower than';
    verdict.textContent = `${isTied ? 'Tied' : 'Separate projections'}: ${quoteToken('it')} scores ${quoteToken('cat')} `
      + `${comparison} ${quoteToken('cat')} scores ${quoteToken('it')}.`;
  }

  state.subscribe(['lookup.tie'], render);
  render();
}
