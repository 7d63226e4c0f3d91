#!/usr/bin/env node
// Measures the WebAssembly core through the JS API, at the sizes the page uses, and writes a
// report (build/bench/report.md). A benchmark, not a test: nothing here fails on a number.
// Usage: node scripts/bench.mjs   (after bash scripts/build-core.sh wasm)

import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { matrix } from '../cpp/bindings/attention-lab.js';
import { buildDir, loadLab } from '../tests/js/load-lab.mjs';

const lab = await loadLab();
const toy = lab.toySentence();
// The raw module as well, to time the core's own work without the JS API around it.
const core = await createRequire(import.meta.url)(`${buildDir}wasm/attention_lab_node.cjs`)({
  wasmBinary: readFileSync(`${buildDir}wasm/attention_lab_node.wasm`),
});

function randomMatrix(rows, cols, seed) {
  let x = seed;
  const data = new Float64Array(rows * cols).map(() => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648 - 0.5;
  });
  return { rows, cols, data };
}

/** Median and 95th percentile of `runs` timings of `fn`, after warm-up calls. */
function measure(fn, { runs = 200, inner = 10 } = {}) {
  for (let i = 0; i < 20; i++) fn();
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    for (let i = 0; i < inner; i++) fn();
    samples.push((performance.now() - start) / inner);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(runs / 2)], p95: samples[Math.floor(runs * 0.95)] };
}

/** Attention as plain JavaScript loops over Float64Arrays: the peer a web developer writes. */
function plainAttention(Q, K, V) {
  const n = Q.rows; const m = K.rows; const d = Q.cols; const dv = V.cols;
  const scale = 1 / Math.sqrt(d);
  const scores = new Float64Array(n * m);
  const output = new Float64Array(n * dv);
  for (let i = 0; i < n; i++) {
    let top = -Infinity;
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += Q.data[i * d + c] * K.data[j * d + c];
      scores[i * m + j] = s * scale;
      if (scores[i * m + j] > top) top = scores[i * m + j];
    }
    let sum = 0;
    for (let j = 0; j < m; j++) sum += (scores[i * m + j] = Math.exp(scores[i * m + j] - top));
    for (let j = 0; j < m; j++) {
      const w = (scores[i * m + j] /= sum);
      for (let c = 0; c < dv; c++) output[i * dv + c] += w * V.data[j * dv + c];
    }
  }
  return { weights: { rows: n, cols: m, data: scores }, output: { rows: n, cols: dv, data: output } };
}

/** The same call as a raw export over inputs already in the heap: the core's own time. */
function rawAttention(Q, K, V) {
  const bytes = 8 * (Q.data.length + K.data.length + V.data.length);
  const base = core._al_input_area(bytes);
  core.HEAPF64.set(Q.data, base / 8);
  core.HEAPF64.set(K.data, base / 8 + Q.data.length);
  core.HEAPF64.set(V.data, base / 8 + Q.data.length + K.data.length);
  const q = base; const k = base + 8 * Q.data.length; const v = k + 8 * K.data.length;
  return () => {
    core._al_attention(q, Q.rows, Q.cols, k, K.rows, K.cols, v, V.rows, V.cols, 1, 0, 0, 0, 0, 0, 0);
    core._al_release();
  };
}

const worked = [matrix([[1, 0]]), matrix([[1, 0], [0, 1], [1, 1]]), matrix([[1, 0], [0, 1], [0.5, 0.5]])];
const eight = [randomMatrix(8, 16, 1), randomMatrix(8, 16, 2), randomMatrix(8, 16, 3)];
const rawWorked = rawAttention(...worked);
const rawEight = rawAttention(...eight);
const boundaryCases = [
  ['attention, worked example (1 query, 3 keys, d = 2), JS API', () => lab.attention(...worked), { budget: 2e-3 }],
  ['  the same, raw export only (the core\'s own work)', rawWorked],
  ['attention, n = m = 8, d = 16, JS API', () => lab.attention(...eight), { budget: 2e-3 }],
  ['  the same, raw export only (the core\'s own work)', rawEight],
  ['  the same, plain JS loops over Float64Arrays', () => plainAttention(...eight)],
  ['multiHead, toy sentence 8x16, h = 4, JS API', () => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4), { budget: 6e-3 }],
  ['a failing call: cost({ n: 0, dModel: 4 })', () => { try { lab.cost({ n: 0, dModel: 4 }); } catch { /* measured */ } }],
  ['a failing call in the core: multiHead with h = 3', () => { try { lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 3); } catch { /* measured */ } }],
];

const cases = [
  ['multiHead, toy sentence 8×16, h = 1', () => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1)],
  ...[64, 256].map((n) => {
    const Q = randomMatrix(n, 64, 1), K = randomMatrix(n, 64, 2), V = randomMatrix(n, 64, 3);
    return [`attention, n = m = ${n}, d = 64`, () => lab.attention(Q, K, V)];
  }),
  ['widthExperiment, m = 10, T = 200', () => lab.widthExperiment({ keys: 10, trials: 200 }), { runs: 30, inner: 1 }],
  ['widthExperiment, m = 10, T = 2000', () => lab.widthExperiment({ keys: 10, trials: 2000 }), { runs: 10, inner: 1 }],
  ['widthExperiment, m = 64, T = 2000', () => lab.widthExperiment({ keys: 64, trials: 2000 }), { runs: 10, inner: 1 }],
  ['cost + layerComparison', () => { lab.cost({ n: 196, dModel: 768, heads: 12 }); lab.layerComparison({ n: 196, d: 768 }); }],
];

const format = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(2)} ms`);
const lines = [
  '# Attention Lab core benchmark (WebAssembly through the JS API, under node)',
  '',
  `node ${process.version}, ${new Date().toISOString()}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`,
  '',
  '## The boundary (issue 9, item 1): best median of 3 interleaved passes',
  '',
  '| call | median | p95 | budget |',
  '| --- | --- | --- | --- |',
];
// Interleaved passes, so that drift in the machine's load hits every row alike.
const best = boundaryCases.map(() => ({ median: Infinity, p95: Infinity }));
for (let pass = 0; pass < 3; pass++) {
  boundaryCases.forEach(([, fn], i) => {
    const { median, p95 } = measure(fn, { runs: 200, inner: 50 });
    if (median < best[i].median) best[i] = { median, p95 };
  });
}
boundaryCases.forEach(([name, , options], i) => {
  const budget = options?.budget;
  const verdict = budget === undefined ? '' : `${format(budget)} (${best[i].median <= budget ? 'met' : `missed by ${format(best[i].median - budget)}`})`;
  lines.push(`| ${name} | ${format(best[i].median)} | ${format(best[i].p95)} | ${verdict} |`);
});
const speedup = best[4].median / best[2].median;
lines.push('', `At 8×16 the JS API is ${speedup.toFixed(2)}× as fast as plain JS loops (budget: at least 3×).`,
  `The boundary itself (JS API minus the raw export) costs ${format(best[2].median - best[3].median)} at 8×16 and ${format(best[0].median - best[1].median)} on the worked example.`,
  '', '## Other calls', '', '| call | median | p95 |', '| --- | --- | --- |');
for (const [name, fn, options] of cases) {
  const { median, p95 } = measure(fn, options);
  lines.push(`| ${name} | ${format(median)} | ${format(p95)} |`);
}
const report = `${lines.join('\n')}\n`;
await mkdir(new URL('../build/bench/', import.meta.url), { recursive: true });
await writeFile(new URL('../build/bench/report.md', import.meta.url), report);
console.log(report);
