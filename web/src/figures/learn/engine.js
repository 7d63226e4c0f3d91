// The learn figure's training engine: the core's training session and the loop that trains it,
// wherever they run. In a Web Worker (worker.js) when one can start, so that training never
// holds up the page; on the page itself (backend.js) when none can, in slices of a few
// milliseconds per frame. Either way the page only sends commands and draws what comes back,
// so both places behave the same. Nothing here touches the DOM.
//
// Commands in (each a plain object, handled in the order sent):
//   { type: 'session', epoch, settings }   a new session (the old one is freed); a run going on
//                                          goes on from step 0 on it
//   { type: 'reset', epoch }               back to step 0, the very same initial weights
//   { type: 'rate', rate }                 the learning rate of the next steps
//   { type: 'step', count }                `count` steps now (ignored while running)
//   { type: 'run', run, until, checkStop, target, cap }  train in slices until `until` steps are
//                                          taken, or (checkStop) until the stop rule of target.js says so
//   { type: 'pause' }                      the run ends after the slice in hand
//   { type: 'dispose' }                    the session is freed; nothing runs after it
// Updates out: { type: 'update', epoch, run, cause, records, now, running, ended, stopped }:
//   records   every step record since the last update ([{ scaled, unscaled }] as train() returns them)
//   now       the session's state (session.state()), measured at the current weights when the
//             engine is not running
//   ended     true once per run, when it ends (paused, replayed to its step, stopped by the
//             rule: then `stopped` says why)
// and { type: 'error', epoch, message } when the core refuses.

import { createRunner } from './runner.js';
import { stopReason } from './target.js';

const COPIES = ['scaled', 'unscaled'];

/**
 * @param {object} options
 * @param {object} options.lab        the JS API of the core
 * @param {(message: object) => void} options.post  where updates go
 * @param {object} [options.runner]   createRunner's options (slice length, scheduler)
 */
export function createEngine({ lab, post, runner: runnerOptions }) {
  let session = null;
  let epoch = 0;
  let run = 0;
  let until = 0;
  let checkStop = true;
  let target = 0;
  let cap = Infinity;
  let stopped = null;
  let records = [];
  let standing = fresh();
  let disposed = false;

  function fresh() {
    return Object.fromEntries(COPIES.map((which) => [which, { reachedAt: null, steps: 0, diverged: false }]));
  }
  const taken = () => Math.max(standing.scaled.steps, standing.unscaled.steps);

  function train(count) {
    const out = session.train(count);
    for (const which of COPIES) {
      const c = standing[which];
      const got = out[which];
      if (c.reachedAt === null) {
        for (let i = 0; i < got.loss.length; i++) {
          if (got.loss[i] < target) {
            c.reachedAt = got.step[i];
            break;
          }
        }
      }
      c.steps += got.step.length;
      // A copy that took fewer steps than asked has diverged (it takes no more).
      if (got.step.length < count) c.diverged = true;
    }
    records.push(out);
  }

  function send({ cause, running, ended = false, measure = !running }) {
    const now = session.state({ measure });
    // The core's own counts and divergence are the truth; the records only add to them.
    for (const which of COPIES) {
      standing[which].steps = now[which].steps;
      standing[which].diverged = now[which].diverged;
    }
    const message = { type: 'update', epoch, run, cause, records, now, running, ended, stopped: ended ? stopped : null };
    records = [];
    post(message);
  }

  const runner = createRunner({
    train,
    afterSlice: () => {
      if (checkStop) {
        const reason = stopReason(standing, taken(), cap);
        if (reason) {
          stopped = reason;
          runner.pause(); // its onRunningChange sends the run's last update
          return;
        }
      }
      send({ cause: 'slice', running: true });
    },
    remaining: () => until - taken(),
    onRunningChange: (running) => {
      if (running || !session || disposed) return;
      try {
        send({ cause: 'end', running: false, ended: true });
      } catch (error) {
        fail(error);
      }
    },
    onError: (error) => fail(error),
  }, runnerOptions);

  function fail(error) {
    post({ type: 'error', epoch, message: String(error?.message ?? error) });
  }

  function handle(command) {
    if (disposed) return;
    try {
      switch (command.type) {
        case 'session':
          session?.dispose();
          session = null;
          epoch = command.epoch;
          standing = fresh();
          records = [];
          session = lab.createTraining(command.settings);
          if (runner.running) {
            // A new start while running goes on from step 0, to the page's limit.
            until = cap;
            checkStop = true;
          }
          send({ cause: 'session', running: runner.running, measure: true });
          break;
        case 'reset':
          runner.pause();
          session.reset();
          epoch = command.epoch;
          standing = fresh();
          records = [];
          send({ cause: 'reset', running: false });
          break;
        case 'rate':
          session.setLearningRate(command.rate);
          break;
        case 'step':
          if (runner.running) return;
          train(command.count);
          send({ cause: 'step', running: false });
          break;
        case 'run':
          ({ run, until, checkStop, target, cap } = command);
          stopped = null;
          runner.start();
          break;
        case 'pause':
          runner.pause();
          break;
        case 'dispose':
          disposed = true;
          runner.pause();
          session?.dispose();
          session = null;
          break;
        default:
          break;
      }
    } catch (error) {
      runner.pause();
      fail(error);
    }
  }

  return { handle };
}
