// A fuzz of the JS API (its arguments drawn as the table of cases, api-cases.mjs, says): random types, shapes and values (0 and mismatched shapes, NaN, ±Inf,
// ±1e308, denormals, strings, null, throwing getters, lying lengths) for every function.
// Every outcome must be either a result that agrees with a plain JavaScript reference, or an
// Error (the API's own, not a TypeError or a trap) with a message. Some arguments' getters call
// the API again in the middle of a call (re-entrant), and their inner calls must be right too.
// Replaying the same calls a second time must leave heap, stack and handles exactly where the
// first pass left them, and the heap's every byte (but the stack's scratch space) as it was.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { API_CASES, API_NAMES, actingMatrix, detach, resizableMatrix } from './api-cases.mjs';
import { loadLabAndCore } from '../load-lab.mjs';
import { REFERENCES } from './reference-checks.mjs';

const CALLS = 4000;
const SEED = 20261201;

let lab;
let core;
let toy;
before(async () => {
  ({ lab, core } = await loadLabAndCore());
  toy = lab.toySentence();
});

// Calls made by re-entrant getters, and those of them that did not give the worked example's weights.
const reentrant = { calls: 0, wrong: 0 };
/** A matrix whose rows getter first makes a whole call of its own (the worked example). */
function reentrantMatrix(m) {
  return actingMatrix(m, () => {
    reentrant.calls++;
    const inner = lab.attention({ rows: 1, cols: 2, data: Float64Array.of(1, 0) },
      { rows: 3, cols: 2, data: Float64Array.of(1, 0, 0, 1, 1, 1) }, { rows: 3, cols: 2, data: Float64Array.of(1, 0, 0, 1, 0.5, 0.5) });
    if (Math.abs(inner.weights.data[0] - 0.4011) > 5e-5 || Math.abs(inner.output.data[1] - 0.3983) > 5e-5) reentrant.wrong++;
  });
}

/** mulberry32: a small seeded generator, so that a failure can be replayed. */
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)], chance: (p) => next() < p };
}

const ODD_NUMBERS = [NaN, Infinity, -Infinity, 1e308, -1e308, 5e-324, -0, 1e200, 3e9, 2 ** 53, 2.5, -1, 0];
const ODD_VALUES = [undefined, null, '2', '', 'causal', 'keys', 'queries', 'head', 'model', true, {}, [], [[1]],
  1n, () => 1, Symbol('s'), new Float64Array(3), new Float32Array(2), ...ODD_NUMBERS];

function fuzzer(seed) {
  const r = generator(seed);
  let resizable = null; // the last resizable buffer of the call being drawn
  const entry = () => (r.chance(0.02) ? r.pick(ODD_NUMBERS) : Math.round((r.next() * 6 - 3) * 1000) / 1000);
  const good = (rows, cols) => ({ rows, cols, data: Float64Array.from({ length: rows * cols }, entry) });
  function matrixArg(rows = r.int(5) + (r.chance(0.05) ? 0 : 1), cols = r.int(5) + (r.chance(0.05) ? 0 : 1)) {
    if (resizable !== null && r.chance(0.3)) return hostile(rows, cols);
    if (r.chance(0.04)) return resizableArg(rows, cols);
    if (r.chance(0.03)) return reentrantMatrix(good(rows, cols));
    if (r.chance(0.85)) return good(rows, cols);
    switch (r.int(7)) {
      case 0: return r.pick(ODD_VALUES);
      case 1: return { rows, cols, data: new Float64Array(rows * cols + 1) };
      case 2: return { rows: r.pick(ODD_NUMBERS), cols, data: new Float64Array(rows * cols) };
      case 3: return { rows, cols, data: Array.from({ length: rows * cols }, entry) };
      case 4: return Object.defineProperty({ rows, cols }, 'data', { get() { throw new Error('getter'); }, enumerable: true });
      case 5: {
        const data = new Float64Array(Math.max(0, rows * cols - 1));
        Object.defineProperty(data, 'length', { value: rows * cols });
        return { rows, cols, data };
      }
      default: return { rows: 5000, cols: 5000, data: new Float64Array(0) };
    }
  }
  // Data in a resizable ArrayBuffer (or a growable SharedArrayBuffer), which a later argument's
  // getter may change (hostile()).
  function resizableArg(rows, cols) {
    if (rows * cols === 0) return { rows, cols, data: new Float64Array(0) };
    resizable = resizableMatrix(Array.from({ length: rows }, () => Array.from({ length: cols }, entry)), r.chance(0.3));
    return resizable.matrix;
  }
  // A matrix whose rows getter grows, shrinks or detaches an earlier argument's buffer.
  function hostile(rows, cols) {
    const target = resizable;
    const shared = target.buffer instanceof SharedArrayBuffer;
    const bytes = target.buffer.byteLength;
    const action = shared ? 0 : r.int(3);
    return actingMatrix(good(rows, cols), () => {
      if (action === 0) target.buffer[shared ? 'grow' : 'resize'](bytes + 8);
      else if (action === 1) target.buffer.resize(bytes - 8);
      else detach(target.buffer);
    });
  }
  const square = (d) => matrixArg(d, d);
  const count = (typical) => (r.chance(0.8) ? typical() : r.pick(ODD_VALUES));
  function options(names, values) {
    if (r.chance(0.3)) return undefined;
    if (r.chance(0.1)) return r.pick(ODD_VALUES);
    const o = {};
    for (const name of names) if (r.chance(0.4)) o[name] = r.chance(0.7) ? values[name]() : r.pick(ODD_VALUES);
    if (r.chance(0.05)) o[r.pick(['taus', 'Axis', 'scale_by', 'mask'])] = 1;
    return o;
  }
  const tau = () => r.pick([0.1, 0.5, 1, 2, 10]);
  const mask = (rows, cols) => () => (r.chance(0.5) ? r.pick([null, 'causal']) : {
    rows, cols, data: Float64Array.from({ length: rows * cols }, () => (r.chance(0.9) ? 1 : r.pick([0, 0.5, NaN]))),
  });

  // The arguments of each function are drawn as the table of cases says (api-cases.mjs).
  const toolkit = { r, matrixArg, square, count, options, tau, mask, toy, ODD_VALUES };
  const names = API_NAMES.filter((name) => API_CASES[name].fuzz);
  const calls = Object.fromEntries(names.map((name) => [name, () => API_CASES[name].fuzz(toolkit)]));
  return {
    next: () => {
      resizable = null;
      const name = r.pick(Object.keys(calls));
      return { name, args: calls[name]() };
    },
  };
}

function runFuzz(seed, count) {
  const f = fuzzer(seed);
  const outcomes = { results: 0, errors: 0, changedBuffers: 0 };
  for (let i = 0; i < count; i++) {
    const { name, args } = f.next();
    let result;
    try {
      result = lab[name](...args);
    } catch (error) {
      if (!(error instanceof Error) || error.constructor !== Error || typeof error.message !== 'string' || error.message.length < 10) {
        assert.fail(`call ${i} ${name}: threw ${error?.constructor?.name}: ${error?.message ?? String(error)}`);
      }
      assert.doesNotMatch(error.message, /RuntimeError|memory access|unreachable|bad_alloc|undefined is not|Cannot read/, `call ${i} ${name}`);
      outcomes.errors++;
      if (/the buffer of its data (was resized|was detached)/.test(error.message)) outcomes.changedBuffers++;
      continue;
    }
    try {
      REFERENCES[name](args, result);
    } catch (error) {
      error.message = `call ${i} ${name}: ${error.message}`;
      throw error;
    }
    outcomes.results++;
  }
  return outcomes;
}

test('every function the table fuzzes has a plain JavaScript reference here', () => {
  const missing = API_NAMES.filter((name) => API_CASES[name].fuzz && typeof REFERENCES[name] !== 'function');
  assert.deepEqual(missing, []);
  for (const name of API_NAMES) {
    if (!API_CASES[name].fuzz) assert.ok(API_CASES[name].noFuzz, `${name}: no fuzz, and no reason given (noFuzz)`);
  }
});

test(`${CALLS} random calls: each a right result or an Error with a message, and nothing leaks`, (t) => {
  const first = runFuzz(SEED, CALLS);
  const afterFirst = lab.memoryStats();
  const second = runFuzz(SEED, CALLS);
  assert.deepEqual(second, first, 'the replay has the same outcomes');
  assert.deepEqual(lab.memoryStats(), afterFirst, 'replaying the same calls leaves heap, stack and handles where they were');
  // And the heap's contents, byte for byte: the module's whole state lives in its memory, so
  // putting back the bytes from before the second pass (malloc's free lists and all) and
  // replaying it must leave every byte as the second pass did, but the stack's scratch space
  // below its resting pointer, which any call overwrites and no one reads afterwards. A stray
  // write, or one that depends on anything but the calls (a re-entrant call's, say), differs.
  const start = core.HEAPU8.slice();
  runFuzz(SEED, CALLS);
  const heap = core.HEAPU8.slice();
  assert.equal(heap.length, start.length, 'the memory did not grow in a replay');
  core.HEAPU8.set(start);
  const third = runFuzz(SEED, CALLS);
  assert.deepEqual(third, first, 'the replay from the same bytes has the same outcomes');
  const now = core.HEAPU8;
  const scratch = [afterFirst.stackPointer - 65536, afterFirst.stackPointer];
  let changed = 0;
  let firstChanged = -1;
  for (let i = 0; i < heap.length; i++) {
    if (heap[i] !== now[i] && !(i >= scratch[0] && i < scratch[1])) {
      changed++;
      if (firstChanged < 0) firstChanged = i;
    }
  }
  assert.equal(changed, 0, `the replay changed ${changed} bytes of the heap, the first at ${firstChanged}`);
  assert.ok(reentrant.calls > 20 && reentrant.wrong === 0, `re-entrant calls: ${JSON.stringify(reentrant)}`);
  // Both outcomes must be well represented, or the fuzz tests little.
  t.diagnostic(`outcomes of one pass: ${JSON.stringify(first)}`);
  assert.ok(first.results > CALLS / 5 && first.errors > CALLS / 5, JSON.stringify(first));
  assert.ok(first.changedBuffers > 0, `no call met a buffer changed by a later argument: ${JSON.stringify(first)}`);
});
