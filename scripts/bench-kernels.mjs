#!/usr/bin/env node
// Benchmarks the attention kernels natively and as WebAssembly under node, and writes the table to
// build/bench/kernels.md (and .json): median CPU time of one call, GFLOP/s (4·n·m·d) and the ratio
// to the native float32 direct form. A benchmark, not a test: nothing here fails on a number.
// Usage: node scripts/bench-kernels.mjs [--large]   (after bash scripts/build-core.sh native wasm)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';

const large = process.argv.includes('--large');
const args = large ? ['--large'] : [];
const run = (command, argv) => JSON.parse(execFileSync(command, argv, { encoding: 'utf8', maxBuffer: 1 << 24 }));

const load = [loadavg()[0]];
const native = run('build/native/attention_kernels_timing', args);
load.push(loadavg()[0]);
const wasm = run(process.execPath, ['--no-experimental-fetch', 'build/wasm/attention_kernels_timing.cjs', ...args]);
load.push(loadavg()[0]);

let googleBenchmark = null;
if (existsSync('build/native/attention_kernels_benchmark')) {
  googleBenchmark = run('build/native/attention_kernels_benchmark', [
    '--benchmark_format=json', '--benchmark_repetitions=5', '--benchmark_report_aggregates_only=true',
    '--benchmark_min_time=0.1',
  ]);
  load.push(loadavg()[0]);
}

const format = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const key = (c) => `${c.n}/${c.d}`;
const nativeF32 = new Map(native.cases.filter((c) => c.form === 'f32 direct (Eigen)').map((c) => [key(c), c]));

const lines = [
  '# Attention kernels: native and WebAssembly (node)',
  '',
  `${new Date().toISOString()}, ${cpus().length} × ${cpus()[0].model}, node ${process.version},`,
  `load average (1 min) during the runs: ${load.map((x) => x.toFixed(1)).join(', ')}.`,
  'Median CPU time of one call over 15 interleaved passes; GFLOP/s counts 4·n·m·d; n = m, dk = dv = d.',
  '"× native" is the time over native float32 direct (Eigen, -O2, SSE2: the same 4 lanes as wasm SIMD).',
  '',
  '| build | form | n | d | median | GFLOP/s | × native f32 |',
  '| --- | --- | --- | --- | --- | --- | --- |',
];
for (const [build, result] of [['native', native], ['wasm', wasm]]) {
  for (const c of result.cases) {
    const reference = nativeF32.get(key(c));
    const ratio = c.form.startsWith('kernel') || !reference ? '' : (c.median_ms / reference.median_ms).toFixed(2);
    lines.push(`| ${build} | ${c.form} | ${c.n} | ${c.d} | ${format(c.median_ms)} | ${c.gflops ? c.gflops.toFixed(1) : ''} | ${ratio} |`);
  }
}
for (const [build, result] of [['native', native], ['wasm', wasm]]) {
  if (result.large) {
    const c = result.large;
    lines.push('', `${build}: one ${c.form} call at n = m = ${c.n}, d = ${c.d}: ${c.ms.toFixed(0)} ms (${c.gflops.toFixed(1)} GFLOP/s).`);
  }
}
if (googleBenchmark) {
  lines.push('', '## Native, Google Benchmark (median of 5 repetitions, CPU time)', '', '| benchmark | CPU time | GFLOP/s |', '| --- | --- | --- |');
  for (const b of googleBenchmark.benchmarks.filter((x) => x.aggregate_name === 'median')) {
    lines.push(`| ${b.run_name} | ${b.cpu_time.toFixed(1)} ${b.time_unit} | ${(b['GFLOP/s'] / 1e9).toFixed(1)} |`);
  }
}

await mkdir('build/bench', { recursive: true });
await writeFile('build/bench/kernels.md', `${lines.join('\n')}\n`);
await writeFile('build/bench/kernels.json', `${JSON.stringify({ load, native, wasm, googleBenchmark }, null, 1)}\n`);
console.log(lines.join('\n'));
