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

function fresh() {
  return Object.fromEntries(COPIES.map((which) => [which, { reachedAt: null, steps: 0, diverged: false }]));
}

/** Adds one train(count) call's records to each copy's standing: where it reached the target. */
function tally(standing, out, target, count) {
  for (const which of COPIES) {
    const c = standing[which];
    const got = out[which];
    if (c.reachedAt === null) {
      const first = got.loss.findIndex((loss) => loss < target);
      if (first >= 0) c.reachedAt = got.step[first];
    }
    c.steps += got.step.length;
    // A copy that took fewer steps than asked has diverged (it takes no more).
    if (got.step.length < count) c.diverged = true;
  }
}

/**
 * @param {object} options
 * @param {object} options.lab        the JS API of the core
 * @param {(message: object) => void} options.post  where updates go
 * @param {object} [options.runner]   createRunner's options (slice length, scheduler)
 */
export function createEngine({ lab, post, runner: runnerOptions }) {
  // The engine's state, shared with the command handlers below.
  const e = {
    lab, session: null, epoch: 0, run: 0, until: 0, checkStop: true, target: 0, cap: Infinity,
    stopped: null, records: [], standing: fresh(), disposed: false,
  };
  const taken = () => Math.max(e.standing.scaled.steps, e.standing.unscaled.steps);

  e.train = (count) => {
    const out = e.session.train(count);
    tally(e.standing, out, e.target, count);
    e.records.push(out);
  };

  e.send = ({ cause, running, ended = false, measure = !running }) => {
    const now = e.session.state({ measure });
    // The core's own counts and divergence are the truth; the records only add to them.
    for (const which of COPIES) {
      e.standing[which].steps = now[which].steps;
      e.standing[which].diverged = now[which].diverged;
    }
    const message = { type: 'update', epoch: e.epoch, run: e.run, cause, records: e.records, now, running, ended, stopped: ended ? e.stopped : null };
    e.records = [];
    post(message);
  };

  e.fail = (error) => post({ type: 'error', epoch: e.epoch, message: String(error?.message ?? error) });

  e.runner = createRunner({
    train: e.train,
    afterSlice: () => {
      if (e.checkStop) {
        const reason = stopReason(e.standing, taken(), e.cap);
        if (reason) {
          e.stopped = reason;
          e.runner.pause(); // its onRunningChange sends the run's last update
          return;
        }
      }
      e.send({ cause: 'slice', running: true });
    },
    remaining: () => e.until - taken(),
    onRunningChange: (running) => {
      if (running || !e.session || e.disposed) return;
      try {
        e.send({ cause: 'end', running: false, ended: true });
      } catch (error) {
        e.fail(error);
      }
    },
    onError: (error) => e.fail(error),
  }, runnerOptions);

  return {
    handle(command) {
      if (e.disposed) return;
      try {
        if (Object.hasOwn(COMMANDS, command.type)) COMMANDS[command.type](e, command);
      } catch (error) {
        e.runner.pause();
        e.fail(error);
      }
    },
  };
}

/** What each command does to the engine `e` (see the list at the top). */
const COMMANDS = {
  session(e, command) {
    e.session?.dispose();
    e.session = null;
    e.epoch = command.epoch;
    e.standing = fresh();
    e.records = [];
    e.session = e.lab.createTraining(command.settings);
    if (e.runner.running) {
      // A new start while running goes on from step 0, to the page's limit.
      e.until = e.cap;
      e.checkStop = true;
    }
    e.send({ cause: 'session', running: e.runner.running, measure: true });
  },
  reset(e, command) {
    e.runner.pause();
    e.session.reset();
    e.epoch = command.epoch;
    e.standing = fresh();
    e.records = [];
    e.send({ cause: 'reset', running: false });
  },
  rate(e, command) {
    e.session.setLearningRate(command.rate);
  },
  step(e, command) {
    if (e.runner.running) return;
    e.train(command.count);
    e.send({ cause: 'step', running: false });
  },
  run(e, { run, until, checkStop, target, cap }) {
    Object.assign(e, { run, until, checkStop, target, cap, stopped: null });
    e.runner.start();
  },
  pause(e) {
    e.runner.pause();
  },
  dispose(e) {
    e.disposed = true;
    e.runner.pause();
    e.session?.dispose();
    e.session = null;
  },
};
