// The learn figure's training sessions over the raw exports al_learn_* (cpp/bindings/exports/learn.cpp):
// createTraining checks the settings and makes a session, an object whose methods check their
// own arguments and call the core with the session's number.
import {
  LIMITS, budget, describe, given, positiveRate, readOptions, wholeNumber, choice,
} from './read-arguments.js';

// The same limits as cpp/core/learn/training.hpp.
const LEARN_TASKS = ['previous', 'match'];
const LEARN_PRECISIONS = ['float64', 'float32'];
export const LEARN_LIMITS = Object.freeze({ maxKeyWidth: 4096, maxTokens: 64, maxContentWidth: 64, maxSequences: 64, maxSteps: 100_000 });
const RECORD_COLUMNS = ['step', 'loss', 'meanPOneMinusP', 'meanLargestWeight', 'gradientNormQ', 'gradientNormK', 'gradientNormV'];

/**
 * A training session for the learn figure: two copies of one attention head (scores divided
 * by √d_k, and not) trained side by side by plain SGD from one seed, on a task whose loss is
 * the squared error of the head's outputs. Settings (all optional): task ('previous': each
 * token fetches the previous token's content; 'match': each query fetches the content of the
 * key of its hidden type), dk (1–4096, default 64), tokens n (2–64, default 8), contentWidth
 * (1–64, default 4), sequences (1–64, default 16), learningRate (default 0.5), seed (default 1),
 * precision ('float64', the default, or 'float32': the SIMD kernels, about twice as fast, the same
 * gradients within 1e-4 relative).
 * Returns a session: train(steps), setLearningRate(rate), reset(), state(options), history(),
 * dispose(). At most 16 sessions live at once: dispose of the ones you are done with.
 */
export function createTraining(core, calls, settings) {
  const o = readOptions('createTraining', settings,
    ['task', 'dk', 'tokens', 'contentWidth', 'sequences', 'learningRate', 'seed', 'precision'], 'the settings', "{ task: 'previous', dk: 256 }");
  const task = choice('task', o.task, LEARN_TASKS, 'previous');
  const dk = wholeNumber('key width dk', given(o.dk, 64), 1, LEARN_LIMITS.maxKeyWidth);
  const tokens = wholeNumber('tokens n', given(o.tokens, 8), 2, LEARN_LIMITS.maxTokens);
  const contentWidth = wholeNumber('content width', given(o.contentWidth, 4), 1, LEARN_LIMITS.maxContentWidth);
  const sequences = wholeNumber('sequences', given(o.sequences, 16), 1, LEARN_LIMITS.maxSequences);
  const learningRate = positiveRate(given(o.learningRate, 0.5));
  const seed = wholeNumber('seed', given(o.seed, 1), 0, Number.MAX_SAFE_INTEGER);
  const precision = choice('precision', o.precision, LEARN_PRECISIONS, 'float64');
  const stepWork = core._al_learn_step_work(dk, tokens, contentWidth, sequences);
  budget('createTraining', 'the work of one step in multiply-adds', stepWork, 'maxMultiplyAdds');
  calls.stage();
  calls.numbers(LEARN_TASKS.indexOf(task), dk, tokens, contentWidth, sequences, learningRate, seed);
  calls.numbers(LEARN_PRECISIONS.indexOf(precision)); // seven numbers a call: the eighth appended
  const id = calls.run(core._al_learn_create)[0].data[0];
  return trainingSession(core, calls, id, { task, dk, tokens, contentWidth, sequences, seed, precision, stepWork });
}

// A training session's records, one row per step, as one typed array per column.
function curves(m) {
  const column = (c) => {
    const out = new Float64Array(m.rows);
    for (let i = 0; i < m.rows; i++) out[i] = m.data[i * m.cols + c];
    return out;
  };
  const out = {};
  RECORD_COLUMNS.forEach((name, c) => { out[name] = column(c); });
  return out;
}
const recordAt = (m, i) => Object.fromEntries(RECORD_COLUMNS.map((name, c) => [name, m.data[i * m.cols + c]]));

function trainingSession(core, calls, id, settings) {
  let alive = true;
  let steps = 0; // updates taken by the copy that has taken the most
  const live = (fn) => {
    if (!alive) throw new Error(`${fn}: this training session has been disposed`);
  };
  return Object.freeze({
    /** The settings it was created with (the learning rate may have changed since: see state()). */
    settings: Object.freeze({ ...settings }),

    /**
     * Takes `steps` SGD steps of both copies (1 to 100,000 in a session; one call at most
     * about a second of work, lab.limits.maxMultiplyAdds: train a long run in pieces).
     * Returns { scaled, unscaled }, each { step, loss, meanPOneMinusP,
     * meanLargestWeight, gradientNormQ, gradientNormK, gradientNormV } as Float64Arrays with one
     * entry per step, measured before that step's update. A copy that diverged takes no more steps.
     */
    train(count) {
      live('train');
      const n = wholeNumber('steps', count, 1, LEARN_LIMITS.maxSteps);
      if (steps + n > LEARN_LIMITS.maxSteps) {
        throw new Error(`train: steps ${n} would take the session past ${LEARN_LIMITS.maxSteps} steps (${steps} taken); reset it first`);
      }
      // One call is capped at about a second of work: a longer run is several calls.
      if (n * settings.stepWork > LIMITS.maxMultiplyAdds) {
        const most = Math.floor(LIMITS.maxMultiplyAdds / settings.stepWork);
        throw new Error(`train: the work of ${n} steps would be ${n * settings.stepWork} multiply-adds, more than the limit of `
          + `${LIMITS.maxMultiplyAdds} of one call (lab.limits.maxMultiplyAdds, about a second); call train in smaller pieces, `
          + `at most ${most} steps each at these settings`);
      }
      const [scaled, unscaled] = calls.run(() => core._al_learn_train(id, n));
      steps += n;
      return { scaled: curves(scaled), unscaled: curves(unscaled) };
    },

    /** Sets the learning rate from the next step on; the weights and curves are kept. */
    setLearningRate(rate) {
      live('setLearningRate');
      const value = positiveRate(rate);
      calls.run(() => core._al_learn_set_learning_rate(id, value));
    },

    /** Back to step 0 and the very same initial weights (no new draw); keeps the learning rate. */
    reset() {
      live('reset');
      calls.run(() => core._al_learn_reset(id));
      steps = 0;
    },

    /**
     * Now: { scaled, unscaled }, each { weights (n×m matrix of one training sequence), steps,
     * diverged, current (with options.measure: the record at the current weights, or null) },
     * plus answers (the right key of each query) and learningRate. options: sequence (default 0),
     * measure (default false: it costs as much as one step).
     */
    state(options) {
      live('state');
      const o = readOptions('state', options, ['sequence', 'measure'], 'options', '{ measure: true }');
      // The options' getters are the caller's code: one may have disposed of this session (and
      // a new session may have the same number in the core now). Asked again after them.
      if (!alive) throw new Error('state: this training session was disposed while its options were read; nothing was returned');
      const sequence = wholeNumber('sequence', given(o.sequence, 0), 0, settings.sequences - 1);
      const measure = given(o.measure, false);
      if (typeof measure !== 'boolean') throw new Error(`options.measure must be true or false, got ${describe(measure)}`);
      const [scaledWeights, unscaledWeights, answers, status, now] =
        calls.run(() => core._al_learn_state(id, sequence, measure ? 1 : 0));
      const copy = (weights, index) => ({
        weights,
        steps: status.data[index],
        diverged: status.data[2 + index] === 1,
        current: measure ? recordAt(now, index) : null,
      });
      return {
        scaled: copy(scaledWeights, 0),
        unscaled: copy(unscaledWeights, 1),
        answers: answers.data,
        learningRate: status.data[4],
      };
    },

    /** Every record so far: { scaled, unscaled } in the form train() returns. */
    history() {
      live('history');
      const [scaled, unscaled] = calls.run(() => core._al_learn_history(id));
      return { scaled: curves(scaled), unscaled: curves(unscaled) };
    },

    /** Frees the session in the core; any later call on it throws. Calling it twice is harmless. */
    dispose() {
      if (!alive) return;
      alive = false;
      calls.run(() => core._al_learn_dispose(id));
    },
  });
}
