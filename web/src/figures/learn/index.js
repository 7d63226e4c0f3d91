// Figure "Watch it learn": two copies of one attention head, one dividing its scores by √d_k
// and one not, trained side by side by plain SGD from the same seed, task, data and initial
// weights. The WebAssembly core does all the arithmetic (forward, backward, the update and every
// number shown); this module runs it in short slices, keeps the curves and draws them.

import { createHeatmap } from '../../lib/charts/heatmap.js';
import { createPlot } from '../../lib/charts/plot.js';
import { createPicker } from '../../lib/controls/picker.js';
import { createReadout } from '../../lib/controls/readout.js';
import { createSlider } from '../../lib/controls/slider.js';
import { htmlElement, uniqueId } from '../../lib/dom/elements.js';
import { registerMatrix } from '../../lib/export/registry.js';
import { formatCount, formatSignificant, formatWeightExact } from '../../lib/format/index.js';
import { createCurves, MEASURES } from './curves.js';
import { createRunner } from './runner.js';
import './learn.css'; // this figure's styles, bundled into styles.css

const KEY_WIDTHS = ['4', '8', '16', '32', '64', '128', '256', '512'];
const RATE = { min: 0.01, max: 5, default: 0.5 };
const SEED = { min: 0, max: 999_999, default: 1 };
const TASKS = [
  { value: 'previous', text: 'previous token' },
  { value: 'match', text: 'key of the same type' },
];
const TOKENS = 8;
// The page stops a run here (the core's session limit is higher); a learner can reset.
const MAX_STEPS = 20_000;
// Progress is announced at most this often while training runs, never on every step.
const ANNOUNCE_EVERY_MS = 5000;

const SQRT_DK = '\u221ad\u2096';
const COPIES = [
  { which: 'scaled', title: `Scaled: softmax(Q K\u1d40 / ${SQRT_DK})`, short: 'scaled' },
  { which: 'unscaled', title: 'Unscaled: softmax(Q K\u1d40)', short: 'unscaled' },
];

/** Many decades on the page: three significant digits, powers of ten for the tiny ones. */
function formatMeasure(value) {
  if (!Number.isFinite(value)) return '\u2014';
  if (value !== 0 && Math.abs(value) < 1e-3) return formatWeightExact(value);
  return formatSignificant(value, 3);
}

function button(parent, text, className = 'learn-button') {
  return htmlElement('button', { type: 'button', class: className }, text, parent);
}

export function mount(element, { lab, state }) {
  state.define('learn.dk', { type: 'enum', values: KEY_WIDTHS, default: '64' });
  state.define('learn.lr', { type: 'number', min: RATE.min, max: RATE.max, default: RATE.default });
  state.define('learn.task', { type: 'enum', values: TASKS.map((t) => t.value), default: 'previous' });
  state.define('learn.seed', { type: 'integer', min: SEED.min, max: SEED.max, default: SEED.default });
  // The step a link was copied at: opening it trains to that step again, then waits.
  state.define('learn.steps', { type: 'integer', min: 0, max: MAX_STEPS, default: 0 });

  const body = htmlElement('div', { class: 'figure-body learn' });
  element.insertBefore(body, element.querySelector('figcaption'));

  // ---- controls ------------------------------------------------------------------------------
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
  const announcer = htmlElement('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' }, null, body);

  // ---- the two copies -------------------------------------------------------------------------
  const panels = htmlElement('div', { class: 'figure-panels figure-panels-even learn-copies' }, null, body);
  const labels = Array.from({ length: TOKENS }, (_, i) => String(i));
  const views = {};
  for (const copy of COPIES) {
    const panel = htmlElement('div', { class: 'figure-panel' }, null, panels);
    htmlElement('p', { class: 'panel-title' }, copy.title, panel);
    const heatmap = createHeatmap(panel, {
      rowLabels: labels, colLabels: labels, rowTitle: 'query', colTitle: 'key',
      label: `${copy.short} copy: attention weights of the first training sequence, queries by keys`,
      exportName: `${copy.short} copy: weights`,
      rowNotes: { title: 'right key', name: 'right key', chars: 3 },
    });
    const readouts = htmlElement('div', { class: 'readouts learn-readouts' }, null, panel);
    const read = Object.fromEntries(MEASURES.map((m) => [m.key, createReadout(readouts, `${copy.short} copy: ${m.title}`)]));
    const diverged = htmlElement('p', { class: 'learn-diverged', hidden: '' }, null, panel);
    views[copy.which] = { heatmap, read, diverged };
  }

  // ---- the curves ---------------------------------------------------------------------------
  const plots = htmlElement('div', { class: 'learn-plots' }, null, body);
  const plotPanel = (title) => {
    const panel = htmlElement('div', { class: 'figure-panel' }, null, plots);
    htmlElement('p', { class: 'panel-title' }, title, panel);
    return panel;
  };
  const lossPlot = createPlot(plotPanel('Loss (log scale)'), {
    label: 'loss of both copies against the step, log scale', exportName: 'loss curves',
    xLabel: 'step', yLabel: 'loss (squared error)', yScale: 'log10',
  });
  const spreadPlot = createPlot(plotPanel('Mean p(1\u2212p) over every weight'), {
    label: 'mean p(1 minus p) of both copies against the step', exportName: 'mean p(1\u2212p) curves',
    xLabel: 'step', yLabel: 'mean p(1\u2212p)', yDomain: [0, 0.25],
  });
  const gradientPlot = createPlot(plotPanel('Gradient norm \u2016dW_Q\u2016 (log scale)'), {
    label: 'norm of the gradient of W_Q for both copies against the step, log scale', exportName: 'gradient norm curves',
    xLabel: 'step', yLabel: '\u2016dL/dW_Q\u2016', yScale: 'log10',
  });

  const tableBox = htmlElement('details', { class: 'learn-table' }, null, body);
  htmlElement('summary', {}, 'The curves as a table', tableBox);
  const tableWrap = htmlElement('div', { class: 'learn-table-wrap', role: 'region', tabindex: '0', 'aria-label': 'training curves table' }, null, tableBox);
  const table = htmlElement('table', {}, null, tableWrap);
  htmlElement('caption', {}, 'Both copies at about a dozen steps from the start to now (every step is in the Export menu).', table);
  const headRow = htmlElement('tr', {}, null, htmlElement('thead', {}, null, table));
  htmlElement('th', { scope: 'col' }, 'step', headRow);
  for (const copy of COPIES) {
    for (const m of MEASURES) htmlElement('th', { scope: 'col' }, `${copy.short} ${m.title}`, headRow);
  }
  const tableBody = htmlElement('tbody', {}, null, table);
  const problem = htmlElement('p', { class: 'figure-error', role: 'alert', hidden: '' }, null, body);

  // ---- the session ----------------------------------------------------------------------------
  const curves = createCurves();
  let session = null;
  let sessionKey = '';
  let lastAnnounced = 0;

  // Every step of both curves, offered in the Export menu once there is a step to offer.
  let unregisterCurves = null;
  function offerCurves(offer) {
    if (offer && !unregisterCurves) {
      unregisterCurves = registerMatrix(element, 'training curves, every step',
        () => ({ ...curves.everyStep(), rowTitle: 'step', colTitle: 'measure' }));
    } else if (!offer && unregisterCurves) {
      unregisterCurves();
      unregisterCurves = null;
    }
  }

  const settingsKey = () => ['dk', 'task', 'seed'].map((k) => state.get(`learn.${k}`)).join('|');
  let counterSteps = 0; // updates taken by the copy that has taken the most (a diverged one stops)
  const taken = () => counterSteps;
  let replayTo = state.get('learn.steps');

  function showError(error) {
    problem.textContent = `The core could not train this setting: ${error.message}`;
    problem.hidden = false;
  }

  /** A new session when d_k, the task or the seed changed; the old one is freed. */
  function ensureSession() {
    if (session && sessionKey === settingsKey()) return;
    session?.dispose();
    session = null;
    curves.clear();
    offerCurves(false);
    sessionKey = settingsKey();
    session = lab.createTraining({
      task: state.get('learn.task'), dk: Number(state.get('learn.dk')), tokens: TOKENS,
      learningRate: state.get('learn.lr'), seed: state.get('learn.seed'),
    });
  }

  // While a run goes on, the readouts show each copy's latest step record (measured before that
  // step's update, so one step behind the counter); when it stops, the core measures the current
  // weights, which costs as much as a step and is the next step's record to the bit.
  function refreshFromCore({ measure }) {
    const now = session.state({ measure });
    for (const copy of COPIES) {
      const view = views[copy.which];
      const c = now[copy.which];
      if (measure) curves.setCurrent(copy.which, c.current);
      const shown = measure ? c.current : curves.latest(copy.which);
      view.heatmap.update(c.weights);
      if (shown) {
        for (const m of MEASURES) view.read[m.key].output.textContent = formatMeasure(shown[m.key]);
        view.read.loss.note.textContent = `at step ${formatCount(shown.step)}`;
      }
      view.diverged.hidden = !c.diverged;
      view.diverged.textContent = c.diverged
        ? `This copy diverged at step ${formatCount(c.steps)}: its loss or gradient left any sane range, so it stopped there. Lower the learning rate and reset.`
        : '';
    }
    return now;
  }

  let rightKeys = '';
  function drawAll({ measure = true } = {}) {
    const now = refreshFromCore({ measure });
    counterSteps = Math.max(now.scaled.steps, now.unscaled.steps);
    const keys = Array.from(now.answers, String);
    if (keys.join() !== rightKeys) {
      rightKeys = keys.join();
      for (const copy of COPIES) views[copy.which].heatmap.setRowNotes(keys);
    }
    counter.textContent = formatCount(taken());
    const series = (key) => COPIES.map((copy) => ({ name: `${copy.short} copy`, ...curves.thinned(copy.which, key) }));
    lossPlot.update({ series: series('loss') });
    spreadPlot.update({ series: series('meanPOneMinusP') });
    gradientPlot.update({ series: series('gradientNormQ') });
    if (tableBox.open) fillTable();
    problem.hidden = true;
  }

  function fillTable() {
    tableBody.replaceChildren();
    for (const row of curves.tableRows()) {
      const tr = htmlElement('tr', {}, null, tableBody);
      htmlElement('th', { scope: 'row' }, formatCount(row.step), tr);
      for (const copy of COPIES) {
        for (const m of MEASURES) htmlElement('td', {}, row[copy.which] ? formatMeasure(row[copy.which][m.key]) : '\u2014', tr);
      }
    }
  }
  tableBox.addEventListener('toggle', () => { if (tableBox.open) fillTable(); });

  function announce(force = false) {
    const time = performance.now();
    if (!force && time - lastAnnounced < ANNOUNCE_EVERY_MS) return;
    lastAnnounced = time;
    const s = curves.shown('scaled');
    const u = curves.shown('unscaled');
    if (!s || !u) return;
    announcer.textContent = `Step ${formatCount(taken())}: loss ${formatMeasure(s.loss)} scaled, ${formatMeasure(u.loss)} unscaled.`;
  }

  function trainSteps(count) {
    const out = session.train(count);
    curves.append('scaled', out.scaled);
    curves.append('unscaled', out.unscaled);
    counterSteps += count; // drawAll reads the exact counts back from the core
    offerCurves(true);
  }

  const runner = createRunner({
    train: trainSteps,
    afterSlice: () => {
      drawAll({ measure: false });
      announce();
    },
    remaining: () => (replayTo > 0 ? replayTo : MAX_STEPS) - taken(),
    onRunningChange: (running) => {
      playButton.textContent = running ? 'Pause' : 'Start';
      stepButton.disabled = running;
      if (!running) {
        replayTo = 0;
        guarded(() => drawAll({ measure: true }));
        // The link now reproduces this run up to here.
        state.set('learn.steps', taken());
        announce(true);
      }
    },
  });

  function guarded(action) {
    try {
      action();
    } catch (error) {
      runner.pause();
      showError(error);
    }
  }

  playButton.addEventListener('click', () => guarded(() => {
    if (runner.running) runner.pause();
    else if (taken() < MAX_STEPS) runner.start();
  }));
  stepButton.addEventListener('click', () => guarded(() => {
    if (runner.running || taken() >= MAX_STEPS) return;
    trainSteps(1);
    drawAll();
    state.set('learn.steps', taken());
    announce(true);
  }));
  resetButton.addEventListener('click', () => guarded(() => {
    runner.pause();
    session.reset();
    curves.clear();
    offerCurves(false);
    drawAll();
    state.set('learn.steps', 0);
    announce(true);
  }));
  newSeedButton.addEventListener('click', () => {
    const seed = state.get('learn.seed');
    state.set('learn.seed', seed >= SEED.max ? SEED.min : seed + 1);
  });

  // Settings that make a new start are applied once per frame, however fast a slider moves;
  // the run goes on (from step 0) if it was running.
  let pendingFrame = 0;
  function scheduleRestart() {
    if (pendingFrame) return;
    pendingFrame = requestAnimationFrame(() => {
      pendingFrame = 0;
      guarded(() => {
        const wasRunning = runner.running;
        ensureSession();
        drawAll();
        if (!wasRunning) state.set('learn.steps', 0);
      });
    });
  }

  state.subscribe(['learn.dk', 'learn.task', 'learn.seed'], () => {
    widthSlider.set(KEY_WIDTHS.indexOf(state.get('learn.dk')));
    taskPicker.set(state.get('learn.task'));
    seedInput.value = String(state.get('learn.seed'));
    replayTo = 0;
    scheduleRestart();
  });
  state.subscribe(['learn.lr'], () => {
    rateSlider.set(state.get('learn.lr'));
    guarded(() => session.setLearningRate(state.get('learn.lr')));
  });

  seedInput.value = String(state.get('learn.seed'));
  ensureSession();
  drawAll();
  if (replayTo > 0) runner.start();
}
