// The boundary between JavaScript and the WebAssembly core costs nothing on the error path:
// for every exported function, 50,000 failing calls leave the heap, the WebAssembly stack
// and the live Embind handles exactly where they were, and the next call is still right.
// (Each error used to leave 16-176 bytes of stack and 2-8 handles behind.) The failing calls and
// the good calls with their reference numbers come from the table of cases, api-cases.mjs.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { matrix } from '../../../cpp/bindings/attention-lab.js';
import { API_CASES, API_NAMES, checkGood, failingCalls } from './api-cases.mjs';
import { loadLab } from '../load-lab.mjs';

const CALLS = 50_000;

let lab;
let toy;
before(async () => {
  lab = await loadLab();
  toy = lab.toySentence();
});

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

describe(`${CALLS.toLocaleString('en')} failing calls of each function leave heap, stack and handles unchanged`, () => {
  // Every failing call of the table, with its function's good call (and reference numbers)
  // before and after.
  for (const { name, label, call, message, calls } of failingCalls()) {
    test(calls ? `${label}, ${calls.toLocaleString('en')} times` : label, () => {
      checkGood(lab, name, { toy });
      const context = { toy };
      assertErrorsCostNothing(() => call(lab, context), message, calls);
      checkGood(lab, name, { toy });
    });
  }

  for (const name of API_NAMES.filter((n) => API_CASES[n].failing.length === 0 && typeof API_CASES[n].good.args === 'function')) {
    test(`${name} cannot fail (${API_CASES[name].cannotFail}); 50,000 calls leave nothing behind either`, () => {
      checkGood(lab, name, { toy });
      const before = lab.memoryStats();
      for (let i = 0; i < CALLS; i++) lab[name]();
      assert.deepEqual(lab.memoryStats(), before);
      checkGood(lab, name, { toy });
    });
  }

  test('the numbers memoryStats reports are real', () => {
    const stats = lab.memoryStats();
    assert.ok(stats.heapBytes >= 16 * 2 ** 20, `heap of ${stats.heapBytes} bytes`);
    assert.ok(stats.mallocBytes > 0 && stats.mallocBytes < stats.heapBytes, `malloc'd ${stats.mallocBytes} bytes`);
    assert.ok(stats.stackPointer > 0 && stats.stackPointer < stats.heapBytes, `stack pointer ${stats.stackPointer}`);
    assert.ok(Number.isInteger(stats.handles) && stats.handles >= 0);
    // A result held by the caller lives in JavaScript, not in the WebAssembly heap.
    const held = checkGood(lab, 'attention', { toy });
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
      const fail = () => lab.attention(matrix([[1, 0]]), matrix([[1, 0], [0, 1], [1, 1]]), throwing(field));
      assertErrorsCostNothing(fail, new RegExp(`V\\.${field} could not be read: no ${field} today`));
      checkGood(lab, 'attention', { toy });
    });
  }

  test('an options getter that throws, and a mask whose data getter throws', () => {
    const options = { get tau() { throw new Error('tau is hidden'); } };
    assertErrorsCostNothing(() => lab.softmax(matrix([[1, 2]]), options), /options\.tau could not be read: tau is hidden/, CALLS / 2);
    const mask = { rows: 1, cols: 2, get data() { throw new Error('no mask'); } };
    assertErrorsCostNothing(() => lab.softmax(matrix([[1, 2]]), { mask }), /mask\.data could not be read: no mask/, CALLS / 2);
    checkGood(lab, 'softmax', { toy });
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
