// The float32 path (Float32Array in, Float32Arrays out) and streaming attention through the JS API:
// agreement with the float64 direct form, masks, refusals, and errors that cost nothing.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { matrix } from '../../../cpp/bindings/attention-lab.js';
import { loadLab } from '../load-lab.mjs';

let lab;
before(async () => {
  lab = await loadLab();
});

/** A rows×cols matrix of reproducible entries in [−spread, spread), exact in float32. */
function random(rows, cols, seed, spread = 1, Type = Float64Array) {
  let x = seed;
  const data = new Type(rows * cols);
  for (let i = 0; i < data.length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    data[i] = Math.fround((x / 2147483648 - 0.5) * 2 * spread);
  }
  return { rows, cols, data };
}
const asFloat32 = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });

/** max |a − b| / max |b| */
function gap(a, b) {
  let largest = 0;
  let worst = 0;
  for (let i = 0; i < b.data.length; i++) {
    largest = Math.max(largest, Math.abs(b.data[i]));
    worst = Math.max(worst, Math.abs(a.data[i] - b.data[i]));
  }
  return worst / (largest || 1);
}

describe('float32 attention', () => {
  test('Float32Array inputs give Float32Array results within 1e-5 of float64', () => {
    const Q = random(16, 8, 1, 2), K = random(24, 8, 2, 2), V = random(24, 5, 3);
    for (const options of [undefined, { tau: 0.5 }, { mask: 'causal' }, { axis: 'queries' }, { scale: 1 }]) {
      const exact = lab.attention(Q, K, V, options);
      const fast = lab.attention(asFloat32(Q), asFloat32(K), asFloat32(V), options);
      for (const name of ['rawScores', 'scaledScores', 'weights', 'output']) {
        assert.ok(fast[name].data instanceof Float32Array, `${name} is a Float32Array`);
        assert.equal(fast[name].rows, exact[name].rows);
        assert.equal(fast[name].cols, exact[name].cols);
        assert.ok(gap(fast[name], exact[name]) < 1e-5, `${name} ${JSON.stringify(options)}: gap ${gap(fast[name], exact[name])}`);
      }
    }
  });

  test('the worked example in float32, with a Float32Array mask', () => {
    const keys = asFloat32(matrix([[1, 0], [0, 1], [1, 1]]));
    const values = asFloat32(matrix([[1, 0], [0, 1], [0.5, 0.5]]));
    const r = lab.attention(asFloat32(matrix([[1, 0]])), keys, values);
    assert.ok(Math.abs(r.weights.data[0] - 0.401) < 5e-4);
    const hidden = lab.attention(asFloat32(matrix([[1, 0]])), keys, values,
      { mask: { rows: 1, cols: 3, data: new Float32Array([1, 1, 0]) } });
    assert.equal(hidden.weights.data[2], 0);
  });

  test('Q, K and V of one call share one precision', () => {
    const Q = random(2, 2, 1);
    assert.throws(() => lab.attention(asFloat32(Q), Q, Q),
      /attention: Q, K and V must all be Float64Array or all Float32Array, got Q float32, K float64, V float64/);
    assert.throws(() => lab.streamingAttention(Q, Q, asFloat32(Q)), /got Q float64, K float64, V float32/);
  });

  test('scores past float32 are refused with the bound', () => {
    const huge = { rows: 2, cols: 2, data: new Float32Array(4).fill(1e20) };
    assert.throws(() => lab.attention(huge, huge, huge), /Q and K are too large for float32: scores could reach 2e\+40/);
  });
});

describe('results written into the caller\'s arrays (options.into)', () => {
  test('the same numbers as fresh results, in the caller\'s own arrays, at page size and past the arena', () => {
    for (const [n, m, d] of [[8, 8, 16], [3, 5, 2], [130, 70, 16]]) {
      for (const Type of [Float32Array, Float64Array]) {
        const Q = random(n, d, 1, 2, Type), K = random(m, d, 2, 2, Type), V = random(m, d, 3, 1, Type);
        for (const options of [{}, { mask: 'causal' }, { axis: 'queries', tau: 2 }]) {
          const fresh = lab.attention(Q, K, V, options);
          const into = { rawScores: new Type(n * m), scaledScores: new Type(n * m), weights: new Type(n * m), output: new Type(n * d) };
          // twice into the same arrays: the second call overwrites the first
          lab.attention(Q, K, V, { ...options, into });
          const r = lab.attention(Q, K, V, { ...options, into });
          for (const name of Object.keys(into)) {
            assert.equal(r[name].data, into[name], `${name} is the caller's array`);
            assert.deepEqual([r[name].rows, r[name].cols], [fresh[name].rows, fresh[name].cols]);
            assert.deepEqual(Array.from(r[name].data), Array.from(fresh[name].data), `${Type.name} ${n}x${m} ${JSON.stringify(options)} ${name}`);
          }
          const output = new Type(n * d);
          const alone = lab.attention(Q, K, V, { ...options, results: 'output', into: { output } });
          assert.deepEqual(Object.keys(alone), ['output']);
          assert.equal(alone.output.data, output);
          assert.ok(gap(alone.output, fresh.output) < 1e-5);
        }
      }
    }
  });

  test('an input\'s own array may take the output: the inputs are copied in before anything is written', () => {
    const Q = random(4, 4, 1, 2, Float32Array), K = random(4, 4, 2, 2, Float32Array), V = random(4, 4, 3, 1, Float32Array);
    const expected = lab.attention(Q, K, V, { results: 'output' }).output;
    const r = lab.attention(Q, K, V, { results: 'output', into: { output: V.data } });
    assert.equal(r.output.data, V.data);
    assert.deepEqual(Array.from(V.data), Array.from(expected.data));
  });

  test('repeated calls into the same arrays leave the heap where it was', () => {
    const Q = random(8, 16, 1, 2, Float32Array), K = random(8, 16, 2, 2, Float32Array), V = random(8, 16, 3, 1, Float32Array);
    const output = new Float32Array(128);
    for (let i = 0; i < 100; i++) lab.attention(Q, K, V, { results: 'output', into: { output } });
    const before = lab.memoryStats();
    for (let i = 0; i < 10_000; i++) lab.attention(Q, K, V, { results: 'output', into: { output } });
    assert.deepEqual(lab.memoryStats(), before);
  });
});

describe('streaming attention', () => {
  test('equals the direct form: 1e-12 in float64, 1e-5 in float32, with masks and tiles', () => {
    const Q = random(37, 8, 4, 2), K = random(70, 8, 5, 2), V = random(70, 6, 6);
    const holes = random(37, 70, 7);
    holes.data = holes.data.map((x, i) => (i % 70 === 0 || x > -0.3 ? 1 : 0));
    const cases = [undefined, { tau: 0.3, keyTile: 16 }, { mask: 'causal', keyTile: 7 }, { mask: holes, scale: 2 }];
    for (const options of cases) {
      const { keyTile, ...directOptions } = options ?? {};
      const direct = lab.attention(Q, K, V, directOptions).output;
      const streamed = lab.streamingAttention(Q, K, V, options).output;
      assert.ok(streamed.data instanceof Float64Array);
      assert.ok(gap(streamed, direct) < 1e-12, `float64 tile ${keyTile}: ${gap(streamed, direct)}`);
      const fast = lab.streamingAttention(asFloat32(Q), asFloat32(K), asFloat32(V), options).output;
      assert.ok(fast.data instanceof Float32Array);
      assert.ok(gap(fast, direct) < 1e-5, `float32: ${gap(fast, direct)}`);
    }
  });

  test('runs where the direct form refuses its n×m scores', () => {
    const n = 4097;
    const X = random(n, 2, 8, 1, Float32Array);
    assert.throws(() => lab.attention(X, X, X), /scores/);
    const { output } = lab.streamingAttention(X, X, X, { mask: 'causal' });
    assert.equal(output.rows, n);
    assert.equal(output.cols, 2);
    // query 0 sees only key 0 under the causal order
    assert.equal(output.data[0], X.data[0]);
    assert.ok(output.data.every(Number.isFinite));
  });

  test('refuses a hidden row and a bad key tile, and 2,000 failures leave nothing behind', () => {
    const Q = matrix([[1, 0], [0, 1]]);
    const keys = matrix([[1, 0], [0, 1], [1, 1]]);
    const hidden = matrix([[1, 1, 1], [0, 0, 0]]);
    assert.throws(() => lab.streamingAttention(Q, keys, keys, { mask: hidden }), /mask row 1 hides every key/);
    assert.throws(() => lab.streamingAttention(Q, keys, keys, { keyTile: 0 }), /options.keyTile must be a whole number/);
    assert.throws(() => lab.streamingAttention(Q, keys, keys, { tile: 4 }), /unknown option "tile"/);
    const q32 = asFloat32(Q), k32 = asFloat32(keys);
    const before = lab.memoryStats();
    for (let i = 0; i < 2000; i++) {
      assert.throws(() => lab.streamingAttention(q32, k32, k32, { mask: hidden }), /mask row 1 hides every key/);
      assert.throws(() => lab.attention(q32, k32, k32, { mask: hidden }), /mask row 1 hides every key/);
    }
    const after = lab.memoryStats();
    assert.equal(after.mallocBytes, before.mallocBytes);
    assert.equal(after.stackPointer, before.stackPointer);
    assert.equal(after.handles, before.handles);
    assert.ok(gap(lab.streamingAttention(q32, k32, k32).output, lab.attention(Q, keys, keys).output) < 1e-5);
  });
});
