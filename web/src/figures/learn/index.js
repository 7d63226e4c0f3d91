// Figure "Watch it learn": two copies of one attention head, one dividing its scores by √d_k
// and one not, trained side by side by plain SGD from the same seed, task, data and initial
// weights. The WebAssembly core does all the arithmetic (forward, backward, the update and every
// number shown); this module runs it in short slices, keeps the curves and draws them.

import { figureBody, htmlElement } from '../../lib/dom/elements.js';
import { registerMatrix } from '../../lib/export/registry.js';
import { formatCount } from '../../lib/format/index.js';
import { createLearnControls, MAX_STEPS, SEED, SETTINGS } from './controls.js';
import { createCurves } from './curves.js';
import { COPIES, createLearnReadouts, formatMeasure } from './readouts.js';
import { createRunner } from './runner.js';
import { runSummary, stopReason, TARGET_LOSS } from './target.js';
import './learn.css'; // this figure's styles, bundled into styles.css

export { SETTINGS };

const TOKENS = 8;

export function mount(element, { lab, state, lifetime }) {
  state.defineAll(SETTINGS);

  const body = figureBody(element, 'figure-body learn');
  const { playButton, stepButton, resetButton, newSeedButton, counter, rateSlider, seedInput, show } =
    createLearnControls(body, state);
  // One status line, seen and read out alike: it changes only when something happens (a start,
  // a copy reaching the target, a stop, a reset), never with the step counter.
  const status = htmlElement('p', { class: 'learn-status', role: 'status', 'aria-live': 'polite' }, null, body);
  const readouts = createLearnReadouts(body, { tokens: TOKENS });
  const problem = htmlElement('p', { class: 'figure-error', role: 'alert', hidden: '' }, null, body);

  // ---- the session ----------------------------------------------------------------------------
  const curves = createCurves();
  let session = null;
  let sessionKey = '';
  let stopped = null; // why the last run stopped, until the next start or reset

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
      const c = now[copy.which];
      if (measure) curves.setCurrent(copy.which, c.current);
      readouts.showCopy(copy.which, c, measure ? c.current : curves.latest(copy.which));
    }
    return now;
  }

  let standing = null;
  const diverged = { scaled: false, unscaled: false }; // as the last train() call showed
  const standingFromCurves = () => Object.fromEntries(COPIES.map(({ which }) => [which,
    { reachedAt: curves.firstBelow(which, TARGET_LOSS), steps: curves.length(which), diverged: diverged[which] }]));
  function drawAll({ measure = true } = {}) {
    const now = refreshFromCore({ measure });
    counterSteps = Math.max(now.scaled.steps, now.unscaled.steps);
    for (const { which } of COPIES) diverged[which] = now[which].diverged;
    standing = standingFromCurves();
    readouts.showTarget(standing);
    readouts.showRightKeys(Array.from(now.answers, String));
    counter.textContent = formatCount(taken());
    readouts.showCurves(curves);
    problem.hidden = true;
  }
  readouts.tableBox.addEventListener('toggle', () => { if (readouts.tableBox.open) readouts.fillTable(curves); });

  /** Puts the run's summary in the status line when it says something new. */
  function announce() {
    const text = runSummary(standing, taken(), { running: runner.running, stopped });
    if (status.textContent !== text) status.textContent = text;
  }

  function trainSteps(count) {
    const out = session.train(count);
    curves.append('scaled', out.scaled);
    curves.append('unscaled', out.unscaled);
    // A copy that stopped short of the steps asked for has diverged (training.js).
    for (const { which } of COPIES) if (out[which].step.length < count) diverged[which] = true;
    counterSteps += count; // drawAll reads the exact counts back from the core
    offerCurves(true);
  }

  const runner = createRunner({
    train: trainSteps,
    afterSlice: (redraw) => {
      // Off screen nothing is drawn; the stop rule reads the curves, which every slice keeps.
      if (redraw && visible) drawAll({ measure: false });
      else standing = standingFromCurves();
      const reason = stopReason(standing, taken(), replayTo > 0 ? replayTo : MAX_STEPS);
      if (reason && replayTo === 0) {
        stopped = reason;
        runner.pause();
      }
      announce();
    },
    remaining: () => (replayTo > 0 ? replayTo : MAX_STEPS) - taken(),
    onRunningChange: (running) => {
      if (lifetime?.disposed) return; // the figure has gone: nothing to show or to save
      playButton.textContent = running ? 'Pause' : 'Start';
      stepButton.disabled = running;
      if (!running) {
        replayTo = 0;
        guarded(() => drawAll({ measure: true }));
        // The link now reproduces this run up to here.
        state.set('learn.steps', taken());
        announce();
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
    if (runner.running) {
      runner.pause();
    } else if (taken() < MAX_STEPS) {
      stopped = null;
      runner.start();
      announce();
    }
  }));
  stepButton.addEventListener('click', () => guarded(() => {
    if (runner.running || taken() >= MAX_STEPS) return;
    trainSteps(1);
    drawAll();
    state.set('learn.steps', taken());
    announce();
  }));
  resetButton.addEventListener('click', () => guarded(() => {
    runner.pause();
    stopped = null;
    session.reset();
    curves.clear();
    offerCurves(false);
    drawAll();
    state.set('learn.steps', 0);
    announce();
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
        stopped = null;
        drawAll();
        announce();
        if (!wasRunning) state.set('learn.steps', 0);
      });
    });
  }

  state.subscribe(['learn.dk', 'learn.task', 'learn.seed'], () => {
    show();
    replayTo = 0;
    scheduleRestart();
  });
  state.subscribe(['learn.lr'], () => {
    rateSlider.set(state.get('learn.lr'));
    guarded(() => session.setLearningRate(state.get('learn.lr')));
  });

  // A figure that leaves the page stops training at once (its session is disposed with it).
  lifetime?.add(() => {
    cancelAnimationFrame(pendingFrame);
    runner.pause();
  });

  // Drawn only while some of it is on screen; a figure scrolled away keeps training.
  let visible = true;
  const watcher = new IntersectionObserver((entries) => {
    visible = entries.some((entry) => entry.isIntersecting);
    if (visible && runner.running) drawAll({ measure: false });
  });
  watcher.observe(element);
  lifetime?.add(() => watcher.disconnect());

  seedInput.value = String(state.get('learn.seed'));
  ensureSession();
  drawAll();
  announce();
  if (replayTo > 0) runner.start();
}
