// Figure "Eight tokens, one knob": the attention weights of the toy sentence, one row per
// query token, with a query picker and a temperature τ that divides the scores on top of
// √d_k. Every value shown is recomputed by the WebAssembly core on each input.

import { createBars } from '../lib/charts/bars.js';
import { formatNats, formatWeight, quoteToken } from '../lib/format/index.js';
import { createHeatmap } from '../lib/charts/heatmap.js';
import { createPicker } from '../lib/controls/picker.js';
import { createSlider } from '../lib/controls/slider.js';
import { figureBody, htmlElement, setText } from '../lib/dom/elements.js';
import { isEvenRow, keysAtMax } from '../lib/format/row-focus.js';
import { createReadout } from '../lib/controls/readout.js';
import { createAttentionLines } from '../lib/charts/lines.js';
import { registerMatrix } from '../lib/export/registry.js';
import { createFigureProblem } from '../lib/dom/figure-problem.js';
import { TOY_SENTENCE_LENGTH, clampToken, keepTokenInSentence, readToySentence, tokenOptions } from '../lib/format/tokens.js';
import { createSentenceField } from '../lib/sentence/field.js';
import '../lib/sentence/sentence.css'; // the sentence field's styles, bundled into styles.css

const TAU_MIN = 0.01;
const TAU_MAX = 100;
const DEFAULT_QUERY = 7; // "it", the row the lesson reads first (a learner's sentence: clampToken)


/** The figure's settings, as the store, the links and the README's table know them. */
export const SETTINGS = {
  'temperature.query': { type: 'integer', min: 0, max: TOY_SENTENCE_LENGTH - 1, default: DEFAULT_QUERY },
  'temperature.tau': { type: 'number', min: TAU_MIN, max: TAU_MAX, default: 1 },
};

export function mount(element, { lab, state }) {
  const sentence = readToySentence(lab);
  const { tokens, n, tokenNames, X, WQ, WK, WV } = sentence;
  const keyWidth = WQ.cols; // one full-width head: d_k = d_model
  // The sentence's queries, keys and values, from the core once (on the first drawing, where a
  // failure is shown like any other): τ only rescales the scores, so a step of the slider asks
  // the core for the attention of these (13 µs under node) instead of the whole one-head layer
  // from X (49 µs), with the same numbers to the bit.
  let projections = null;
  // The four results of each step, written by the core into these arrays of the figure's own:
  // a fresh buffer for each result costs more in a browser than the call itself (in Chromium,
  // 39 µs for the call with new arrays, 5 µs into these). The Export menu reads the newest.
  const results = {
    rawScores: new Float64Array(n * n), scaledScores: new Float64Array(n * n),
    weights: new Float64Array(n * n), output: new Float64Array(n * WV.cols),
  };

  // Before the settings are defined: a link's token past this sentence is moved, with a notice.
  keepTokenInSentence(state, 'temperature.query', sentence);
  state.defineAll(SETTINGS);
  clampToken(state, 'temperature.query', sentence);

  const body = figureBody(element);
  createSentenceField(body, { state, sentence });

  const controls = htmlElement('div', { class: 'figure-controls' }, null, body);
  const picker = createPicker(controls, {
    label: 'query token',
    options: tokenOptions(tokens),
    value: state.get('temperature.query'),
    onChange: (value) => state.set('temperature.query', Number(value)),
  });
  const slider = createSlider(controls, {
    label: 'temperature \u03c4',
    hint: `Scores are divided by \u03c4\u00b7\u221ad\u2096 (here d\u2096 = ${keyWidth}). Below 1 sharpens, above 1 flattens.`,
    min: TAU_MIN, max: TAU_MAX, scale: 'log', steps: 200,
    value: state.get('temperature.tau'),
    onInput: (value) => state.set('temperature.tau', value),
  });

  const panels = htmlElement('div', { class: 'figure-panels' }, null, body);
  const mapPanel = htmlElement('div', { class: 'figure-panel' }, null, panels);
  htmlElement('p', { class: 'panel-title' }, 'Weights of every query (rows) over every key (columns)', mapPanel);
  const heatmap = createHeatmap(mapPanel, {
    rowLabels: tokens, colLabels: tokens, rowNames: tokenNames, colNames: tokenNames,
    rowTitle: 'query', colTitle: 'key', label: 'attention weights, queries by keys',
    onActivateCell: (row) => state.set('temperature.query', row),
  });

  const rowPanel = htmlElement('div', { class: 'figure-panel' }, null, panels);
  const rowTitle = htmlElement('p', { class: 'panel-title' }, null, rowPanel);
  // On a phone the bars and lines sit under the map, off screen while τ is dragged: they wait there.
  const bars = createBars(rowPanel, {
    labels: tokens, names: tokenNames, label: 'weights of the picked query over the keys', waitOffScreen: true,
  });
  const lines = createAttentionLines(rowPanel, {
    labels: tokens, label: 'lines from the picked query to every key, as wide as their weights',
  });
  const readouts = htmlElement('div', { class: 'readouts' }, null, rowPanel);
  const largest = createReadout(readouts, 'largest weight', { chars: 5 }); // "0.532"
  const argmax = createReadout(readouts, 'on key');
  const entropy = createReadout(readouts, 'entropy', { chars: 10 }); // "2.079 nats"; ln 33 < 10
  const problem = createFigureProblem(body);

  // The entropy of a perfectly flat row, ln n, as the core computes it: the scale for the readout.
  const flatRow = { rows: 1, cols: n, data: new Float64Array(n).fill(1 / n) };
  const flatEntropy = lab.rowStats(flatRow).entropy[0];

  // The matrices behind the picture, for the Export menu (the weights come with the heat map).
  let last = null;
  const exported = (key, colLabels, colTitle) => () => (last
    ? { matrix: last[key], rowLabels: tokens, colLabels, rowTitle: 'query', colTitle }
    : null);
  registerMatrix(element, 'scaled scores Q K\u1d40 / \u221ad\u2096', exported('scaledScores', tokens, 'key'));
  registerMatrix(element, 'output (weights \u00b7 V)', exported('output', Array.from(sentence.features), 'feature'));

  function render() {
    const query = state.get('temperature.query');
    const tau = state.get('temperature.tau');
    picker.set(query);
    slider.set(tau);
    try {
      projections ??= [WQ, WK, WV].map((W) => lab.matmul(X, W));
      const head = lab.attention(...projections, { tau, into: results });
      const { weights } = head;
      last = head;
      const stats = lab.rowStats(weights);
      const picked = Array.prototype.slice.call(weights.data, query * n, (query + 1) * n);
      const top = stats.argmax[query];

      heatmap.update(weights);
      heatmap.highlightRow(query);
      setText(rowTitle, `Weights of query ${quoteToken(tokens[query])} over the keys`);
      bars.update(picked, { highlight: top });
      lines.update(picked, query);
      setText(largest.output, formatWeight(stats.max[query]));
      // A tie is a tie: "“cat” (1) and “on” (3)", never one of them picked as the key.
      const tied = keysAtMax(weights, query, stats.max[query]);
      setText(argmax.output, isEvenRow(weights, query) ? 'every key equally' : tied.map((j) => tokenNames[j]).join(' and '));
      setText(entropy.output, formatNats(stats.entropy[query]));
      setText(entropy.note, `(a flat row has ${formatNats(flatEntropy)})`);
      problem.clear();
    } catch (error) {
      problem.show(error);
    }
  }

  state.subscribe(['temperature.query', 'temperature.tau'], render);
  render();
}
