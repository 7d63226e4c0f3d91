// Rows (A) and (B) of Table 3 of the paper, drawn under the heads figure: quoted data, not
// computed, plotted as the measured points with the paper's own caution and its source.

import { createPlot } from '../../lib/charts/plot.js';
import { htmlElement } from '../../lib/dom/elements.js';

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

const describeRow = (rows, key) => rows.map((r) => `${key === 'heads' ? `h = ${r.heads}` : `d\u2096 = ${r.keyWidth}`}: ${r.bleu.toFixed(1)}`).join(', ');

/** One row of the table as a plot of its measured points, each with its value. */
function rowPlot(parent, { rows, key, name, ...options }) {
  const plot = createPlot(parent, { yLabel: 'dev BLEU', xScale: 'log2', yDomain: BLEU_AXIS, formatY: (v) => v.toFixed(1), ...options });
  // Only the measured points, each with its value: no line between them, since the paper
  // measured nothing in between (h = 2, the toy's default, was never run), and no marker for
  // the toy's h, which is not a result on the paper's axis.
  plot.update({
    series: [{
      name, line: false, x: rows.map((r) => r[key]), y: rows.map((r) => r.bleu), labels: rows.map((r) => r.bleu.toFixed(1)),
    }],
  });
  return plot;
}

/** The paper's panel, appended to `body`. */
export function drawPaperTable(body) {
  const { rowA, rowB, base, citation } = PAPER_TABLE_3;
  const panel = htmlElement('div', { class: 'heads-paper skips-off-screen' }, null, body);
  htmlElement('p', { class: 'panel-title' }, 'What the paper measured: Table 3, rows (A) and (B), dev BLEU (quoted, not computed)', panel);
  const plots = htmlElement('div', { class: 'figure-panels figure-panels-even heads-plots' }, null, panel);
  rowPlot(plots, {
    rows: rowA, key: 'heads', name: 'row (A): change h, measured',
    label: `Table 3 row (A), BLEU against the number of heads: ${describeRow(rowA, 'heads')}`,
    xLabel: 'heads h (d\u2096 = 512/h)',
    xDomain: [0.7, 45], // room beside the first and last measured point for their labels
  });
  rowPlot(plots, {
    rows: rowB, key: 'keyWidth', name: 'row (B): shrink d\u2096, measured',
    label: `Table 3 row (B), BLEU against the key width with 8 heads: ${describeRow(rowB, 'keyWidth')}`,
    xLabel: 'key width d\u2096 (h = 8)',
    xDomain: [12, 85],
  });
  const bestA = Math.max(...rowA.map((r) => r.bleu));
  const singleA = rowA.find((r) => r.heads === 1).bleu;
  const mostA = rowA[rowA.length - 1];
  const narrowB = rowB[0];
  htmlElement('p', { class: 'heads-hedge' },
    `Read with the paper's own caution: one head was ${(bestA - singleA).toFixed(1)} BLEU behind the best setting, `
    + `but ${mostA.heads} heads slipped back to ${mostA.bleu.toFixed(1)}, so more heads is not monotonically better. `
    + `Keeping h = ${narrowB.heads} and narrowing the keys to d\u2096 = ${narrowB.keyWidth} cost ${(base.bleu - narrowB.bleu).toFixed(1)} BLEU: narrow keys hurt. `
    + 'All of them come from one translation task (English\u2192German) and one development set.', panel);
  htmlElement('p', { class: 'heads-source' }, `Source: ${citation}. The base model (h = ${base.heads}, d\u2096 = ${base.keyWidth}) scores ${base.bleu.toFixed(1)}.`, panel);
}
