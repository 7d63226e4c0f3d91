// Figure "What one layer costs": a calculator over the core's cost model (multiply-adds of
// Q Kᵀ, A·V and the four projections, memory of the attention weights, parameters), a log-log
// plot of the pairs against the projections as the sequence grows, and the first three rows
// of Table 1 of the paper at two lengths. Every number is computed by the WebAssembly core;
// the inputs keep whatever the learner typed, and an invalid one shows the core's message
// beside its field while the results are cleared to "—" (numbers of other inputs would read
// as answers to these). The plot is growth.js's,
// the table table-one.js's.

import { createNumberField, readCount } from '../../lib/controls/number-field.js';
import { createPicker } from '../../lib/controls/picker.js';
import { createReadout } from '../../lib/controls/readout.js';
import { figureBody, htmlElement, uniqueId } from '../../lib/dom/elements.js';
import { formatAmount, formatBytes, formatCount, formatSignificant } from '../../lib/format/index.js';
import { createGrowthPlot } from './growth.js';
import { BYTE_CHOICES, LARGEST, SETTINGS } from './settings.js';
import { createTableOne } from './table-one.js';
import { createFigureProblem } from '../../lib/dom/figure-problem.js';
import './cost.css'; // this figure's styles, bundled into styles.css

// The settings, and the rule that moves a link's h, d_model, n and m to ones that fit together.
export { SETTINGS, resolveSettings } from './settings.js';

const PRESETS = [
  { name: 'toy sentence', detail: 'n = 8, d = 16, h = 4', n: 8, d: 16, h: 4 },
  { name: 'ViT image', detail: 'n = 196, d = 768, h = 12', n: 196, d: 768, h: 12 },
  { name: 'pixels', detail: 'n = 224 \u00d7 224, d = 768, h = 12', n: 224 * 224, d: 768, h: 12 },
];
const DASH = { initial: '\u2014' }; // shown until the first valid input

export function mount(element, { lab, state, lifetime }) {
  state.defineAll(SETTINGS);

  const body = figureBody(element, 'figure-body cost');

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
  const edited = (name) => (text, { committed }) => {
    lastEdited = name;
    if (name === 'n' && sameBox.checked) fields.m.input.value = fields.n.input.value;
    evaluate({ committed });
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
  const qk = createReadout(computeList, 'multiply-adds for Q K\u1d40', DASH);
  const av = createReadout(computeList, 'multiply-adds for A\u00b7V', DASH);
  const projections = createReadout(computeList, 'multiply-adds for the four projections', DASH);
  const ratio = createReadout(computeList, 'projections \u00f7 (Q K\u1d40 + A\u00b7V)', DASH);
  const memoryList = htmlElement('div', { class: 'readouts' }, null, resultPanel);
  const perHead = createReadout(memoryList, 'attention weights, one head', DASH);
  const allHeads = createReadout(memoryList, 'attention weights, all heads', DASH);
  const parameters = createReadout(memoryList, 'parameters', DASH);
  const parameterBytes = createReadout(memoryList, 'parameter memory', DASH);
  const staleNote = htmlElement('p', { class: 'cost-stale', hidden: '' },
    'No numbers until the field marked in red is fixed.', resultPanel);
  const readouts = [qk, av, projections, ratio, perHead, allHeads, parameters, parameterBytes];

  const plot = createGrowthPlot(panels, { lab });
  const problem = createFigureProblem(body);

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
    allHeads.note.textContent = `\u00d7 ${formatCount(setup.heads)} head${setup.heads === 1 ? '' : 's'}`;
    parameters.output.textContent = formatCount(c.parameters);
    parameters.note.textContent = '4\u00b7d\u00b2, whatever h is';
    parameterBytes.output.textContent = formatBytes(c.parameterBytes);
  }

  const FIELD_NAMES = { n: 'n', m: 'm', d: 'd_model', h: 'heads h' };
  function readSetup() {
    const counts = {
      n: readCount(fields.n.input.value),
      m: readCount((sameBox.checked ? fields.n : fields.m).input.value),
      d: readCount(fields.d.input.value),
      h: readCount(fields.h.input.value),
    };
    const values = {};
    for (const [name, { value, problem }] of Object.entries(counts)) {
      const field = name === 'm' && sameBox.checked ? 'n' : name;
      const typed = quoted(fields[field].input.value.trim());
      // Commas and separators: the page's one rule for typed numbers (lib/controls/number-field.js).
      if (problem) throw Object.assign(new Error(`${FIELD_NAMES[field]} = \u201c${typed}\u201d is ${problem}`), { field });
      if (value > LARGEST) {
        throw Object.assign(new Error(`${FIELD_NAMES[field]} = ${typed} is more than this calculator takes (at most ${formatCount(LARGEST)})`), { field });
      }
      values[name] = value;
    }
    return { n: values.n, m: values.m, dModel: values.d, heads: values.h, bytesPerNumber: Number(bytesPicker.value) };
  }

  // A message quotes what was typed, but only its start: 500 pasted digits must not become a
  // 3,600 px line.
  const MAX_QUOTED = 24;
  const quoted = (text) => (text.length > MAX_QUOTED
    ? `${text.slice(0, MAX_QUOTED)}\u2026 (${formatCount(text.length)} characters)` : text);

  let shownOnce = false;
  // A field's message is an alert, read out at once: while the reader types ("1e" on the way to
  // "1e6", an emptied field before the new number), it waits for a pause in the typing, and
  // comes at once when the field is committed. The numbers are withdrawn at once either way.
  const TYPING_PAUSE_MS = 800;
  let pendingMessage = 0;
  lifetime?.add(() => clearTimeout(pendingMessage));
  function evaluate({ committed = true } = {}) {
    clearTimeout(pendingMessage);
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
      const message = error.message.replace(/, got nan$/i, typed === '' ? ', and the field is empty' : `, got \u201c${quoted(typed)}\u201d`);
      const say = () => {
        fields[name].showError(message);
        staleNote.hidden = !shownOnce;
      };
      if (committed) say();
      else pendingMessage = setTimeout(say, TYPING_PAUSE_MS);
      // Never leave the numbers of other inputs on screen as if they answered these.
      for (const readout of readouts) {
        readout.output.textContent = DASH.initial;
        readout.note.textContent = '';
      }
      plot.clear?.();
      return;
    }
    for (const field of Object.values(fields)) field.showError('');
    staleNote.hidden = true;
    try {
      showResults(setup, result);
      plot.draw(setup);
      shownOnce = true;
      problem.clear();
    } catch (error) {
      problem.show(error);
      return;
    }
    // Only a valid set of inputs reaches the store, as one change, so a shared link always computes.
    writing = true;
    try {
      state.setMany([
        ['cost.n', setup.n],
        ...(sameBox.checked ? [] : [['cost.m', setup.m]]),
        ['cost.same', sameBox.checked ? 'yes' : 'no'],
        ['cost.d', setup.dModel],
        ['cost.h', setup.heads],
        ['cost.bytes', String(setup.bytesPerNumber)],
      ]);
    } finally {
      writing = false;
    }
  }

  // The fields from the store: at the start, and when an element's attributes change it.
  let writing = false;
  function fillFields() {
    fields.n.input.value = String(state.get('cost.n'));
    fields.m.input.value = String(state.get('cost.m'));
    fields.d.input.value = String(state.get('cost.d'));
    fields.h.input.value = String(state.get('cost.h'));
    sameBox.checked = state.get('cost.same') === 'yes';
    bytesPicker.set(state.get('cost.bytes'));
    syncSame();
  }
  state.subscribe(Object.keys(SETTINGS), () => {
    if (writing) return;
    fillFields();
    evaluate();
  });

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

  fillFields();
  try {
    createTableOne(body, { lab });
  } catch (error) {
    problem.show(error, 'compute Table 1');
  }
  evaluate();
}
