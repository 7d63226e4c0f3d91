// The parts of the "measured in your browser" figure that need no browser: its plan (sizes,
// where each form must stop by the core's budgets, the slope, the n² line), the record a run's
// events fill in, the duration format, and its timing loop run under node against the real core,
// whole and in slices.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LIMITS } from '../../../cpp/bindings/attention-lab.js';
import { formatDuration } from '../../../web/src/lib/format/index.js';
import { measure } from '../../../web/src/figures/measured/bench.js';
import {
  budgetStop, decades, largestWithinBudget, median, rowsPerCall, sizesUpTo, slope, spreadOf, squareLine, timeStop,
} from '../../../web/src/figures/measured/plan.js';
import { freshRecord, recordEvent } from '../../../web/src/figures/measured/record.js';
import { loadLab } from '../load-lab.mjs';

test('the sizes double from 8; the direct form stops where its n×n scores pass the limit of one matrix', () => {
  const sizes = sizesUpTo(16384);
  assert.deepEqual(sizes, [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]);
  assert.equal(largestWithinBudget('direct', sizes, 64, 'float32', LIMITS), 4096, '4096² = 2^24 entries is the budget');
  assert.equal(largestWithinBudget('streaming', sizes, 64, 'float32', LIMITS), 16384, 'streaming never forms them');
  assert.equal(budgetStop('direct', 4096, 64, 'float32', LIMITS), null);
  // In float64 the same matrices are twice as large: the figure's own memory budget stops them first.
  assert.equal(largestWithinBudget('direct', sizes, 64, 'float64', LIMITS), 2048);
  assert.match(budgetStop('direct', 4096, 64, 'float64', LIMITS), /more than this figure’s 250\sMB for one call/);
  assert.match(budgetStop('direct', 8192, 64, 'float32', LIMITS),
    /8\u2009192×8\u2009192 score matrix would hold 67\.1\u00a0M numbers \(268\u00a0MB in float32.*16\.8\u00a0M numbers for one matrix$/);
  assert.match(budgetStop('direct', 8192, 64, 'float64', LIMITS), /537\u00a0MB in float64/);
  // The direct form's work, n²·(2d + pairWork), must fit one call: 4096²·(128 + 384) = 2^33 is
  // exactly float32's limit, twice the width passes it; float64's 2^31 stops at 2048.
  assert.match(budgetStop('direct', 4096, 128, 'float32', LIMITS), /10\.7\u00a0G multiply-adds, more than the core’s budget of 8\.59\u00a0G for one call \(about a second of work\)$/);
  assert.equal(largestWithinBudget('direct', sizes, 16, 'float64', LIMITS), 2048);
  // Streaming is never stopped by the work of one call: past it, it runs in blocks of query rows,
  // each within the limit (16,384 keys of width 128 in float32: 2048 rows a call).
  assert.equal(budgetStop('streaming', 16384, 128, 'float32', LIMITS), null);
  assert.equal(rowsPerCall(16384, 128, 'float32', LIMITS), 2048);
  assert.equal(rowsPerCall(8192, 64, 'float32', LIMITS), 8192);
  assert.equal(rowsPerCall(16384, 64, 'float64', LIMITS), 1024);
  assert.match(timeStop(8192, 2.345), /^one call at n = 8\u2009192 took 2\.3\u00a0s, more than this figure’s 2\u00a0s/);
});

test('a run\'s record: its steps, points and stops as the events bring them, and its end', () => {
  const record = freshRecord({ d: 64, precision: 'float64', largest: 4096 }, LIMITS);
  assert.deepEqual(record.sizes, [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]);
  assert.equal(record.steps, 20, 'two forms at every size');
  assert.equal(record.directLimit, 2048, 'float64 stops the direct form at this figure\u2019s memory budget');
  assert.deepEqual([record.done, record.version, record.finished], [0, 0, false]);
  assert.equal(recordEvent(record, { type: 'step', index: 3, n: 16, form: 'direct' }), true);
  assert.deepEqual([record.done, record.step.n, record.version], [2, 16, 0], 'a step moves the progress, not the drawing');
  recordEvent(record, { type: 'point', form: 'direct', n: 8, seconds: 1e-6 });
  recordEvent(record, { type: 'stop', form: 'direct', n: 4096, reason: 'budget' });
  assert.deepEqual([record.points.direct.length, record.points.streaming.length, record.stops.direct.n, record.version], [1, 0, 4096, 2]);
  assert.equal(recordEvent(record, { type: 'where', worker: true }), false, 'not a measurement: left to the figure');
  assert.equal(record.version, 2);
  recordEvent(record, { type: 'done', seconds: 1.5 });
  assert.deepEqual([record.done, record.finished, record.seconds, record.version], [20, true, 1.5, 3]);
});

test('the slope of time against n on log axes, and the n² line cut to the plot', () => {
  const square = [64, 128, 256].map((n) => ({ n, seconds: 1e-9 * n * n }));
  assert.ok(Math.abs(slope(square) - 2) < 1e-12);
  assert.ok(Math.abs(slope([{ n: 8, seconds: 1e-6 }, { n: 16, seconds: 2e-6 }]) - 1) < 1e-12);
  assert.equal(slope([{ n: 8, seconds: 1e-6 }]), null);
  assert.equal(slope([{ n: 8, seconds: 0 }, { n: 16, seconds: 1e-6 }]), null, 'a time of 0 was not measured');
  assert.deepEqual(decades([3e-6, 0.04]), [1e-6, 0.1]);
  assert.deepEqual(decades([5]), [1, 10]);
  // Through (1024, 0.01): t = 0.01·(n/1024)²; inside [8, 1024] × [1e-6, 0.1] it runs from n ≈ 10.2 to 1024.
  const line = squareLine({ x: 1024, y: 0.01 }, [8, 1024], [1e-6, 0.1]);
  assert.ok(Math.abs(line.x[0] - 10.24) < 1e-9 && line.x[1] === 1024);
  assert.ok(Math.abs(line.y[0] - 1e-6) < 1e-18 && Math.abs(line.y[1] - 0.01) < 1e-15);
  assert.equal(squareLine({ x: 8, y: 1 }, [8, 16], [1e-6, 1e-3]), null, 'a line that misses the plot is not drawn');
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 2, 3]), 2.5);
});

test('durations read with two significant digits in s, ms, µs or ns, and never as Infinity or NaN', () => {
  assert.equal(formatDuration(0.0034), '3.4\u00a0ms');
  assert.equal(formatDuration(2.5e-6), '2.5\u00a0µs');
  assert.equal(formatDuration(0.000999), '1\u00a0ms', 'rounding up crosses into the next unit');
  assert.equal(formatDuration(12.34), '12\u00a0s');
  assert.equal(formatDuration(0.1234), '120\u00a0ms');
  assert.equal(formatDuration(4e-8), '40\u00a0ns');
  for (const bad of [0, -1, NaN, Infinity]) assert.equal(formatDuration(bad), '—');
});

/** Every event of a run but the ticks, and how many ticks there were. */
function collect(lab, options) {
  const events = [];
  let ticks = 0;
  for (const event of measure(lab, options)) {
    if (event.type === 'tick') ticks += 1;
    else events.push(event);
  }
  return { events, ticks };
}

test('the timing loop under node: both forms at every size, positive times, the bytes of what each call made', async () => {
  const lab = await loadLab();
  lab.attention(...[0, 1, 2].map(() => ({ rows: 8, cols: 16, data: new Float32Array(128) }))); // the reused input area exists
  const before = lab.memoryStats().mallocBytes;
  const { events } = collect(lab, { largest: 64, d: 16, precision: 'float32' });
  assert.deepEqual(events[0], { type: 'start', steps: 8, sizes: [8, 16, 32, 64] });
  assert.equal(events.at(-1).type, 'done');
  const points = events.filter((e) => e.type === 'point');
  assert.deepEqual(points.map((p) => `${p.form} ${p.n}`),
    ['direct 8', 'streaming 8', 'direct 16', 'streaming 16', 'direct 32', 'streaming 32', 'direct 64', 'streaming 64']);
  for (const p of points) {
    assert.ok(p.seconds > 0 && p.seconds < 1, `${p.form} ${p.n}: ${p.seconds} s`);
    assert.ok(p.calls >= 3);
    // float32: three n×n matrices and the n×d output, or the output alone.
    assert.equal(p.bytes, p.form === 'direct' ? (3 * p.n * p.n + p.n * 16) * 4 : p.n * 16 * 4);
  }
  assert.equal(events.filter((e) => e.type === 'step').length, 8, 'a step event per size and form, for the progress bar');
  assert.ok(lab.memoryStats().mallocBytes <= before + 3 * 64 * 16 * 4, 'the core keeps nothing but its reused input area');
});

test('in slices: the streaming form runs over blocks of queries, the direct form stops where a call passes a unit', async () => {
  const lab = await loadLab();
  // A unit of 1 µs: every call after the first sizes is predicted to pass it.
  const { events, ticks } = collect(lab, { largest: 128, d: 16, precision: 'float64', sliced: true, unitSeconds: 1e-6 });
  const stop = events.find((e) => e.type === 'stop');
  assert.equal(stop.form, 'direct');
  assert.match(stop.reason, /^on this page’s own thread one call must fit in a slice/);
  const streaming = events.filter((e) => e.type === 'point' && e.form === 'streaming');
  assert.deepEqual(streaming.map((p) => p.n), [8, 16, 32, 64, 128]);
  const blocked = streaming.filter((p) => p.blocks > 1);
  assert.ok(blocked.length >= 1, 'some sizes ran in blocks of queries');
  for (const p of blocked) assert.equal(p.bytes, p.n * 16 * 8, `${p.n}: the blocks' outputs make one n×d output`);
  assert.ok(ticks > streaming.length, 'the loop pauses inside a size');
});

test('the spread of repeated timings: fastest to slowest for a few, the 10th to 90th percentile for ten or more', () => {
  assert.deepEqual(spreadOf([0.3, 0.1, 0.2]), { low: 0.1, high: 0.3 });
  assert.deepEqual(spreadOf([2, 1]), { low: 1, high: 2 });
  // One stray slow batch among many does not set the spread.
  const many = [...Array.from({ length: 19 }, (_, i) => 1 + i / 100), 50];
  const { low, high } = spreadOf(many);
  assert.ok(low >= 1.01 && high <= 1.19, `${low}–${high}`);
});
