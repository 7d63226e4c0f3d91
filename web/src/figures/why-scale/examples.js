// Part A of "Why divide by √d_k": the lesson's small examples side by side, two and four keys
// whose raw scores are one standard deviation √d_k wide, softmaxed with and without the
// division, with the gradient factor p(1 − p) of the top weight in both. The weights and
// factors come from the WebAssembly core.

import { createBars } from '../../lib/charts/bars.js';
import { formatFixed, formatSignificant } from '../../lib/format/index.js';
import { NOT_FINITE, formatFromLog, formatMagnitude } from '../../lib/format/magnitude.js';
import { createPicker } from '../../lib/controls/picker.js';
import { createReadout } from '../../lib/controls/readout.js';
import { htmlElement, setText } from '../../lib/dom/elements.js';
import { createFigureProblem } from '../../lib/dom/figure-problem.js';
import { SQRT, SUBSCRIPT_K, oneRow } from './shared.js';

// Widths whose square root is a whole number, so the raw scores stay readable.
export const WIDTH_CHOICES = ['4', '16', '64', '256', '1024'];
export const DEFAULT_WIDTH = '64';
// The scores after the division: one key ahead by one (or two) standard deviations.
const EXAMPLES = [
  { id: 'two', title: 'Two keys', scaled: [1, 0] },
  { id: 'four', title: 'Four keys', scaled: [2, 0, 0, 0] },
];

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

/** One example's panel: two bar charts (raw, scaled) and three readouts. */
function examplePanel(parent, example) {
  const panel = htmlElement('div', { class: 'figure-panel' }, null, parent);
  htmlElement('p', { class: 'panel-title' }, example.title, panel);
  const labels = example.scaled.map((_, i) => `key ${i + 1}`);
  const lower = example.title.toLowerCase();
  const bars = (label) => createBars(panel, {
    labels, label: `${lower}, ${label}`, format: formatProbability, formatExact: formatProbability, valueChars: 13,
  });
  const rawTitle = htmlElement('p', { class: 'why-scale-bars-title' }, null, panel);
  const rawBars = bars('softmax of the raw scores');
  const scaledTitle = htmlElement('p', { class: 'why-scale-bars-title' }, null, panel);
  const scaledBars = bars(`softmax after dividing by ${SQRT}${SUBSCRIPT_K}`);
  const readouts = htmlElement('div', { class: 'readouts' }, null, panel);
  return {
    ...example,
    rawTitle, scaledTitle, rawBars, scaledBars,
    rawFactor: createReadout(readouts, `${lower}: p(1\u2212p) of the top weight, raw`),
    scaledFactor: createReadout(readouts, `${lower}: p(1\u2212p) of the top weight, scaled`),
    ratio: createReadout(readouts, `${lower}: gradient factor grows by`),
  };
}

/** Computes and shows one example at key width `width`. */
function drawExample(lab, example, width) {
  // The input scores: the scaled ones stretched back by √d_k. The core does the dividing
  // (softmax at temperature √d_k) and everything after it.
  const root = Math.sqrt(width);
  const raw = example.scaled.map((s) => s * root);
  const rawWeights = lab.softmax(oneRow(raw));
  const scaledWeights = lab.softmax(oneRow(raw), { tau: root });
  const rawTop = lab.rowStats(rawWeights).argmax[0];
  const scaledTop = lab.rowStats(scaledWeights).argmax[0];
  // p(1−p) in log space, from the scores: at d_k = 1024 the raw top weight rounds to 1
  // in float64, where p(1−p) from the weights would be 0 and the ratio Infinity.
  const rawLogFactor = lab.logGradientFactor(oneRow(raw)).data[rawTop];
  const scaledLogFactor = lab.logGradientFactor(oneRow(raw), { tau: root }).data[scaledTop];

  setText(example.rawTitle, `raw scores (${raw.map((v) => formatSignificant(v, 4)).join(', ')}) \u2192 softmax`);
  example.scaledTitle.textContent =
    `divided by ${SQRT}${width} = ${formatSignificant(root, 4)}: (${example.scaled.join(', ')}) \u2192 softmax`;
  example.rawBars.update(rawWeights.data, { highlight: rawTop, texts: nearOne(rawWeights.data, rawTop, rawLogFactor) });
  example.scaledBars.update(scaledWeights.data, { highlight: scaledTop });
  setText(example.rawFactor.output, formatFromLog(rawLogFactor));
  setText(example.scaledFactor.output, formatFromLog(scaledLogFactor));
  setText(example.ratio.output, `${formatFromLog(scaledLogFactor - rawLogFactor)}\u00d7`);
  setText(example.ratio.note, 'scaled \u00f7 raw, from the logarithms of both');
}

/** Part A in `body`, following the setting `key` (the key width); returns { render }. */
export function createExamples(body, { lab, state, key }) {
  const part = htmlElement('div', { class: 'why-scale-part' }, null, body);
  htmlElement('h3', { class: 'why-scale-part-title' }, 'A. One wide score, with and without the division', part);
  const controls = htmlElement('div', { class: 'figure-controls' }, null, part);
  const widthPicker = createPicker(controls, {
    label: `key width ${SUBSCRIPT_K}`,
    hint: `The raw scores are ${SQRT}${SUBSCRIPT_K} times the scaled ones: one standard deviation of a ${SUBSCRIPT_K}-term dot product.`,
    options: WIDTH_CHOICES.map((value) => ({ value, text: value })),
    value: state.get(key),
    onChange: (value) => state.set(key, value),
  });
  const panels = htmlElement('div', { class: 'figure-panels figure-panels-even why-scale-examples' }, null, part);
  const examples = EXAMPLES.map((example) => examplePanel(panels, example));
  const problem = createFigureProblem(part);

  function render() {
    const widthText = state.get(key);
    widthPicker.set(widthText);
    try {
      for (const example of examples) drawExample(lab, example, Number(widthText));
      problem.clear();
    } catch (error) {
      problem.show(error, 'compute this part');
    }
  }
  return { render };
}
