// Figure "Watch it learn": two copies of one attention head, one dividing its scores by √d_k
// and one not, trained side by side by plain SGD from the same seed, task, data and initial
// weights. The WebAssembly core does all the arithmetic (forward, backward, the update and every
// number shown), in a Web Worker when one can start, else on the page in short slices
// (backend.js); this module only draws: the driver (session.js) keeps what the core sent back,
// and the view is redrawn at most REDRAW_HZ times a second, and only while it is on screen.

import { figureBody, htmlElement } from '../../lib/dom/elements.js';
import { registerMatrix } from '../../lib/export/registry.js';
import { formatCount } from '../../lib/format/index.js';
import { createLearnControls, MAX_STEPS, SEED, SETTINGS } from './controls.js';
import { COPIES, createLearnReadouts } from './readouts.js';
import { createLearnDriver } from './session.js';
import { runSummary, TARGET_LOSS } from './target.js';
import './learn.css'; // this figure's styles, bundled into styles.css

export { SETTINGS };

const TOKENS = 8;
const REDRAW_HZ = 15;

export function mount(element, { lab, state, lifetime }) {
  state.defineAll(SETTINGS);

  const body = figureBody(element, 'figure-body learn');
  const controls = createLearnControls(body, state);
  // One status line, seen and read out alike: it changes only when something happens (a start,
  // a copy reaching the target, a stop, a reset), never with the step counter.
  const status = htmlElement('p', { class: 'learn-status', role: 'status', 'aria-live': 'polite' }, null, body);
  const readouts = createLearnReadouts(body, { tokens: TOKENS });
  const problem = htmlElement('p', { class: 'figure-error', role: 'alert', hidden: '' }, null, body);

  let running = false; // as the page shows it: Pause takes effect on the page at once
  let replayTo = state.get('learn.steps');
  let visible = true;

  const driver = createLearnDriver({
    lab, state, tokens: TOKENS, lifetime,
    onHasSteps: curvesExport(element, () => driver.curves),
    onUpdate: (update, { current }) => guarded(() => onUpdate(update, current)),
    onError: (message) => {
      setRunning(false);
      view.showError(message);
    },
  });
  const view = createLearnView({ driver, readouts, counter: controls.counter, status, problem });
  readouts.tableBox.addEventListener('toggle', () => { if (readouts.tableBox.open) readouts.fillTable(driver.curves); });

  function setRunning(value) {
    running = value;
    if (lifetime?.disposed) return; // the figure has gone: nothing to show
    controls.playButton.textContent = running ? 'Pause' : 'Start';
    controls.stepButton.disabled = running;
  }

  function startRun() {
    setRunning(true);
    driver.run({ until: replayTo > 0 ? replayTo : MAX_STEPS, checkStop: replayTo === 0, target: TARGET_LOSS, cap: MAX_STEPS });
  }

  function onUpdate(update, current) {
    if (lifetime?.disposed) return;
    if (update.cause === 'slice' || (update.ended && !current)) {
      // Off screen nothing is drawn; the curves keep every step all the same.
      redraw.request();
      view.announce(running);
      return;
    }
    if (update.ended) {
      // This run ended: paused, replayed to the link's step, or stopped by the rule.
      if (running) setRunning(false);
      replayTo = 0;
      view.stopped = update.stopped;
      redraw.now();
      // The link now reproduces this run up to here.
      state.set('learn.steps', driver.taken());
      view.announce(false);
      return;
    }
    redraw.now(); // a new session, a reset, a step
    if (update.cause === 'step') state.set('learn.steps', driver.taken());
    view.announce(running);
  }

  function guarded(action) {
    try {
      action();
    } catch (error) {
      if (running) driver.pause();
      setRunning(false);
      view.showError(error.message);
    }
  }

  const redraw = createRedraw(() => guarded(() => view.draw()), () => visible, lifetime);
  const restart = wireLearnControls({
    controls, state, driver, view, guarded,
    isRunning: () => running,
    start: startRun,
    pause: () => {
      setRunning(false);
      replayTo = 0;
      driver.pause();
    },
  });
  state.subscribe(['learn.dk', 'learn.task', 'learn.seed'], () => {
    controls.show();
    replayTo = 0;
    restart.schedule();
  });
  lifetime?.add(() => restart.cancel());

  // Drawn only while some of it is on screen; a figure scrolled away keeps training.
  const watcher = new IntersectionObserver((entries) => {
    visible = entries.some((entry) => entry.isIntersecting);
    if (visible && running) redraw.request();
  });
  watcher.observe(element);
  lifetime?.add(() => watcher.disconnect());

  controls.seedInput.value = String(state.get('learn.seed'));
  guarded(() => driver.ensure());
  guarded(() => view.draw());
  view.announce(false);
  if (replayTo > 0) startRun();
}

/**
 * Draws at most REDRAW_HZ times a second, in an animation frame, and only while `visible()`:
 * request() asks for a drawing soon, now() draws at once. A drawing's whole cost (the script,
 * then that frame's style, layout and paint, measured up to a message posted from the frame)
 * sets the least gap to the next requested one, so that drawing takes at most a quarter of the
 * page's thread on a slow or busy machine, and the rest of the page stays as quick as when idle.
 */
function createRedraw(draw, visible, lifetime) {
  let frame = 0;
  let timer = 0;
  let last = -Infinity;
  let gap = 1000 / REDRAW_HZ;
  const channel = new MessageChannel();
  let measuring = 0;
  channel.port1.onmessage = () => {
    if (!measuring) return;
    const cost = performance.now() - measuring;
    measuring = 0;
    gap = Math.max(1000 / REDRAW_HZ, Math.min(1000, 4 * cost));
  };
  const cancel = () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    frame = 0;
    timer = 0;
  };
  lifetime?.add(() => {
    cancel();
    channel.port1.close();
  });
  const drawNow = () => {
    cancel();
    last = performance.now();
    draw();
    // Handled after this frame's rendering: the drawing's whole cost.
    measuring = last;
    channel.port2.postMessage(null);
  };
  return {
    request() {
      if (!visible() || frame || timer) return;
      const wait = last + gap - performance.now();
      if (wait > 0) {
        timer = setTimeout(() => {
          timer = 0;
          if (visible()) frame = requestAnimationFrame(drawNow);
        }, wait);
      } else {
        frame = requestAnimationFrame(drawNow);
      }
    },
    now: drawNow,
  };
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

/** What the figure shows of the driver's state: the readouts, the counter, the status line. */
function createLearnView({ driver, readouts, counter, status, problem }) {
  return {
    stopped: null, // why the last run stopped, until the next start, reset or new session
    draw() {
      const now = driver.now();
      if (!now) return; // the core has not answered yet
      for (const copy of COPIES) {
        const c = now[copy.which];
        // Measured at the current weights when nothing runs; else the latest step's record.
        readouts.showCopy(copy.which, c, c.current ?? driver.curves.latest(copy.which));
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
    showError(message) {
      problem.textContent = `The core could not train this setting: ${message}`;
      problem.hidden = false;
    },
  };
}

/**
 * The buttons and the learning rate. Returns the restart that settings making a new start go
 * through: applied once per frame, however fast a slider moves; the run goes on (from step 0)
 * if it was running.
 */
function wireLearnControls({ controls, state, driver, view, guarded, isRunning, start, pause }) {
  const { playButton, stepButton, resetButton, newSeedButton, rateSlider } = controls;
  playButton.addEventListener('click', () => guarded(() => {
    if (isRunning()) {
      pause();
    } else if (driver.taken() < MAX_STEPS) {
      view.stopped = null;
      start();
      view.announce(true);
    }
  }));
  stepButton.addEventListener('click', () => guarded(() => {
    if (isRunning() || driver.taken() >= MAX_STEPS) return;
    driver.step(1); // drawn, and saved in the link, when the core's answer arrives
  }));
  resetButton.addEventListener('click', () => guarded(() => {
    if (isRunning()) pause(); // the reset itself ends the run where the core trains
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
          driver.ensure();
          view.stopped = null;
          view.draw();
          view.announce(isRunning());
          if (!isRunning()) state.set('learn.steps', 0);
        });
      });
    },
    cancel: () => cancelAnimationFrame(pendingFrame),
  };
}
