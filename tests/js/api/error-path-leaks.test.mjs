// The boundary between JavaScript and the WebAssembly core costs nothing on the error path:
// for every exported function, 50,000 failing calls leave the heap, the WebAssembly stack
// and the live Embind handles exactly where they were, and the next call is still right.
// (issue 8, item 1: each error used to leave 16-176 bytes of stack and 2-8 handles behind.)
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { at, matrix } from '../../../cpp/bindings/attention-lab.js';
import { loadLab } from '../load-lab.mjs';

const CALLS = 50_000;

let lab;
let toy;
before(async () => {
  lab = await loadLab();
  toy = lab.toySentence();
});

const keys = () => matrix([[1, 0], [0, 1], [1, 1]]);
const values = () => matrix([[1, 0], [0, 1], [0.5, 0.5]]);
const f32 = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });
const close = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

/** Calls `fail` `count` times, each time expecting an Error whose message matches `pattern`. */
function failMany(fail, pattern, count) {
  for (let i = 0; i < count; i++) {
    let error = null;
    try {
      fail();
    } catch (caught) {
      error = caught;
    }
    if (!(error instanceof Error) || !pattern.test(error.message)) {
      assert.fail(`call ${i}: expected an Error matching ${pattern}, got ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Warms the error path up once, then asserts that `count` more failures change nothing. */
function assertErrorsCostNothing(fail, pattern, count = CALLS) {
  failMany(fail, pattern, 10);
  const before = lab.memoryStats();
  failMany(fail, pattern, count);
  const after = lab.memoryStats();
  assert.deepEqual(after, before, `after ${count} failing calls`);
}

// One failing call per exported function (through the core wherever the core can fail), and a
// good call whose numbers are checked afterwards.
const cases = {
  attention: {
    fail: () => lab.attention(matrix([[1, 0, 0]]), keys(), values()),
    pattern: /Q \(1x3\) and K \(3x2\) must have the same number of columns/,
    check: () => close(at(lab.attention(matrix([[1, 0]]), keys(), values()).weights, 0, 1), 0.198, 5e-4, 'weight 1'),
  },
  'attention (float32)': {
    fail: () => lab.attention(f32(matrix([[1, 0, 0]])), f32(keys()), f32(values())),
    pattern: /Q \(1x3\) and K \(3x2\) must have the same number of columns/,
    check: () => {
      const weights = lab.attention(f32(matrix([[1, 0]])), f32(keys()), f32(values())).weights;
      assert.ok(weights.data instanceof Float32Array);
      close(at(weights, 0, 1), 0.198, 5e-4, 'weight 1');
    },
  },
  softmax: {
    fail: () => lab.softmax(matrix([[1, 2]]), { mask: matrix([[0, 0]]) }),
    pattern: /mask row 0 hides every key/,
    check: () => close(lab.softmax(matrix([[1, 0]])).data[0], 0.7311, 1e-4, 'softmax'),
  },
  causalMask: {
    fail: () => lab.causalMask(0),
    pattern: /causal mask rows n must be a whole number from 1 to 1000000/,
    check: () => assert.deepEqual([...lab.causalMask(2).data], [1, 0, 1, 1]),
  },
  multiHead: {
    fail: () => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 3),
    pattern: /heads h = 3 must divide d_model = 16/,
    check: () => assert.ok(at(lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4).heads[1].weights, 7, 1) > 0.9),
  },
  crossMultiHead: {
    fail: () => lab.crossMultiHead(matrix([[1, 2]]), toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1),
    pattern: /must have the same number of columns/,
    check: () => assert.equal(lab.crossMultiHead(toy.crossX, toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1).heads[0].weights.cols, 8),
  },
  additiveScores: {
    fail: () => lab.additiveScores(matrix([[1, 0]]), keys(), matrix([[1, 0, 0]]), matrix([[1, 0], [0, 1]]), matrix([[1, 1]])),
    pattern: /W must be 2x2/,
    check: () => {
      const e = lab.additiveScores(matrix([[1, 0]]), keys(), matrix([[1, 0], [0, 1]]), matrix([[1, 0], [0, 1]]), matrix([[1, 1]]));
      close(at(e, 0, 0), Math.tanh(2), 1e-15, 'e_00');
    },
  },
  rowStats: {
    fail: () => lab.rowStats(matrix([[0.5, NaN]])),
    pattern: /weights has a non-finite entry/,
    check: () => assert.equal(lab.rowStats(matrix([[0.2, 0.8]])).argmax[0], 1),
  },
  sums: {
    fail: () => lab.sums(matrix([[1, Infinity]])),
    pattern: /matrix has a non-finite entry/,
    check: () => assert.deepEqual([...lab.sums(matrix([[1, 2], [3, 4]])).cols], [4, 6]),
  },
  maxAbsDifference: {
    fail: () => lab.maxAbsDifference(matrix([[1, 2]]), matrix([[1], [2]])),
    pattern: /a \(1x2\) and b \(2x1\) must have the same shape/,
    check: () => assert.equal(lab.maxAbsDifference(matrix([[1, 2]]), matrix([[1, 5]])), 3),
  },
  gradientFactor: {
    fail: () => lab.gradientFactor({ rows: 0, cols: 2, data: new Float64Array(0) }),
    pattern: /is empty \(0x2\)/,
    check: () => close(lab.gradientFactor(matrix([[0.5]])).data[0], 0.25, 0, 'p(1-p)'),
  },
  logGradientFactor: {
    fail: () => lab.logGradientFactor(matrix([[1], [2]])),
    pattern: /at least 2 columns/,
    check: () => close(lab.logGradientFactor(matrix([[64, 0, 0, 0]])).data[0], Math.log(3) - 64, 1e-12, 'ln p(1-p)'),
  },
  softmaxJacobian: {
    fail: () => lab.softmaxJacobian(matrix([[0.5, 0.5], [0.5, 0.5]])),
    pattern: /must be 1xm, got 2x2/,
    check: () => close(at(lab.softmaxJacobian(matrix([[0.2, 0.3, 0.5]])), 0, 2), -0.1, 1e-15, 'off-diagonal'),
  },
  widthExperiment: {
    fail: () => lab.widthExperiment({ keys: 1 }),
    pattern: /keys m must be a whole number from 2 to 4096, got 1/,
    check: () => assert.deepEqual([...lab.widthExperiment({ keys: 4, maxLog2: 3, trials: 10 }).widths], [2, 4, 8]),
  },
  cost: {
    fail: () => lab.cost({ n: 196, dModel: 768, heads: 5 }),
    pattern: /heads h = 5 must divide d_model = 768/,
    check: () => assert.equal(lab.cost({ n: 8, dModel: 512, heads: 8 }).parameters, 1048576),
  },
  'cost (the cost figure\'s empty field)': {
    fail: () => lab.cost({ n: 0, dModel: 4 }),
    pattern: /^n must be a whole number >= 1, got 0$/,
    check: () => assert.equal(lab.cost({ n: 2, dModel: 4 }).qkMacs, 16),
  },
  layerComparison: {
    fail: () => lab.layerComparison({ n: 196, d: 768, k: 1 }),
    pattern: /kernel width k must be a whole number >= 2, got 1/,
    check: () => assert.equal(lab.layerComparison({ n: 196, d: 768 })[1].sequentialOps, 196),
  },
  matmul: {
    fail: () => lab.matmul(matrix([[1, 2]]), matrix([[1, 2]])),
    pattern: /A \(1x2\) and B \(1x2\) cannot be multiplied/,
    check: () => assert.equal(lab.matmul(matrix([[1, 2]]), matrix([[3], [4]])).data[0], 11),
  },
};

describe(`${CALLS.toLocaleString('en')} failing calls of each function leave heap, stack and handles unchanged`, () => {
  for (const [name, { fail, pattern, check }] of Object.entries(cases)) {
    test(name, () => {
      check();
      assertErrorsCostNothing(fail, pattern);
      check();
    });
  }

  test('toySentence cannot fail; 50,000 calls leave nothing behind either', () => {
    lab.toySentence();
    const before = lab.memoryStats();
    for (let i = 0; i < CALLS; i++) lab.toySentence();
    assert.deepEqual(lab.memoryStats(), before);
    assert.deepEqual(lab.toySentence().tokens.slice(0, 2), ['the', 'cat']);
  });

  test('the numbers memoryStats reports are real', () => {
    const stats = lab.memoryStats();
    assert.ok(stats.heapBytes >= 16 * 2 ** 20, `heap of ${stats.heapBytes} bytes`);
    assert.ok(stats.mallocBytes > 0 && stats.mallocBytes < stats.heapBytes, `malloc'd ${stats.mallocBytes} bytes`);
    assert.ok(stats.stackPointer > 0 && stats.stackPointer < stats.heapBytes, `stack pointer ${stats.stackPointer}`);
    assert.ok(Number.isInteger(stats.handles) && stats.handles >= 0);
    // A result held by the caller lives in JavaScript, not in the WebAssembly heap.
    const held = lab.attention(matrix([[1, 0]]), keys(), values());
    assert.equal(lab.memoryStats().mallocBytes, stats.mallocBytes);
    assert.equal(held.weights.rows, 1);
  });
});

describe('a JavaScript exception while the arguments are read costs nothing either', () => {
  const throwing = (field) => {
    const m = matrix([[1, 0], [0, 1], [1, 1]]);
    return Object.defineProperty({ ...m }, field, { get() { throw new Error(`no ${field} today`); }, enumerable: true });
  };

  for (const field of ['rows', 'cols', 'data']) {
    test(`a getter for V.${field} that throws, after Q and K were read`, () => {
      const fail = () => lab.attention(matrix([[1, 0]]), keys(), throwing(field));
      assertErrorsCostNothing(fail, new RegExp(`V\\.${field} could not be read: no ${field} today`));
      cases.attention.check();
    });
  }

  test('an options getter that throws, and a mask whose data getter throws', () => {
    const options = { get tau() { throw new Error('tau is hidden'); } };
    assertErrorsCostNothing(() => lab.softmax(matrix([[1, 2]]), options), /options\.tau could not be read: tau is hidden/, CALLS / 2);
    const mask = { rows: 1, cols: 2, get data() { throw new Error('no mask'); } };
    assertErrorsCostNothing(() => lab.softmax(matrix([[1, 2]]), { mask }), /mask\.data could not be read: no mask/, CALLS / 2);
    cases.softmax.check();
  });

  test('a thrown non-Error (a string, a number) still arrives as an Error', () => {
    const m = { rows: 1, cols: 2, get data() { throw 42; } }; // eslint-disable-line no-throw-literal
    assert.throws(() => lab.sums(m), { name: 'Error', message: 'matrix.data could not be read: 42' });
  });
});

describe('lengths are the typed arrays\' own, never a redefined property', () => {
  test('a Float64Array with a redefined length is refused, not padded with old heap contents', () => {
    // Leave recognisable numbers in the heap, where a too-short copy would find them.
    const secret = { rows: 64, cols: 64, data: new Float64Array(64 * 64).fill(7777) };
    lab.matmul(secret, secret);
    const short = new Float64Array([1, 2]);
    Object.defineProperty(short, 'length', { value: 4 });
    assert.equal(short.length, 4);
    assert.throws(() => lab.matmul({ rows: 1, cols: 4, data: short }, matrix([[1], [1], [1], [1]])),
      /A: data has 2 entries, expected 1x4/);
    // The other way round: a length that claims fewer entries than there are.
    const long = new Float64Array([1, 2, 3, 4]);
    Object.defineProperty(long, 'length', { value: 2 });
    assert.throws(() => lab.matmul({ rows: 1, cols: 2, data: long }, matrix([[1], [1]])), /A: data has 4 entries, expected 1x2/);
  });

  test('an object that only looks like a Float64Array is refused', () => {
    const fake = Object.create(Float64Array.prototype);
    assert.throws(() => lab.sums({ rows: 1, cols: 1, data: fake }), /matrix: expected \{ rows, cols, data: Float64Array \}, got data as an object/);
    assert.throws(() => lab.sums({ rows: 1, cols: 2, data: [1, 2] }), /got data as an array of 2 entries/);
    assert.throws(() => lab.sums({ rows: 1, cols: 2, data: new Float32Array(2) }), /got data as a Float32Array of 2 entries \(float32 input is taken by attention and streamingAttention only\)/);
  });

  test('a view of the WebAssembly heap itself, or a subarray, is read by its own length and offset', () => {
    const big = new Float64Array([9, 9, 1, 2, 3, 9]);
    const r = lab.sums({ rows: 1, cols: 3, data: big.subarray(2, 5) });
    assert.deepEqual([...r.rows], [6]);
  });
});
