// The learn figure's driver: the one training session of the core that the figure shows, and
// the curves it has produced. Nothing here touches the page: the figure asks it to make sure the
// session fits the settings, to train, to reset, to change the learning rate, and to read what the
// core now holds; it tells back only whether there are steps to offer in the Export menu. Every
// number comes from the core.
//
// Its interface is what a driver running the session elsewhere (in a Worker) would offer too:
//   ensure()                a session for the store's d_k, task and seed (a new one if they changed)
//   train(count)            `count` more updates of both copies, appended to the curves
//   reset()                 both copies back to their shared start, the curves cleared
//   setLearningRate(rate)   the rate of the next updates; nothing is reset
//   read({ measure })       the core's state of both copies (measure: also measure the current
//                           weights, which costs a step), with the exact step count
//   taken()                 updates taken by the copy that has taken the most
//   standing(target)        per copy: the first step below the target loss (or null), the steps
//                           taken, and whether it diverged
//   curves                  every step record so far (curves.js)

import { createCurves } from './curves.js';

const SESSION_KEYS = ['dk', 'task', 'seed'];

/**
 * @param {object} options
 * @param {object} options.lab       the JS API of the core
 * @param {object} options.state     the store
 * @param {number} options.tokens    tokens per sequence
 * @param {(hasSteps: boolean) => void} options.onHasSteps  told when the curves gain their first
 *                                   step or are cleared
 */
export function createLearnDriver({ lab, state, tokens, onHasSteps }) {
  const curves = createCurves();
  let session = null;
  let sessionKey = '';
  let counterSteps = 0; // a diverged copy stops, so this follows the copy that has taken the most
  const diverged = { scaled: false, unscaled: false };

  const settingsKey = () => SESSION_KEYS.map((k) => state.get(`learn.${k}`)).join('|');

  /** A new session when d_k, the task or the seed changed; the old one is freed. */
  function ensure() {
    if (session && sessionKey === settingsKey()) return;
    session?.dispose();
    session = null;
    curves.clear();
    onHasSteps(false);
    sessionKey = settingsKey();
    session = lab.createTraining({
      task: state.get('learn.task'), dk: Number(state.get('learn.dk')), tokens,
      learningRate: state.get('learn.lr'), seed: state.get('learn.seed'),
    });
  }

  function train(count) {
    const out = session.train(count);
    curves.append('scaled', out.scaled);
    curves.append('unscaled', out.unscaled);
    // A copy that took fewer steps than asked has diverged (it takes no more).
    for (const which of ['scaled', 'unscaled']) if (out[which].step.length < count) diverged[which] = true;
    counterSteps += count; // read() takes the exact counts back from the core
    onHasSteps(true);
  }

  function reset() {
    session.reset();
    curves.clear();
    onHasSteps(false);
  }

  // While a run goes on, the figure shows each copy's latest step record (measured before that
  // step's update, so one step behind the counter); when it stops, the core measures the current
  // weights, which costs as much as a step and is the next step's record to the bit.
  function read({ measure }) {
    const now = session.state({ measure });
    if (measure) {
      curves.setCurrent('scaled', now.scaled.current);
      curves.setCurrent('unscaled', now.unscaled.current);
    }
    counterSteps = Math.max(now.scaled.steps, now.unscaled.steps);
    diverged.scaled = now.scaled.diverged;
    diverged.unscaled = now.unscaled.diverged;
    return now;
  }

  const standingOf = (which, target) => ({ reachedAt: curves.firstBelow(which, target), steps: curves.length(which), diverged: diverged[which] });

  return {
    curves,
    ensure,
    train,
    reset,
    setLearningRate: (rate) => session.setLearningRate(rate),
    read,
    taken: () => counterSteps,
    standing: (target) => ({ scaled: standingOf('scaled', target), unscaled: standingOf('unscaled', target) }),
  };
}
