#!/usr/bin/env node
// The one benchmark of Attention Lab, run by `npm run bench` (scripts/bench.sh, which builds what
// it needs first). One node process measures, side by side and interleaved pass by pass so that
// drift in the machine's load hits every row alike:
//   native       the core natively, Google Benchmark (build/native/attention_kernels_benchmark),
//                run as a child process once per pass
//   wasm         the core as WebAssembly through the JS API: float64, float32 (SIMD), streaming
//   plain JS     attention as plain loops over Float64Arrays
//   peers        @tensorflow/tfjs-backend-wasm and onnxruntime-web (wasm EP, 1 thread, SIMD) on a
//                tiny ONNX graph built by scripts/onnx-attention.mjs; both load their .wasm from
//                node_modules, nothing from the network
// at n = m = 8 (d = 16), 64, 256 and 1024 (d = 64), plus the budgets the page needs: small calls
// through the JS API (the worked example and n = m = 8 within 2 µs, the toy multiHead within 6 µs)
// and speed (3× plain JS at 8×16, 1.15× the faster peer at n = 256, 15× plain JS at n ≥ 64, the
// streaming form within 1.2× the direct one at n = 1024).
// Times are CPU time of one call (this process's user + system time; the machine is shared, and
// wall time would count the time other processes hold the core), median of the samples of a pass,
// best of 3 passes. GFLOP/s counts 4·n·m·d. It writes docs/performance.md and docs/performance.json
// and prints the table. A benchmark, not a test: nothing here fails on a number.
// Usage: node --expose-gc scripts/bench.mjs [--quick] [--small] [--limits]   (--quick: 1 pass, fewer samples, to try
// the script; --small: the small-call rows alone, no sizes, peers or native rows, printed and not
// written to docs/, to compare two builds of the bindings quickly; --limits: only the worst call
// each kind accepts under one call's work limit, timed and printed (scripts/bench-limits.mjs))
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { matrix } from '../cpp/bindings/attention-lab.js';
import { createHeapCalls } from '../cpp/bindings/js/heap-calls.js';
import { NO_MATRIX, readMatrix } from '../cpp/bindings/js/read-matrix.js';
import { buildDir, loadLab } from '../tests/js/load-lab.mjs';
import { onnxAttention, tfjsAttention } from './bench-peers.mjs';
import { agree, asFloat32, plainAttention, randomMatrix } from './bench-reference.mjs';
import { writeReport } from './bench-report.mjs';

if (process.argv.includes('--limits')) {
  await (await import('./bench-limits.mjs')).printLimitRows();
  process.exit(0);
}
const quick = process.argv.includes('--quick');
const small = process.argv.includes('--small');
const PASSES = quick ? 1 : 3;
const SAMPLES = quick ? 3 : 7; // per case and pass
const SAMPLE_MS = quick ? 2 : 5; // CPU time of one sample, at least (many calls when they are short)
const SIZES = small ? [] : [[8, 16], [64, 64], [256, 64], [1024, 64]];
const require = createRequire(import.meta.url);
const loads = [loadavg()];

// ---- what is measured --------------------------------------------------------------------------
const lab = await loadLab();
const core = await require(`${buildDir}wasm/attention_lab_node.cjs`)({
  wasmBinary: readFileSync(`${buildDir}wasm/attention_lab_node.wasm`),
}); // the raw module as well, to time the core's own work without the JS API around it

// The peers, loaded only when the sizes are measured.
const tf = small ? null : await import('@tensorflow/tfjs-core');
const ort = small ? null : await import('onnxruntime-web');
if (!small) {
  const { setWasmPaths } = await import('@tensorflow/tfjs-backend-wasm');
  setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`);
  await tf.setBackend('wasm');
  await tf.ready();
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  ort.env.wasm.wasmPaths = `${dirname(require.resolve('onnxruntime-web'))}/`;
}

// The raw exports through the same heap protocol as the JS API (cpp/bindings/js/heap-calls.js),
// with the inputs staged once: a timed call is the export and the release alone. The cases share
// one input area, so a case stages its inputs again when another case staged since.
const calls = createHeapCalls(core);
let staged = null;
function rawCall(stage, exported) {
  const token = {};
  return () => {
    if (staged !== token) {
      stage();
      staged = token;
    }
    calls.invoke(exported);
    calls.release();
  };
}

/** The same call as a raw export over inputs already in the heap: the core's own time. */
function rawAttention(Q, K, V) {
  const q = readMatrix('Q', Q), k = readMatrix('K', K), v = readMatrix('V', V);
  return rawCall(() => {
    calls.stage(q, k, v, NO_MATRIX);
    calls.numbers(1, 0, 0, 0, 0); // tau, scale (√d_k), no mask, the keys' axis, every result
  }, core._al_attention);
}

/** Multi-head self-attention as the raw export over inputs already in the heap. */
function rawMultiHead({ X, WQ, WK, WV, WO }, heads) {
  const x = readMatrix('X', X);
  const [wq, wk, wv, wo] = [WQ, WK, WV, WO].map((m) => readMatrix('W', m));
  return rawCall(() => {
    calls.stage(x, x, wq, wk, wv, wo, NO_MATRIX);
    calls.numbers(heads, 1, 0, 0); // h, tau, no mask, scaled by √(d_model/h)
  }, core._al_multi_head);
}

// ---- the cases ------------------------------------------------------------------------------
const IMPLEMENTATIONS = ['wasm float64', 'wasm float64, output only', 'wasm float32 SIMD', 'wasm float32 SIMD, into the caller\'s arrays',
  'wasm float32 SIMD, output only', 'wasm float32 SIMD, output only, into the caller\'s array', 'wasm streaming float32', 'plain JS (Float64Array)',
  'tfjs-backend-wasm', 'onnxruntime-web'];
const PEERS = ['tfjs-backend-wasm', 'onnxruntime-web'];
const cases = []; // { group, name, n, d, run, async, samples: [] }
for (const [n, d] of SIZES) {
  const Q = randomMatrix(n, d, 1), K = randomMatrix(n, d, 2), V = randomMatrix(n, d, 3);
  const Qf = asFloat32(Q), Kf = asFloat32(K), Vf = asFloat32(V);
  const reference = lab.attention(Q, K, V).output.data;
  const onnx = await onnxAttention(ort, Qf, Kf, Vf);
  // Arrays of the caller's, reused by every call (options.into): no buffer made per call.
  const all32 = { rawScores: new Float32Array(n * n), scaledScores: new Float32Array(n * n), weights: new Float32Array(n * n), output: new Float32Array(n * d) };
  const output32 = new Float32Array(n * d);
  const runs = {
    'wasm float64': () => lab.attention(Q, K, V).output.data,
    'wasm float64, output only': () => lab.attention(Q, K, V, { results: 'output' }).output.data,
    'wasm float32 SIMD, into the caller\'s arrays': () => lab.attention(Qf, Kf, Vf, { into: all32 }).output.data,
    'wasm float32 SIMD, output only, into the caller\'s array': () => lab.attention(Qf, Kf, Vf, { results: 'output', into: { output: output32 } }).output.data,
    'wasm float32 SIMD': () => lab.attention(Qf, Kf, Vf).output.data,
    // What the peers hand back, the output alone (options.results = 'output').
    'wasm float32 SIMD, output only': () => lab.attention(Qf, Kf, Vf, { results: 'output' }).output.data,
    'wasm streaming float32': () => lab.streamingAttention(Qf, Kf, Vf).output.data,
    'plain JS (Float64Array)': () => plainAttention(Q, K, V).output.data,
    'tfjs-backend-wasm': tfjsAttention(tf, Qf, Kf, Vf),
    'onnxruntime-web': onnx,
  };
  for (const name of IMPLEMENTATIONS) {
    const isAsync = name === 'onnxruntime-web';
    agree(`${name} at n = ${n}`, isAsync ? await runs[name]() : runs[name](), reference, name.includes('float64') || name.includes('Float64') ? 1e-12 : 1e-5);
    cases.push({ group: 'attention', name, n, d, run: runs[name], async: isAsync, samples: [] });
  }
}

const toy = lab.toySentence();
const worked = [matrix([[1, 0]]), matrix([[1, 0], [0, 1], [1, 1]]), matrix([[1, 0], [0, 1], [0.5, 0.5]])];
const eight = [randomMatrix(8, 16, 1), randomMatrix(8, 16, 2), randomMatrix(8, 16, 3)];
const budgetCases = [
  ['worked', 'attention, worked example (1 query, 3 keys, d = 2), JS API', () => lab.attention(...worked), 2e-3],
  ['workedRaw', '  the same, raw export only (the core\'s own work)', rawAttention(...worked)],
  ['eight', 'attention, n = m = 8, d = 16, JS API', () => lab.attention(...eight), 2e-3],
  ['eightRaw', '  the same, raw export only', rawAttention(...eight)],
  ['eightPlain', '  the same, plain JS loops over Float64Arrays', () => plainAttention(...eight)],
  // The same calls writing into arrays the caller keeps (options.into): a page redrawing, the learn
  // figure's steps, a course author's loop. The smallest call's fixed cost is the worked example's.
  ['workedInto', 'attention, worked example, output into the caller\'s array (options.into), JS API', (() => {
    const output = new Float64Array(2);
    return () => lab.attention(...worked, { results: 'output', into: { output } });
  })(), 5e-4],
  ['eightInto', 'attention, n = m = 8, d = 16, all four results into the caller\'s arrays, JS API', (() => {
    const into = { rawScores: new Float64Array(64), scaledScores: new Float64Array(64), weights: new Float64Array(64), output: new Float64Array(128) };
    return () => lab.attention(...eight, { into });
  })(), 2e-3],
  // What a result costs before a number is in it: the caller's fresh buffer (V8 allocates it
  // outside its heap), of the 8×16 call's four results and of the toy multiHead's eighteen.
  ['buffer8', '  one fresh Float64Array of the 8×16 call\'s 320 results', () => new Float64Array(320)],
  ['multiHead', 'multiHead, toy sentence 8×16, h = 4, JS API', () => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4), 6e-3],
  ['multiHeadRaw', '  the same, raw export only', rawMultiHead(toy, 4)],
  ['buffer18', '  one fresh Float64Array of its 1152 results', () => new Float64Array(1152)],
  ['multiHead1', 'multiHead, toy sentence 8×16, h = 1, JS API', () => lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1)],
  ['failing', 'a failing call in the core: multiHead with h = 3', () => { try { lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 3); } catch { /* measured */ } }],
  ['width', 'widthExperiment, m = 10, T = 2000', () => lab.widthExperiment({ keys: 10, trials: 2000 })],
];
for (const [id, name, run, budget] of budgetCases) cases.push({ group: 'budget', id, name, run, budget, async: false, samples: [] });

// ---- timing ------------------------------------------------------------------------------------
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
// Each sample starts from a collected heap (node --expose-gc, as bench.sh runs it): the CPU
// time counts the collector's threads too, and without this the garbage of a big case (8 MiB
// result buffers at n = 1024) was collected inside the next small case's samples.
const collect = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};
async function sample(c) {
  collect();
  const start = cpuMs();
  if (c.async) {
    for (let i = 0; i < c.inner; i++) await c.run();
  } else {
    for (let i = 0; i < c.inner; i++) c.run();
  }
  return (cpuMs() - start) / c.inner;
}
// Warm-up (V8 optimises a wasm function on a later call), then as many calls per sample as take
// SAMPLE_MS of CPU time.
for (const c of cases) {
  c.inner = 1;
  for (let i = 0; i < 3; i++) await sample(c);
  while (c.inner < 1 << 20 && (await sample(c)) * c.inner < SAMPLE_MS) c.inner *= 2;
}

const nativeBinary = `${buildDir}native/attention_kernels_benchmark`;
const nativeRuns = [];
function runNative() {
  if (small || !existsSync(nativeBinary)) return;
  const report = JSON.parse(execFileSync(nativeBinary, ['--benchmark_format=json', `--benchmark_min_time=${quick ? 0.02 : 0.1}`,
    '--benchmark_repetitions=5', '--benchmark_report_aggregates_only=true'], { encoding: 'utf8', maxBuffer: 1 << 24 }));
  nativeRuns.push(report);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let pass = 0; pass < PASSES; pass++) {
  runNative();
  for (const c of cases) {
    const samples = [];
    for (let s = 0; s < SAMPLES; s++) samples.push(await sample(c));
    c.samples.push(median(samples));
  }
  loads.push(loadavg());
  process.stderr.write(`bench: pass ${pass + 1} of ${PASSES} done\n`);
}
const best = (c) => Math.min(...c.samples);

// native: best over the passes of Google Benchmark's median CPU time, by name ("f32_direct/256/64")
const native = new Map();
for (const report of nativeRuns) {
  for (const b of report.benchmarks.filter((x) => x.aggregate_name === 'median')) {
    const ms = b.cpu_time * { ns: 1e-6, us: 1e-3, ms: 1 }[b.time_unit];
    native.set(b.run_name, Math.min(native.get(b.run_name) ?? Infinity, ms));
  }
}
const NATIVE_FORMS = [['native float64 (Eigen)', 'f64_direct'], ['native float32', 'f32_direct'], ['native streaming float32', 'f32_streaming']];

// ---- the report ------------------------------------------------------------------------------
const rows = [];
for (const [n, d] of SIZES) {
  const flops = 4 * n * n * d;
  const entries = [];
  for (const [name, form] of NATIVE_FORMS) {
    const ms = native.get(`${form}/${n}/${d}`);
    if (ms !== undefined) entries.push({ name, ms });
  }
  for (const c of cases.filter((x) => x.group === 'attention' && x.n === n)) entries.push({ name: c.name, ms: best(c) });
  const nativeF32 = entries.find((e) => e.name === 'native float32')?.ms;
  const nativeF64 = entries.find((e) => e.name === 'native float64 (Eigen)')?.ms;
  const fasterPeer = Math.min(...entries.filter((e) => PEERS.includes(e.name)).map((e) => e.ms));
  for (const e of entries) {
    rows.push({ n, m: n, d, implementation: e.name, median_ms: e.ms, gflops: flops / e.ms / 1e6,
      // float64 rows over native float64, the others over native float32
      times_native: (e.name.includes('float64') ? nativeF64 : nativeF32) ? e.ms / (e.name.includes('float64') ? nativeF64 : nativeF32) : null,
      speedup_over_faster_peer: fasterPeer / e.ms });
  }
}

const budgetTime = Object.fromEntries(cases.filter((c) => c.group === 'budget').map((c) => [c.id, best(c)]));
if (small) {
  const formatted = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(2)} ms`);
  console.log(`load average ${loads.map((l) => l.map((x) => x.toFixed(2)).join(' ')).join('; ')}`);
  for (const c of cases) console.log(`${formatted(best(c)).padStart(10)}  ${c.name}`);
  process.exit(0);
}
const at = (name, n) => rows.find((r) => r.implementation === name && r.n === n)?.median_ms;
const budgets = [
  ...cases.filter((c) => c.group === 'budget').map((c) => ({ call: c.name, median_ms: best(c), budget_ms: c.budget ?? null,
    met: c.budget === undefined ? null : best(c) <= c.budget })),
  { call: 'attention 8×16 through the JS API, speed-up over plain JS loops', value: budgetTime.eightPlain / budgetTime.eight, budget: '≥ 3×',
    met: budgetTime.eightPlain / budgetTime.eight >= 3 },
  { call: 'attention 8×16 into the caller\'s arrays, speed-up over plain JS loops', value: budgetTime.eightPlain / budgetTime.eightInto, budget: '≥ 3×' },
  ...[256, 1024].flatMap((n) => {
    const peer = Math.min(at('tfjs-backend-wasm', n), at('onnxruntime-web', n));
    return [
      { call: `float32 SIMD at n = ${n}, all four results, speed-up over the faster peer`, value: peer / at('wasm float32 SIMD', n), budget: '≥ 1×' },
      { call: '  the same, all four into the caller\'s arrays', value: peer / at('wasm float32 SIMD, into the caller\'s arrays', n), budget: '≥ 1×' },
      { call: '  the same, output only (like the peers, which return nothing else)', value: peer / at('wasm float32 SIMD, output only', n), budget: '≥ 1.15×' },
      { call: '  the same, output only, into the caller\'s array', value: peer / at('wasm float32 SIMD, output only, into the caller\'s array', n), budget: '≥ 1.15×' },
    ];
  }),
  ...[256, 1024].map((n) => ({ call: `float64 at n = ${n}, time of native float64 over it`, value: native.get(`f64_direct/${n}/64`) / at('wasm float64', n), budget: '' })),
  ...[64, 256, 1024].map((n) => ({ call: `float32 SIMD at n = ${n}, speed-up over plain JS`, value: at('plain JS (Float64Array)', n) / at('wasm float32 SIMD', n), budget: '≥ 15×' })),
  { call: 'streaming at n = 1024, time over the direct float32 form', value: at('wasm streaming float32', 1024) / at('wasm float32 SIMD', 1024), budget: '≤ 1.2×' },
];
for (const b of budgets) {
  if (b.met === undefined && b.budget === '') b.met = null;
  if (b.met === undefined) b.met = b.budget.startsWith('≥') ? b.value >= Number.parseFloat(b.budget.slice(2)) : b.value <= Number.parseFloat(b.budget.slice(2));
}

const version = (name) => JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
const firstLine = (command, argv) => {
  try {
    return execFileSync(command, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0].trim();
  } catch {
    return 'unknown';
  }
};
const machine = {
  date: new Date().toISOString(),
  cpu: cpus()[0].model,
  cores: cpus().length,
  memory_gib: Math.round(totalmem() / 2 ** 30),
  kernel: release(),
  load_average_1_5_15: loads.map((l) => l.map((x) => Number(x.toFixed(2)))),
  node: process.version,
  emscripten: firstLine('em++', ['--version']),
  native_compiler: firstLine('c++', ['--version']),
  google_benchmark: firstLine('dpkg-query', ['-W', '-f=${Version}', 'libbenchmark-dev']),
  native_context: nativeRuns[0]?.context ?? null,
  versions: Object.fromEntries(['onnxruntime-web', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-wasm'].map((p) => [p, version(p)])),
  passes: PASSES,
  samples_per_pass: SAMPLES,
};

// The kernels of the direct form one by one, at n = m = 256, d = 64, in WebAssembly (a separate,
// shorter run after the passes: cpp/bench/kernels_timing.cpp, its own interleaved passes).
const kernelsDriver = `${buildDir}wasm/attention_kernels_timing.cjs`;
const kernels = existsSync(kernelsDriver)
  ? JSON.parse(execFileSync(process.execPath, ['--no-experimental-fetch', kernelsDriver, '--only', 'kernel '], { encoding: 'utf8' })).cases.filter((k) => k.form.startsWith('kernel '))
  : [];

const pagePath = 'build/bench/page.json';
const page = existsSync(pagePath) ? JSON.parse(readFileSync(pagePath, 'utf8')) : null;

await writeReport({ rows, budgets, budgetTime, kernels, machine, native, page, pagePath });
