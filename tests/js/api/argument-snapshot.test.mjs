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

for (const c of API_CASES.attention.failing.filter((f) => / by a getter of /.test(f.label ?? ''))
  .concat(API_CASES.matmul.failing.filter((f) => / by a getter of /.test(f.label ?? '')))) {
  test(`${c.label}: refused with not a byte of the heap written, and the next call is right`, () => {
    const name = c.label.startsWith('A ') ? 'matmul' : 'attention';
    // The same shapes once, so that the input area is already as big as this call needs.
    checkGood(lab, name, { toy });
    assert.throws(() => lab[name](...c.args({ toy })), { message: c.message });
    const heap = core.HEAPU8.slice();
    const stats = lab.memoryStats();
    assert.throws(() => lab[name](...c.args({ toy })), { message: c.message });
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

test('a buffer grown and shrunk back to its size before the copy is copied as it is then', () => {
  const q = resizableMatrix([[1, 0]]);
  const r = lab.attention(q.matrix, keys(), actingMatrix(values(), () => {
    q.buffer.resize(64);
    q.buffer.resize(16);
  }));
  assert.deepEqual([...r.output.data].map((x) => x.toFixed(4)), ['0.6017', '0.3983']);
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
