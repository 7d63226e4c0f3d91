// Figure "What one layer costs": a calculator over the core's cost model (multiply-adds of
// Q Kᵀ, A·V and the four projections, memory of the attention weights, parameters), a log-log
// plot of the pairs against the projections as the sequence grows, and the first three rows
// of Table 1 of the paper at two lengths. Every number is computed by the WebAssembly core;
// the inputs keep whatever the learner typed, and an invalid one shows the core's message
// beside its field while the results are cleared to "—" (numbers of other inputs would read
// as answers to these). The inputs are fields.js's, the results panel and the reading of the
// fields results.js's, the plot growth.js's, the table table-one.js's.

import { figureBody, htmlElement } from '../../lib/dom/elements.js';
import { createCostFields } from './fields.js';
import { createGrowthPlot } from './growth.js';
import { createResultsPanel, quoted, readSetup } from './results.js';
import { SETTINGS } from './settings.js';
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

/** The preset buttons, each a layer of a known model; onPick(preset) fills the fields. */
function drawPresets(body, onPick) {
  const bar = htmlElement('div', { class: 'cost-presets', role: 'group', 'aria-label': 'presets' }, null, body);
  htmlElement('span', { class: 'cost-presets-title', 'aria-hidden': 'true' }, 'Presets:', bar);
  for (const preset of PRESETS) {
    const button = htmlElement('button', { type: 'button', class: 'cost-preset' }, null, bar);
    htmlElement('span', { class: 'cost-preset-name' }, preset.name, button);
    // Read between name and detail by screen readers; the two lines separate them on screen.
    htmlElement('span', { class: 'cost-preset-separator' }, ', ', button);
    htmlElement('span', { class: 'cost-preset-detail' }, preset.detail, button);
    button.addEventListener('click', () => onPick(preset));
  }
}

/** The field a message of the core's is about (by the name it starts with), else `fallback`. */
function fieldFor(message, fallback) {
  if (/^n\b/.test(message)) return 'n';
  if (/^m\b/.test(message)) return 'm';
  if (/^d_model\b/.test(message)) return 'd';
  if (/^heads h\b/.test(message)) return 'h';
  return fallback;
}

export function mount(element, { lab, state, lifetime }) {
  state.defineAll(SETTINGS);

  const body = figureBody(element, 'figure-body cost');

  drawPresets(body, (preset) => applyPreset(preset));

  let lastEdited = 'n';
  const inputs = createCostFields(body, {
    state,
    onEdit: (name, { committed }) => {
      lastEdited = name;
      evaluate({ committed });
    },
  });
  const { fields } = inputs;

  // ---- Results ------------------------------------------------------------------------------
  const panels = htmlElement('div', { class: 'figure-panels cost-panels' }, null, body);
  const results = createResultsPanel(panels);

  const plot = createGrowthPlot(panels, { lab });
  const problem = createFigureProblem(body);

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
      setup = readSetup(fields, { same: inputs.same, bytes: inputs.bytes });
      result = lab.cost(setup);
    } catch (error) {
      for (const field of Object.values(fields)) field.showError('');
      const name = error.field ?? fieldFor(error.message, lastEdited in fields ? lastEdited : 'n');
      const typed = fields[name].input.value.trim();
      // The core sees an empty or unreadable field as NaN; say what was actually typed.
      const message = error.message.replace(/, got nan$/i, typed === '' ? ', and the field is empty' : `, got \u201c${quoted(typed)}\u201d`);
      const say = () => fields[name].showError(message);
      if (committed) say();
      else pendingMessage = setTimeout(say, TYPING_PAUSE_MS);
      // The last valid numbers stay, marked stale at once: they answer other inputs.
      if (shownOnce) {
        results.markStale(true);
      } else {
        results.clear();
        plot.clear?.();
      }
      return;
    }
    for (const field of Object.values(fields)) field.showError('');
    results.markStale(false);
    try {
      results.show(setup, result);
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
        ...(inputs.same ? [] : [['cost.m', setup.m]]),
        ['cost.same', inputs.same],
        ['cost.d', setup.dModel],
        ['cost.h', setup.heads],
        ['cost.bytes', String(setup.bytesPerNumber)],
      ]);
    } finally {
      writing = false;
    }
  }

  // The fields follow the store when an element's attributes (or a link) change it.
  let writing = false;
  state.subscribe(Object.keys(SETTINGS), () => {
    if (writing) return;
    inputs.fill();
    evaluate();
  });

  function applyPreset(preset) {
    inputs.preset(preset);
    lastEdited = 'n';
    evaluate();
  }

  inputs.fill();
  try {
    createTableOne(body, { lab });
  } catch (error) {
    problem.show(error, 'compute Table 1');
  }
  evaluate();
}
