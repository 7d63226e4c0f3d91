// Figure "What one layer costs": a calculator over the core's cost model (multiply-adds of
// Q Kᵀ, A·V and the four projections, memory of the attention weights, parameters), a log-log
// plot of the pairs against the projections as the sequence grows, and the first three rows
// of Table 1 of the paper at two lengths. Every number is computed by the WebAssembly core;
// the inputs keep whatever the learner typed, and an invalid one shows the core's message
// beside its field while the last valid results stay on screen.

import { formatCount, formatSignificant } from '../lib/format/index.js';
import { createPicker } from '../lib/controls/picker.js';
import { createPlot } from '../lib/charts/plot.js';
import { htmlElement, uniqueId } from '../lib/dom/elements.js';

const LARGEST = 1e12; // the store's ceiling for every count; far beyond any real layer
const DEFAULTS = { n: 196, m: 196, d: 768, h: 12, bytes: '4', same: 'yes' };
const BYTE_CHOICES = [
  { value: '2', text: '2 (16-bit floats)' },
  { value: '4', text: '4 (32-bit floats)' },
  { value: '8', text: '8 (64-bit floats)' },
];
const PRESETS = [
  { name: 'toy sentence', detail: 'n = 8, d = 16, h = 4', n: 8, d: 16, h: 4 },
  { name: 'ViT image', detail: 'n = 196, d = 768, h = 12', n: 196, d: 768, h: 12 },
  { name: 'pixels', detail: 'n = 224 \u00d7 224, d = 768, h = 12', n: 224 * 224, d: 768, h: 12 },
];
// Table 1 is read at a ViT patch grid and at one token per pixel of a 224 × 224 image.
const TABLE = { lengths: [196, 224 * 224], d: 768, k: 3 };
const TABLE_FORMULAS = {
  'self-attention': ['O(n\u00b2\u00b7d)', 'O(1)', 'O(1)'],
  recurrent: ['O(n\u00b7d\u00b2)', 'O(n)', 'O(n)'],
  convolutional: ['O(k\u00b7n\u00b7d\u00b2)', 'O(1)', 'O(log\u2096 n)'],
};
const SAMPLES_PER_DECADE = 10;

/** Large counts as 29.5 M, 462 M, 1.93 T; small ones in full. */
function formatAmount(value) {
  if (!Number.isFinite(value)) return String(value);
  if (value < 1e4) return formatCount(value);
  const units = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  const [factor, unit] = units.find(([f]) => value >= f);
  return `${formatSignificant(value / factor, 3)}\u00a0${unit}`;
}

/** Bytes in decimal units, as disk and memory sizes are usually quoted: 1.84 MB, 10.1 GB. */
function formatBytes(value) {
  if (!Number.isFinite(value)) return String(value);
  if (value < 1000) return `${formatCount(value)}\u00a0B`;
  const units = [[1e15, 'PB'], [1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'kB']];
  const [factor, unit] = units.find(([f]) => value >= f);
  return `${formatSignificant(value / factor, 3)}\u00a0${unit}`;
}

/** What the learner typed, as a number: spaces, commas and underscores between digits are allowed. */
function parseCount(text) {
  const cleaned = String(text).replace(/[\s,_\u2009\u202f]/g, '');
  return cleaned === '' ? Number.NaN : Number(cleaned);
}

/** A labelled text field for a whole number, with a hint and a place for its error message. */
function createNumberField(parent, { label, hint, onInput }) {
  const id = uniqueId('number');
  const element = htmlElement('div', { class: 'control control-number' }, null, parent);
  htmlElement('label', { for: id, class: 'control-label' }, label, element);
  const input = htmlElement('input', {
    type: 'text', id, inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': `${id}-hint ${id}-error`,
  }, null, element);
  htmlElement('p', { id: `${id}-hint`, class: 'control-hint' }, hint, element);
  const error = htmlElement('p', { id: `${id}-error`, class: 'field-error', role: 'alert', hidden: '' }, null, element);
  input.addEventListener('input', () => onInput(input.value));
  return {
    element,
    input,
    showError(message) {
      error.textContent = message;
      error.hidden = !message;
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
  };
}

function createReadout(parent, label) {
  const id = uniqueId('readout');
  const line = htmlElement('p', { class: 'readout' }, null, parent);
  htmlElement('label', { for: id, class: 'readout-label' }, label, line);
  const output = htmlElement('output', { id, class: 'readout-value' }, '\u2014', line);
  const note = htmlElement('span', { class: 'readout-note' }, null, line);
  return { output, note };
}

/** Where two power-law curves sampled at the same x cross, interpolated on log axes. */
function crossing(xs, a, b) {
  for (let i = 1; i < xs.length; i += 1) {
    const before = Math.log(a[i - 1]) - Math.log(b[i - 1]);
    const after = Math.log(a[i]) - Math.log(b[i]);
    if (before === 0) return { x: xs[i - 1], y: a[i - 1] };
    if (before * after < 0) {
      const t = before / (before - after);
      const logX = Math.log(xs[i - 1]) + t * (Math.log(xs[i]) - Math.log(xs[i - 1]));
      const logY = Math.log(a[i - 1]) + t * (Math.log(a[i]) - Math.log(a[i - 1]));
      return { x: Math.exp(logX), y: Math.exp(logY) };
    }
  }
  return null;
}

export function mount(element, { lab, state }) {
  const whole = (fallback) => ({ type: 'integer', min: 1, max: LARGEST, default: fallback });
  state.define('cost.n', whole(DEFAULTS.n));
  state.define('cost.m', whole(DEFAULTS.m));
  state.define('cost.same', { type: 'enum', values: ['yes', 'no'], default: DEFAULTS.same });
  state.define('cost.d', whole(DEFAULTS.d));
  state.define('cost.h', whole(DEFAULTS.h));
  state.define('cost.bytes', { type: 'enum', values: BYTE_CHOICES.map((c) => c.value), default: DEFAULTS.bytes });

  const body = htmlElement('div', { class: 'figure-body cost' });
  element.insertBefore(body, element.querySelector('figcaption'));

  // ---- Presets and inputs -------------------------------------------------------------------
  const presetBar = htmlElement('div', { class: 'cost-presets', role: 'group', 'aria-label': 'presets' }, null, body);
  htmlElement('span', { class: 'cost-presets-title', 'aria-hidden': 'true' }, 'Presets:', presetBar);
  for (const preset of PRESETS) {
    const button = htmlElement('button', { type: 'button', class: 'cost-preset' }, null, presetBar);
    htmlElement('span', { class: 'cost-preset-name' }, preset.name, button);
    // Read between name and detail by screen readers; the two lines separate them on screen.
    htmlElement('span', { class: 'cost-preset-separator' }, ', ', button);
    htmlElement('span', { class: 'cost-preset-detail' }, preset.detail, button);
    button.addEventListener('click', () => applyPreset(preset));
  }

  const controls = htmlElement('div', { class: 'figure-controls cost-fields' }, null, body);
  let lastEdited = 'n';
  const edited = (name) => () => {
    lastEdited = name;
    if (name === 'n' && sameBox.checked) fields.m.input.value = fields.n.input.value;
    evaluate();
  };
  const fields = {
    n: createNumberField(controls, { label: 'queries n', hint: 'tokens that ask', onInput: edited('n') }),
    m: createNumberField(controls, { label: 'keys m', hint: 'tokens that answer', onInput: edited('m') }),
    d: createNumberField(controls, { label: 'width d_model', hint: 'numbers per token', onInput: edited('d') }),
    h: createNumberField(controls, { label: 'heads h', hint: 'must divide d_model', onInput: edited('h') }),
  };
  // "same as n" sits with the keys field: self-attention has m = n.
  const sameId = uniqueId('same');
  const sameLine = htmlElement('p', { class: 'cost-same' }, null, fields.m.element);
  const sameBox = htmlElement('input', { type: 'checkbox', id: sameId }, null, sameLine);
  htmlElement('label', { for: sameId }, 'same as n (self-attention)', sameLine);
  sameBox.addEventListener('change', () => {
    syncSame();
    lastEdited = 'm';
    evaluate();
  });
  const bytesPicker = createPicker(controls, {
    label: 'bytes per number',
    options: BYTE_CHOICES,
    value: state.get('cost.bytes'),
    onChange: () => {
      lastEdited = 'bytes';
      evaluate();
    },
  });

  // ---- Results ------------------------------------------------------------------------------
  const panels = htmlElement('div', { class: 'figure-panels cost-panels' }, null, body);
  const resultPanel = htmlElement('div', { class: 'figure-panel' }, null, panels);
  htmlElement('p', { class: 'panel-title' }, 'One attention layer', resultPanel);
  const computeList = htmlElement('div', { class: 'readouts' }, null, resultPanel);
  const qk = createReadout(computeList, 'multiply-adds for Q K\u1d40');
  const av = createReadout(computeList, 'multiply-adds for A\u00b7V');
  const projections = createReadout(computeList, 'multiply-adds for the four projections');
  const ratio = createReadout(computeList, 'projections \u00f7 (Q K\u1d40 + A\u00b7V)');
  const memoryList = htmlElement('div', { class: 'readouts' }, null, resultPanel);
  const perHead = createReadout(memoryList, 'attention weights, one head');
  const allHeads = createReadout(memoryList, 'attention weights, all heads');
  const parameters = createReadout(memoryList, 'parameters');
  const parameterBytes = createReadout(memoryList, 'parameter memory');
  const staleNote = htmlElement('p', { class: 'cost-stale', hidden: '' },
    'These are the numbers of the last valid input; fix the field marked in red to update them.', resultPanel);

  const plotPanel = htmlElement('div', { class: 'figure-panel' }, null, panels);
  htmlElement('p', { class: 'panel-title' }, 'Multiply-adds against sequence length (m = n, log axes)', plotPanel);
  const plot = createPlot(plotPanel, {
    label: 'multiply-adds of the pairs, the projections and a recurrent layer against sequence length, log scales',
    xLabel: 'sequence length n = m (log scale)', yLabel: 'multiply-adds (log scale)',
    xScale: 'log10', yScale: 'log10',
    formatX: (v) => formatAmount(v).replace('\u00a0', ''),
  });
  const crossingNote = htmlElement('p', { class: 'cost-crossing' }, null, plotPanel);
  const problem = htmlElement('p', { class: 'figure-error', role: 'alert', hidden: '' }, null, body);

  // ---- Table 1 ------------------------------------------------------------------------------
  const tableWrap = htmlElement('div', {
    class: 'cost-table-wrap', role: 'region', tabindex: '0', 'aria-labelledby': uniqueId('table-caption'),
  }, null, body);
  const table = htmlElement('table', { class: 'cost-table' }, null, tableWrap);
  const caption = htmlElement('caption', { id: tableWrap.getAttribute('aria-labelledby') }, null, table);
  caption.textContent =
    `Table 1 of the paper, first three rows, evaluated at d = ${TABLE.d} and kernel width k = ${TABLE.k}: ` +
    `n = ${formatCount(TABLE.lengths[0])} is a 14 \u00d7 14 grid of image patches, ` +
    `n = ${formatCount(TABLE.lengths[1])} one token per pixel of a 224 \u00d7 224 image. The cheapest layer per length is in bold.`;
  const head = htmlElement('thead', {}, null, table);
  const headRow = htmlElement('tr', {}, null, head);
  htmlElement('th', { scope: 'col' }, 'measure, and how it grows', headRow);
  for (const n of TABLE.lengths) htmlElement('th', { scope: 'col', class: 'cost-number' }, `n = ${formatCount(n)}`, headRow);

  function fillTable() {
    const byLength = TABLE.lengths.map((n) => lab.layerComparison({ n, d: TABLE.d, k: TABLE.k }));
    const measures = [
      ['complexity per layer', 'complexityPerLayer', formatAmount],
      ['sequential operations', 'sequentialOps', formatCount],
      ['maximum path length', 'maxPathLength', formatCount],
    ];
    // One row group per layer type: its name spans the table, then one row per measure.
    byLength[0].forEach((row, r) => {
      const tbody = htmlElement('tbody', {}, null, table);
      const nameRow = htmlElement('tr', { class: 'cost-table-layer' }, null, tbody);
      htmlElement('th', { scope: 'rowgroup', colspan: 1 + TABLE.lengths.length }, row.layer, nameRow);
      measures.forEach(([name, key, format], j) => {
        const tr = htmlElement('tr', {}, null, tbody);
        const header = htmlElement('th', { scope: 'row' }, `${name} `, tr);
        htmlElement('span', { class: 'cost-formula' }, TABLE_FORMULAS[row.layer]?.[j] ?? '', header);
        byLength.forEach((rows) => {
          const values = rows.map((other) => other[key]);
          const value = rows[r][key];
          const cell = htmlElement('td', { class: 'cost-number' }, null, tr);
          if (key === 'complexityPerLayer' && value === Math.min(...values)) htmlElement('strong', {}, format(value), cell);
          else cell.textContent = format(value);
        });
      });
    });
  }

  // ---- Behaviour ----------------------------------------------------------------------------
  function syncSame() {
    const same = sameBox.checked;
    fields.m.input.disabled = same;
    if (same) fields.m.input.value = fields.n.input.value;
  }

  function fieldFor(message) {
    if (/^n\b/.test(message)) return 'n';
    if (/^m\b/.test(message)) return 'm';
    if (/^d_model\b/.test(message)) return 'd';
    if (/^heads h\b/.test(message)) return 'h';
    return lastEdited in fields ? lastEdited : 'n';
  }

  function showResults(setup, c) {
    qk.output.textContent = formatAmount(c.qkMacs);
    qk.note.textContent = `n\u00b7m\u00b7d = ${formatCount(c.qkMacs)}`;
    av.output.textContent = formatAmount(c.avMacs);
    av.note.textContent = 'the same count again';
    projections.output.textContent = formatAmount(c.projectionMacs);
    projections.note.textContent = `(2n + 2m)\u00b7d\u00b2 = ${formatCount(c.projectionMacs)}`;
    ratio.output.textContent = `${formatSignificant(c.projectionMacs / (c.qkMacs + c.avMacs), 3)}\u00d7`;
    const pairMacs = c.qkMacs + c.avMacs;
    ratio.note.textContent = c.projectionMacs === pairMacs ? 'an even split'
      : (c.projectionMacs > pairMacs ? 'the projections dominate' : 'the pairs dominate');
    perHead.output.textContent = formatBytes(c.weightBytesPerHead);
    perHead.note.textContent = `${formatCount(c.weightNumbersPerHead)} numbers, n\u00b7m`;
    allHeads.output.textContent = formatBytes(c.weightBytesAllHeads);
    allHeads.note.textContent = `\u00d7 ${formatCount(setup.heads)} heads`;
    parameters.output.textContent = formatCount(c.parameters);
    parameters.note.textContent = '4\u00b7d\u00b2, whatever h is';
    parameterBytes.output.textContent = formatBytes(c.parameterBytes);
  }

  function drawPlot(setup) {
    const top = Math.min(12, Math.max(5, Math.ceil(Math.log10(Math.max(setup.n, 4 * setup.dModel))) + 1));
    const xs = [];
    for (let i = 0; i <= top * SAMPLES_PER_DECADE; i += 1) {
      const n = Math.round(10 ** (i / SAMPLES_PER_DECADE));
      if (n !== xs[xs.length - 1]) xs.push(n);
    }
    const pairs = [];
    const projected = [];
    const recurrent = [];
    for (const n of xs) {
      const c = lab.cost({ n, m: n, dModel: setup.dModel, heads: setup.heads, bytesPerNumber: setup.bytesPerNumber });
      pairs.push(c.qkMacs);
      projected.push(c.projectionMacs);
      recurrent.push(lab.layerComparison({ n, d: setup.dModel, k: TABLE.k }).find((r) => r.layer === 'recurrent').complexityPerLayer);
    }
    const withRecurrent = crossing(xs, pairs, recurrent);
    const withProjections = crossing(xs, pairs, projected);
    const points = [withRecurrent, withProjections].filter(Boolean)
      // The lower crossing is labelled below-right of its dot, the upper one above-left, where no curve runs.
      .map((p, i) => ({ ...p, label: `n \u2248 ${formatCount(Math.round(p.x))}`, placement: i === 0 ? 'below-right' : 'above-left' }));
    plot.update({
      series: [
        { name: 'pairs, Q K\u1d40: n\u00b2\u00b7d', x: xs, y: pairs },
        { name: 'four projections: 4n\u00b7d\u00b2', x: xs, y: projected },
        { name: 'recurrent layer (Table 1): n\u00b7d\u00b2', x: xs, y: recurrent },
      ],
      marker: { x: setup.n, label: `n = ${formatCount(setup.n)}` },
      points,
    });
    const parts = [];
    if (withRecurrent) parts.push(`Q K\u1d40 costs more than a recurrent layer from n \u2248 ${formatCount(Math.round(withRecurrent.x))}`);
    if (withProjections) parts.push(`more than the four projections from n \u2248 ${formatCount(Math.round(withProjections.x))}`);
    crossingNote.textContent = parts.length
      ? `Read off the curves at d = ${formatCount(setup.dModel)}: ${parts.join(', and ')}.`
      : '';
  }

  function readSetup() {
    const values = {
      n: parseCount(fields.n.input.value),
      m: sameBox.checked ? parseCount(fields.n.input.value) : parseCount(fields.m.input.value),
      d: parseCount(fields.d.input.value),
      h: parseCount(fields.h.input.value),
    };
    for (const [name, value] of Object.entries(values)) {
      if (value > LARGEST) {
        throw Object.assign(new Error(`${name === 'd' ? 'd_model' : name} = ${fields[name].input.value.trim()} is more than this calculator takes (at most ${formatCount(LARGEST)})`), { field: name });
      }
    }
    return { n: values.n, m: values.m, dModel: values.d, heads: values.h, bytesPerNumber: Number(bytesPicker.value) };
  }

  let shownOnce = false;
  function evaluate() {
    let setup;
    let result;
    try {
      setup = readSetup();
      result = lab.cost(setup);
    } catch (error) {
      for (const field of Object.values(fields)) field.showError('');
      const name = error.field ?? fieldFor(error.message);
      const typed = fields[name].input.value.trim();
      // The core sees an empty or unreadable field as NaN; say what was actually typed.
      const message = error.message.replace(/, got nan$/i, typed === '' ? ', and the field is empty' : `, got \u201c${typed}\u201d`);
      fields[name].showError(message);
      staleNote.hidden = !shownOnce;
      return;
    }
    for (const field of Object.values(fields)) field.showError('');
    staleNote.hidden = true;
    try {
      showResults(setup, result);
      drawPlot(setup);
      shownOnce = true;
      problem.hidden = true;
    } catch (error) {
      problem.textContent = `The core could not compute this figure: ${error.message}`;
      problem.hidden = false;
      return;
    }
    // Only a valid set of inputs reaches the store, so a shared link always computes.
    state.set('cost.n', setup.n);
    if (!sameBox.checked) state.set('cost.m', setup.m);
    state.set('cost.same', sameBox.checked ? 'yes' : 'no');
    state.set('cost.d', setup.dModel);
    state.set('cost.h', setup.heads);
    state.set('cost.bytes', String(setup.bytesPerNumber));
  }

  function applyPreset(preset) {
    fields.n.input.value = String(preset.n);
    fields.d.input.value = String(preset.d);
    fields.h.input.value = String(preset.h);
    sameBox.checked = true;
    bytesPicker.set('4'); // the lesson's figures are for 32-bit floats
    syncSame();
    lastEdited = 'n';
    evaluate();
  }

  fields.n.input.value = String(state.get('cost.n'));
  fields.m.input.value = String(state.get('cost.m'));
  fields.d.input.value = String(state.get('cost.d'));
  fields.h.input.value = String(state.get('cost.h'));
  sameBox.checked = state.get('cost.same') === 'yes';
  syncSame();
  try {
    fillTable();
  } catch (error) {
    problem.textContent = `The core could not compute Table 1: ${error.message}`;
    problem.hidden = false;
  }
  evaluate();
}
