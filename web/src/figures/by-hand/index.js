// Figure "One query by hand": the lesson's 2-D worked example, with every vector movable.
//
// A query q, three keys and three values are arrows on two small planes (vectors.js). The
// learner drags an arrow tip, types its components, or moves a focused tip with the arrow
// keys. A stepper (stepper.js) walks the four steps (dot products, scale by √d_k, softmax,
// weighted sum); at each step the learner may type a prediction and press Check, which
// compares it with the core's number. Beside it, a short C++ function for one query
// (code.js) has the lines of the current step highlighted. Presets load the lesson's cases:
// the query [1, 0], the sharper query [4, 0] and every token as a query (every-token.js).
// Finally the dot-product score is set beside Bahdanau's additive score (additive.js).
//
// Every number shown is computed by the WebAssembly core on each change (model.js holds the
// calls); this module wires the parts to the store and to one render.

import { figureBody, htmlElement } from '../../lib/dom/elements.js';
import { createToggle } from '../../lib/controls/toggle.js';
import { registerMatrix } from '../../lib/export/registry.js';
import { createAdditive } from './additive.js';
import { createCodeBox } from './code.js';
import { createEveryToken } from './every-token.js';
import {
  KEY_IDS, NAME, PRESETS, SETTINGS, VECTORS, computeOneQuery, vectorKey, vectorsOf,
} from './model.js';
import { createStepper } from './stepper.js';
import { createVectorsPanel } from './vectors.js';
import { createFigureProblem } from '../../lib/dom/figure-problem.js';
// This figure's styles, bundled into styles.css in this order: the shared rules, then each part's.
import './by-hand.css';
import './planes.css';
import './fields.css';
import './stepper.css';
import './table.css';
import './code-and-compare.css';
import './slide.css'; // last: the slide layout's rules override the page's

export { SETTINGS };

/** Its predict-then-check reports a score as the learner checks steps (lib/lms/progress.js). */
export const REPORTS_PROGRESS = true;

export function mount(element, { lab, state }) {
  state.defineAll(SETTINGS);

  const body = figureBody(element, 'figure-body by-hand');

  // --- presets and the "cover" switch ----------------------------------------------------
  const controls = htmlElement('div', { class: 'figure-controls by-hand-controls' }, null, body);
  const presetGroup = htmlElement('div', { class: 'by-hand-presets', role: 'group', 'aria-label': 'presets' }, null, controls);
  htmlElement('span', { class: 'control-label' }, 'Load an example', presetGroup);
  const presetRow = htmlElement('div', { class: 'by-hand-button-row' }, null, presetGroup);
  for (const preset of PRESETS) {
    const button = htmlElement('button', { type: 'button', class: 'by-hand-button' }, preset.label, presetRow);
    button.addEventListener('click', () => {
      const entries = [];
      for (const vector of VECTORS) {
        const values = vector.id === 'q' ? preset.q : vector.defaults;
        entries.push([vectorKey(vector.id, 'x'), values[0]], [vectorKey(vector.id, 'y'), values[1]]);
      }
      entries.push([`${NAME}.table`, preset.table]);
      state.setMany(entries);
    });
  }
  createToggle(controls, { state, key: `${NAME}.hide`, label: 'Cover the numbers I have not checked yet', inline: true });

  // The "every token as query" table opens here, right under the preset that asks for it.
  const everyTokenSlot = htmlElement('div', { class: 'by-hand-every-token-slot' }, null, body);

  // --- shared state of the parts -------------------------------------------------------------
  const revealed = new Set(); // steps the learner has got right, or asked the answer of
  let result = null; // the core's answer for the current vectors (null after a failure)
  /**
   * Whether step s (1-based) must be shown as "?": covering is on and the learner has neither
   * got it right nor asked for it. Moving on to a later step uncovers nothing, and revealing
   * one step uncovers only that step, so no prompt gives away an earlier unchecked answer.
   */
  const covered = (s) => state.get(`${NAME}.hide`) && !revealed.has(s);

  // For the Export menu: the one-query result; a step still covered by "?" exports empty.
  const keyLabels = KEY_IDS.map((id) => `key ${id.slice(1)}`);
  const oneQuery = (pick, step, colLabels, colTitle) => () => (result ? {
    values: [Array.from(pick(result), (v) => (covered(step) ? null : v))],
    rowLabels: ['q'], colLabels, rowTitle: 'query', colTitle,
  } : null);
  registerMatrix(element, 'raw scores q\u00b7k\u2c7c', oneQuery((r) => r.raw, 1, keyLabels, 'key'));
  registerMatrix(element, 'scaled scores q\u00b7k\u2c7c / \u221ad\u2096', oneQuery((r) => r.scaled, 2, keyLabels, 'key'));
  registerMatrix(element, 'weights softmax(scaled scores)', oneQuery((r) => r.weights, 3, keyLabels, 'key'));
  registerMatrix(element, 'output (weights \u00b7 V)', oneQuery((r) => r.output, 4, ['x', 'y'], 'component'));

  // --- the parts -------------------------------------------------------------------------------
  const panels = htmlElement('div', { class: 'figure-panels by-hand-panels' }, null, body);
  const vectorsPanel = createVectorsPanel(panels, { state, onRelease: () => render() });
  const stepper = createStepper(panels, {
    state,
    getResult: () => result,
    onRevealed: (step) => {
      revealed.add(step);
      render();
    },
  });
  const code = createCodeBox(body);
  const everyToken = createEveryToken(everyTokenSlot, { element, state, lab });
  const additive = createAdditive(body, { element, lab });
  const problem = createFigureProblem(body);

  function render() {
    const step = state.get(`${NAME}.step`);
    vectorsPanel.renderFields();
    stepper.render(step);
    code.render(step);
    try {
      const vectors = vectorsOf(state);
      result = computeOneQuery(lab, vectors);
      stepper.renderWorking(result, covered);
      vectorsPanel.renderPlanes(vectors, result, covered);
      everyToken.render(state.get(`${NAME}.table`), result, covered);
      additive.render(result, covered);
      problem.clear();
    } catch (error) {
      result = null;
      everyToken.clear();
      additive.clear();
      problem.show(error);
    }
  }

  // One listener for every key: a batch (a preset, a dragged tip) renders once. When the
  // vectors moved, checked steps are covered again and old feedback goes.
  let drawnVectors = JSON.stringify(vectorsOf(state));
  state.subscribe(Object.keys(SETTINGS), () => {
    const now = JSON.stringify(vectorsOf(state));
    if (now !== drawnVectors) {
      drawnVectors = now;
      revealed.clear();
      stepper.clearFeedback();
    }
    render();
  });
  render();
}
