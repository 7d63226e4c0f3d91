// Figure "Four ways to get it wrong": the toy layer computed correctly beside the same layer
// with one common mistake, each drawn as a weight map with the numbers that expose it.
//   model-width  several heads, but the scores divided by √d_model instead of √d_k
//   wrong-axis   softmax run down each key's column instead of along each query's row
//   no-scale     the division by √d_k left out
//   swap-kv      V passed where K belongs and K where V belongs
// Every value, including the divisors named in the titles, comes from the core's results.

import { formatFixed, formatNats, formatWeight, quoteToken } from '../lib/format/index.js';
import { createHeatmap } from '../lib/charts/heatmap.js';
import { createPicker } from '../lib/controls/picker.js';
import { figureBody, htmlElement, uniqueId } from '../lib/dom/elements.js';
import { createReadout } from '../lib/controls/readout.js';
import { registerMatrix } from '../lib/export/registry.js';
import { createFigureProblem } from '../lib/dom/figure-problem.js';
import { readToySentence } from '../lib/format/tokens.js';
import './mistakes.css'; // this figure's styles, bundled into styles.css

const HEADS = 4; // mistake (a) needs several heads; at h = 4 the core names each head's job

const MISTAKES = [
  { value: 'model-width', text: 'divide by \u221ad_model instead of \u221ad\u2096 (4 heads)' },
  { value: 'wrong-axis', text: 'softmax over the wrong axis (down each key\u2019s column)' },
  { value: 'no-scale', text: 'no scaling at all' },
  { value: 'swap-kv', text: 'keys and values swapped' },
];



/** The divisor the core used: raw score / scaled score at the largest raw score. */
function divisorOf(result) {
  const { rawScores, scaledScores } = result;
  let at = 0;
  for (let i = 1; i < rawScores.data.length; i += 1) {
    if (Math.abs(rawScores.data[i]) > Math.abs(rawScores.data[at])) at = i;
  }
  return rawScores.data[at] / scaledScores.data[at];
}


const list = (values) => Array.from(values, (v) => formatFixed(v, 3)).join(' ');

/** The mistake's two results, correct and mistaken, and the titles that say how each was computed. */
function computeMistake(kind, head, { lab, sentence: { jobs, X, WQ, WK, WV, WO }, Q, K, V }) {
  if (kind === 'model-width') {
    const good = lab.multiHead(X, WQ, WK, WV, WO, HEADS, { scaleBy: 'head' }).heads[head];
    const bad = lab.multiHead(X, WQ, WK, WV, WO, HEADS, { scaleBy: 'model' }).heads[head];
    return {
      good, bad, titles: [
        `Correct: head ${head} (${jobs[head]}), scores \u00f7 ${formatFixed(divisorOf(good), 3)} = \u221ad\u2096`,
        `Mistake: the same head, scores \u00f7 ${formatFixed(divisorOf(bad), 3)} = \u221ad_model`,
      ],
    };
  }
  const good = lab.attention(Q, K, V);
  if (kind === 'wrong-axis') {
    return {
      good, bad: lab.attention(Q, K, V, { axis: 'queries' }),
      titles: ['Correct: softmax along each query\u2019s row', 'Mistake: softmax down each key\u2019s column'],
    };
  }
  if (kind === 'no-scale') {
    const bad = lab.attention(Q, K, V, { scale: 1 });
    return {
      good, bad, titles: [
        `Correct: scores \u00f7 ${formatFixed(divisorOf(good), 3)} = \u221ad\u2096 (d\u2096 = ${Q.cols})`,
        `Mistake: scores \u00f7 ${formatFixed(divisorOf(bad), 3)}, i.e. not scaled`,
      ],
    };
  }
  return {
    good, bad: lab.attention(Q, V, K), // V in the key slot, K in the value slot
    titles: ['Correct: weights from Q and K, output from V', 'Mistake: weights from Q and V, output from K'],
  };
}

/** The radio group of the four mistakes and the head picker of mistake (a). */
function createMistakeControls(body, { state, jobs }) {
  const controls = htmlElement('div', { class: 'figure-controls' }, null, body);
  const fieldset = htmlElement('fieldset', { class: 'mistakes-choices' }, null, controls);
  htmlElement('legend', { class: 'control-label' }, 'Make this mistake', fieldset);
  const groupName = uniqueId('mistake');
  const radios = MISTAKES.map((mistake, index) => {
    const label = htmlElement('label', { class: 'mistakes-choice' }, null, fieldset);
    const input = htmlElement('input', { type: 'radio', name: groupName, value: mistake.value }, null, label);
    label.append(`(${String.fromCharCode(97 + index)}) ${mistake.text}`);
    input.addEventListener('change', () => {
      if (input.checked) state.set('mistakes.kind', mistake.value);
    });
    return input;
  });
  const headPicker = createPicker(controls, {
    label: 'head to show',
    hint: 'Mistake (a) only: the layer is split into 4 heads of 16 columns.',
    options: jobs.slice(0, HEADS).map((job, s) => ({ value: s, text: `head ${s} \u00b7 ${job}` })),
    value: state.get('mistakes.head'),
    onChange: (value) => state.set('mistakes.head', Number(value)),
  });
  return { radios, headPicker };
}

/** One side, correct or with the mistake: its title, its weight map and its readouts on "it". */
function createSide(panels, name, { tokens, tokenNames, focus: IT }) {
  const panel = htmlElement('div', { class: `figure-panel mistakes-side mistakes-${name === 'correct' ? 'right' : 'wrong'}`, role: 'group', 'aria-label': name }, null, panels);
  const title = htmlElement('p', { class: 'panel-title' }, null, panel);
  const heatmap = createHeatmap(panel, {
    rowLabels: tokens, colLabels: tokens, rowNames: tokenNames, colNames: tokenNames,
    rowTitle: 'query', colTitle: 'key', label: `weights, ${name}`,
  });
  const readouts = htmlElement('div', { class: 'readouts' }, null, panel);
  return {
    title,
    heatmap,
    entropy: createReadout(readouts, `entropy of the ${quoteToken(tokens[IT])} row`),
    largest: createReadout(readouts, `largest weight of the ${quoteToken(tokens[IT])} row`),
    rowSums: createReadout(readouts, 'row sums'),
    colSums: createReadout(readouts, 'column sums'),
    output: createReadout(readouts, `output row of ${quoteToken(tokens[IT])}`),
  };
}

/** The figure's settings, as the store, the links and the README's table know them. */
export const SETTINGS = {
  'mistakes.kind': { type: 'enum', values: MISTAKES.map((m) => m.value), default: MISTAKES[0].value },
  'mistakes.head': { type: 'integer', min: 0, max: HEADS - 1, default: 0 },
};

export function mount(element, { lab, state }) {
  const sentence = readToySentence(lab);
  const { tokens, tokenNames, jobs, features, X, WQ, WK, WV } = sentence;
  // The row of the sentence's last pronoun ("it" in the lesson), lib/format/tokens.js focusRow.
  const IT = sentence.focus;
  const it = tokenNames[IT];

  state.defineAll(SETTINGS);

  const body = figureBody(element);

  const { radios, headPicker } = createMistakeControls(body, { state, jobs });

  const panels = htmlElement('div', { class: 'figure-panels figure-panels-even mistakes-panels' }, null, body);
  const right = createSide(panels, 'correct', sentence);
  const wrong = createSide(panels, 'with the mistake', sentence);
  const consequence = createReadout(body, 'what goes wrong');
  consequence.line.classList.add('mistakes-consequence');
  consequence.output.setAttribute('aria-live', 'polite');
  const problem = createFigureProblem(body);

  // The full-width head of the toy: Q = X W_Q, K = X W_K, V = X W_V, d_k = 16.
  const Q = lab.matmul(X, WQ);
  const K = lab.matmul(X, WK);
  const V = lab.matmul(X, WV);

  // The heat maps export both sides' weights; the scores and outputs behind them are offered
  // too, from the latest render ({ kind, head, good, bad }, or null).
  let last = null;
  const scoresOf = (side) => () => (last ? {
    matrix: last[side].scaledScores, rowLabels: tokens, colLabels: tokens, rowTitle: 'query', colTitle: 'key',
  } : null);
  const outputOf = (side) => () => {
    if (!last) return null;
    const width = features.length / HEADS;
    // With keys and values swapped, the mistaken output blends columns of K, not features.
    const fromK = last.kind === 'swap-kv' && side === 'bad';
    const colLabels = last.kind === 'model-width' ? features.slice(last.head * width, (last.head + 1) * width) : features;
    return {
      matrix: last[side].output, rowLabels: tokens, rowTitle: 'query',
      colLabels: fromK ? null : colLabels, colTitle: fromK ? 'column of K' : 'feature',
    };
  };
  registerMatrix(element, 'scaled scores, correct', scoresOf('good'));
  registerMatrix(element, 'scaled scores, with the mistake', scoresOf('bad'));
  registerMatrix(element, 'output (weights \u00b7 V), correct', outputOf('good'));
  registerMatrix(element, 'output, with the mistake', outputOf('bad'));

  function show(side, readouts) {
    for (const key of ['entropy', 'largest', 'rowSums', 'colSums', 'output']) side[key].line.hidden = !readouts.includes(key);
  }

  function fillRowStats(side, weights) {
    const stats = lab.rowStats(weights);
    side.entropy.output.textContent = formatNats(stats.entropy[IT]);
    side.largest.output.textContent = formatWeight(stats.max[IT]);
    side.largest.note.textContent = `on ${tokenNames[stats.argmax[IT]]}`;
    return stats;
  }

  function fillSums(side, weights) {
    const { rows, cols } = lab.sums(weights);
    side.rowSums.output.textContent = list(rows);
    side.colSums.output.textContent = list(cols);
    return { rows, cols };
  }

  function render() {
    const kind = state.get('mistakes.kind');
    const head = state.get('mistakes.head');
    radios.forEach((radio) => { radio.checked = radio.value === kind; });
    headPicker.set(head);
    headPicker.element.hidden = kind !== 'model-width';
    try {
      const { good, bad, titles } = computeMistake(kind, head, { lab, sentence, Q, K, V });
      [right.title.textContent, wrong.title.textContent] = titles;
      last = { kind, head, good, bad };
      right.heatmap.update(good.weights);
      wrong.heatmap.update(bad.weights);
      right.heatmap.highlightRow(kind === 'wrong-axis' ? null : IT);
      wrong.heatmap.highlightRow(kind === 'wrong-axis' ? null : IT);

      if (kind === 'wrong-axis') {
        show(right, ['rowSums', 'colSums']);
        show(wrong, ['rowSums', 'colSums']);
        fillSums(right, good.weights);
        const { rows } = fillSums(wrong, bad.weights);
        consequence.output.textContent = `Every column now sums to 1, but the rows sum to anything from ${formatFixed(Math.min(...rows), 3)} to ${formatFixed(Math.max(...rows), 3)}, so a query's output is no longer an average of the values.`;
      } else if (kind === 'swap-kv') {
        show(right, ['largest', 'output']);
        show(wrong, ['largest', 'output']);
        const a = fillRowStats(right, good.weights);
        const b = fillRowStats(wrong, bad.weights);
        const n = good.output.cols;
        const shown = 4;
        for (const [side, result] of [[right, good], [wrong, bad]]) {
          side.output.output.textContent = list(result.output.data.subarray(IT * n, IT * n + shown));
          side.output.note.textContent = `\u2026 (first ${shown} of ${n})`;
        }
        consequence.output.textContent = `The ${it} row now puts its largest weight, ${formatWeight(b.max[IT])}, on ${tokenNames[b.argmax[IT]]} instead of ${formatWeight(a.max[IT])} on ${tokenNames[a.argmax[IT]]}, and the output moves by up to ${formatFixed(lab.maxAbsDifference(good.output, bad.output), 3)}: it now blends keys, which were never meant to be copied.`;
      } else {
        show(right, ['entropy', 'largest']);
        show(wrong, ['entropy', 'largest']);
        const a = fillRowStats(right, good.weights);
        const b = fillRowStats(wrong, bad.weights);
        const shift = b.entropy[IT] - a.entropy[IT];
        const change = Math.abs(shift) < 5e-4 ? 'hardly changes' : `gets ${shift > 0 ? 'flatter' : 'sharper'}`;
        consequence.output.textContent = `The ${it} row ${change}: entropy ${formatNats(a.entropy[IT])} \u2192 ${formatNats(b.entropy[IT])}, largest weight ${formatWeight(a.max[IT])} \u2192 ${formatWeight(b.max[IT])}.`;
      }
      problem.clear();
    } catch (error) {
      last = null;
      problem.show(error);
    }
  }

  state.subscribe(['mistakes.kind', 'mistakes.head'], render);
  render();
}
