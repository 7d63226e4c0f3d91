// The numbers under the heads figure's maps: a check that the full-width raw scores are the
// sums of the slices' raw scores (largest difference over every pair, and one pair written out
// as a sum), and the parameter count of the layer for the current h, from the core's cost
// model, for the toy and for the paper's width.

import { createReadout } from '../../lib/controls/readout.js';
import { htmlElement, setHidden, setText } from '../../lib/dom/elements.js';
import { formatCount, formatFixed, quoteToken } from '../../lib/format/index.js';

const PAPER_WIDTH = 512; // d_model of the paper's base model, for the parameter count

/** Entry-wise sum of several matrices of the same shape. */
export function sumOf(matrices) {
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

/**
 * @param {HTMLElement} body
 * @param {object} options  lab, sentence, full (the full-width head), pair: [row, col] (the
 *   query–key pair written out, "it" → "cat"), steadySplit (a sum of fewer terms keeps the room
 *   of this many, heads.css), largestSplit (the most terms a sum can have)
 * @returns {{ render(result: object, summed: object, h: number): void }}
 */
export function createLayerChecks(body, { lab, sentence, full, pair: [row, col], steadySplit, largestSplit }) {
  const { tokens, n } = sentence;
  const width = sentence.WQ.cols;
  const checks = htmlElement('div', { class: 'readouts heads-checks skips-off-screen' }, null, body);
  const sumCheck = createReadout(checks, 'full-width raw scores minus the sum of the slices\u2019, largest difference');
  const example = createReadout(checks, `${quoteToken(tokens[row])} \u2192 ${quoteToken(tokens[col])}, raw score`);
  example.line.classList.add('heads-sum');
  // The sum as one box per term and one for the total, made once: a step of h rewrites their
  // text and moves the total after the last term; the empty places after it, up to 8 terms'
  // worth, keep the room of a longer sum, so nothing below moves (heads.css).
  const termsBox = htmlElement('span', { class: 'heads-sum-terms' }, null, example.output);
  const terms = Array.from({ length: largestSplit }, () => {
    termsBox.append(' '); // read aloud and copied as "1.0 + 2.0", not "1.0+ 2.0"
    return htmlElement('span', { class: 'heads-sum-term' }, null, termsBox);
  });
  const total = htmlElement('span', { class: 'heads-sum-term heads-sum-total' }, null, termsBox);
  let termsShown = null;

  const countPanel = htmlElement('div', { class: 'heads-count skips-off-screen' }, null, body);
  htmlElement('p', { class: 'panel-title' }, 'Parameters of the layer (no biases)', countPanel);
  const toyCount = createReadout(countPanel, `toy layer, d = ${width}`);
  const paperCount = createReadout(countPanel, `paper, d_model = ${PAPER_WIDTH}`);

  // The core's cost model depends only on the width and h here: asked once per pair.
  const costs = new Map();
  const costOf = (d, h) => {
    const key = `${d}/${h}`;
    if (!costs.has(key)) costs.set(key, lab.cost({ n, dModel: d, heads: h }));
    return costs.get(key);
  };

  const differences = new Map(); // summed (one per h) → its largest difference, from the core

  return {
    render(result, summed, h) {
      // The full-width dot product over all 64 columns is the sum of the h dot products over the slices.
      if (!differences.has(summed)) differences.set(summed, lab.maxAbsDifference(summed, full.rawScores));
      setText(sumCheck.output, formatFixed(differences.get(summed), 3));
      setText(sumCheck.note, `(over all ${n * n} query\u2013key pairs, h = ${h})`);
      const at = row * n + col;
      if (h !== termsShown) {
        terms.forEach((box, s) => setHidden(box, s >= Math.max(h, steadySplit)));
        termsBox.insertBefore(total, terms[h] ?? null);
        termsShown = h;
      }
      terms.forEach((box, s) => setText(box, s < h ? term(result.heads[s].rawScores.data[at], s === 0) : ''));
      setText(total, `= ${formatFixed(summed.data[at], 3)}`);
      setText(example.note, `(full-width head: ${formatFixed(full.rawScores.data[at], 3)})`);

      // Parameters: the core's count of the whole layer, and how it splits into matrices.
      for (const [readout, d] of [[toyCount, width], [paperCount, PAPER_WIDTH]]) {
        const { parameters, projectionParameters, outputParameters } = costOf(d, h);
        setText(readout.output, formatCount(parameters));
        setText(readout.note, `= ${h} head${h === 1 ? '' : 's'} \u00d7 3 \u00d7 (${d} \u00d7 ${d / h}) + W\u1d3c ${d} \u00d7 ${d} = ${formatCount(projectionParameters)} + ${formatCount(outputParameters)}`);
      }
    },
  };
}
