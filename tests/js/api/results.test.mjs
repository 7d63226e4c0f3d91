import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { at, matrix, row, toRows } from '../../../cpp/bindings/attention-lab.js';
import { loadLab } from '../load-lab.mjs';

let lab;
before(async () => {
  lab = await loadLab();
});

const keys = () => matrix([[1, 0], [0, 1], [1, 1]]);
const values = () => matrix([[1, 0], [0, 1], [0.5, 0.5]]);
const close = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

describe('attention', () => {
  test('one query by hand: q = [1, 0]', () => {
    const r = lab.attention(matrix([[1, 0]]), keys(), values());
    [0.401, 0.198, 0.401].forEach((w, j) => close(at(r.weights, 0, j), w, 5e-4, `weight ${j}`));
    close(at(r.output, 0, 0), 0.602, 5e-4, 'output x');
    close(at(r.output, 0, 1), 0.398, 5e-4, 'output y');
    close(at(r.scaledScores, 0, 0), Math.SQRT1_2, 1e-12, 'scaled score');
    assert.equal(at(r.rawScores, 0, 2), 1);
  });

  test('sharper query q = [4, 0]', () => {
    const r = lab.attention(matrix([[4, 0]]), keys(), values());
    [0.49, 0.03, 0.49].forEach((w, j) => close(at(r.weights, 0, j), w, 5e-3, `weight ${j}`));
    close(at(r.output, 0, 0), 0.73, 5e-3, 'output x');
  });

  test('causal mask leaves exact zeros and rows summing to 1', () => {
    const X = matrix([[1, 0], [0, 1], [1, 1], [2, 1]]);
    const r = lab.attention(X, X, X, { mask: 'causal' });
    for (let i = 0; i < 4; i++) {
      for (let j = i + 1; j < 4; j++) assert.equal(at(r.weights, i, j), 0);
      close(row(r.weights, i).reduce((a, b) => a + b, 0), 1, 1e-15, `row ${i} sum`);
    }
  });

  test('softmax over the wrong axis normalises columns', () => {
    const r = lab.attention(matrix([[1, 0], [4, 0]]), keys(), values(), { axis: 'queries' });
    for (let j = 0; j < 3; j++) close(at(r.weights, 0, j) + at(r.weights, 1, j), 1, 1e-15, `column ${j}`);
  });

  test('results are copies, not views of the WebAssembly heap', () => {
    const a = lab.attention(matrix([[1, 0]]), keys(), values());
    const parts = ['rawScores', 'scaledScores', 'weights', 'output'];
    assert.ok(a.weights.data instanceof Float64Array);
    // One fresh buffer holds exactly this call's four results, side by side, and nothing else.
    const bytes = parts.reduce((sum, key) => sum + a[key].data.byteLength, 0);
    assert.equal(a.weights.data.buffer.byteLength, bytes);
    for (const key of parts) assert.equal(a[key].data.buffer, a.weights.data.buffer, key);
    const before = a.output.data.slice();
    a.weights.data.fill(42);
    assert.deepEqual(a.output.data, before, 'the results do not overlap');
    const b = lab.attention(matrix([[1, 0]]), keys(), values());
    assert.notEqual(b.weights.data.buffer, a.weights.data.buffer, 'each call has its own buffer');
    close(at(b.weights, 0, 0), 0.401, 5e-4, 'fresh result');
  });
});

describe('errors arrive as JS Errors and the module keeps working', () => {
  test('shape mismatch names both shapes', () => {
    assert.throws(() => lab.attention(matrix([[1, 0, 0]]), keys(), values()), {
      name: 'Error',
      message: /Q \(1x3\) and K \(3x2\) must have the same number of columns/,
    });
    const r = lab.attention(matrix([[1, 0]]), keys(), values());
    close(at(r.weights, 0, 1), 0.198, 5e-4, 'next call');
  });

  test('bad temperature, all-masked row, heads not dividing d_model', () => {
    assert.throws(() => lab.softmax(matrix([[1, 2]]), { tau: 0 }), /temperature must be positive and finite, got 0/);
    assert.throws(() => lab.softmax(matrix([[1, 2]]), { tau: NaN }), /temperature must be positive and finite/);
    assert.throws(() => lab.softmax(matrix([[1, 2]]), { mask: matrix([[0, 0]]) }), /mask row 0 hides every key/);
    const toy = lab.toySentence();
    assert.throws(() => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 3), /heads h = 3 must divide d_model = 64/);
    assert.throws(() => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 2.5), /heads h must be a whole number/);
    assert.equal(lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 2).heads.length, 2);
  });

  test('malformed matrices are refused at the API and at the bindings', () => {
    assert.throws(() => lab.softmax({ rows: 1, cols: 3, data: new Float64Array(2) }), /logits: data has 2 entries, expected 1x3/);
    assert.throws(() => lab.softmax([[1, 2]]), /logits: expected \{ rows, cols, data: Float64Array \}/);
    assert.throws(() => matrix([[1, 2], [3]]), /row 1 has 1 entries, expected 2/);
    assert.throws(() => lab.widthExperiment({ keys: 1 }), /keys m must be a whole number from 2/);
    assert.throws(() => lab.cost({ n: 196, dModel: 768, heads: 5 }), /heads h = 5 must divide d_model = 768/);
    assert.throws(() => lab.matmul(matrix([[1, 2]]), matrix([[1, 2]])), /A \(1x2\) and B \(1x2\) cannot be multiplied/);
    assert.equal(lab.matmul(matrix([[1, 2]]), matrix([[3], [4]])).data[0], 11);
  });
});

describe('the lesson in numbers', () => {
  test('toy sentence: "it" looks at "cat", one-hot when cold, flat when hot', () => {
    const toy = lab.toySentence();
    assert.deepEqual(toy.tokens, ['the', 'cat', 'sat', 'on', 'the', 'mat', 'because', 'it']);
    assert.equal(toy.features.length, 64);
    const weightsAt = (tau) => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1, { tau }).heads[0].weights;
    assert.equal(lab.rowStats(weightsAt(1)).argmax[7], 1);
    assert.ok(at(weightsAt(0.01), 7, 1) > 0.99);
    row(weightsAt(100), 7).forEach((w) => close(w, 1 / 8, 0.01, 'flat weight'));
  });

  test('four heads, four jobs', () => {
    const toy = lab.toySentence();
    const r = lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4);
    assert.equal(r.heads.length, 4);
    assert.deepEqual(toy.headJobs.length, 4);
    assert.ok(at(r.heads[1].weights, 7, 1) > 0.9, 'pronoun head sends it to cat');
    assert.equal(r.heads[0].weights.cols, 8);
    assert.equal(r.heads[0].output.cols, 16);
  });

  test('sentenceEmbedding: the lesson\'s records give the toy X; the heads follow a new sentence', () => {
    const toy = lab.toySentence();
    assert.equal(toy.tokenFeatures.length, 16);
    const lesson = [['the', 'determiner'], ['cat', 'noun', 'animate'], ['sat', 'verb'], ['on', 'relation', 'place'],
      ['the', 'determiner'], ['mat', 'noun', 'place'], ['because', 'relation', 'cause'], ['it', 'pronoun']];
    const X = lab.sentenceEmbedding(lesson.map(([word, ...features]) => ({ word, features })));
    assert.deepEqual([X.rows, X.cols], [8, 64]);
    assert.deepEqual([...X.data], [...toy.X.data]);
    // "The dog chased the ball because it was fast.": the pronoun head sends "it" to "dog" …
    const words = [['The', 'determiner'], ['dog', 'noun', 'animate'], ['chased', 'verb'], ['the', 'determiner'], ['ball', 'noun'],
      ['because', 'relation', 'cause'], ['it', 'pronoun'], ['was', 'verb'], ['fast', 'adjective'], ['.', 'punctuation']];
    const itsPick = (records) => {
      const Y = lab.sentenceEmbedding(records);
      return lab.rowStats(lab.multiHead(Y, toy.WQ, toy.WK, toy.WV, toy.WO, 1).heads[0].weights).argmax[6];
    };
    assert.equal(itsPick(words.map(([word, ...features]) => ({ word, features }))), 1);
    // … and with "dog" no longer animate and "ball" animate, to "ball".
    const swapped = words.map(([word, ...features]) => ({ word, features: word === 'dog' ? ['noun'] : word === 'ball' ? ['noun', 'animate'] : features }));
    assert.equal(itsPick(swapped), 4);
  });

  test('cross-attention: three decoder tokens over eight encoder tokens', () => {
    const toy = lab.toySentence();
    const r = lab.crossMultiHead(toy.crossX, toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1);
    assert.equal(r.heads[0].weights.rows, 3);
    assert.equal(r.heads[0].weights.cols, 8);
  });

  test('why divide by √d_k: two keys, gradient factor, width experiment', () => {
    const raw = lab.softmax(matrix([[8, 0]]));
    const scaled = lab.softmax(matrix([[1, 0]]));
    close(raw.data[0], 0.9997, 5e-5, 'raw top weight');
    close(scaled.data[0], 0.731, 5e-4, 'scaled top weight');
    close(lab.gradientFactor(raw).data[0], 0.0003, 5e-5, 'raw gradient factor');
    close(lab.gradientFactor(scaled).data[0], 0.197, 5e-4, 'scaled gradient factor');
    const e = lab.widthExperiment({ keys: 10, maxLog2: 10, trials: 2000, seed: 1 });
    assert.deepEqual(Array.from(e.widths), [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
    close(e.unscaled.meanMax[1], 0.49, 0.02, 'unscaled at 4');
    close(e.unscaled.meanMax[5], 0.86, 0.02, 'unscaled at 64');
    close(e.unscaled.meanMax[9], 0.97, 0.01, 'unscaled at 1024');
    close(e.scaled.meanMax[5], 0.32, 0.01, 'scaled at 64');
    close(e.scaled.meanEntropy[5], 1.93, 0.02, 'scaled entropy at 64');
  });

  test('the width experiment one width at a time gives the full run\'s numbers exactly (the page slices it)', () => {
    const full = lab.widthExperiment({ keys: 12, maxLog2: 6, trials: 150, seed: 5 });
    for (let k = 1; k <= 6; k++) {
      const one = lab.widthExperiment({ keys: 12, minLog2: k, maxLog2: k, trials: 150, seed: 5 });
      assert.deepEqual(Array.from(one.widths), [2 ** k]);
      assert.equal(one.unscaled.meanMax[0], full.unscaled.meanMax[k - 1], `unscaled at ${2 ** k}`);
      assert.equal(one.scaled.meanEntropy[0], full.scaled.meanEntropy[k - 1], `scaled entropy at ${2 ** k}`);
    }
    assert.throws(() => lab.widthExperiment({ keys: 12, minLog2: 7, maxLog2: 6 }), /minLog2 must be a whole number from 1 to 6, got 7/);
  });

  test('softmax Jacobian of a row', () => {
    const J = lab.softmaxJacobian(matrix([[0.2, 0.3, 0.5]]));
    assert.deepEqual([J.rows, J.cols], [3, 3]);
    close(at(J, 0, 0), 0.16, 1e-15, 'diagonal');
    close(at(J, 0, 2), -0.1, 1e-15, 'off-diagonal');
    assert.deepEqual(toRows(lab.causalMask(2, 3)), [[1, 0, 0], [1, 1, 0]]);
  });

  test('row and column sums, largest difference', () => {
    const s = lab.sums(matrix([[0.25, 0.75], [1, 2]]));
    assert.deepEqual([...s.rows], [1, 3]);
    assert.deepEqual([...s.cols], [1.25, 2.75]);
    assert.equal(lab.maxAbsDifference(matrix([[1, 2], [5, 4]]), matrix([[1, 5], [2, 4]])), 3);
    assert.throws(() => lab.maxAbsDifference(matrix([[1, 2]]), matrix([[1], [2]])), /a \(1x2\) and b \(2x1\) must have the same shape/);
  });

  test('additive scores', () => {
    const e = lab.additiveScores(matrix([[1, 0]]), keys(), matrix([[1, 0], [0, 1]]), matrix([[1, 0], [0, 1]]), matrix([[1, 1]]));
    close(at(e, 0, 0), Math.tanh(2) + Math.tanh(0), 1e-15, 'e_00');
    close(at(e, 0, 2), Math.tanh(2) + Math.tanh(1), 1e-15, 'e_02');
  });

  test('cost: parameters and the ViT sized input', () => {
    const c = lab.cost({ n: 196, dModel: 768, heads: 12, bytesPerNumber: 4 });
    close(c.qkMacs / 1e6, 29.5, 0.05, 'QK multiply-adds');
    close(c.projectionMacs / 1e6, 462, 0.5, 'projection multiply-adds');
    close(c.weightBytesAllHeads / 1e6, 1.84, 0.01, 'weight bytes');
    const paper = lab.cost({ n: 8, dModel: 512, heads: 8 });
    assert.deepEqual([paper.projectionParameters, paper.outputParameters, paper.parameters], [786432, 262144, 1048576]);
    const rows = lab.layerComparison({ n: 196, d: 768, k: 3 });
    assert.deepEqual(rows.map((r) => r.layer), ['self-attention', 'recurrent', 'convolutional']);
  });
});
