// Figure "Reading an attention map": the four heads of the toy layer at h = 4, each drawn as
// its n×n weight matrix and named by the job the core's toy projections were built for.
// A query picker outlines the same row in all four maps and reads where each head puts that
// query's largest weight; every cell's exact weight shows on hover and on keyboard focus.

import { formatWeight } from '../lib/format/index.js';
import { createHeatmap } from '../lib/charts/heatmap.js';
import { createPicker } from '../lib/controls/picker.js';
import { figureBody, htmlElement } from '../lib/dom/elements.js';
import { registerMatrix } from '../lib/export/registry.js';
import { isEvenRow, keysAtMax } from '../lib/format/row-focus.js';
import { createFigureProblem } from '../lib/dom/figure-problem.js';
import { TOY_SENTENCE_LENGTH, clampToken, keepTokenInSentence, readToySentence, tokenOptions } from '../lib/format/tokens.js';
import './map.css'; // this figure's styles, bundled into styles.css

const HEADS = 4; // the split at which the core names each slice's job
const DEFAULT_QUERY = 7; // "it"



/** The figure's settings, as the store, the links and the README's table know them. */
export const SETTINGS = {
  'map.query': { type: 'integer', min: 0, max: TOY_SENTENCE_LENGTH - 1, default: DEFAULT_QUERY },
};

export function mount(element, { lab, state }) {
  const sentence = readToySentence(lab);
  const { tokens, n, tokenNames, jobs, features, X, WQ, WK, WV, WO } = sentence;
  const slice = WQ.cols / HEADS;

  // Before the settings are defined: a link's token past this sentence is moved, with a notice.
  keepTokenInSentence(state, 'map.query', sentence);
  state.defineAll(SETTINGS);
  clampToken(state, 'map.query', sentence);

  const body = figureBody(element);

  const controls = htmlElement('div', { class: 'figure-controls' }, null, body);
  const picker = createPicker(controls, {
    label: 'query row to outline',
    hint: 'The same row is outlined in all four maps. Point at, tap or tab to any cell for its exact weight.',
    options: tokenOptions(tokens),
    value: state.get('map.query'),
    onChange: (value) => state.set('map.query', Number(value)),
  });

  const grid = htmlElement('div', { class: 'figure-panels figure-panels-even map-grid' }, null, body);
  const heads = Array.from({ length: HEADS }, (_, s) => {
    const job = jobs[s];
    const panel = htmlElement('div', { class: 'map-head' }, null, grid);
    const title = htmlElement('p', { class: 'panel-title' }, null, panel);
    title.append(`head ${s} \u00b7 columns ${s * slice}\u2013${(s + 1) * slice - 1} \u00b7 `);
    htmlElement('span', { class: 'map-job' }, job, title);
    const heatmap = createHeatmap(panel, {
      rowLabels: tokens, colLabels: tokens, rowNames: tokenNames, colNames: tokenNames,
      rowTitle: 'query', colTitle: 'key', pairJoiner: ' \u2192 ',
      label: `head ${s} of ${HEADS}, built for \u201c${job}\u201d: weights, queries by keys`,
      onActivateCell: (row) => state.set('map.query', row),
    });
    const note = htmlElement('p', { class: 'map-note' }, null, panel);
    return { heatmap, note };
  });
  const problem = createFigureProblem(body);

  let result = null;
  try {
    result = lab.multiHead(X, WQ, WK, WV, WO, HEADS);
    result.heads.forEach((head, s) => heads[s].heatmap.update(head.weights));
  } catch (error) {
    problem.show(error);
  }

  // The heat maps export each head's weights; the scores behind them and the layer's output are offered too.
  const exported = (pick, colLabels, colTitle) => () => (result
    ? { matrix: pick(result), rowLabels: tokens, colLabels, rowTitle: 'query', colTitle }
    : null);
  jobs.slice(0, HEADS).forEach((job, s) => registerMatrix(element, `scaled scores (head ${s} of ${HEADS}, ${job})`,
    exported((r) => r.heads[s].scaledScores, tokens, 'key')));
  registerMatrix(element, `output of the layer (${HEADS} heads, concat \u00b7 W\u1d3c)`, exported((r) => r.output, features, 'feature'));

  function render() {
    const query = state.get('map.query');
    picker.set(query);
    if (!result) return;
    result.heads.forEach((head, s) => {
      const stats = lab.rowStats(head.weights);
      heads[s].heatmap.highlightRow(query);
      heads[s].note.textContent = isEvenRow(head.weights, query)
        ? `Row ${tokenNames[query]}: spread evenly, ${formatWeight(stats.max[query])} on every key.`
        : `Row ${tokenNames[query]}: largest weight ${formatWeight(stats.max[query])} on `
          + `${keysAtMax(head.weights, query, stats.max[query]).map((j) => tokenNames[j]).join(' and ')}.`;
    });
  }

  state.subscribe(['map.query'], render);
  render();
}
