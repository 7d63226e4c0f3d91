// The learn figure's training sessions through the JS API: the same numbers as the core's own
// test at d_k = 256, bit-identical reruns, reset and learning-rate changes, and bad input that
// is refused with a message and leaves nothing behind.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadLab } from '../load-lab.mjs';

let lab;
before(async () => {
  lab = await loadLab();
});

const last = (array) => array[array.length - 1];

test('at d_k = 256 from seed 1 the scaled copy learns and the unscaled copy does not', () => {
  const session = lab.createTraining({ dk: 256, seed: 1 });
  try {
    // 600 steps at d_k = 256 fit the work of one call (about a second), in two calls as in one.
    session.train(300);
    session.train(300);
    const { scaled, unscaled } = session.history();
    assert.equal(scaled.loss.length, 600);
    assert.deepEqual(Array.from(scaled.step.slice(0, 3)), [0, 1, 2]);
    assert.ok(last(scaled.loss) < 0.05, `scaled loss ${last(scaled.loss)}`);
    assert.ok(last(unscaled.loss) > 0.5, `unscaled loss ${last(unscaled.loss)}`);
    assert.ok(scaled.meanPOneMinusP[0] > 5 * unscaled.meanPOneMinusP[0]);
    const now = session.state({ measure: true });
    assert.equal(now.scaled.steps, 600);
    assert.equal(now.scaled.current.step, 600);
    assert.equal(now.scaled.weights.rows, 8);
    assert.equal(now.scaled.weights.cols, 8);
    assert.deepEqual(Array.from(now.answers), [7, 0, 1, 2, 3, 4, 5, 6]);
    // Every row of weights sums to 1, and the scaled copy now picks the previous token.
    for (let i = 0; i < 8; i++) {
      const row = now.scaled.weights.data.subarray(8 * i, 8 * i + 8);
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12);
      assert.equal(row.indexOf(Math.max(...row)), now.answers[i]);
    }
  } finally {
    session.dispose();
  }
});

test('a seed reproduces the curves bit for bit; reset returns to the same start', () => {
  const a = lab.createTraining({ dk: 32, task: 'match', seed: 9 });
  const b = lab.createTraining({ dk: 32, task: 'match', seed: 9 });
  try {
    const first = a.train(40);
    const second = b.train(25);
    const rest = b.train(15);
    const joined = Float64Array.from([...second.unscaled.loss, ...rest.unscaled.loss]);
    assert.deepEqual(joined, first.unscaled.loss);
    a.reset();
    assert.equal(a.state({ measure: true }).unscaled.current.loss, first.unscaled.loss[0]);
    assert.deepEqual(a.train(40).scaled.gradientNormQ, first.scaled.gradientNormQ);
    assert.deepEqual(a.history().scaled.loss, first.scaled.loss);
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('the learning rate changes between steps without a reset', () => {
  const session = lab.createTraining({ dk: 16 });
  try {
    session.train(10);
    session.setLearningRate(0.05);
    const now = session.state();
    assert.equal(now.learningRate, 0.05);
    assert.equal(now.scaled.steps, 10);
    assert.equal(now.scaled.current, null);
    assert.equal(session.train(5).scaled.step[0], 10);
  } finally {
    session.dispose();
  }
});

test('bad settings and calls are refused by name, and cost nothing', () => {
  const refusals = [
    [() => lab.createTraining({ dk: 0 }), /key width dk must be a whole number from 1 to 4096, got 0/],
    [() => lab.createTraining({ dk: 5000 }), /key width dk/],
    [() => lab.createTraining({ task: 'copy' }), /task must be 'previous' or 'match'/],
    [() => lab.createTraining({ learningRate: -1 }), /learning rate must be positive/],
    [() => lab.createTraining({ seed: 1.5 }), /seed must be a whole number/],
    [() => lab.createTraining({ width: 3 }), /unknown option "width"/],
  ];
  // The widest setting: one step fits the work of one call (about a second), a hundred do not,
  // the message says how many fit, and nothing is done.
  const wide = lab.createTraining({ dk: 4096, tokens: 64, contentWidth: 64, sequences: 64 });
  assert.throws(() => wide.train(100), { message: /^train: the work of 100 steps would be \d+ multiply-adds, .* at most \d+ steps? each at these settings$/ });
  assert.equal(wide.state().scaled.steps, 0);
  wide.dispose();
  const session = lab.createTraining({ dk: 8 });
  const sessionRefusals = [
    [() => session.train(0), /steps must be a whole number from 1/],
    [() => session.train(Number.NaN), /steps must be a whole number/],
    [() => session.setLearningRate(Infinity), /learning rate must be positive and finite/],
    [() => session.state({ sequence: 16 }), /sequence must be a whole number from 0 to 15/],
    [() => session.state({ measure: 'yes' }), /options.measure must be true or false/],
  ];
  // Warm up, then a thousand rounds of every refusal.
  for (const [call, pattern] of [...refusals, ...sessionRefusals]) assert.throws(call, pattern);
  const before = lab.memoryStats();
  for (let round = 0; round < 1000; round++) {
    for (const [call, pattern] of [...refusals, ...sessionRefusals]) assert.throws(call, pattern);
  }
  assert.deepEqual(lab.memoryStats(), before);
  session.dispose();
  assert.throws(() => session.train(1), /disposed/);
  session.dispose(); // twice is harmless
});

test('sessions are freed: creating and disposing many leaves the heap where it was', () => {
  lab.createTraining({ dk: 64 }).dispose(); // warm-up
  const before = lab.memoryStats();
  for (let i = 0; i < 200; i++) {
    const s = lab.createTraining({ dk: 64, seed: i });
    s.train(2);
    s.dispose();
  }
  assert.deepEqual(lab.memoryStats(), before);
  // At most 16 live at once: the 17th is refused with a message that says what to do.
  const live = Array.from({ length: 16 }, () => lab.createTraining({ dk: 4 }));
  assert.throws(() => lab.createTraining({ dk: 4 }), /too many training sessions: 16 are alive; dispose of one/);
  live.forEach((s) => s.dispose());
});

test('a getter of state()\'s options that disposes of the session: refused, not the next session\'s weights', () => {
  const session = lab.createTraining({ dk: 4, tokens: 2, sequences: 1, seed: 1 });
  let replacement = null;
  const options = {
    get measure() {
      session.dispose();
      // Takes the number the core had given the disposed session.
      replacement = lab.createTraining({ dk: 4, tokens: 3, sequences: 1, seed: 2 });
      return false;
    },
  };
  try {
    assert.throws(() => session.state(options), { message: 'state: this training session was disposed while its options were read; nothing was returned' });
    assert.throws(() => session.state(), /disposed/);
    // The new session is untouched and answers for itself: 3 tokens, not 2.
    assert.equal(replacement.state().scaled.weights.rows, 3);
  } finally {
    replacement?.dispose();
  }
});

test('precision float32: the same first record as float64 within 1e-4 relative, the same step to the target; others refused', () => {
  const sessions = ['float64', 'float32'].map((precision) => lab.createTraining({ dk: 256, seed: 1, learningRate: 1, precision }));
  try {
    const [wide, narrow] = sessions.map((s) => s.train(300));
    assert.equal(sessions[1].settings.precision, 'float32');
    for (const which of ['scaled', 'unscaled']) {
      // At step 0 both copies have the same weights in both precisions (later the unscaled copy's
      // saturated softmax amplifies rounding; the core's own test compares gradients at equal weights).
      for (let i = 0; i < 1; i++) {
        for (const key of ['loss', 'gradientNormQ', 'gradientNormK', 'gradientNormV']) {
          const want = wide[which][key][i];
          assert.ok(Math.abs(narrow[which][key][i] - want) <= 1e-4 * Math.abs(want), `${which} ${key} at step ${i}`);
        }
      }
      const reached = (out) => out[which].loss.findIndex((loss) => loss < 0.05);
      assert.ok(Math.abs(reached(narrow) - reached(wide)) <= Math.max(1, 0.02 * reached(wide)), `${which}: ${reached(narrow)} against ${reached(wide)}`);
    }
  } finally {
    for (const s of sessions) s.dispose();
  }
  assert.throws(() => lab.createTraining({ precision: 'float16' }), /precision must be 'float64' or 'float32', got the string "float16"/);
});
