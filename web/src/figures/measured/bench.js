// The timing loop of the "measured in your browser" figure: self-attention (n = m) through
// the JS API, the direct form (lab.attention, which makes the n×m scores and weights) and the
// streaming form (lab.streamingAttention, which never does), at each size of the plan.
//
// It is a generator of events, so that two drivers can run the same loop: the Worker
// (worker.js) takes every step at once and posts the events to the page; the main thread
// (run.js, where no Worker can start) takes steps in slices of a few milliseconds between
// frames. It yields { type: 'tick' } at every point where it may pause, after a unit of work
// no longer than `unitSeconds` in the sliced case.
//
// Events: { type: 'start', steps, sizes }, { type: 'step', index, n, form } (a size starts),
// { type: 'point', n, form, seconds, low, high, timings, calls, bytes, blocks } (the median time
// of one call, the spread of its repeated timings from low to high, how many timings, the calls
// timed, the bytes of the matrices the call made, the blocks it ran in), { type: 'stop',
// n, form, reason } (this form takes no more sizes, from n on), { type: 'done', seconds }.

import { formatCount, formatDuration } from '../../lib/format/index.js';
import {
  CALL_BUDGET_SECONDS, FORMS, budgetStop, median, rowsPerCall, sizesUpTo, spreadOf, timeStop,
} from './plan.js';

/** How long the timing of one size goes on, once it has three samples. */
const POINT_SECONDS = 0.2;
/** A call at least this long is timed twice: its first call and one more. */
const LONG_CALL_SECONDS = 0.8;
/** Short calls are timed in batches this long (at least half of it), well above the clock's ~0.1 ms grain. */
const BATCH_SECONDS = 0.002;
const MAX_BATCHES = 200;
/** Random numbers drawn between two pauses while the inputs are made. */
const DRAW_CHUNK = 1 << 15;

const now = () => performance.now() / 1000;

/** A small seeded generator (mulberry32) of numbers in [-1, 1): the inputs need no better. */
function uniform(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 31 - 1;
  };
}

/** The bytes of every matrix a call returned: the n×m matrices of the direct form, the output of both. */
function resultBytes(result) {
  return Object.values(result).reduce((sum, matrix) => sum + matrix.data.byteLength, 0);
}

/**
 * @param {object} lab  the JS API (lab.attention, lab.streamingAttention, lab.limits)
 * @param {object} options
 * @param {number} options.largest  the largest n (a power of two)
 * @param {number} options.d  the width of queries, keys and values
 * @param {'float32'|'float64'} options.precision
 * @param {boolean} [options.sliced]  false in a Worker; true on the main thread, where no unit
 *   of work may pass `unitSeconds`: the direct form stops where one call would, and the
 *   streaming form runs over blocks of query rows (each row's output needs only its own query)
 * @param {number} [options.unitSeconds]  the longest unit of work between two pauses (sliced)
 * @param {number} [options.seed]
 */
export function* measure(lab, { largest, d, precision, sliced = false, unitSeconds = 0.003, seed = 1 }) {
  const started = now();
  const sizes = sizesUpTo(largest);
  yield { type: 'start', steps: sizes.length * FORMS.length, sizes };

  // Q, K and V of the largest size, drawn once; each size times the first n rows of each.
  const Typed = precision === 'float32' ? Float32Array : Float64Array;
  const draw = uniform(seed);
  const inputs = [0, 1, 2].map(() => new Typed(largest * d));
  for (const array of inputs) {
    for (let start = 0; start < array.length; start += DRAW_CHUNK) {
      const end = Math.min(array.length, start + DRAW_CHUNK);
      for (let i = start; i < end; i += 1) array[i] = draw();
      yield { type: 'tick' };
    }
  }
  const rowsOf = (array, from, count) => ({ rows: count, cols: d, data: array.subarray(from * d, (from + count) * d) });

  const stopped = new Map(); // form → the size it stopped at
  const last = new Map(); // form → { n, seconds } of its last point
  let index = 0;
  for (const n of sizes) {
    const [Q, K, V] = inputs.map((array) => rowsOf(array, 0, n));
    for (const form of FORMS) {
      index += 1;
      if (stopped.has(form)) continue;
      yield { type: 'step', index, n, form };
      const stop = (reason) => {
        stopped.set(form, n);
        return { type: 'stop', n, form, reason };
      };
      const overBudget = budgetStop(form, n, d, precision, lab.limits);
      if (overBudget) {
        yield stop(overBudget);
        continue;
      }
      const previous = last.get(form);
      if (previous && previous.seconds > CALL_BUDGET_SECONDS) {
        yield stop(timeStop(previous.n, previous.seconds));
        continue;
      }
      // A call does 4 times the work of the one at half the size; the small ones, mostly overhead, less.
      const predicted = previous ? previous.seconds * (n / previous.n) ** 2 : 0;
      const call = form === 'direct'
        ? (q = Q) => lab.attention(q, K, V)
        : (q = Q) => lab.streamingAttention(q, K, V);
      // The streaming form past one call's limit (about a second of work) runs in blocks of query rows.
      const rowsWithinLimit = form === 'streaming' ? rowsPerCall(n, d, precision, lab.limits) : n;
      let point;
      try {
        if (sliced && predicted > unitSeconds) {
          if (form === 'direct') {
            yield stop(`on this page\u2019s own thread one call must fit in a slice of a few milliseconds, and one at `
              + `n = ${formatCount(n)} would take about ${formatDuration(predicted, 1)} (cut into blocks of queries, it `
              + 'would no longer make the n\u00d7m matrices it is here to show)');
            continue;
          }
          point = yield* timeInBlocks(call, n, Math.min(rowsWithinLimit, sliceRows(n, predicted, unitSeconds)), inputs[0], rowsOf);
        } else if (rowsWithinLimit < n) {
          point = yield* timeInBlocks(call, n, rowsWithinLimit, inputs[0], rowsOf);
        } else {
          point = yield* timeWholeCalls(call);
        }
      } catch (error) {
        yield stop(`the core refused it: ${error.message}`);
        continue;
      }
      last.set(form, { n, seconds: point.seconds });
      yield { type: 'point', n, form, ...point };
    }
  }
  yield { type: 'done', seconds: now() - started };
}

/**
 * Times whole calls: the median of batches of calls, each batch long enough for the clock (one
 * call, when a call is long). Never 0: a batch too short to time is no sample, only a reason to
 * make the next one longer (a busy machine can make one short batch look long and stop the
 * growth early).
 */
function* timeWholeCalls(call) {
  let start = now();
  const bytes = resultBytes(call()); // the first call also warms the code up for this size
  const first = now() - start;
  yield { type: 'tick' };
  if (first >= LONG_CALL_SECONDS) {
    // Every size is timed more than once, so that its spread shows; a long one, twice.
    start = now();
    call();
    const second = now() - start;
    yield { type: 'tick' };
    const both = [first, second];
    return { seconds: median(both), ...spreadOf(both), timings: 2, calls: 2, bytes, blocks: 1 };
  }
  let spent = first;
  let calls = 1;
  let batch = 1;
  const samples = [];
  // At least two timings, so that every size shows a spread (a call near LONG_CALL_SECONDS costs
  // a second or two more for it).
  while (samples.length < 2 || (samples.length < 3 ? spent < 4 * POINT_SECONDS : spent < POINT_SECONDS && samples.length < MAX_BATCHES)) {
    start = now();
    for (let k = 0; k < batch; k += 1) call();
    const elapsed = now() - start;
    spent += elapsed;
    calls += batch;
    yield { type: 'tick' };
    if (elapsed >= BATCH_SECONDS / 2) samples.push(elapsed / batch);
    else batch *= elapsed > 0 ? Math.min(8, Math.ceil(BATCH_SECONDS / elapsed)) : 8;
  }
  // Every batch too short for the clock (calls far below its grain, on a machine too busy to
  // batch them up in time): the mean over all the calls made.
  const seconds = samples.length ? median(samples) : spent / calls;
  const spread = samples.length ? spreadOf(samples) : { low: seconds, high: seconds };
  return { seconds, ...spread, timings: samples.length, calls, bytes, blocks: 1 };
}

/** Query rows per block so that a block takes about `unitSeconds` (from the `predicted` time of the whole). */
const sliceRows = (n, predicted, unitSeconds) => Math.max(1, 2 ** Math.floor(Math.log2(Math.max(1, (n * unitSeconds) / predicted))));

/**
 * Times one streaming call made of blocks of `perBlock` query rows, each one call of its own:
 * the sum of their times. Each block copies K and V into the core again, so the sum reads
 * somewhat above one whole call.
 */
function* timeInBlocks(call, n, perBlock, queries, rowsOf) {
  // Twice over, so that this size too shows a spread.
  const passes = [];
  let bytes = 0;
  let blocks = 0;
  for (let pass = 0; pass < 2; pass += 1) {
    let seconds = 0;
    bytes = 0;
    blocks = 0;
    for (let from = 0; from < n; from += perBlock) {
      const q = rowsOf(queries, from, Math.min(perBlock, n - from));
      const start = now();
      const result = call(q);
      seconds += now() - start;
      bytes += resultBytes(result);
      blocks += 1;
      yield { type: 'tick' };
    }
    passes.push(seconds);
  }
  return { seconds: median(passes), ...spreadOf(passes), timings: passes.length, calls: passes.length, bytes, blocks };
}
