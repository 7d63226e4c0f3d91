// The benchmark's report (scripts/bench.mjs): docs/performance.md in words and tables, and
// docs/performance.json with the same rows, including the page's (scripts/bench-page.mjs) and
// the training's (scripts/bench-learn.mjs) sections when those scripts have written them.

import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { whyMissed } from './bench-why-missed.mjs';

const format = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(2)} ms`);
const ratio = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '');
// GFLOP/s of one core's 4 float32 lanes, a multiply and an add each per cycle, measured on the
// 2-core test machine (/work/shared/notes/performance.md).
const LANE_LIMIT = 57.7;

export async function writeReport({ rows, budgets, budgetTime, kernels, machine, native, page, pagePath }) {
  const PASSES = machine.passes;
  const lines = [
    '# Performance',
    '',
    'Measured by `npm run bench` (scripts/bench.sh → scripts/bench.mjs): one node process, every row',
    'interleaved pass by pass; the median CPU time of one call in a pass, best of',
    `${PASSES} pass${PASSES === 1 ? '' : 'es'}. GFLOP/s counts 4·n·m·d; n = m. "× native" is the time over native float32`,
    '(the same core compiled natively, Google Benchmark; float64 rows over native float64); "× faster peer" is the faster peer\'s time over',
    'this row\'s (above 1: faster than both peers). The WebAssembly rows go through the public JS API,',
    'with the data in and out of every call; the peers likewise build their input tensors and read',
    'their output on every call.',
    '',
    `- date: ${machine.date}`,
    `- machine: ${machine.cores} × ${machine.cpu}, ${machine.memory_gib} GiB, Linux ${machine.kernel} (shared with other jobs)`,
    `- load average (1, 5, 15 min) at the start and after each pass: ${machine.load_average_1_5_15.map((l) => l.join(' ')).join('; ')}`,
    `- node ${machine.node}; ${machine.emscripten}; native ${machine.native_compiler}, Google Benchmark ${machine.google_benchmark}`,
    '- native build: CMake Release (-O3), no -march: SSE2, the same 4 float32 lanes as WebAssembly SIMD',
    `- ${Object.entries(machine.versions).map(([p, v]) => `${p} ${v}`).join(', ')} (onnxruntime-web: wasm EP, 1 thread, SIMD)`,
    '',
    '## Attention, softmax(Q Kᵀ / √d) V',
    '',
    `One core's 4-lane limit (a multiply and an add per lane, no FMA, as WebAssembly SIMD and SSE2 have) is about ${LANE_LIMIT} GFLOP/s`,
    'on one core of this 2-core machine (measured with a loop of independent multiplies and adds in registers); "of limit" is each row\'s GFLOP/s',
    'over it. "× native" for a float64 row is over native float64; for the others over native float32.',
    '',
    '| n | d | implementation | median | GFLOP/s | of limit | × native | × faster peer |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.n} | ${r.d} | ${r.implementation} | ${format(r.median_ms)} | ${r.gflops.toFixed(2)} | ${(100 * r.gflops / LANE_LIMIT).toFixed(0)} % | ${r.times_native === null ? '' : ratio(r.times_native)} | ${ratio(r.speedup_over_faster_peer)} |`),
    '',
    '## Budgets: small calls and speed-ups',
    '',
    '| call | measured | budget | |',
    '| --- | --- | --- | --- |',
    ...budgets.map((b) => `| ${b.call.trim()} | ${b.value !== undefined ? ratio(b.value) : format(b.median_ms)} | ${b.budget_ms ? format(b.budget_ms) : (b.budget ?? '')} | ${b.met === null ? '' : b.met ? 'met' : 'missed'} |`),
    '',
    ...whyMissed({ budgets, budgetTime, native, page, machine }),
    '## The kernels one by one (WebAssembly, n = m = 256, d = 64)',
    '',
    ...(kernels.length === 0 ? ['Not measured: build/wasm/attention_kernels_timing.cjs was not built.'] : [
      '| kernel, set | median | GFLOP/s |',
      '| --- | --- | --- |',
      ...kernels.map((k) => `| ${k.form.replace(/^kernel /, '')} | ${format(k.median_ms)} | ${k.gflops ? k.gflops.toFixed(1) : ''} |`),
    ]),
    '',
  ];
  // scripts/bench-page.mjs writes its rows both ways: page.md (its own section, taken as it is) and
  // page.json (kept in docs/performance.json).
  const pageText = existsSync('build/bench/page.md') ? readFileSync('build/bench/page.md', 'utf8').trim() : null;
  if (page && pageText) {
    lines.push(pageText, '', `(From ${pagePath} and page.md, written by scripts/bench-page.mjs at ${page.date ?? 'an unknown time'}.)`);
  } else {
    lines.push('## The page (headless Chromium)', '',
      `Not measured in this run: ${pagePath} was not there (scripts/bench-page.mjs writes it).`);
  }
  // scripts/bench-learn.mjs: the learn figure's training speed and its steps to the target loss.
  const learnPath = 'build/bench/learn.json';
  const learn = existsSync(learnPath) ? JSON.parse(readFileSync(learnPath, 'utf8')) : null;
  lines.push('', '## Training (the learn figure, WebAssembly under node)', '');
  if (learn) {
    const steps = (x) => (x === null ? 'not within 3,000' : x.toLocaleString('en-US'));
    lines.push('Both copies, the figure\'s 8 tokens and 16 sequences, in pieces of 200 steps as the figure',
      'asks for them; CPU time, best of the passes. The step before this form (per sequence, n×d×dk',
      'products) ran 455 steps/s at d_k = 256; the goal is at least 2,000.', '',
      'The figure trains in float32 (the SIMD kernels, sequences stacked); float64 is the reference.', '',
      `| d_k | steps/s float64 | steps/s float32 | scaled: steps to loss < ${learn.target} (f64 / f32) | unscaled (f64 / f32) |`,
      '| --- | --- | --- | --- | --- |',
      ...learn.rows.map((r) => `| ${r.dk} | ${Math.round(r.stepsPerSecond).toLocaleString('en-US')} | `
        + `${r.float32 ? Math.round(r.float32.stepsPerSecond).toLocaleString('en-US') : 'not measured'} | `
        + `${steps(r.scaled)} / ${r.float32 ? steps(r.float32.scaled) : '—'} | ${steps(r.unscaled)} / ${r.float32 ? steps(r.float32.unscaled) : '—'} |`));
  } else {
    lines.push(`Not measured in this run: ${learnPath} was not there (scripts/bench-learn.mjs writes it).`);
  }
  const report = `${lines.join('\n')}\n`;
  await mkdir('docs', { recursive: true });
  await writeFile('docs/performance.md', report);
  await writeFile('docs/performance.json', `${JSON.stringify({ machine, rows, budgets, kernels, page, learn }, null, 1)}\n`);
  console.log(report);
}
