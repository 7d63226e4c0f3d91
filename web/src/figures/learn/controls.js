// The learn figure's settings and the controls that edit them: the task, d_k, the learning
// rate, the seed, and the Start / Step / Reset / New seed buttons with the step counter.

import { createPicker } from '../../lib/controls/picker.js';
import { createSlider } from '../../lib/controls/slider.js';
import { htmlElement, uniqueId } from '../../lib/dom/elements.js';

const KEY_WIDTHS = ['4', '8', '16', '32', '64', '128', '256', '512'];
const RATE = { min: 0.01, max: 5, default: 0.5 };
export const SEED = { min: 0, max: 999_999, default: 1 };
const TASKS = [
  { value: 'previous', text: 'previous token' },
  { value: 'match', text: 'key of the same type' },
];
// The page stops a run here (the core's session limit is higher); a learner can reset.
export const MAX_STEPS = 20_000;

export const SETTINGS = {
  'learn.dk': { type: 'enum', values: KEY_WIDTHS, default: '64' },
  'learn.lr': { type: 'number', min: RATE.min, max: RATE.max, default: RATE.default },
  'learn.task': { type: 'enum', values: TASKS.map((t) => t.value), default: 'previous' },
  'learn.seed': { type: 'integer', min: SEED.min, max: SEED.max, default: SEED.default },
  // The step a link was copied at: opening it trains to that step again, then waits.
  'learn.steps': { type: 'integer', min: 0, max: MAX_STEPS, default: 0 },
};

function button(parent, text, className = 'learn-button') {
  return htmlElement('button', { type: 'button', class: className }, text, parent);
}

/** The controls, the action buttons and the counter, appended to body; each writes the store. */
export function createLearnControls(body, state) {
  const controls = htmlElement('div', { class: 'figure-controls' }, null, body);
  const taskPicker = createPicker(controls, {
    label: 'task',
    hint: 'What each query must fetch; the loss is the squared error of the output against it.',
    options: TASKS, value: state.get('learn.task'),
    onChange: (value) => state.set('learn.task', value),
  });
  const widthSlider = createSlider(controls, {
    label: 'key width d\u2096',
    hint: 'Powers of two from 4 to 512. Changing it starts both copies again from a new start of that width.',
    min: 0, max: KEY_WIDTHS.length - 1, step: 1,
    value: KEY_WIDTHS.indexOf(state.get('learn.dk')),
    format: (i) => KEY_WIDTHS[i],
    onInput: (i) => state.set('learn.dk', KEY_WIDTHS[i]),
  });
  const rateSlider = createSlider(controls, {
    label: 'learning rate \u03b7',
    hint: 'Plain SGD, the same rate for both copies. It may change while they train; nothing is reset.',
    min: RATE.min, max: RATE.max, scale: 'log', steps: 120,
    value: state.get('learn.lr'),
    onInput: (value) => state.set('learn.lr', value),
  });
  const seedControl = htmlElement('div', { class: 'control learn-seed' }, null, controls);
  const seedId = uniqueId('learn-seed');
  htmlElement('label', { for: seedId, class: 'control-label' }, 'seed', seedControl);
  const seedInput = htmlElement('input', {
    type: 'number', id: seedId, min: SEED.min, max: SEED.max, step: 1, inputmode: 'numeric',
    'aria-describedby': `${seedId}-hint`,
  }, null, seedControl);
  htmlElement('p', { id: `${seedId}-hint`, class: 'control-hint' },
    'Draws the data and the one set of initial weights both copies start from.', seedControl);
  seedInput.addEventListener('change', () => {
    const value = Number(seedInput.value);
    if (Number.isInteger(value)) state.set('learn.seed', value);
    else seedInput.value = String(state.get('learn.seed'));
  });

  const actions = htmlElement('div', { class: 'learn-actions' }, null, body);
  const playButton = button(actions, 'Start', 'learn-button learn-primary');
  const stepButton = button(actions, 'Step');
  const resetButton = button(actions, 'Reset');
  const newSeedButton = button(actions, 'New seed');
  const counterLine = htmlElement('p', { class: 'learn-counter' }, null, actions);
  const counterId = uniqueId('learn-counter');
  htmlElement('label', { for: counterId, class: 'readout-label' }, 'steps taken', counterLine);
  const counter = htmlElement('output', { id: counterId, class: 'readout-value' }, '0', counterLine);

  /** Puts the controls back in line with the store (after a link or a New seed changed it). */
  function show() {
    widthSlider.set(KEY_WIDTHS.indexOf(state.get('learn.dk')));
    taskPicker.set(state.get('learn.task'));
    seedInput.value = String(state.get('learn.seed'));
  }

  return { playButton, stepButton, resetButton, newSeedButton, counter, rateSlider, seedInput, show };
}
