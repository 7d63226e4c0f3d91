// The snapshot rule: an argument is copied into the heap exactly as it was read and checked. A
// later argument's getter that grows, shrinks or detaches an earlier argument's buffer gets a
// plain Error naming that argument (the cases are in api-cases.mjs, run 50,000 times each by
// error-path-leaks.test.mjs and drawn at random by random-calls.test.mjs); here, that such a call
// writes not a byte of the WebAssembly heap, that the next call still gives the reference
// numbers, and that a getter calling the API again gets right numbers inside and outside.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { matrix } from '../../../cpp/bindings/attention-lab.js';
import { API_CASES, actingMatrix, checkGood, detach, resizableMatrix } from './api-cases.mjs';
import { loadLabAndCore } from '../load-lab.mjs';

let lab;
let core;
let toy;
before(async () => {
  ({ lab, core } = await loadLabAndCore());
  toy = lab.toySentence();
});

const keys = () => matrix([[1, 0], [0, 1], [1, 1]]);
const values = () => matrix([[1, 0], [0, 1], [0.5, 0.5]]);

// Every case of a getter's doing: one that changes an earlier argument's buffer, one that calls
// the API again, one that throws.
const byGetter = (f) => /\bgetter of /.test(f.label ?? '');
const GETTER_CASES = API_CASES.attention.failing.filter(byGetter).concat(API_CASES.matmul.failing.filter(byGetter));

test('the heap comparison below covers the re-entrant and the throwing getter', () => {
  const labels = GETTER_CASES.map((c) => c.label);
  assert.ok(labels.includes('a getter of V that throws'), labels.join('; '));
  assert.ok(labels.some((label) => /calls attention/.test(label)), labels.join('; '));
  assert.ok(labels.length >= 8, labels.join('; '));
});

for (const c of GETTER_CASES) {
  test(`${c.label}: refused with not a byte of the heap written, and the next call is right`, () => {
    const name = c.label.startsWith('A ') ? 'matmul' : 'attention';
    // The same shapes once, so that the input area is already as big as this call needs.
    checkGood(lab, name, { toy });
    assert.throws(() => lab[name](...c.args({ toy, lab })), { message: c.message });
    const heap = core.HEAPU8.slice();
    const stats = lab.memoryStats();
    assert.throws(() => lab[name](...c.args({ toy, lab })), { message: c.message });
    assert.deepEqual(lab.memoryStats(), stats);
    const now = core.HEAPU8;
    assert.equal(now.length, heap.length);
    // Every byte but the stack's scratch space below its resting pointer, which any call (this
    // test's memoryStats() too) overwrites and no one reads afterwards.
    const scratch = [stats.stackPointer - 65536, stats.stackPointer];
    let first = -1;
    for (let i = 0; i < heap.length; i++) {
      if (heap[i] !== now[i] && !(i >= scratch[0] && i < scratch[1])) {
        first = i;
        break;
      }
    }
    assert.equal(first, -1, `the heap changed at byte ${first}`);
    checkGood(lab, name, { toy });
  });
}

test('a buffer grown by a later getter is refused even where a fixed-length view still covers the checked entries', () => {
  for (const shared of [false, true]) {
    const q = resizableMatrix([[1, 0]], shared);
    const fixed = { rows: 1, cols: 2, data: new Float64Array(q.buffer, 0, 2) };
    assert.throws(() => lab.attention(fixed, keys(), actingMatrix(values(), () => q.buffer[shared ? 'grow' : 'resize'](32))),
      { message: /^Q: the buffer of its data was resized: it had 16 bytes when Q was read, 32 now, by a later argument; nothing was computed$/ });
  }
  checkGood(lab, 'attention', { toy });
});

test('the copy reads the entries that were checked, through the built-ins saved when the API loaded', () => {
  // A caller who replaces %TypedArray%.prototype.set and the length getter after loading the API
  // changes neither what is copied nor the length that is checked.
  const TypedArray = Object.getPrototypeOf(Float64Array.prototype);
  const set = Object.getOwnPropertyDescriptor(TypedArray, 'set');
  const length = Object.getOwnPropertyDescriptor(TypedArray, 'length');
  const args = [matrix([[1, 0]]), keys(), values()];
  const short = { rows: 1, cols: 2, data: new Float64Array(3) };
  Object.defineProperty(TypedArray, 'set', { ...set, value() { throw new Error('the replaced set ran'); } });
  Object.defineProperty(TypedArray, 'length', { ...length, get() { return 2; } });
  let weight;
  try {
    weight = lab.attention(...args).weights.data[0];
    assert.throws(() => lab.sums(short), { message: /^matrix: data has 3 entries, expected 1x2$/ });
  } finally {
    Object.defineProperty(TypedArray, 'set', set);
    Object.defineProperty(TypedArray, 'length', length);
  }
  assert.equal(weight.toFixed(4), '0.4011');
});

test('a float32 mask is checked as it is copied, not as its own iterator says', () => {
  const f32 = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });
  const data = Float32Array.of(1, 1, 1);
  // Float64Array.from(data) would read these instead of the entries 1, 1, 1.
  data[Symbol.iterator] = function* lying() { yield 0.5; yield 7; yield NaN; };
  const r = lab.attention(f32(matrix([[1, 0]])), f32(keys()), f32(values()), { mask: { rows: 1, cols: 3, data } });
  assert.deepEqual([...r.weights.data].map((x) => x.toFixed(4)), ['0.4011', '0.1978', '0.4011']);
  // And an iterator that would make a bad mask pass: the entries themselves are refused.
  const bad = Float32Array.of(1, 0.5, 1);
  bad[Symbol.iterator] = function* ones() { yield 1; yield 1; yield 1; };
  assert.throws(() => lab.attention(f32(matrix([[1, 0]])), f32(keys()), f32(values()), { mask: { rows: 1, cols: 3, data: bad } }),
    { message: /^mask: entry \(0, 1\) is 0\.5; entries must be exactly 0 \(hidden\) or 1 \(allowed\)$/ });
});

test('a getter that calls the API again: both calls give the reference numbers', () => {
  let inner = null;
  const v = actingMatrix(values(), () => { inner = lab.attention(matrix([[1, 0]]), keys(), values()); });
  const outer = lab.attention(matrix([[1, 0]]), keys(), v);
  for (const r of [inner, outer]) assert.deepEqual([...r.weights.data].map((x) => x.toFixed(4)), ['0.4011', '0.1978', '0.4011']);
  // The same through multiHead's pooled records, with a nested multiHead and attention.
  let nested = null;
  const WO = actingMatrix(toy.WO, () => { nested = [lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4), checkGood(lab, 'attention', { toy })]; });
  const h = lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, WO, 4);
  assert.ok(h.heads[1].weights.data[57] > 0.999 && nested[0].heads[1].weights.data[57] > 0.999);
  assert.deepEqual([...h.output.data], [...nested[0].output.data]);
  checkGood(lab, 'multiHead', { toy });
});

test('a getter that detaches its own matrix\'s buffer before data is read: the data is read as it is then', () => {
  const m = matrix([[1, 2], [3, 4]]);
  const buffer = m.data.buffer;
  const arg = { get rows() { detach(buffer); return 2; }, cols: 2, data: m.data };
  assert.throws(() => lab.sums(arg), { message: /^matrix: data has 0 entries, expected 2x2$/ });
  checkGood(lab, 'sums', { toy });
});

test('options.into may not be a view of the WebAssembly heap: refused, not a byte written', () => {
  checkGood(lab, 'attention', { toy });
  const before = core.HEAPU8.slice();
  const output = new Float64Array(core.HEAPU8.buffer, 8 * 1024, 2);
  assert.throws(() => lab.attention(matrix([[1, 0]]), keys(), values(), { results: 'output', into: { output } }),
    /^Error: options\.into\.output is a view of the WebAssembly heap, which the results are copied from; pass an array of your own$/);
  const now = core.HEAPU8;
  const stack = lab.memoryStats().stackPointer;
  let changed = 0;
  for (let i = 0; i < before.length; i++) if (before[i] !== now[i] && !(i >= stack - 65536 && i < stack)) changed++;
  assert.equal(changed, 0);
  checkGood(lab, 'attention', { toy });
});
