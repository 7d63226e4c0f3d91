// Figure "Three roles, one formula": the same attention computed three ways, changing only
// where the queries, keys and values come from. Encoder self-attention (the toy sentence
// looks at itself), decoder self-attention (the same, but no token may look ahead: the causal
// mask) and encoder–decoder attention (the French "le chat s'assit" asks, the English sentence
// answers). A head picker shows the layer split into h heads. Every value is the core's.

import { formatWeight, quoteToken } from '../lib/format/index.js';
import { createHeatmap } from '../lib/charts/heatmap.js';
import { createPicker } from '../lib/controls/picker.js';
import { figureBody, htmlElement, setChildTexts, uniqueId } from '../lib/dom/elements.js';
import { registerMatrix } from '../lib/export/registry.js';
import { createFigureProblem } from '../lib/dom/figure-problem.js';
import { readToySentence } from '../lib/format/tokens.js';
import { isEvenRow, keysAtMax } from '../lib/format/row-focus.js';
import './roles.css'; // this figure's styles, bundled into styles.css

const HEAD_COUNTS = [1, 2, 4, 8]; // every one divides the toy width 64
const ROLES = ['encoder', 'decoder', 'cross'];

/** "8 × 16", the way the page writes a shape. */
function shapeText(m) {
  return `${m.rows} \u00d7 ${m.cols}`;
}


/** A copy of `weights` with the cells the mask forbids set to NaN, which the heat map leaves blank. */
function blankMasked(weights, mask) {
  const data = Float64Array.from(weights.data, (v, k) => (mask.data[k] === 0 ? Number.NaN : v));
  return { rows: weights.rows, cols: weights.cols, data };
}

// Every head of every split the figure offers, as `${h}-${i}` (its name in links).
const HEAD_VALUES = HEAD_COUNTS.flatMap((h) => Array.from({ length: h }, (_, i) => `${h}-${i}`));

/** The figure's settings, as the store, the links and the README's table know them. */
export const SETTINGS = {
  // "kind", not "role": <attention-figure role="cross"> would be an ARIA role on the host page.
  // Links made before the rename still work: roles.role is read, never written.
  'roles.kind': { type: 'enum', values: ROLES, default: 'encoder', aliases: ['roles.role'] },
  'roles.head': { type: 'enum', values: HEAD_VALUES, default: HEAD_VALUES[0] },
};

/**
 * The toy has no trained decoder: its three query rows are built from the English words
 * they translate. Which rows of X they equal is checked here with the core, not assumed.
 */
function crossQueryNote(lab, { tokens, crossTokens, crossX, X }) {
  const same = crossTokens.map((_, i) => tokens.findIndex((_, k) => lab.maxAbsDifference(
    { rows: 1, cols: crossX.cols, data: crossX.data.slice(i * crossX.cols, (i + 1) * crossX.cols) },
    { rows: 1, cols: X.cols, data: X.data.slice(k * X.cols, (k + 1) * X.cols) }) === 0));
  if (same.some((j) => j < 0)) return 'The decoder\u2019s rows are its own embedding of the French words.';
  const pairs = crossTokens.map((t, i) => `${quoteToken(t)} = ${quoteToken(tokens[same[i]])}`).join(', ');
  return `Said plainly: this toy has no trained decoder. Its query rows are exactly the English rows of the words `
    + `they translate (${pairs}: same features, same positions), and they go through the same W_Q. A real decoder `
    + 'learns its own embedding and its own W_Q; here they stand in for a decoder that has learned to ask for the word it translates.';
}

const ROLE_TEXT = {
  encoder: 'encoder self-attention',
  decoder: 'decoder self-attention (causal mask)',
  cross: 'encoder\u2013decoder attention',
};

/** The controls: a radio group for the role, a picker for the head; returns { radios, picker }. */
function createRoleControls(body, { state, headChoices }) {
  const controls = htmlElement('div', { class: 'figure-controls' }, null, body);
  const fieldset = htmlElement('fieldset', { class: 'control-radios' }, null, controls);
  htmlElement('legend', { class: 'control-label' }, 'attention role', fieldset);
  const radioName = uniqueId('roles-role');
  const radios = {};
  for (const role of ROLES) {
    const id = uniqueId('roles-radio');
    const option = htmlElement('div', { class: 'control-radio' }, null, fieldset);
    const input = htmlElement('input', { type: 'radio', id, name: radioName, value: role }, null, option);
    htmlElement('label', { for: id }, ROLE_TEXT[role], option);
    input.addEventListener('change', () => {
      if (input.checked) state.set('roles.kind', role);
    });
    radios[role] = input;
  }
  const picker = createPicker(controls, {
    label: 'head',
    options: headChoices,
    value: state.get('roles.head'),
    hint: 'h = 1 is one head over all 64 columns of the embedding; larger h gives narrower heads, each with its own map.',
    onChange: (value) => state.set('roles.head', value),
  });
  return { radios, picker };
}

/** One panel per role, only the chosen one shown (their maps differ in shape): role → view. */
function createViews(panels, { tokens, tokenNames, crossTokens, crossNames, X, crossX, crossEncoder }) {
  const notes = { title: 'row sum', name: 'row sum', chars: 5 };
  const views = {};
  const makeView = (role, { rowLabels, rowNames, rowTitle, colTitle, label, sources, colLabels = tokens, colNames = tokenNames }) => {
    const mapPanel = htmlElement('div', { class: 'figure-panel roles-view', 'data-role': role }, null, panels);
    const title = htmlElement('p', { class: 'panel-title' }, null, mapPanel);
    const heatmap = createHeatmap(mapPanel, {
      rowLabels, colLabels, rowNames, colNames, rowTitle, colTitle, label, rowNotes: notes,
    });
    views[role] = { panel: mapPanel, title, heatmap, rowLabels, rowNames, rowTitle, colTitle, sources };
  };
  makeView('encoder', {
    rowLabels: tokens, rowNames: tokenNames, rowTitle: 'query', colTitle: 'key',
    label: 'encoder self-attention weights, queries by keys',
    sources: { queries: ['the encoder\u2019s tokens', X], keys: ['the same tokens', X], values: ['the same tokens', X] },
  });
  makeView('decoder', {
    rowLabels: tokens, rowNames: tokenNames, rowTitle: 'query', colTitle: 'key',
    label: 'decoder self-attention weights with the causal mask, queries by keys',
    sources: {
      queries: ['the decoder\u2019s tokens so far', X],
      keys: ['the same tokens, up to the query\u2019s own position', X],
      values: ['the same tokens, up to the query\u2019s own position', X],
    },
  });
  // The decoder translates the lesson's sentence: with a learner's sentence it still reads the lesson's.
  const encoder = crossEncoder ?? { tokens, X };
  makeView('cross', {
    colLabels: encoder.tokens, colNames: encoder.tokens.map((t, i) => `${quoteToken(t)} (${i})`),
    rowLabels: crossTokens, rowNames: crossNames, rowTitle: 'decoder query', colTitle: 'encoder key',
    label: 'encoder\u2013decoder attention weights, decoder queries by encoder keys',
    sources: {
      queries: [`the decoder\u2019s tokens ${quoteToken(crossTokens.join(' '))}`, crossX],
      keys: [`the encoder\u2019s tokens ${quoteToken(encoder.tokens.join(' '))}${crossEncoder ? ' (the lesson\u2019s sentence, which the decoder translates)' : ''}`, encoder.X],
      values: ['the encoder\u2019s tokens', encoder.X],
    },
  });
  return views;
}

/** Where each query puts most weight, one text a row for the list (masked cells left out). */
function topWeights(weights, { view, masked, tokenNames, stats }) {
  const shownRows = masked ? blankMasked(weights, masked) : weights;
  return view.rowLabels.map((token, i) => {
    // A tie is reported as a tie: "“le” → “the” (0) and “the” (4), 0.500 each".
    let text;
    if (isEvenRow(weights, i)) text = `${view.rowNames[i]} \u2192 every key equally, ${formatWeight(stats.max[i])}`;
    else {
      const keys = keysAtMax(shownRows, i, stats.max[i]);
      text = `${view.rowNames[i]} \u2192 ${keys.map((j) => tokenNames[j]).join(' and ')}, ${formatWeight(stats.max[i])}${keys.length > 1 ? ' each' : ''}`;
    }
    return text;
  });
}

export function mount(element, { lab, state }) {
  const sentence = readToySentence(lab);
  const { tokens, n, tokenNames, jobs, features, X, WQ, WK, WV, WO, crossX } = sentence;
  const causal = lab.causalMask(n);

  const headChoices = HEAD_COUNTS.flatMap((h) => Array.from({ length: h }, (_, i) => {
    const job = h === jobs.length && jobs[i] ? `: ${jobs[i]}` : '';
    return { value: `${h}-${i}`, text: h === 1 ? 'full width (h = 1)' : `h = ${h}, head ${i}${job}`, h, index: i };
  }));

  state.defineAll(SETTINGS);

  const body = figureBody(element);

  const { radios, picker } = createRoleControls(body, { state, headChoices });

  // One panel per role, only the chosen one shown: their maps differ in shape.
  const panels = htmlElement('div', { class: 'figure-panels roles-panels' }, null, body);
  const views = createViews(panels, sentence);

  const side = htmlElement('div', { class: 'figure-panel roles-side' }, null, panels);
  htmlElement('p', { class: 'panel-title' }, 'Where Q, K and V come from', side);
  const sourceList = htmlElement('dl', { class: 'roles-sources' }, null, side);
  const sourceRows = {};
  for (const [key, label] of [['queries', 'Q (queries) from'], ['keys', 'K (keys) from'], ['values', 'V (values) from'], ['weights', 'weights']]) {
    htmlElement('dt', {}, label, sourceList);
    sourceRows[key] = htmlElement('dd', {}, null, sourceList);
  }
  // What the toy decoder's queries are, said plainly: checked against the core's matrices.
  const queryNote = htmlElement('p', { class: 'roles-query-note', hidden: '' }, null, side);
  htmlElement('p', { class: 'panel-title roles-top-title', id: uniqueId('roles-top') }, 'Where each query puts most weight', side);
  const topList = htmlElement('ul', { class: 'roles-top', 'aria-labelledby': side.lastChild.id }, null, side);
  const problem = createFigureProblem(body);

  // The heat map exports the picked head's weights; its scores and outputs are offered too,
  // from the latest render ({ result, head, scores, view, choice }, or null).
  let last = null;
  const exported = (pick, colLabels, colTitle) => () => (last ? {
    matrix: pick(last), rowLabels: last.view.rowLabels, rowTitle: last.view.rowTitle,
    colLabels: colLabels(last), colTitle: colTitle ?? last.view.colTitle,
  } : null);
  const headFeatures = ({ choice }) => { // the columns of V that the picked head reads
    const width = features.length / choice.h;
    return features.slice(choice.index * width, (choice.index + 1) * width);
  };
  registerMatrix(element, 'scaled scores Q K\u1d40 / \u221ad\u2096 (picked head)', exported((l) => l.scores, () => tokens));
  registerMatrix(element, 'output of the picked head (weights \u00b7 V)', exported((l) => l.head.output, headFeatures, 'feature'));
  registerMatrix(element, 'output of the layer (all heads, concat \u00b7 W\u1d3c)', exported((l) => l.result.output, () => features, 'feature'));

  function compute(role, h) {
    if (role === 'cross') return lab.crossMultiHead(crossX, sentence.crossEncoder?.X ?? X, WQ, WK, WV, WO, h);
    return lab.multiHead(X, WQ, WK, WV, WO, h, { mask: role === 'decoder' ? 'causal' : null });
  }

  function render() {
    const role = state.get('roles.kind');
    const choice = headChoices.find((c) => c.value === state.get('roles.head'));
    radios[role].checked = true;
    picker.set(choice.value);
    for (const [name, view] of Object.entries(views)) view.panel.hidden = name !== role;
    const view = views[role];
    try {
      const result = compute(role, choice.h);
      const head = result.heads[choice.index];
      const { weights } = head;
      // Masked scores are left empty in the export, as the masked weights are on the map.
      const scores = role === 'decoder' ? blankMasked(head.scaledScores, causal) : head.scaledScores;
      last = { result, head, scores, view, choice };
      const shown = role === 'decoder' ? blankMasked(weights, causal) : weights;
      view.heatmap.update(shown);
      view.heatmap.setRowNotes(Array.from(lab.sums(weights).rows, formatWeight));
      view.title.textContent = `${ROLE_TEXT[role]}: ${choice.text}`;

      for (const key of ['queries', 'keys', 'values']) {
        const [where, m] = view.sources[key];
        sourceRows[key].textContent = `${where} (${shapeText(m)})`;
      }
      sourceRows.weights.textContent = `${shapeText(weights)}: one row per query, one column per key`;

      const keyNames = role === 'cross' && sentence.crossEncoder ? sentence.crossEncoder.tokens.map((t, i) => `${quoteToken(t)} (${i})`) : tokenNames;
      setChildTexts(topList, 'li', topWeights(weights, { view, masked: role === 'decoder' ? causal : null, tokenNames: keyNames, stats: lab.rowStats(weights) }));
      queryNote.hidden = role !== 'cross';
      if (role === 'cross') queryNote.textContent = crossQueryNote(lab, { ...sentence, ...(sentence.crossEncoder ?? {}) });
      problem.clear();
    } catch (error) {
      last = null;
      problem.show(error);
    }
  }

  state.subscribe(['roles.kind', 'roles.head'], render);
  render();
}
