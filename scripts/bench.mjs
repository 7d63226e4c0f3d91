#!/usr/bin/env node
// Measures the WebAssembly core through the JS API, at the sizes the page uses, and writes a
// report (build/bench/report.md). A benchmark, not a test: nothing here fails on a number.
// Usage: node scripts/bench.mjs   (after bash scripts/build-core.sh wasm)

import { mkdir, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { matrix } from '../cpp/bindings/attention-lab.js';
import { loadLab } from '../tests/js/load-lab.mjs';

const lab = await loadLab();
const toy = lab.toySentence();

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

const cases = [
  ['attention, worked example (1×2 query, 3 keys)', () =>
    lab.attention(matrix([[1, 0]]), matrix([[1, 0], [0, 1], [1, 1]]), matrix([[1, 0], [0, 1], [0.5, 0.5]]))],
  ['multiHead, toy sentence 8×16, h = 1', () => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1)],
  ['multiHead, toy sentence 8×16, h = 4', () => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4)],
  ...[64, 256].map((n) => {
    const Q = randomMatrix(n, 64, 1), K = randomMatrix(n, 64, 2), V = randomMatrix(n, 64, 3);
    return [`attention, n = m = ${n}, d = 64`, () => lab.attention(Q, K, V)];
  }),
  ['widthExperiment, m = 10, T = 200', () => lab.widthExperiment({ keys: 10, trials: 200 }), { runs: 30, inner: 1 }],
  ['widthExperiment, m = 10, T = 2000', () => lab.widthExperiment({ keys: 10, trials: 2000 }), { runs: 10, inner: 1 }],
  ['widthExperiment, m = 64, T = 2000', () => lab.widthExperiment({ keys: 64, trials: 2000 }), { runs: 10, inner: 1 }],
  ['cost + layerComparison', () => { lab.cost({ n: 196, dModel: 768, heads: 12 }); lab.layerComparison({ n: 196, d: 768 }); }],
];

const format = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const lines = [
  '# Attention Lab core benchmark (WebAssembly through the JS API, under node)',
  '',
  `node ${process.version}, ${new Date().toISOString()}`,
  '',
  '| call | median | p95 |',
  '| --- | --- | --- |',
];
for (const [name, fn, options] of cases) {
  const { median, p95 } = measure(fn, options);
  lines.push(`| ${name} | ${format(median)} | ${format(p95)} |`);
}
const report = `${lines.join('\n')}\n`;
await mkdir(new URL('../build/bench/', import.meta.url), { recursive: true });
await writeFile(new URL('../build/bench/report.md', import.meta.url), report);
console.log(report);
