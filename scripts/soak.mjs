#!/usr/bin/env node
// The long check of the error path: a million failing calls through the JS API, every exported
// function in turn (and a getter that throws while arguments are read), with the WebAssembly
// heap, the stack pointer and the live Embind handles sampled as it goes. Writes a report to
// build/soak/report.md and build/soak/report.json. A check with a report, not a test: it exits
// with status 1 if anything grew or the good calls at the end came out wrong.
// Usage: node scripts/soak.mjs [calls]   (after bash scripts/build-core.sh wasm; default 1000000)

import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { matrix } from '../cpp/bindings/attention-lab.js';
import { loadLab } from '../tests/js/load-lab.mjs';

const total = Number(process.argv[2] ?? 1_000_000);
const lab = await loadLab();
const toy = lab.toySentence();
const keys = matrix([[1, 0], [0, 1], [1, 1]]);
const values = matrix([[1, 0], [0, 1], [0.5, 0.5]]);
const throwingData = Object.defineProperty({ rows: 3, cols: 2 }, 'data', { get() { throw new Error('getter'); } });

// One failing call per function, through the core wherever the core can fail.
const failing = {
  attention: () => lab.attention(matrix([[1, 0, 0]]), keys, values),
  'attention (a throwing getter)': () => lab.attention(matrix([[1, 0]]), keys, throwingData),
  softmax: () => lab.softmax(matrix([[1, 2]]), { mask: matrix([[0, 0]]) }),
  causalMask: () => lab.causalMask(3e9),
  multiHead: () => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 3),
  crossMultiHead: () => lab.crossMultiHead(matrix([[1, 2]]), toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1),
  additiveScores: () => lab.additiveScores(matrix([[1, 0]]), keys, matrix([[1, 0, 0]]), matrix([[1, 0], [0, 1]]), matrix([[1, 1]])),
  rowStats: () => lab.rowStats(matrix([[0.5, NaN]])),
  sums: () => lab.sums(matrix([[1, Infinity]])),
  maxAbsDifference: () => lab.maxAbsDifference(matrix([[1, 2]]), matrix([[1], [2]])),
  gradientFactor: () => lab.gradientFactor({ rows: 0, cols: 2, data: new Float64Array(0) }),
  softmaxJacobian: () => lab.softmaxJacobian(matrix([[0.5, 0.5], [0.5, 0.5]])),
  widthExperiment: () => lab.widthExperiment({ keys: 4096, trials: 1e6, maxLog2: 16 }),
  cost: () => lab.cost({ n: 196, dModel: 768, heads: 5 }),
  'cost (an empty field)': () => lab.cost({ n: Number.NaN, dModel: 768 }),
  layerComparison: () => lab.layerComparison({ n: 196, d: 768, k: 1 }),
  matmul: () => lab.matmul(matrix([[1, 2]]), matrix([[1, 2]])),
};
const names = Object.keys(failing);

function goodCallsAgree() {
  const w = lab.attention(matrix([[1, 0]]), keys, values).weights.data;
  const h4 = lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4);
  return Math.abs(w[1] - 0.198) < 5e-4 && h4.heads[1].weights.data[7 * 8 + 1] > 0.9
    && lab.cost({ n: 8, dModel: 512, heads: 8 }).parameters === 1048576;
}

for (const name of names) try { failing[name](); } catch { /* warm-up */ }
const start = lab.memoryStats();
const samples = [{ calls: 0, ...start }];
const perFunction = Object.fromEntries(names.map((n) => [n, 0]));
let notErrors = 0;
const began = performance.now();
const every = Math.max(1, Math.floor(total / 10));
for (let i = 1; i <= total; i++) {
  const name = names[i % names.length];
  try {
    failing[name]();
    notErrors++;
  } catch (error) {
    if (!(error instanceof Error) || !error.message) notErrors++;
  }
  perFunction[name]++;
  if (i % every === 0) samples.push({ calls: i, ...lab.memoryStats() });
}
const seconds = (performance.now() - began) / 1000;
const end = lab.memoryStats();
const good = goodCallsAgree();
const grew = Object.keys(start).filter((key) => end[key] !== start[key]);
const ok = grew.length === 0 && notErrors === 0 && good;

const lines = [
  '# Soak: failing calls through the JS API',
  '',
  `${new Date().toISOString()}, node ${process.version}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`,
  '',
  `${total.toLocaleString('en')} failing calls in ${seconds.toFixed(1)} s (${(seconds / total * 1e6).toFixed(2)} µs each),`
    + ` over ${names.length} kinds of failure; ${notErrors} did not throw an Error with a message.`,
  `Growth from start to end: ${grew.length ? grew.map((key) => `${key} ${start[key]} → ${end[key]}`).join(', ') : 'none'}`
    + ` (heap ${start.heapBytes} B, malloc'd ${start.mallocBytes} B, stack pointer ${start.stackPointer}, ${start.handles} handles).`,
  `Good calls afterwards: ${good ? 'right numbers' : 'WRONG'}.`,
  '',
  '| calls | heap bytes | malloc\'d bytes | stack pointer | Embind handles |',
  '| ---: | ---: | ---: | ---: | ---: |',
  ...samples.map((s) => `| ${s.calls.toLocaleString('en')} | ${s.heapBytes} | ${s.mallocBytes} | ${s.stackPointer} | ${s.handles} |`),
  '',
  `Result: ${ok ? 'PASS' : 'FAIL'}`,
];
const report = `${lines.join('\n')}\n`;
await mkdir(new URL('../build/soak/', import.meta.url), { recursive: true });
await writeFile(new URL('../build/soak/report.md', import.meta.url), report);
await writeFile(new URL('../build/soak/report.json', import.meta.url),
  `${JSON.stringify({ total, seconds, notErrors, grew, good, ok, perFunction, samples }, null, 2)}\n`);
console.log(report);
process.exitCode = ok ? 0 : 1;
