// Figure "Watch it learn": two copies of one attention head, one dividing its scores by √d_k
// and one not, trained side by side by plain SGD from the same seed, task, data and initial
// weights. The WebAssembly core does all the arithmetic (forward, backward, the update and every
// number shown); this module puts the parts together: the driver (session.js) holds the core's
// session and the curves, the runner (runner.js) trains in short slices, the view draws.

import { figureBody, htmlElement } from '../../lib/dom/elements.js';
import { registerMatrix } from '../../lib/export/registry.js';
import { formatCount } from '../../lib/format/index.js';
import { createLearnControls, MAX_STEPS, SEED, SETTINGS } from './controls.js';
import { COPIES, createLearnReadouts } from './readouts.js';
import { createRunner } from './runner.js';
import { createLearnDriver } from './session.js';
import { runSummary, stopReason, TARGET_LOSS } from './target.js';
import './learn.css'; // this figure's styles, bundled into styles.css

export { SETTINGS };

const TOKENS = 8;

export function mount(element, { lab, state, lifetime }) {
  state.defineAll(SETTINGS);

  const body = figureBody(element, 'figure-body learn');
  const controls = createLearnControls(body, state);
  // One status line, seen and read out alike: it changes only when something happens (a start,
  // a copy reaching the target, a stop, a reset), never with the step counter.
  const status = htmlElement('p', { class: 'learn-status', role: 'status', 'aria-live': 'polite' }, null, body);
  const readouts = createLearnReadouts(body, { tokens: TOKENS });
  const problem = htmlElement('p', { class: 'figure-error', role: 'alert', hidden: '' }, null, body);

  const driver = createLearnDriver({ lab, state, tokens: TOKENS, onHasSteps: curvesExport(element, () => driver.curves) });
  const view = createLearnView({ driver, readouts, counter: controls.counter, status, problem });
  readouts.tableBox.addEventListener('toggle', () => { if (readouts.tableBox.open) readouts.fillTable(driver.curves); });

  let replayTo = state.get('learn.steps');
  const runner = createRunner({
    train: driver.train,
    afterSlice: (redraw) => {
      // Off screen nothing is drawn; the stop rule reads the curves, which every slice keeps.
      if (redraw && visible) view.draw({ measure: false });
      const reason = stopReason(driver.standing(TARGET_LOSS), driver.taken(), MAX_STEPS);
      if (reason && replayTo === 0) {
        view.stopped = reason;
        runner.pause();
      }
      view.announce(runner.running);
    },
    remaining: () => (replayTo > 0 ? replayTo : MAX_STEPS) - driver.taken(),
    onRunningChange: (running) => {
      if (lifetime?.disposed) return; // the figure has gone: nothing to show or to save
      controls.playButton.textContent = running ? 'Pause' : 'Start';
      controls.stepButton.disabled = running;
      if (!running) {
        replayTo = 0;
        guarded(() => view.draw({ measure: true }));
        // The link now reproduces this run up to here.
        state.set('learn.steps', driver.taken());
        view.announce(false);
      }
    },
  });

  function guarded(action) {
    try {
      action();
    } catch (error) {
      runner.pause();
      view.showError(error);
    }
  }

  const restart = wireLearnControls({ controls, state, driver, view, runner, guarded });
  state.subscribe(['learn.dk', 'learn.task', 'learn.seed'], () => {
    controls.show();
    replayTo = 0;
    restart.schedule();
  });

  // A figure that leaves the page stops training at once (its session is disposed with it).
  lifetime?.add(() => {
    restart.cancel();
    runner.pause();
  });

  // Drawn only while some of it is on screen; a figure scrolled away keeps training.
  let visible = true;
  const watcher = new IntersectionObserver((entries) => {
    visible = entries.some((entry) => entry.isIntersecting);
    if (visible && runner.running) view.draw({ measure: false });
  });
  watcher.observe(element);
  lifetime?.add(() => watcher.disconnect());

  controls.seedInput.value = String(state.get('learn.seed'));
  driver.ensure();
  view.draw();
  view.announce(false);
  if (replayTo > 0) runner.start();
}

/** Every step of both curves, offered in the Export menu while there is a step to offer. */
function curvesExport(element, curves) {
  let unregister = null;
  return (offer) => {
    if (offer && !unregister) {
      unregister = registerMatrix(element, 'training curves, every step',
        () => ({ ...curves().everyStep(), rowTitle: 'step', colTitle: 'measure' }));
    } else if (!offer && unregister) {
      unregister();
      unregister = null;
    }
  };
}

/** What the figure shows of the driver's session: the readouts, the counter, the status line. */
function createLearnView({ driver, readouts, counter, status, problem }) {
  return {
    stopped: null, // why the last run stopped, until the next start, reset or new session
    draw({ measure = true } = {}) {
      const now = driver.read({ measure });
      for (const copy of COPIES) {
        const c = now[copy.which];
        readouts.showCopy(copy.which, c, measure ? c.current : driver.curves.latest(copy.which));
      }
      readouts.showTarget(driver.standing(TARGET_LOSS));
      readouts.showRightKeys(Array.from(now.answers, String));
      counter.textContent = formatCount(driver.taken());
      readouts.showCurves(driver.curves);
      problem.hidden = true;
    },
    /** The run's summary in the status line, written only when it says something new. */
    announce(running) {
      const text = runSummary(driver.standing(TARGET_LOSS), driver.taken(), { running, stopped: this.stopped });
      if (status.textContent !== text) status.textContent = text;
    },
    showError(error) {
      problem.textContent = `The core could not train this setting: ${error.message}`;
      problem.hidden = false;
    },
  };
}

/**
 * The buttons and the learning rate. Returns the restart that settings making a new start go
 * through: applied once per frame, however fast a slider moves; the run goes on (from step 0)
 * if it was running.
 */
function wireLearnControls({ controls, state, driver, view, runner, guarded }) {
  const { playButton, stepButton, resetButton, newSeedButton, rateSlider } = controls;
  playButton.addEventListener('click', () => guarded(() => {
    if (runner.running) {
      runner.pause();
    } else if (driver.taken() < MAX_STEPS) {
      view.stopped = null;
      runner.start();
      view.announce(true);
    }
  }));
  stepButton.addEventListener('click', () => guarded(() => {
    if (runner.running || driver.taken() >= MAX_STEPS) return;
    driver.train(1);
    view.draw();
    state.set('learn.steps', driver.taken());
    view.announce(false);
  }));
  resetButton.addEventListener('click', () => guarded(() => {
    runner.pause();
    view.stopped = null;
    driver.reset();
    view.draw();
    state.set('learn.steps', 0);
    view.announce(false);
  }));
  newSeedButton.addEventListener('click', () => {
    const seed = state.get('learn.seed');
    state.set('learn.seed', seed >= SEED.max ? SEED.min : seed + 1);
  });
  state.subscribe(['learn.lr'], () => {
    rateSlider.set(state.get('learn.lr'));
    guarded(() => driver.setLearningRate(state.get('learn.lr')));
  });

  let pendingFrame = 0;
  return {
    schedule() {
      if (pendingFrame) return;
      pendingFrame = requestAnimationFrame(() => {
        pendingFrame = 0;
        guarded(() => {
          const wasRunning = runner.running;
          driver.ensure();
          view.stopped = null;
          view.draw();
          view.announce(runner.running);
          if (!wasRunning) state.set('learn.steps', 0);
        });
      });
    },
    cancel: () => cancelAnimationFrame(pendingFrame),
  };
}
