// One validation, at the API's edge: every bad argument (an option outside its closed set, a
// mask that is not 0/1, a count or a type out of place) is refused with a message that names the
// argument, what was expected and what came, and a call over the work budget is refused before
// it starts, with its size and the limit.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { LIMITS, at, matrix } from '../../../cpp/bindings/attention-lab.js';
import { loadLab } from '../load-lab.mjs';

let lab;
let toy;
before(async () => {
  lab = await loadLab();
  toy = lab.toySentence();
});

const q = () => matrix([[1, 0]]);
const keys = () => matrix([[1, 0], [0, 1], [1, 1]]);
const values = () => matrix([[1, 0], [0, 1], [0.5, 0.5]]);
const zeros = (rows, cols) => ({ rows, cols, data: new Float64Array(rows * cols) });

describe('options come from a closed set', () => {
  test('typos in axis and scaleBy are refused, not taken as the default', () => {
    assert.throws(() => lab.attention(q(), keys(), values(), { axis: 'key' }),
      /^Error: options\.axis must be 'keys' or 'queries', got the string "key"$/);
    assert.throws(() => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4, { scaleBy: 'models' }),
      /options\.scaleBy must be 'head' or 'model', got the string "models"/);
    assert.throws(() => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4, { scaleBy: null }), /got null/);
  });

  test('unknown option names are refused, naming the options there are', () => {
    assert.throws(() => lab.attention(q(), keys(), values(), { taus: 2 }),
      /attention: unknown option "taus"; the options are tau, scale, mask, axis/);
    assert.throws(() => lab.crossMultiHead(toy.crossX, toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1, { mask: 'causal' }),
      /crossMultiHead: unknown option "mask" \(cross-attention takes no mask\); the options are tau/);
    assert.throws(() => lab.cost({ n: 8, dModel: 16, d: 16 }), /cost: unknown option "d"; the options are n, m, dModel, heads, bytesPerNumber/);
  });

  test('options given as a string, an array or null are refused', () => {
    assert.throws(() => lab.attention(q(), keys(), values(), 'causal'),
      /attention: options must be an object such as \{ tau: 2 \}, got the string "causal"/);
    assert.throws(() => lab.softmax(q(), [1]), /softmax: options must be an object .*, got an array of 1 entries/);
    assert.throws(() => lab.softmax(q(), null), /softmax: options must be an object .*, got null/);
    assert.throws(() => lab.cost('n=8'), /cost: the setup must be an object such as \{ n: 8, dModel: 16 \}, got the string "n=8"/);
  });

  test('tau: "2" and tau: null are refused, with what came', () => {
    assert.throws(() => lab.softmax(q(), { tau: '2' }), /^Error: tau: temperature must be a number, got the string "2"$/);
    assert.throws(() => lab.softmax(q(), { tau: null }), /^Error: tau: temperature must be a number, got null$/);
    assert.throws(() => lab.softmax(q(), { tau: -1 }), /tau: temperature must be positive and finite, got -1/);
    assert.throws(() => lab.softmax(q(), { tau: Infinity }), /tau: temperature must be positive and finite, got Infinity/);
    assert.throws(() => lab.attention(q(), keys(), values(), { scale: '2' }),
      /options\.scale must be 0 \(meaning √d_k\) or a positive finite number, got the string "2"/);
  });

  test('the right options still work', () => {
    const sharp = lab.softmax(matrix([[1, 0]]), { tau: 0.5 });
    assert.ok(Math.abs(sharp.data[0] - 1 / (1 + Math.exp(-2))) < 1e-15);
    const columns = lab.attention(matrix([[1, 0], [4, 0]]), keys(), values(), { axis: 'queries', tau: 1, scale: 0 });
    assert.ok(Math.abs(at(columns.weights, 0, 0) + at(columns.weights, 1, 0) - 1) < 1e-15);
    const wide = lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4, { scaleBy: 'model', mask: null, tau: undefined });
    assert.equal(wide.heads.length, 4);
  });
});

describe('masks hold exactly 0 or 1', () => {
  for (const [entry, shown] of [[NaN, 'NaN'], [0.5, '0.5'], [-1, '-1'], [2, '2']]) {
    test(`a mask entry of ${shown} is refused`, () => {
      const mask = matrix([[1, entry, 1]]);
      assert.throws(() => lab.attention(q(), keys(), values(), { mask }),
        new RegExp(`mask: entry \\(0, 1\\) is ${shown}; entries must be exactly 0 \\(hidden\\) or 1 \\(allowed\\)`));
    });
  }

  test('a 0/1 mask leaves exact zeros; a mask of the wrong kind is named', () => {
    const r = lab.attention(q(), keys(), values(), { mask: matrix([[1, 0, 1]]) });
    assert.equal(at(r.weights, 0, 1), 0);
    assert.equal(at(r.weights, 0, 0), 0.5);
    assert.throws(() => lab.softmax(q(), { mask: 'casual' }), /options\.mask must be null, 'causal' or a matrix of 0 and 1, got the string "casual"/);
    assert.throws(() => lab.softmax(q(), { mask: matrix([[1, 0, 1]]) }), /mask \(1x3\) must match the scores \(1x2\)/);
  });
});

describe('counts and types are checked, with the limit', () => {
  test('numbers given as strings to cost are refused', () => {
    assert.throws(() => lab.cost({ n: '196', dModel: 768 }), /^Error: n must be a number, got the string "196"$/);
    assert.throws(() => lab.cost({ n: 196, dModel: '768' }), /^Error: d_model must be a number, got the string "768"$/);
    assert.throws(() => lab.cost({ n: 196, dModel: 768, heads: '12' }), /^Error: heads h must be a number, got the string "12"$/);
  });

  test('n = 1e200 is refused instead of returning Infinity', () => {
    assert.throws(() => lab.cost({ n: 1e200, dModel: 768 }),
      /^Error: n must be at most 2\^53 = 9007199254740992, the largest count a JavaScript number holds exactly, got 1e\+200$/);
    assert.throws(() => lab.layerComparison({ n: 1e200, d: 768 }), /n must be at most 2\^53/);
    // 2^53 itself passes the edge; the core then refuses counts that would pass 2^53.
    assert.throws(() => lab.cost({ n: 2 ** 53, dModel: 768 }), /multiply-adds n·m·d_model = .* passes 2\^53/);
    assert.equal(lab.cost({ n: 2 ** 20, dModel: 768 }).qkMacs, 2 ** 40 * 768);
  });

  test('causalMask(3e9) names the size it got and the limit', () => {
    assert.throws(() => lab.causalMask(3e9),
      /^Error: causal mask rows n must be a whole number from 1 to 1000000 \(lab\.limits\.maxDimension\), got 3000000000$/);
    assert.throws(() => lab.causalMask(5000),
      /causalMask: the mask \(5000x5000\) in entries would be 25000000, more than the limit of 16777216 \(lab\.limits\.maxEntries\)/);
    assert.throws(() => lab.causalMask(2.5), /causal mask rows n must be a whole number from 1 to 1000000, got 2.5/);
  });

  test('matrix fields: rows and cols whole and within the limit, data a Float64Array', () => {
    assert.throws(() => lab.sums({ rows: -1, cols: 2, data: new Float64Array(2) }), /matrix\.rows must be a whole number from 0 to 1000000, got -1/);
    assert.throws(() => lab.sums({ rows: '1', cols: 2, data: new Float64Array(2) }), /matrix\.rows must be a number, got the string "1"/);
    assert.throws(() => lab.sums({ rows: 1, cols: 2e6, data: new Float64Array(2) }), /matrix\.cols must be a whole number from 0 to 1000000 \(lab\.limits\.maxDimension\), got 2000000/);
    assert.throws(() => lab.sums(null), /matrix: expected \{ rows, cols, data: Float64Array \}, got null/);
    assert.throws(() => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, '4'), /heads h must be a number, got the string "4"/);
    assert.throws(() => lab.widthExperiment({ keys: 10, trials: null }), /trials T must be a number, got null/);
  });
});

describe('a work budget: refused before it starts, and big calls give their memory back', () => {
  test('lab.limits states the budget, the same numbers as cpp/core/limits.hpp', () => {
    assert.equal(lab.limits, LIMITS);
    assert.deepEqual({ ...LIMITS }, {
      maxDimension: 1e6, maxEntries: 16777216, maxResultEntries: 67108864,
      maxMultiplyAdds: 2147483648, maxMultiplyAddsFloat32: 8589934592, pairWork: 384, maxExperimentWork: 5e7, maxExactCount: 9007199254740992,
    });
  });

  test('a call of more than about a second of work is refused, naming the limit of its precision', () => {
    const before = lab.memoryStats();
    const X64 = zeros(4096, 1);
    const X32 = { rows: 4096, cols: 64, data: new Float32Array(4096 * 64) };
    // matmul 2048·1024·1025 is past 2^31 in float64; direct attention at n = m = 4096 counts
    // 384 for each of its 2^24 pairs; in float32 the same n passes at d = 64 and not at d = 65.
    assert.throws(() => lab.matmul(zeros(2048, 1024), zeros(1024, 1025)),
      /^Error: matmul: the multiply-adds would be 2149580800, more than the limit of 2147483648 \(lab\.limits\.maxMultiplyAdds\)$/);
    assert.throws(() => lab.attention(X64, X64, X64), /^Error: attention: the multiply-adds would be 6476005376, more than the limit of 2147483648 \(lab\.limits\.maxMultiplyAdds\)$/);
    const X65 = { rows: 4096, cols: 65, data: new Float32Array(4096 * 65) };
    assert.throws(() => lab.attention(X65, X65, X65), /more than the limit of 8589934592 \(lab\.limits\.maxMultiplyAddsFloat32\)$/);
    assert.throws(() => lab.multiHead(zeros(4096, 4), zeros(4, 4), zeros(4, 4), zeros(4, 4), zeros(4, 4), 1), /^Error: multiHead: the multiply-adds would be \d+, more than the limit of 2147483648/);
    // Streaming never forms the pairs: past 2^33 in float32 it is refused, in blocks of query rows it runs.
    const Q = { rows: 16384, cols: 64, data: new Float32Array(16384 * 64) };
    assert.throws(() => lab.streamingAttention(Q, Q, Q), /^Error: streamingAttention: the multiply-adds would be 34359738368, more than the limit of 8589934592/);
    assert.deepEqual(lab.memoryStats(), before, 'a refused call costs nothing');
    assert.equal(lab.attention(X32, X32, X32, { results: 'output' }).output.rows, 4096);
  });

  test('additive scores count their hidden-layer matrices Q·Wᵀ and K·Uᵀ', () => {
    // The scores are only 8192x1, but Q·Wᵀ (made once for all keys) would be 8192x4096.
    const q = zeros(8192, 1);
    const w = zeros(4096, 1);
    const v = zeros(1, 4096);
    assert.throws(() => lab.additiveScores(q, zeros(1, 1), w, w, v),
      /^Error: additiveScores: Q·Wᵀ \(8192x4096\) in entries would be 33554432, more than the limit of 16777216 \(lab\.limits\.maxEntries\)$/);
    assert.throws(() => lab.additiveScores(zeros(1, 1), q, w, w, v), /^Error: additiveScores: K·Uᵀ \(8192x4096\) in entries/);
  });

  test('n = m = 10,000 is refused with the size it asked for, before any allocation', () => {
    const before = lab.memoryStats();
    const big = zeros(10_000, 2);
    assert.throws(() => lab.attention(big, big, big),
      /^Error: attention: the scores Q Kᵀ \(10000x10000\) in entries would be 100000000, more than the limit of 16777216 \(lab\.limits\.maxEntries\)$/);
    assert.throws(() => lab.multiHead(zeros(4096, 16), toy.WQ, toy.WK, toy.WV, toy.WO, 16),
      /multiHead: the results of 16 heads of 4096x4096 scores in entries would be \d+, more than the limit of 67108864/);
    // Refused on its size alone, before its data is even looked at.
    assert.throws(() => lab.matmul({ rows: 4097, cols: 4096, data: new Float64Array(0) }, zeros(1, 1)),
      /^Error: A: a 4097x4096 matrix in entries would be 16781312, more than the limit of 16777216 \(lab\.limits\.maxEntries\)$/);
    assert.deepEqual(lab.memoryStats(), before, 'a refused call costs nothing');
  });

  test('the width experiment of an hour is refused', () => {
    assert.throws(() => lab.widthExperiment({ keys: 4096, trials: 1e6, maxLog2: 16 }),
      /^Error: widthExperiment: the work \(widths · trials · \(3 · keys \+ 1\) = 16 · 1000000 · \(3 · 4096 \+ 1\)\) would be 196624000000, more than the limit of 50000000 \(lab\.limits\.maxExperimentWork\)$/);
    // The same count as the core's, query norm and all: 3 · 2 keys per trial and width fits, 3 · 2 + 1 does not.
    assert.throws(() => lab.widthExperiment({ keys: 2, trials: 500_000, maxLog2: 15, minLog2: 1 }),
      /^Error: widthExperiment: the work .* would be 52500000, more than the limit of 50000000 \(lab\.limits\.maxExperimentWork\)$/);
  });

  test('a big call gives its memory back: malloc\'d bytes return to their size', () => {
    const n = 1024;
    const random = (rows, cols) => ({ rows, cols, data: Float64Array.from({ length: rows * cols }, (_, i) => Math.sin(i)) });
    const Q = random(n, 64);
    lab.attention(matrix([[1, 0]]), keys(), values());
    const before = lab.memoryStats();
    const r = lab.attention(Q, Q, Q);
    const after = lab.memoryStats();
    assert.equal(after.mallocBytes, before.mallocBytes, 'heap in use after a 1024x1024 call');
    assert.equal(after.stackPointer, before.stackPointer);
    assert.ok(after.heapBytes >= before.heapBytes);
    // and the answer is a real one
    let sum = 0;
    for (let j = 0; j < n; j++) sum += at(r.weights, 5, j);
    assert.ok(Math.abs(sum - 1) < 1e-12, `row 5 sums to ${sum}`);
    assert.equal(r.weights.data.length, n * n);
    // The same in float32, all results and the output alone (its n×n block lives only in the
    // call). Its inputs (768 KiB) fit the input area the boundary keeps for reuse (up to 1 MiB):
    // a first call sizes that area, and from then on the heap in use is the same after each call.
    const Qf = { rows: n, cols: 64, data: Float32Array.from(Q.data) };
    lab.attention(Qf, Qf, Qf);
    const sized = lab.memoryStats().mallocBytes;
    assert.ok(sized - before.mallocBytes <= 2 ** 20, `the kept input area: ${sized - before.mallocBytes} bytes`);
    for (const results of ['all', 'output']) {
      const f = lab.attention(Qf, Qf, Qf, { results });
      assert.equal(lab.memoryStats().mallocBytes, sized, `float32, results: '${results}'`);
      assert.equal(f.output.data.length, n * 64);
    }
  });
});

describe('a Float32Array runs attention in float32', () => {
  const f32 = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });
  const random = (rows, cols, seed) => {
    let x = seed;
    return { rows, cols, data: Float64Array.from({ length: rows * cols }, () => { x = (x * 16807) % 2147483647; return x / 2147483647 - 0.5; }) };
  };

  test('its results are Float32Arrays within 1e-5 of float64, masks and options included', () => {
    const [Q, K, V] = [random(8, 16, 1), random(8, 16, 2), random(8, 16, 3)];
    let previous;
    for (const options of [undefined, { mask: 'causal', tau: 0.5 }, { axis: 'queries' }]) {
      const exact = lab.attention(Q, K, V, options);
      const fast = lab.attention(f32(Q), f32(K), f32(V), options);
      for (const key of ['rawScores', 'scaledScores', 'weights', 'output']) {
        assert.ok(fast[key].data instanceof Float32Array, key);
        assert.notEqual(fast[key].data.buffer, previous?.[key].data.buffer, `${key} is a fresh copy`);
        assert.ok(fast[key].data.buffer.byteLength <= 4 * (3 * 64 + 128), `${key} is not a view of the heap`);
        const largest = Math.max(...exact[key].data.map(Math.abs));
        exact[key].data.forEach((e, i) => assert.ok(Math.abs(fast[key].data[i] - e) <= 1e-5 * largest, `${key}[${i}]`));
      }
      previous = fast;
    }
  });

  test("results: 'output' hands back the output alone, the same numbers, in either precision", () => {
    const [Q, K, V] = [random(8, 16, 4), random(12, 16, 5), random(12, 8, 6)];
    for (const [inputs, name] of [[[Q, K, V], 'float64'], [[f32(Q), f32(K), f32(V)], 'float32']]) {
      for (const options of [{}, { mask: 'causal', tau: 0.5 }, { axis: 'queries', scale: 2 }]) {
        const all = lab.attention(...inputs, options);
        const alone = lab.attention(...inputs, { ...options, results: 'output' });
        assert.deepEqual(Object.keys(alone), ['output'], name);
        assert.equal(alone.output.data.constructor, all.output.data.constructor, name);
        assert.deepEqual([alone.output.rows, alone.output.cols], [8, 8], name);
        const largest = Math.max(...all.output.data.map(Math.abs));
        all.output.data.forEach((e, i) => assert.ok(Math.abs(alone.output.data[i] - e) <= 1e-6 * largest, `${name} [${i}]`));
      }
    }
    assert.throws(() => lab.attention(Q, K, V, { results: 'weights' }), /options\.results must be 'all' or 'output', got the string "weights"/);
  });

  test('mixed precisions and float32 elsewhere are refused by name', () => {
    assert.throws(() => lab.attention(f32(q()), keys(), values()),
      /attention: Q, K and V must all be Float64Array or all Float32Array, got Q float32, K float64, V float64/);
    assert.throws(() => lab.softmax(f32(q())), /logits: expected .*, got data as a Float32Array of 2 entries \(float32 input is taken by attention and streamingAttention only\)/);
  });
});
