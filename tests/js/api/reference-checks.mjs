// Plain JavaScript references for the random-call test (random-calls.test.mjs): for each API
// function the fuzzer calls, a check of a returned result against loops that read like the
// maths. Only plain finite inputs get a result, so the references need no special cases.

import assert from 'node:assert/strict';

const get = (m, i, j) => m.data[i * m.cols + j];
function softmaxRows(l, tau, allowed = () => true) {
  const out = new Float64Array(l.rows * l.cols);
  for (let i = 0; i < l.rows; i++) {
    let top = -Infinity;
    for (let j = 0; j < l.cols; j++) if (allowed(i, j)) top = Math.max(top, get(l, i, j));
    let sum = 0;
    for (let j = 0; j < l.cols; j++) {
      const e = allowed(i, j) ? Math.exp((get(l, i, j) - top) / tau) : 0;
      out[i * l.cols + j] = e;
      sum += e;
    }
    for (let j = 0; j < l.cols; j++) out[i * l.cols + j] /= sum;
  }
  return { rows: l.rows, cols: l.cols, data: out };
}
function product(a, b, transposeB = false) {
  const cols = transposeB ? b.rows : b.cols;
  const out = new Float64Array(a.rows * cols);
  for (let i = 0; i < a.rows; i++) {
    for (let j = 0; j < cols; j++) {
      let s = 0;
      for (let k = 0; k < a.cols; k++) s += get(a, i, k) * (transposeB ? get(b, j, k) : get(b, k, j));
      out[i * cols + j] = s;
    }
  }
  return { rows: a.rows, cols, data: out };
}
const transpose = (m) => ({ rows: m.cols, cols: m.rows, data: Float64Array.from({ length: m.data.length }, (_, k) => get(m, k % m.rows, Math.floor(k / m.rows))) });

function assertClose(actual, expected, what) {
  assert.equal(actual.rows, expected.rows, `${what} rows`);
  assert.equal(actual.cols, expected.cols, `${what} cols`);
  assert.ok(actual.data instanceof Float64Array, `${what} is a Float64Array`);
  actual.data.forEach((a, k) => {
    const e = expected.data[k];
    assert.ok(Number.isFinite(a), `${what}[${k}] = ${a} is not finite`);
    assert.ok(Math.abs(a - e) <= 1e-9 * Math.max(1, Math.abs(e)), `${what}[${k}]: ${a}, reference ${e}`);
  });
}

/** One check per function: REFERENCES[name](args, result) throws when the result is wrong. */
export const REFERENCES = {
  attention(args, result) {
    const [Q, K, V, o = {}] = args;
    const raw = product(Q, K, true);
    const scale = o.scale || Math.sqrt(Q.cols);
    const scaled = { ...raw, data: raw.data.map((x) => x / scale) };
    const mask = o.mask === 'causal' ? (i, j) => j <= i : o.mask ? (i, j) => get(o.mask, i, j) === 1 : undefined;
    const weights = o.axis === 'queries' ? transpose(softmaxRows(transpose(scaled), o.tau ?? 1)) : softmaxRows(scaled, o.tau ?? 1, mask);
    assertClose(result.output, product(weights, V), 'output');
    // options.into: each named result is written into the caller's own array
    for (const [name, array] of Object.entries(o.into ?? {})) assert.equal(result[name].data, array, `${name} is options.into.${name}`);
    if (o.results === 'output') {
      assert.deepEqual(Object.keys(result), ['output']);
      return;
    }
    assertClose(result.rawScores, raw, 'raw scores');
    assertClose(result.scaledScores, scaled, 'scaled scores');
    assertClose(result.weights, weights, 'weights');
  },
  streamingAttention(args, result) {
    const [Q, K, V, o = {}] = args;
    const scale = o.scale || Math.sqrt(Q.cols);
    const scaled = product(Q, K, true);
    scaled.data = scaled.data.map((x) => x / scale);
    const mask = o.mask === 'causal' ? (i, j) => j <= i : o.mask ? (i, j) => get(o.mask, i, j) === 1 : undefined;
    assertClose(result.output, product(softmaxRows(scaled, o.tau ?? 1, mask), V), 'output');
  },
  logGradientFactor(args, result) {
    const [scores, o = {}] = args;
    const p = softmaxRows(scores, o.tau ?? 1);
    // Compared where p(1 − p) is far from underflow, so that the plain form is exact enough.
    result.data.forEach((x, k) => {
      const q = p.data[k] * (1 - p.data[k]);
      assert.ok(Number.isFinite(x), `ln p(1-p)[${k}] = ${x}`);
      if (q > 1e-6) assert.ok(Math.abs(x - Math.log(q)) <= 1e-9 * Math.max(1, Math.abs(x)), `ln p(1-p)[${k}]: ${x}, reference ${Math.log(q)}`);
    });
  },
  softmax(args, result) {
    const [l, o = {}] = args;
    const mask = o.mask === 'causal' ? (i, j) => j <= i : o.mask ? (i, j) => get(o.mask, i, j) === 1 : undefined;
    assertClose(result, softmaxRows(l, o.tau ?? 1, mask), 'softmax');
  },
  causalMask(args, result) {
    const [n, m = n] = args;
    assertClose(result, { rows: n, cols: m, data: Float64Array.from({ length: n * m }, (_, k) => (k % m <= Math.floor(k / m) ? 1 : 0)) }, 'mask');
  },
  multiHead(args, result, name = 'multiHead') {
    const h = name === 'multiHead' ? args[5] : args[6];
    assert.equal(result.heads.length, h);
    for (const head of result.heads) {
      for (let i = 0; i < head.weights.rows; i++) {
        let sum = 0;
        for (let j = 0; j < head.weights.cols; j++) sum += get(head.weights, i, j);
        assert.ok(Math.abs(sum - 1) < 1e-12, `head row ${i} sums to ${sum}`);
      }
    }
    assertClose(result.output, product(result.concat, args[name === 'multiHead' ? 4 : 5]), 'concat · W_O');
  },
  crossMultiHead: (args, result) => REFERENCES.multiHead(args, result, 'crossMultiHead'),
  // X of a sentence: for each token its word's Hadamard row (¼ · (−1)^popcount(w & c)), with w
  // counted case-blind in order of first use, its features as 0/1, and its place as sixteen
  // (cos, sin) pairs of 2πk·i/33, scaled by ¼.
  sentenceEmbedding(args, result) {
    const [tokens] = args;
    const names = ['pronoun', 'animate', 'verb', 'relation', 'noun', 'determiner', 'place', 'cause',
      'adjective', 'adverb', 'number', 'name', 'plural', 'time', 'negation', 'punctuation'];
    const numbers = new Map();
    const data = new Float64Array(tokens.length * 64);
    tokens.forEach((t, i) => {
      const key = t.word.toLowerCase();
      if (!numbers.has(key)) numbers.set(key, numbers.size);
      const w = numbers.get(key);
      for (let c = 0; c < 16; c++) {
        let bits = w & c, parity = 0;
        for (; bits; bits >>= 1) parity ^= bits & 1;
        data[i * 64 + c] = parity ? -0.25 : 0.25;
      }
      for (const f of t.features) data[i * 64 + 16 + names.indexOf(f)] = 1;
      for (let k = 0; k < 16; k++) {
        const a = (2 * Math.PI * (k + 1) * i) / 33;
        data[i * 64 + 32 + 2 * k] = 0.25 * Math.cos(a);
        data[i * 64 + 33 + 2 * k] = 0.25 * Math.sin(a);
      }
    });
    assertClose(result, { rows: tokens.length, cols: 64, data }, 'X');
  },
  matmul(args, result) {
    assertClose(result, product(args[0], args[1]), 'product');
  },
  sums(args, result) {
    const [m] = args;
    const rows = Array.from({ length: m.rows }, (_, i) => m.data.slice(i * m.cols, (i + 1) * m.cols).reduce((a, b) => a + b, 0));
    assertClose({ rows: 1, cols: m.rows, data: result.rows }, { rows: 1, cols: m.rows, data: Float64Array.from(rows) }, 'row sums');
  },
  maxAbsDifference(args, result) {
    const [a, b] = args;
    assert.equal(result, Math.max(...a.data.map((x, k) => Math.abs(x - b.data[k]))));
  },
  gradientFactor(args, result) {
    assertClose(result, { ...args[0], data: args[0].data.map((p) => p * (1 - p)) }, 'p(1-p)');
  },
  softmaxJacobian(args, result) {
    const p = args[0].data;
    assertClose(result, { rows: p.length, cols: p.length, data: Float64Array.from({ length: p.length ** 2 }, (_, k) => {
      const i = Math.floor(k / p.length); const j = k % p.length;
      return (i === j ? p[i] : 0) - p[i] * p[j];
    }) }, 'Jacobian');
  },
  rowStats(args, result) {
    const [w] = args;
    for (let i = 0; i < w.rows; i++) {
      const rowValues = Array.from(w.data.slice(i * w.cols, (i + 1) * w.cols));
      assert.equal(result.max[i], Math.max(...rowValues));
      assert.equal(result.argmax[i], rowValues.indexOf(Math.max(...rowValues)));
    }
  },
  additiveScores(args, result) {
    const [Q, K, W, U, v] = args;
    const e = { rows: Q.rows, cols: K.rows, data: new Float64Array(Q.rows * K.rows) };
    for (let i = 0; i < Q.rows; i++) {
      for (let j = 0; j < K.rows; j++) {
        let s = 0;
        for (let a = 0; a < W.rows; a++) {
          let h = 0;
          for (let c = 0; c < Q.cols; c++) h += get(W, a, c) * get(Q, i, c);
          for (let c = 0; c < K.cols; c++) h += get(U, a, c) * get(K, j, c);
          s += v.data[a] * Math.tanh(h);
        }
        e.data[i * K.rows + j] = s;
      }
    }
    assertClose(result, e, 'additive scores');
  },
  widthExperiment(args, result) {
    const { maxLog2 = 10 } = args[0] ?? {};
    assert.deepEqual([...result.widths], Array.from({ length: maxLog2 }, (_, k) => 2 ** (k + 1)));
    for (const series of [result.unscaled, result.scaled]) {
      for (const x of series.meanMax) assert.ok(x > 0 && x <= 1, `mean largest weight ${x}`);
    }
  },
  cost(args, result) {
    const { n, m = n, dModel: d, heads: h = 1 } = args[0];
    assert.equal(result.qkMacs, n * m * d);
    assert.equal(result.projectionMacs, (2 * n + 2 * m) * d * d);
    assert.equal(result.parameters, 4 * d * d);
    assert.equal(d % h, 0);
  },
  layerComparison(args, result) {
    const { n, d } = args[0];
    assert.deepEqual(result.map((x) => x.layer), ['self-attention', 'recurrent', 'convolutional']);
    assert.equal(result[0].complexityPerLayer, n * n * d);

  },
};
