// The "by hand" figure's model (web/src/figures/by-hand/model.js) under node, with the real
// WebAssembly core: the lesson's worked example, the code lines of each step, judging a
// prediction, the planes' window and the additive scorer.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  SETTINGS, VECTORS, codeLines, computeAdditive, computeEveryToken, computeOneQuery, fitWindow, judge, truthOf,
} from '../../../web/src/figures/by-hand/model.js';
import { createStore } from '../../../web/src/lib/state/store.js';
import { loadLab } from '../load-lab.mjs';

const lab = await loadLab();
const HEADER = readFileSync(new URL('../../../cpp/teaching/attend_one.hpp', import.meta.url), 'utf8');
const defaults = () => Object.fromEntries(VECTORS.map((v) => [v.id, v.defaults]));
const close = (actual, expected, digits = 9) => Array.from(actual).forEach((v, i) => {
  assert.ok(Math.abs(v - expected[i]) < 10 ** -digits, `${v} vs ${expected[i]}`);
});

test('the worked example: q = [1, 0] against k = [1, 0], [0, 1], [1, 1]', () => {
  const r = computeOneQuery(lab, defaults());
  close(r.raw, [1, 0, 1]);
  close(r.scaled, [1 / Math.SQRT2, 0, 1 / Math.SQRT2]);
  const e = Math.exp(1 / Math.SQRT2);
  close(r.weights, [e / (2 * e + 1), 1 / (2 * e + 1), e / (2 * e + 1)]);
  const w = r.weights;
  close(r.output, [w[0] + 0.5 * w[2], w[1] + 0.5 * w[2]]);
  assert.deepEqual(truthOf(r, 2), r.weights);
});

test('every token as a query: Q = K, each row of weights sums to one', () => {
  const full = computeEveryToken(lab, computeOneQuery(lab, defaults()));
  assert.deepEqual([full.weights.rows, full.weights.cols], [3, 3]);
  for (let i = 0; i < 3; i += 1) {
    const sum = full.weights.data.slice(3 * i, 3 * i + 3).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-12);
  }
});

test('the additive scorer: v tanh(W q + U k) by hand, and W q', () => {
  const a = computeAdditive(lab, computeOneQuery(lab, defaults()));
  // W q = [1, -0.5]; U k1 = [1, 0.5], U k2 = [-0.5, 1], U k3 = [0.5, 1.5]; v = [1, 1].
  const expected = [[2, 0], [0.5, 0.5], [1.5, 1]].map(([x, y]) => Math.tanh(x) + Math.tanh(y));
  close(a.scores.data, expected);
  close(a.wq.data, [1, -0.5]);
});

test('code lines carry their step; judging and the window', () => {
  const lines = codeLines(HEADER);
  assert.deepEqual([...new Set(lines.map((l) => l.step))].sort(), [0, 1, 2, 3, 4]);
  assert.throws(() => codeLines('no markers'), /page-code markers/);
  assert.equal(judge(0.705, 0.7071), 'right');
  assert.equal(judge(0.74, 0.7071), 'close');
  assert.equal(judge(1, 0.7071), 'wrong');
  // The tolerance fits the quantity: the sharper query leaves 0.029 on k2.
  assert.equal(judge(0.03, 0.029), 'right');
  assert.equal(judge(0.025, 0.029), 'close');
  assert.equal(judge(0, 0.029), 'wrong', '"no weight at all" is the misconception, not close');
  assert.deepEqual(fitWindow([[1, 0], [0, 1]]), { low: -1, high: 2 });
  assert.deepEqual(fitWindow([[4, -4]]), { low: -5, high: 5 });
});

test('the settings schema is one the store accepts, with the lesson\u2019s defaults', () => {
  const store = createStore();
  for (const [key, schema] of Object.entries(SETTINGS)) store.define(key, schema);
  assert.equal(store.get('by-hand.qx'), 1);
  assert.equal(store.get('by-hand.v3y'), 0.5);
  assert.equal(store.get('by-hand.step'), 1);
  assert.equal(Object.keys(SETTINGS).length, 17);
});
