// Figure "One layer, h heads": the toy layer split into h = 2^k heads. The full-width head
// (h = 1) sits on the left; on the right, one picked head is drawn as large as the full-width
// one, with its numbers and a colour legend, and every head of the split is a thumbnail
// button that picks it (slices.js). So a slice stays readable at h = 8 on a phone. Below them:
// a check that the full-width raw scores are the sums of the slices' raw scores and the
// parameter count of the layer for the current h, from the core's cost model (checks.js),
// and rows (A) and (B) of Table 3 of the paper, which are quoted data (paper.js).

import { formatWeight, quoteToken } from '../../lib/format/index.js';
import { createHeatmap } from '../../lib/charts/heatmap.js';
import { createSlider } from '../../lib/controls/slider.js';
import { figureBody, htmlElement, setText } from '../../lib/dom/elements.js';
import { registerMatrix } from '../../lib/export/registry.js';
import { createFigureProblem } from '../../lib/dom/figure-problem.js';
import { readToySentence } from '../../lib/format/tokens.js';
import { createLayerChecks, sumOf } from './checks.js';
import { drawPaperTable } from './paper.js';
import { createSlicesPanel } from './slices.js';
import './heads.css'; // this figure's styles, bundled into styles.css

const K_MAX = 4; // h = 1, 2, 4, 8, 16: every one divides the toy width 64
const K_DEFAULT = 1; // h = 2, the lesson's default
const H_MAX = 2 ** K_MAX;
// Splits up to this many heads take the same room (thumbnails and the sum's terms), so that
// stepping h through 2, 4 and 8 moves nothing below them; see slices.js and checks.js.
const STEADY_SPLIT = 8;

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

/**
 * The slider of h, and the links in the prose that set it ("show h = 4"), one step without
 * reloading. The links are the page's own: looked up only when the figure is mounted in the
 * page's document itself (not inside an element's shadow root, whose host page has links of its
 * own that are none of this figure's business), and listened to for the figure's lifetime.
 */
function createHeadsSlider(element, controls, { state, width, lifetime }) {
  const slider = createSlider(controls, {
    label: 'heads h = 2^k',
    hint: `k runs from 0 to ${K_MAX}. Each head reads ${width}/h of the ${width} columns of Q, K and V.`,
    min: 0, max: K_MAX, step: 1,
    format: (k) => String(2 ** k),
    value: state.get('heads.k'),
    onInput: (k) => state.set('heads.k', k),
  });
  const root = element.getRootNode();
  if (root !== element.ownerDocument) return slider;
  for (const link of root.querySelectorAll('a[data-heads-k]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      state.set('heads.k', Number(link.dataset.headsK));
      element.scrollIntoView({ block: 'start' });
      slider.input?.focus({ preventScroll: true });
    }, { signal: lifetime?.signal });
  }
  return slider;
}

/** The full-width head's panel: its map, with the row of "it" highlighted and a note on it. */
function drawFullHead(panels, { lab, sentence, full, IT }) {
  const { tokens, tokenNames } = sentence;
  const width = sentence.WQ.cols;
  const panel = htmlElement('div', { class: 'figure-panel skips-off-screen' }, null, panels);
  htmlElement('p', { class: 'panel-title' }, `Full-width head: h = 1, columns 0\u2013${width - 1}, d\u2096 = ${width}`, panel);
  const map = createHeatmap(panel, {
    rowLabels: tokens, colLabels: tokens, rowNames: tokenNames, colNames: tokenNames, legend: 'weight',
    rowTitle: 'query', colTitle: 'key', label: `full-width head, all ${width} columns: weights, queries by keys`,
  });
  const note = htmlElement('p', { class: 'heads-note' }, null, panel);
  map.update(full.weights);
  map.highlightRow(IT);
  const stats = lab.rowStats(full.weights);
  setText(note, `Row ${quoteToken(tokens[IT])}: most weight on ${tokenNames[stats.argmax[IT]]}, ${formatWeight(stats.max[IT])}.`);
}

export function mount(element, { lab, state, lifetime }) {
  const sentence = readToySentence(lab);
  const { tokens, X, WQ, WK, WV, WO } = sentence;
  const width = WQ.cols; // d_model of the toy, 64
  // The row of the sentence's last pronoun ("it", the one the toy projections were built
  // around), and the key its full-width row puts most weight on ("cat" in the lesson).
  const IT = sentence.focus;
  state.defineAll(SETTINGS);

  const body = figureBody(element);
  const slider = createHeadsSlider(element, htmlElement('div', { class: 'figure-controls' }, null, body), { state, width, lifetime });
  const full = lab.multiHead(X, WQ, WK, WV, WO, 1).heads[0];
  const panels = htmlElement('div', { class: 'figure-panels heads-panels' }, null, body);

  // The heat maps export the weights; the raw scores the sum check adds up, and the layer's
  // output, are offered too ({ result, summed } of the latest render, or null).
  let last = null;
  const exported = (pick, colLabels, colTitle) => () => (last
    ? { matrix: pick(last), rowLabels: tokens, colLabels, rowTitle: 'query', colTitle }
    : null);
  let unregisterSlices = [];
  const offerSlices = (h) => {
    unregisterSlices.forEach((unregister) => unregister());
    unregisterSlices = h === 1 ? [] : Array.from({ length: h }, (_, s) => registerMatrix(element,
      `raw scores Q K\u1d40 (head ${s} of ${h})`, exported((l) => l.result.heads[s].rawScores, tokens, 'key')));
  };

  drawFullHead(panels, { lab, sentence, full, IT });
  const CAT = lab.rowStats(full.weights).argmax[IT];
  const slices = createSlicesPanel(panels, {
    sentence, row: IT, steadySplit: STEADY_SPLIT, onPick: (s) => state.set('heads.head', s), onSplit: offerSlices,
  });
  const checks = createLayerChecks(body, { lab, sentence, full, pair: [IT, CAT], steadySplit: STEADY_SPLIT, largestSplit: H_MAX });
  drawPaperTable(body);
  const problem = createFigureProblem(body);

  registerMatrix(element, 'raw scores Q K\u1d40 (full-width head)', () => ({
    matrix: full.rawScores, rowLabels: tokens, colLabels: tokens, rowTitle: 'query', colTitle: 'key',
  }));
  registerMatrix(element, 'raw scores summed over the heads', exported((l) => l.summed, tokens, 'key'));
  registerMatrix(element, 'output of the layer (concat \u00b7 W\u1d3c)', exported((l) => l.result.output, Array.from(sentence.features), 'feature'));

  // The layer at each h, from the core, asked once: the sentence and its matrices are fixed for
  // this drawing (a new sentence draws the figure afresh), so a step back to an h shown before
  // draws its results without running the layer again (0.2 ms of a 4 <-> 8 step).
  const layers = new Map();
  const layerAt = (h) => {
    if (!layers.has(h)) {
      const result = lab.multiHead(X, WQ, WK, WV, WO, h);
      layers.set(h, { result, summed: sumOf(result.heads.map((head) => head.rawScores)), stats: new Map() });
    }
    return layers.get(h);
  };

  function render() {
    const k = state.get('heads.k');
    const h = 2 ** k;
    slider.set(k);
    try {
      const picked = Math.min(state.get('heads.head'), h - 1);
      const layer = layerAt(h);
      const { result, summed } = layer;
      // Each head's row statistics, from the core, kept with its layer.
      const statsOf = (weights) => {
        if (!layer.stats.has(weights)) layer.stats.set(weights, lab.rowStats(weights));
        return layer.stats.get(weights);
      };
      slices.show(h, picked, result, statsOf);
      checks.render(result, summed, h);
      last = { result, summed };
      problem.clear();
    } catch (error) {
      last = null;
      problem.show(error);
    }
  }

  state.subscribe(['heads.k', 'heads.head'], render);
  render();
}
