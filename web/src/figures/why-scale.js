// Figure "Why divide by √d_k": part A puts the lesson's small examples side by side (two and
// four keys whose raw scores are one standard deviation √d_k wide, softmaxed with and without
// the division), part B runs the width experiment: random queries against m random keys at
// every width d_k = 2 … 1024, unscaled and scaled. All weights, entropies, gradient factors and
// averages come from the WebAssembly core; this module only arranges them.

import { createBars } from '../lib/charts/bars.js';
import { formatFixed, formatNats, formatSignificant, formatWeight } from '../lib/format/index.js';
import { NOT_FINITE, formatFromLog, formatMagnitude } from '../lib/format/magnitude.js';
import { createPicker } from '../lib/controls/picker.js';
import { createPlot } from '../lib/charts/plot.js';
import { createReadout } from '../lib/controls/readout.js';
import { createSlider } from '../lib/controls/slider.js';
import { yieldToBrowser } from '../lib/dom/yield.js';
import { figureBody, htmlElement } from '../lib/dom/elements.js';
import { createFigureProblem } from '../lib/dom/figure-problem.js';
import './why-scale.css'; // this figure's styles, bundled into styles.css

// Part A: widths whose square root is a whole number, so the raw scores stay readable.
const WIDTH_CHOICES = ['4', '16', '64', '256', '1024'];
const DEFAULT_WIDTH = '64';
// The scores after the division: one key ahead by one (or two) standard deviations.
const EXAMPLES = [
  { id: 'two', title: 'Two keys', scaled: [1, 0] },
  { id: 'four', title: 'Four keys', scaled: [2, 0, 0, 0] },
];

// Part B: the experiment's fixed settings. A fixed seed makes every number reproducible.
const MAX_LOG2 = 10; // widths 2^1 … 2^10
const SEED = 1;
const FULL_TRIALS = 2000;
// widthExperiment at m = 64 and 2000 trials took about 100 ms in Chromium on the build machine,
// too slow for a key press or a tick of a drag: the figure answers at once with a preview from
// fewer trials, and the full run follows in pieces. The preview's work grows with m·T, so T
// shrinks as m grows (200 up to 16 keys, 50 at 64), keeping it near 2 ms.
/** How long the keys slider must rest before the full run starts (ms). */
const QUIET_MS = 150;
const previewTrials = (keys) => Math.max(50, Math.min(200, Math.round((200 * 16) / keys)));
const KEYS = { min: 2, max: 64, default: 10 };
const MARKER = { min: 1, max: MAX_LOG2, default: 6 };

const SUBSCRIPT_K = 'd\u2096';
const SQRT = '\u221a';

/**
 * A probability printed with as many decimals as it takes to tell it from 0 or 1:
 * 0.731, 0.9997, 0.0003, 0.9999997, and 1.1×10⁻⁷ for the tiny ones.
 */
function formatProbability(p) {
  if (!Number.isFinite(p)) return NOT_FINITE;
  if (p > 0 && p < 1e-4) return formatMagnitude(p, { digits: 2 });
  const nearest = Math.min(p, 1 - p);
  const decimals = nearest >= 1e-3 ? 3 : Math.min(9, Math.ceil(-Math.log10(nearest)));
  return formatFixed(p, decimals);
}

/**
 * The printed value of a top weight that float64 rounds to 1 (within 10⁻⁹ of it): "1 − 4.8×10⁻²⁸",
 * with 1 − p from the core's ln p(1 − p) less ln p. Other bars keep their format (null).
 */
function nearOne(weights, top, logFactor) {
  const p = weights[top];
  if (!(1 - p < 1e-9)) return null;
  const texts = Array.from(weights, () => null);
  texts[top] = `1 \u2212 ${formatFromLog(logFactor - Math.log(p), { digits: 2 })}`;
  return texts;
}

function oneRow(values) {
  return { rows: 1, cols: values.length, data: Float64Array.from(values) };
}

/** The figure's settings, as the store, the links and the README's table know them. */
export const SETTINGS = {
  'why-scale.dk': { type: 'enum', values: WIDTH_CHOICES, default: DEFAULT_WIDTH },
  'why-scale.keys': { type: 'integer', min: KEYS.min, max: KEYS.max, default: KEYS.default },
  'why-scale.marker': { type: 'integer', min: MARKER.min, max: MARKER.max, default: MARKER.default },
};

export function mount(element, { lab, state, lifetime }) {
  state.defineAll(SETTINGS);

  const body = figureBody(element, 'figure-body why-scale');

  // ---- Part A: the small examples ---------------------------------------------------------
  const partA = htmlElement('div', { class: 'why-scale-part' }, null, body);
  htmlElement('h3', { class: 'why-scale-part-title' }, 'A. One wide score, with and without the division', partA);
  const controlsA = htmlElement('div', { class: 'figure-controls' }, null, partA);
  const widthPicker = createPicker(controlsA, {
    label: `key width ${SUBSCRIPT_K}`,
    hint: `The raw scores are ${SQRT}${SUBSCRIPT_K} times the scaled ones: one standard deviation of a ${SUBSCRIPT_K}-term dot product.`,
    options: WIDTH_CHOICES.map((value) => ({ value, text: value })),
    value: state.get('why-scale.dk'),
    onChange: (value) => state.set('why-scale.dk', value),
  });

  const examplesNode = htmlElement('div', { class: 'figure-panels figure-panels-even why-scale-examples' }, null, partA);
  const examples = EXAMPLES.map((example) => {
    const panel = htmlElement('div', { class: 'figure-panel' }, null, examplesNode);
    htmlElement('p', { class: 'panel-title' }, example.title, panel);
    const labels = example.scaled.map((_, i) => `key ${i + 1}`);
    const rawTitle = htmlElement('p', { class: 'why-scale-bars-title' }, null, panel);
    const rawBars = createBars(panel, {
      labels, label: `${example.title.toLowerCase()}, softmax of the raw scores`,
      format: formatProbability, formatExact: formatProbability, valueChars: 13,
    });
    const scaledTitle = htmlElement('p', { class: 'why-scale-bars-title' }, null, panel);
    const scaledBars = createBars(panel, {
      labels, label: `${example.title.toLowerCase()}, softmax after dividing by ${SQRT}${SUBSCRIPT_K}`,
      format: formatProbability, formatExact: formatProbability, valueChars: 13,
    });
    const readouts = htmlElement('div', { class: 'readouts' }, null, panel);
    const lower = example.title.toLowerCase();
    return {
      ...example,
      rawTitle, scaledTitle, rawBars, scaledBars,
      rawFactor: createReadout(readouts, `${lower}: p(1\u2212p) of the top weight, raw`),
      scaledFactor: createReadout(readouts, `${lower}: p(1\u2212p) of the top weight, scaled`),
      ratio: createReadout(readouts, `${lower}: gradient factor grows by`),
    };
  });
  const problemA = createFigureProblem(partA);

  function renderExamples() {
    const widthText = state.get('why-scale.dk');
    const width = Number(widthText);
    widthPicker.set(widthText);
    try {
      // The input scores: the scaled ones stretched back by √d_k. The core does the dividing
      // (softmax at temperature √d_k) and everything after it.
      const root = Math.sqrt(width);
      for (const example of examples) {
        const raw = example.scaled.map((s) => s * root);
        const rawWeights = lab.softmax(oneRow(raw));
        const scaledWeights = lab.softmax(oneRow(raw), { tau: root });
        const rawTop = lab.rowStats(rawWeights).argmax[0];
        const scaledTop = lab.rowStats(scaledWeights).argmax[0];
        // p(1−p) in log space, from the scores: at d_k = 1024 the raw top weight rounds to 1
        // in float64, where p(1−p) from the weights would be 0 and the ratio Infinity.
        const rawLogFactor = lab.logGradientFactor(oneRow(raw)).data[rawTop];
        const scaledLogFactor = lab.logGradientFactor(oneRow(raw), { tau: root }).data[scaledTop];

        example.rawTitle.textContent = `raw scores (${raw.map((v) => formatSignificant(v, 4)).join(', ')}) \u2192 softmax`;
        example.scaledTitle.textContent =
          `divided by ${SQRT}${width} = ${formatSignificant(root, 4)}: (${example.scaled.join(', ')}) \u2192 softmax`;
        example.rawBars.update(rawWeights.data, { highlight: rawTop, texts: nearOne(rawWeights.data, rawTop, rawLogFactor) });
        example.scaledBars.update(scaledWeights.data, { highlight: scaledTop });
        example.rawFactor.output.textContent = formatFromLog(rawLogFactor);
        example.scaledFactor.output.textContent = formatFromLog(scaledLogFactor);
        example.ratio.output.textContent = `${formatFromLog(scaledLogFactor - rawLogFactor)}\u00d7`;
        example.ratio.note.textContent = 'scaled \u00f7 raw, from the logarithms of both';
      }
      problemA.clear();
    } catch (error) {
      problemA.show(error, 'compute this part');
    }
  }

  // ---- Part B: the width experiment ---------------------------------------------------------
  const partB = htmlElement('div', { class: 'why-scale-part' }, null, body);
  htmlElement('h3', { class: 'why-scale-part-title' }, 'B. Random queries and keys at every width', partB);
  const controlsB = htmlElement('div', { class: 'figure-controls' }, null, partB);
  let dragging = false; // true while a slider's input event is being handled
  const keysSlider = createSlider(controlsB, {
    label: 'keys m',
    hint: 'How many random keys each random query is compared with.',
    min: KEYS.min, max: KEYS.max, step: 1,
    value: state.get('why-scale.keys'),
    format: (v) => String(v),
    onInput: (value) => {
      dragging = true;
      state.set('why-scale.keys', value);
      dragging = false;
    },
  });
  const markerSlider = createSlider(controlsB, {
    label: 'marker at d\u2096 = 2^k',
    hint: 'Moves the marker line; the four numbers below are read there.',
    min: MARKER.min, max: MARKER.max, step: 1,
    value: state.get('why-scale.marker'),
    format: (k) => `${2 ** k} (k = ${k})`,
    onInput: (value) => state.set('why-scale.marker', value),
  });
  const trialsNote = htmlElement('p', { class: 'why-scale-trials' }, null, partB);

  const plotsNode = htmlElement('div', { class: 'figure-panels figure-panels-even why-scale-plots' }, null, partB);
  const maxPanel = htmlElement('div', { class: 'figure-panel' }, null, plotsNode);
  htmlElement('p', { class: 'panel-title' }, 'Mean largest weight', maxPanel);
  const maxPlot = createPlot(maxPanel, {
    label: 'mean largest weight against key width, unscaled and scaled',
    xLabel: `key width ${SUBSCRIPT_K} (log scale)`, yLabel: 'mean largest weight',
    xScale: 'log2', xDomain: [2, 2 ** MAX_LOG2], yDomain: [0, 1],
  });
  const entropyPanel = htmlElement('div', { class: 'figure-panel' }, null, plotsNode);
  htmlElement('p', { class: 'panel-title' }, 'Mean entropy of a row', entropyPanel);
  const entropyPlot = createPlot(entropyPanel, {
    label: 'mean entropy in nats against key width, unscaled and scaled',
    xLabel: `key width ${SUBSCRIPT_K} (log scale)`, yLabel: 'mean entropy (nats)',
    xScale: 'log2', xDomain: [2, 2 ** MAX_LOG2],
  });

  const readoutsB = htmlElement('div', { class: 'readouts why-scale-readouts' }, null, partB);
  const readUnscaledMax = createReadout(readoutsB, 'unscaled mean largest weight');
  const readScaledMax = createReadout(readoutsB, 'scaled mean largest weight');
  const readUnscaledEntropy = createReadout(readoutsB, 'unscaled mean entropy');
  const readScaledEntropy = createReadout(readoutsB, 'scaled mean entropy');
  const readFlat = createReadout(readoutsB, 'every key equal');
  const problemB = createFigureProblem(partB);

  const fullResults = new Map(); // keys m → the experiment at FULL_TRIALS, computed once
  let shown = null; // { keys, trials, result, flat, computing }
  let previewFrame = 0;
  let fullRun = 0; // number of the latest full run: a newer run (or a preview) ends an older one
  let quietTimer = 0;
  // A figure that leaves the page ends its deferred run and its preview frame.
  lifetime?.add(() => {
    fullRun += 1;
    clearTimeout(quietTimer);
    cancelAnimationFrame(previewFrame);
  });

  /** Reference row: every one of m keys weighted equally (its max and entropy, from the core). */
  function flatRow(keys) {
    const stats = lab.rowStats(oneRow(new Array(keys).fill(1 / keys)));
    return { max: stats.max[0], entropy: stats.entropy[0] };
  }

  function show(keys, trials, result, computing = false) {
    shown = { keys, trials, result, flat: flatRow(keys), computing };
    drawExperiment();
    problemB.clear();
  }

  /** The cheap run (all widths in one call of a few milliseconds), shown while a drag moves. */
  function preview(computing = false) {
    const keys = state.get('why-scale.keys');
    try {
      const trials = previewTrials(keys);
      show(keys, trials, lab.widthExperiment({ keys, maxLog2: MAX_LOG2, trials, seed: SEED }), computing);
      return true;
    } catch (error) {
      problemB.show(error, 'run the experiment');
      return false;
    }
  }

  /**
   * The full run, one width per task: at 64 keys it is about 50 ms of work, which in one piece
   * would hold up the slider. Each width has its own random stream in the core, so the pieces
   * are exactly the full run. The preview stands in until the last piece is in.
   */
  async function computeFull({ after = 0 } = {}) {
    const keys = state.get('why-scale.keys');
    const run = ++fullRun;
    if (fullResults.has(keys)) {
      show(keys, FULL_TRIALS, fullResults.get(keys));
      return;
    }
    if (!preview(true)) return;
    // Key presses come in runs: the full run waits until they pause, so that its pieces never
    // hold up the next press (each press has its preview at once).
    if (after > 0) {
      await new Promise((resume) => { quietTimer = setTimeout(resume, after); });
      if (run !== fullRun) return;
    }
    const pieces = [];
    try {
      for (let k = 1; k <= MAX_LOG2; k += 1) {
        await yieldToBrowser();
        if (run !== fullRun) return; // the reader moved on; a newer run takes over
        pieces.push(lab.widthExperiment({ keys, minLog2: k, maxLog2: k, trials: FULL_TRIALS, seed: SEED }));
      }
    } catch (error) {
      problemB.show(error, 'run the experiment');
      return;
    }
    const joined = (pick) => Float64Array.from(pieces, (piece) => pick(piece)[0]);
    const result = {
      widths: joined((p) => p.widths),
      unscaled: { meanMax: joined((p) => p.unscaled.meanMax), meanEntropy: joined((p) => p.unscaled.meanEntropy) },
      scaled: { meanMax: joined((p) => p.scaled.meanMax), meanEntropy: joined((p) => p.scaled.meanEntropy) },
    };
    fullResults.set(keys, result);
    show(keys, FULL_TRIALS, result);
  }

  function commit() {
    cancelAnimationFrame(previewFrame);
    previewFrame = 0;
    if (shown && shown.keys === state.get('why-scale.keys') && shown.trials === FULL_TRIALS) return;
    if (shown?.computing && shown.keys === state.get('why-scale.keys')) return; // already on its way
    computeFull({ after: QUIET_MS });
  }

  function schedulePreview() {
    if (previewFrame) return;
    previewFrame = requestAnimationFrame(() => {
      previewFrame = 0;
      fullRun += 1; // a drag outdates any full run still in progress
      preview();
    });
  }

  function drawExperiment() {
    const { keys, trials, result, flat } = shown;
    const widths = Array.from(result.widths);
    const k = state.get('why-scale.marker');
    const index = widths.indexOf(2 ** k);
    const marker = { x: 2 ** k, label: `d\u2096 = ${2 ** k}` };
    const flatSeries = (value) => ({ name: `every key equal (${keys} keys)`, x: widths, y: widths.map(() => value) });

    maxPlot.update({
      series: [
        { name: 'unscaled: q\u00b7k', x: widths, y: Array.from(result.unscaled.meanMax) },
        { name: `scaled: q\u00b7k / ${SQRT}${SUBSCRIPT_K}`, x: widths, y: Array.from(result.scaled.meanMax) },
        flatSeries(flat.max),
      ],
      marker,
    });
    entropyPlot.update({
      series: [
        { name: 'unscaled: q\u00b7k', x: widths, y: Array.from(result.unscaled.meanEntropy) },
        { name: `scaled: q\u00b7k / ${SQRT}${SUBSCRIPT_K}`, x: widths, y: Array.from(result.scaled.meanEntropy) },
        flatSeries(flat.entropy),
      ],
      marker,
      // Room above the flat row's entropy, the ceiling of every curve, in steps of half a nat.
      yDomain: [0, Math.ceil((flat.entropy + 0.1) * 2) / 2],
    });

    const at = `at ${SUBSCRIPT_K} = ${2 ** k}`;
    readUnscaledMax.labelNode.textContent = `unscaled mean largest weight ${at}`;
    readScaledMax.labelNode.textContent = `scaled mean largest weight ${at}`;
    readUnscaledEntropy.labelNode.textContent = `unscaled mean entropy ${at}`;
    readScaledEntropy.labelNode.textContent = `scaled mean entropy ${at}`;
    readUnscaledMax.output.textContent = formatWeight(result.unscaled.meanMax[index]);
    readScaledMax.output.textContent = formatWeight(result.scaled.meanMax[index]);
    readUnscaledEntropy.output.textContent = formatNats(result.unscaled.meanEntropy[index]);
    readScaledEntropy.output.textContent = formatNats(result.scaled.meanEntropy[index]);
    readFlat.labelNode.textContent = `every one of ${keys} keys equal`;
    readFlat.output.textContent = `${formatWeight(flat.max)}, ${formatNats(flat.entropy)}`;
    readFlat.note.textContent = '(weight, entropy: the flattest a row can be)';

    const isPreview = trials < FULL_TRIALS;
    let note = `Averages over T = ${trials} random queries per width, each against ${keys} random keys, ` +
      `all entries drawn from N(0, 1) with seed ${SEED}.`;
    if (shown.computing) note = `Preview from T = ${trials} random queries per width; computing T = ${FULL_TRIALS}\u2026`;
    else if (isPreview) note = `Preview from T = ${trials} random queries per width while the slider moves; let go for T = ${FULL_TRIALS}.`;
    trialsNote.textContent = note;
    trialsNote.classList.toggle('why-scale-preview', isPreview);
  }

  // Release of a drag (or a key press) commits the full run.
  for (const type of ['change', 'pointerup', 'keyup']) keysSlider.input.addEventListener(type, commit);

  state.subscribe(['why-scale.dk'], renderExamples);
  state.subscribe(['why-scale.keys'], () => {
    keysSlider.set(state.get('why-scale.keys'));
    if (dragging) schedulePreview();
    else commit();
  });
  state.subscribe(['why-scale.marker'], () => {
    markerSlider.set(state.get('why-scale.marker'));
    if (shown) drawExperiment();
  });

  renderExamples();
  computeFull();
}
