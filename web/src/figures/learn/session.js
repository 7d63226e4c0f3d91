// The learn figure's driver on the page: it asks the engine (engine.js, in a Worker or on the
// page, see backend.js) for a session fitting the settings, to train, to reset, to change the
// learning rate, to run and to pause, and keeps what came back: the curves, the core's latest
// state of both copies and the step count. Every number comes from the core; the page never
// trains here itself, it only draws.
//
//   ensure()                a session for the store's d_k, task and seed (a new one if they changed)
//   step(count)             `count` more updates of both copies (when not running)
//   reset()                 both copies back to their shared start, the curves cleared
//   setLearningRate(rate)   the rate of the next updates; nothing is reset
//   run(options)            train until `until` steps, or until the stop rule; pause()
//   now()                   the latest state of both copies ({ scaled, unscaled, answers }): measured
//                           at the current weights while nothing runs
//   taken()                 updates taken by the copy that has taken the most
//   standing(target)        per copy: the first step below the target loss (or null), the steps
//                           taken, and whether it diverged
//   curves                  every step record so far (curves.js)
//
// Updates of a session or a start the figure has moved on from (a reset, a new seed) are dropped.

import { createBackend } from './backend.js';
import { createCurves } from './curves.js';

const SESSION_KEYS = ['dk', 'task', 'seed'];
const COPIES = ['scaled', 'unscaled'];

/**
 * @param {object} options
 * @param {object} options.lab       the JS API of the core
 * @param {object} options.state     the store
 * @param {number} options.tokens    tokens per sequence
 * @param {object} [options.lifetime]
 * @param {(hasSteps: boolean) => void} options.onHasSteps  told when the curves gain their first
 *                                   step or are cleared
 * @param {(update: object) => void} options.onUpdate  after each update of the current session
 * @param {(message: string) => void} options.onError
 */
export function createLearnDriver({ lab, state, tokens, lifetime, onHasSteps, onUpdate, onError }) {
  const curves = createCurves();
  let sessionKey = '';
  let epoch = 0;
  let run = 0;
  let counterSteps = 0; // a diverged copy stops, so this follows the copy that has taken the most
  let now = null;
  let start = null; // the measured state at step 0 of this session: a reset shows it at once
  const diverged = { scaled: false, unscaled: false };

  const backend = createBackend({ lab, lifetime, onMessage: receive });

  const settingsKey = () => SESSION_KEYS.map((k) => state.get(`learn.${k}`)).join('|');
  const sessionSettings = () => ({
    task: state.get('learn.task'), dk: Number(state.get('learn.dk')), tokens,
    learningRate: state.get('learn.lr'), seed: state.get('learn.seed'),
    precision: 'float32', // the SIMD kernels: about twice the steps per second of float64
  });

  function receive(message) {
    if (message.epoch !== null && message.epoch !== epoch) return; // from a session left behind
    if (message.type === 'error') {
      onError(message.message);
      return;
    }
    for (const out of message.records) {
      for (const which of COPIES) curves.append(which, out[which]);
    }
    if (message.records.length) onHasSteps(true);
    now = message.now;
    for (const which of COPIES) {
      if (now[which].current) curves.setCurrent(which, now[which].current);
      diverged[which] = now[which].diverged;
    }
    counterSteps = Math.max(now.scaled.steps, now.unscaled.steps);
    if (counterSteps === 0 && now.scaled.current) start = now;
    onUpdate(message, { current: message.run === run });
  }

  // The state at step 0 of a new session, computed on the page while the Worker makes its own:
  // the figure shows the new start at once, as it would if it trained here.
  function preview(settings) {
    if (backend.where !== 'worker') return;
    const session = lab.createTraining(settings);
    try {
      receive({ type: 'update', epoch, run: -1, cause: 'preview', records: [], now: session.state({ measure: true }), running: false, ended: false });
    } finally {
      session.dispose();
    }
  }

  function clear() {
    epoch += 1;
    curves.clear();
    onHasSteps(false);
    counterSteps = 0;
    for (const which of COPIES) diverged[which] = false;
  }

  /** A new session when d_k, the task or the seed changed. */
  function ensure() {
    if (sessionKey === settingsKey()) return;
    sessionKey = settingsKey();
    clear();
    start = null;
    const settings = sessionSettings();
    backend.send({ type: 'session', epoch, settings });
    preview(settings);
  }

  function reset() {
    clear();
    backend.send({ type: 'reset', epoch });
    if (start) receive({ type: 'update', epoch, run: -1, cause: 'reset', records: [], now: start, running: false, ended: false });
  }

  const standingOf = (which, target) => ({ reachedAt: curves.firstBelow(which, target), steps: curves.length(which), diverged: diverged[which] });

  return {
    curves,
    ensure,
    reset,
    step: (count) => backend.send({ type: 'step', count }),
    setLearningRate: (rate) => backend.send({ type: 'rate', rate }),
    /** Starts a run; returns its number (updates of this run say so). */
    run({ until, checkStop, target, cap }) {
      run += 1;
      backend.send({ type: 'run', run, until, checkStop, target, cap });
      return run;
    },
    pause: () => backend.send({ type: 'pause' }),
    now: () => now,
    taken: () => counterSteps,
    standing: (target) => ({ scaled: standingOf('scaled', target), unscaled: standingOf('unscaled', target) }),
    get where() {
      return backend.where;
    },
  };
}
