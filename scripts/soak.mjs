#!/usr/bin/env node
// The long check of the error path: a million failing calls through the JS API, every failing
// call of the table of cases (tests/js/api/api-cases.mjs) in turn, and a getter that throws while
// arguments are read, with the WebAssembly heap, the stack pointer and the live Embind handles
// sampled as it goes. Writes a report to
// build/soak/report.md and build/soak/report.json. A check with a report, not a test: it exits
// with status 1 if anything grew or the good calls at the end came out wrong.
// Usage: node scripts/soak.mjs [calls]   (after bash scripts/build-core.sh wasm; default 1000000)

import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { matrix } from '../cpp/bindings/attention-lab.js';
import { API_NAMES, checkGood, failingCalls } from '../tests/js/api/api-cases.mjs';
import { loadLab } from '../tests/js/load-lab.mjs';

const total = Number(process.argv[2] ?? 1_000_000);
const lab = await loadLab();
const toy = lab.toySentence();
const keys = matrix([[1, 0], [0, 1], [1, 1]]);
const throwingData = Object.defineProperty({ rows: 3, cols: 2 }, 'data', { get() { throw new Error('getter'); } });

// Every failing call of the table of cases (tests/js/api/api-cases.mjs), through the core wherever
// the core can fail, and a getter that throws while the arguments are read.
const context = { toy };
const failing = Object.fromEntries(failingCalls().map(({ label, call }) => [label, () => call(lab, context)]));
failing['attention (a throwing getter)'] = () => lab.attention(matrix([[1, 0]]), keys, throwingData);
const names = Object.keys(failing);

// The good call of every function, against its reference numbers.
function goodCallsAgree() {
  try {
    for (const name of API_NAMES) checkGood(lab, name, context);
    return true;
  } catch (error) {
    console.error(error.message);
    return false;
  }
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
