// Figure "One layer, h heads": the toy layer split into h = 2^k heads. The full-width head
// (h = 1) sits on the left; on the right, one picked head is drawn as large as the full-width
// one, with its numbers and a colour legend, and every head of the split is a thumbnail
// button that picks it. So a slice stays readable at h = 8 on a phone. Below them: a check that the full-width raw scores are the sums of the slices'
// raw scores, the parameter count of the layer for the current h (from the core's cost
// model), and rows (A) and (B) of Table 3 of the paper, which are quoted data.

import { formatCount, formatFixed, formatWeight, quoteToken } from '../lib/format/index.js';
import { createHeatmap } from '../lib/charts/heatmap.js';
import { createPlot } from '../lib/charts/plot.js';
import { createSlider } from '../lib/controls/slider.js';
import { figureBody, htmlElement } from '../lib/dom/elements.js';
import { interpolateViridis } from 'd3-scale-chromatic';
import { createReadout } from '../lib/controls/readout.js';
import { registerMatrix } from '../lib/export/registry.js';
import { isEvenRow, keysAtMax } from '../lib/format/row-focus.js';
import { createFigureProblem } from '../lib/dom/figure-problem.js';
import { readToySentence } from '../lib/format/tokens.js';
import './heads.css'; // this figure's styles, bundled into styles.css

const K_MAX = 3; // h = 1, 2, 4, 8: every one divides the toy width 16
const K_DEFAULT = 1; // h = 2, the lesson's default
const H_MAX = 2 ** K_MAX;
const JOBS_AT = 4; // the core names what each slice does at h = 4
const PAPER_WIDTH = 512; // d_model of the paper's base model, for the parameter count
const IT = 7; // row of "it", the pronoun the toy projections were built around
const CAT = 1; // column of "cat", the noun "it" refers to

// Quoted data, not computed: Table 3 of Vaswani et al., "Attention Is All You Need" (NeurIPS
// 2017), rows (A) and (B). BLEU of the base model variants on the English→German development
// set newstest2013. Row (A) changes the number of heads h (with d_k = d_v = 512/h); row (B)
// shrinks the key width d_k with h = 8 kept. The base model (h = 8, d_k = 64) scores 25.8.
const PAPER_TABLE_3 = {
  citation: 'Vaswani et al., Attention Is All You Need (2017), Table 3, rows (A) and (B); dev BLEU on newstest2013',
  base: { heads: 8, keyWidth: 64, bleu: 25.8 },
  rowA: [
    { heads: 1, keyWidth: 512, bleu: 24.9 },
    { heads: 4, keyWidth: 128, bleu: 25.5 },
    { heads: 8, keyWidth: 64, bleu: 25.8 }, // the base model
    { heads: 16, keyWidth: 32, bleu: 25.8 },
    { heads: 32, keyWidth: 16, bleu: 25.4 },
  ],
  rowB: [
    { heads: 8, keyWidth: 16, bleu: 25.1 },
    { heads: 8, keyWidth: 32, bleu: 25.4 },
    { heads: 8, keyWidth: 64, bleu: 25.8 }, // the base model
  ],
};
const BLEU_AXIS = [24.5, 26];





/** Entry-wise sum of several matrices of the same shape. */
function sumOf(matrices) {
  const [first] = matrices;
  const data = new Float64Array(first.data.length);
  for (const m of matrices) for (let i = 0; i < data.length; i += 1) data[i] += m.data[i];
  return { rows: first.rows, cols: first.cols, data };
}

/** A signed number inside a sum: "+ 36.000" or "− 8.000" (the first term keeps its own sign). */
function term(value, first) {
  const text = formatFixed(Math.abs(value), 3);
  if (first) return value < 0 ? `\u2212${text}` : text;
  return value < 0 ? `\u2212 ${text}` : `+ ${text}`;
}

/** The figure's settings, as the store, the links and the README's table know them. */
export const SETTINGS = {
  'heads.k': { type: 'integer', min: 0, max: K_MAX, default: K_DEFAULT },
  // The head drawn large on the right (0-based), one of the 2^k heads (resolveSettings).
  'heads.head': { type: 'integer', min: 0, max: H_MAX - 1, default: 0 },
};

/** The settings' fit (lib/state/store.js, constrain): the picked head is one of the 2^k heads of the split. */
export function resolveSettings(values, { name = (key) => key } = {}) {
  const k = values['heads.k'];
  const head = values['heads.head'];
  const last = 2 ** k - 1;
  if (head <= last) return [];
  return [{
    key: 'heads.head', value: last,
    reason: `${name('heads.head')} = ${head} is past the last head at ${name('heads.k')} = ${k} (h = ${last + 1}, heads counted from 0)`,
  }];
}

export function mount(element, { lab, state }) {
  const sentence = readToySentence(lab);
  const { tokens, n, tokenNames, jobs, X, WQ, WK, WV, WO } = sentence;
  const width = WQ.cols; // d_model of the toy, 16

  state.defineAll(SETTINGS);

  const body = figureBody(element);

  const controls = htmlElement('div', { class: 'figure-controls' }, null, body);
  const slider = createSlider(controls, {
    label: 'heads h = 2^k',
    hint: `k runs from 0 to ${K_MAX}. Each head reads ${width}/h of the ${width} columns of Q, K and V.`,
    min: 0, max: K_MAX, step: 1,
    format: (k) => String(2 ** k),
    value: state.get('heads.k'),
    onInput: (k) => state.set('heads.k', k),
  });

  const panels = htmlElement('div', { class: 'figure-panels heads-panels' }, null, body);
  const fullPanel = htmlElement('div', { class: 'figure-panel' }, null, panels);
  htmlElement('p', { class: 'panel-title' }, `Full-width head: h = 1, columns 0\u2013${width - 1}, d\u2096 = ${width}`, fullPanel);
  const fullMap = createHeatmap(fullPanel, {
    rowLabels: tokens, colLabels: tokens, rowNames: tokenNames, colNames: tokenNames, legend: 'weight',
    rowTitle: 'query', colTitle: 'key', label: `full-width head, all ${width} columns: weights, queries by keys`,
  });
  const fullNote = htmlElement('p', { class: 'heads-note' }, null, fullPanel);

  const slicePanel = htmlElement('div', { class: 'figure-panel' }, null, panels);
  const sliceTitle = htmlElement('p', { class: 'panel-title' }, null, slicePanel);
  const thumbnails = htmlElement('div', { class: 'heads-thumbnails', role: 'group', 'aria-label': 'pick a head to draw large' }, null, slicePanel);
  const focusTitle = htmlElement('p', { class: 'heads-slice-title heads-focus-title' }, null, slicePanel);
  const sliceGrid = htmlElement('div', { class: 'heads-focus' }, null, slicePanel);

  const checks = htmlElement('div', { class: 'readouts heads-checks' }, null, body);
  const sumCheck = createReadout(checks, 'full-width raw scores minus the sum of the slices\u2019, largest difference');
  const example = createReadout(checks, `${quoteToken(tokens[IT])} \u2192 ${quoteToken(tokens[CAT])}, raw score`);

  const countPanel = htmlElement('div', { class: 'heads-count' }, null, body);
  htmlElement('p', { class: 'panel-title' }, 'Parameters of the layer (no biases)', countPanel);
  const toyCount = createReadout(countPanel, `toy layer, d = ${width}`);
  const paperCount = createReadout(countPanel, `paper, d_model = ${PAPER_WIDTH}`);

  const paperPanel = htmlElement('div', { class: 'heads-paper' }, null, body);
  htmlElement('p', { class: 'panel-title' }, 'What the paper measured: Table 3, rows (A) and (B), dev BLEU (quoted, not computed)', paperPanel);
  const plots = htmlElement('div', { class: 'figure-panels figure-panels-even heads-plots' }, null, paperPanel);
  const describeRow = (rows, key) => rows.map((r) => `${key === 'heads' ? `h = ${r.heads}` : `d\u2096 = ${r.keyWidth}`}: ${r.bleu.toFixed(1)}`).join(', ');
  const plotA = createPlot(plots, {
    label: `Table 3 row (A), BLEU against the number of heads: ${describeRow(PAPER_TABLE_3.rowA, 'heads')}`,
    xLabel: 'heads h (d\u2096 = 512/h)', yLabel: 'dev BLEU', xScale: 'log2', yDomain: BLEU_AXIS,
    xDomain: [0.7, 45], // room beside the first and last measured point for their labels
    formatY: (v) => v.toFixed(1),
  });
  const plotB = createPlot(plots, {
    label: `Table 3 row (B), BLEU against the key width with 8 heads: ${describeRow(PAPER_TABLE_3.rowB, 'keyWidth')}`,
    xLabel: 'key width d\u2096 (h = 8)', yLabel: 'dev BLEU', xScale: 'log2', yDomain: BLEU_AXIS,
    xDomain: [12, 85],
    formatY: (v) => v.toFixed(1),
  });
  // Only the measured points, each with its value: no line between them, since the paper
  // measured nothing in between (h = 2, the toy's default, was never run), and no marker for
  // the toy's h, which is not a result on the paper's axis.
  plotA.update({
    series: [{
      name: 'row (A): change h, measured', line: false,
      x: PAPER_TABLE_3.rowA.map((r) => r.heads), y: PAPER_TABLE_3.rowA.map((r) => r.bleu), labels: PAPER_TABLE_3.rowA.map((r) => r.bleu.toFixed(1)),
    }],
  });
  plotB.update({
    series: [{
      name: 'row (B): shrink d\u2096, measured', line: false,
      x: PAPER_TABLE_3.rowB.map((r) => r.keyWidth), y: PAPER_TABLE_3.rowB.map((r) => r.bleu), labels: PAPER_TABLE_3.rowB.map((r) => r.bleu.toFixed(1)),
    }],
  });
  const bestA = Math.max(...PAPER_TABLE_3.rowA.map((r) => r.bleu));
  const singleA = PAPER_TABLE_3.rowA.find((r) => r.heads === 1).bleu;
  const mostA = PAPER_TABLE_3.rowA[PAPER_TABLE_3.rowA.length - 1];
  const narrowB = PAPER_TABLE_3.rowB[0];
  htmlElement('p', { class: 'heads-hedge' },
    `Read with the paper's own caution: one head was ${(bestA - singleA).toFixed(1)} BLEU behind the best setting, `
    + `but ${mostA.heads} heads slipped back to ${mostA.bleu.toFixed(1)}, so more heads is not monotonically better. `
    + `Keeping h = ${narrowB.heads} and narrowing the keys to d\u2096 = ${narrowB.keyWidth} cost ${(PAPER_TABLE_3.base.bleu - narrowB.bleu).toFixed(1)} BLEU: narrow keys hurt. `
    + 'All of them come from one translation task (English\u2192German) and one development set.', paperPanel);
  htmlElement('p', { class: 'heads-source' }, `Source: ${PAPER_TABLE_3.citation}. The base model (h = ${PAPER_TABLE_3.base.heads}, d\u2096 = ${PAPER_TABLE_3.base.keyWidth}) scores ${PAPER_TABLE_3.base.bleu.toFixed(1)}.`, paperPanel);

  const problem = createFigureProblem(body);

  const full = lab.multiHead(X, WQ, WK, WV, WO, 1).heads[0];
  fullMap.update(full.weights);
  fullMap.highlightRow(IT);
  const fullStats = lab.rowStats(full.weights);
  fullNote.textContent = `Row ${quoteToken(tokens[IT])}: most weight on ${tokenNames[fullStats.argmax[IT]]}, ${formatWeight(fullStats.max[IT])}.`;

  let shownK = null;
  let thumbButtons = []; // { button, context, drawn } per head of the split shown
  let focusedHead = null; // which head of which split the large map shows, as "s/h"
  // Built once and kept: the thumbnails of each split (h → their buttons), and the one large map,
  // relabelled for each head. A step of the slider then builds nothing: at h = 8, eight new
  // thumbnails and a new map cost more than everything else the step does.
  const thumbSets = new Map();
  const focusMap = createHeatmap(sliceGrid, {
    rowLabels: tokens, colLabels: tokens, rowNames: tokenNames, colNames: tokenNames, legend: 'weight',
    rowTitle: 'query', colTitle: 'key', label: 'one head: weights, queries by keys',
  });
  const focusNote = htmlElement('p', { class: 'heads-note' }, null, sliceGrid);
  const singleNote = htmlElement('p', { class: 'heads-note' },
    'With h = 1 there is nothing to split: the only head is the full-width head on the left.', sliceGrid);

  // The heat maps export the weights; the raw scores the sum check adds up, and the layer's
  // output, are offered too ({ result, summed } of the latest render, or null).
  let last = null;
  const exported = (pick, colLabels, colTitle) => () => (last
    ? { matrix: pick(last), rowLabels: tokens, colLabels, rowTitle: 'query', colTitle }
    : null);
  registerMatrix(element, 'raw scores Q K\u1d40 (full-width head)', () => ({
    matrix: full.rawScores, rowLabels: tokens, colLabels: tokens, rowTitle: 'query', colTitle: 'key',
  }));
  registerMatrix(element, 'raw scores summed over the heads', exported((l) => l.summed, tokens, 'key'));
  registerMatrix(element, 'output of the layer (concat \u00b7 W\u1d3c)', exported((l) => l.result.output, Array.from(sentence.features), 'feature'));
  let unregisterSlices = [];

  const columnsOf = (s, h) => `columns ${s * (width / h)}\u2013${(s + 1) * (width / h) - 1}`;
  const jobOf = (s, h) => (h === JOBS_AT ? jobs[s] : null);

  /** One button per head of an h-way split, each with a miniature of its map. */
  function makeThumbnails(h) {
    const set = [];
    for (let s = 0; s < h && h > 1; s += 1) {
      const job = jobOf(s, h);
      const button = htmlElement('button', {
        type: 'button', class: 'heads-thumbnail', 'aria-pressed': 'false',
        'aria-label': `head ${s}, ${columnsOf(s, h)}${job ? `, ${job}` : ''}`,
      });
      // A miniature of the head's map: colours only, for finding the head worth a closer look.
      // One pixel per cell on a canvas, scaled up without smoothing: eight of them cost a few
      // draw calls, where n² SVG rects each weighed on style, layout and paint at every step.
      const mini = htmlElement('canvas', { width: n, height: n, class: 'heads-thumbnail-map', 'aria-hidden': 'true' }, null, button);
      htmlElement('span', { class: 'heads-thumbnail-name', 'aria-hidden': 'true' }, `head ${s}`, button);
      button.addEventListener('click', () => state.set('heads.head', s));
      set.push({ button, context: mini.getContext('2d'), drawn: false });
    }
    return set;
  }

  /** Shows the thumbnails of an h-way split (made the first time) and offers its heads for export. */
  function showSlices(h) {
    if (!thumbSets.has(h)) thumbSets.set(h, makeThumbnails(h));
    thumbButtons = thumbSets.get(h);
    thumbnails.replaceChildren(...thumbButtons.map((thumb) => thumb.button));
    unregisterSlices.forEach((unregister) => unregister());
    unregisterSlices = h === 1 ? [] : Array.from({ length: h }, (_, s) => registerMatrix(element,
      `raw scores Q K\u1d40 (head ${s} of ${h})`, exported((l) => l.result.heads[s].rawScores, tokens, 'key')));
    thumbnails.hidden = h === 1;
  }

  /** Points the large map at head `s` of `h`: its title, its name, and the note on "it". */
  function showFocus(s, h) {
    focusTitle.replaceChildren();
    focusTitle.hidden = h === 1;
    // Hidden rather than taken out, so that the map keeps its fitted layout for the next split.
    focusMap.element.hidden = h === 1;
    focusNote.hidden = h === 1;
    singleNote.hidden = h !== 1;
    if (h === 1) return;
    const job = jobOf(s, h);
    htmlElement('span', { class: 'heads-slice-name' }, `head ${s} of ${h}`, focusTitle);
    focusTitle.append(' \u00b7 ');
    htmlElement('span', { class: 'heads-slice-columns' }, columnsOf(s, h), focusTitle);
    if (job) htmlElement('span', { class: 'heads-slice-job' }, job, focusTitle);
    focusMap.setLabel(`head ${s} of ${h}, ${columnsOf(s, h)}${job ? `, ${job}` : ''}: weights, queries by keys`);
  }

  function render() {
    const k = state.get('heads.k');
    const h = 2 ** k;
    slider.set(k);
    try {
      if (k !== shownK) {
        showSlices(h);
        shownK = k;
      }
      const picked = Math.min(state.get('heads.head'), h - 1);
      if (`${picked}/${h}` !== focusedHead) {
        showFocus(picked, h);
        focusedHead = `${picked}/${h}`;
      }
      const result = lab.multiHead(X, WQ, WK, WV, WO, h);
      sliceTitle.textContent = h === 1
        ? 'The slices: h = 1'
        : `The ${h} slices: h = ${h}, each ${width / h} columns wide, d\u2096 = ${width / h}. Pick one to draw it large.`;
      result.heads.forEach((head, s) => {
        const thumb = thumbButtons[s];
        if (!thumb) return;
        thumb.button.setAttribute('aria-pressed', String(s === picked));
        // A split's heads are fixed (the toy's weights do not change): each thumbnail is drawn once.
        if (!thumb.drawn && thumb.context) {
          head.weights.data.forEach((weight, index) => {
            thumb.context.fillStyle = interpolateViridis(Math.min(1, Math.max(0, weight)));
            thumb.context.fillRect(index % n, Math.floor(index / n), 1, 1);
          });
          thumb.drawn = true;
        }
      });
      if (h > 1) {
        const head = result.heads[picked];
        focusMap.update(head.weights);
        focusMap.highlightRow(IT);
        const stats = lab.rowStats(head.weights);
        focusNote.textContent = isEvenRow(head.weights, IT)
          ? `${quoteToken(tokens[IT])}: ${formatWeight(stats.max[IT])} on every key`
          : `${quoteToken(tokens[IT])}: most on ${keysAtMax(head.weights, IT, stats.max[IT]).map((j) => quoteToken(tokens[j])).join(' and ')}, ${formatWeight(stats.max[IT])}`;
      }

      // The full-width dot product over 16 columns is the sum of the h dot products over the slices.
      const summed = sumOf(result.heads.map((head) => head.rawScores));
      sumCheck.output.textContent = formatFixed(lab.maxAbsDifference(summed, full.rawScores), 3);
      sumCheck.note.textContent = `(over all ${n * n} query\u2013key pairs, h = ${h})`;
      const at = IT * n + CAT;
      const parts = result.heads.map((head, s) => term(head.rawScores.data[at], s === 0));
      example.output.textContent = `${parts.join(' ')} = ${formatFixed(summed.data[at], 3)}`;
      example.note.textContent = `(full-width head: ${formatFixed(full.rawScores.data[at], 3)})`;

      // Parameters: the core's count of the whole layer, and how it splits into matrices.
      for (const [readout, d] of [[toyCount, width], [paperCount, PAPER_WIDTH]]) {
        const { parameters, projectionParameters, outputParameters } = lab.cost({ n, dModel: d, heads: h });
        readout.output.textContent = formatCount(parameters);
        readout.note.textContent = `= ${h} head${h === 1 ? '' : 's'} \u00d7 3 \u00d7 (${d} \u00d7 ${d / h}) + W\u1d3c ${d} \u00d7 ${d} = ${formatCount(projectionParameters)} + ${formatCount(outputParameters)}`;
      }

      last = { result, summed };
      problem.clear();
    } catch (error) {
      last = null;
      problem.show(error);
    }
  }

  state.subscribe(['heads.k', 'heads.head'], render);

  // Links in the prose that set this figure ("show h = 4"): one step, without reloading.
  for (const link of element.ownerDocument.querySelectorAll('a[data-heads-k]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      state.set('heads.k', Number(link.dataset.headsK));
      element.scrollIntoView({ block: 'start' });
      slider.input?.focus({ preventScroll: true });
    });
  }
  render();
}
