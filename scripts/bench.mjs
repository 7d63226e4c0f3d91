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
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { matrix } from '../cpp/bindings/attention-lab.js';
import { createHeapCalls } from '../cpp/bindings/js/heap-calls.js';
import { NO_MATRIX, readMatrix } from '../cpp/bindings/js/read-matrix.js';
import { buildDir, loadLab } from '../tests/js/load-lab.mjs';
import { attentionModel } from './onnx-attention.mjs';

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

function randomMatrix(rows, cols, seed, Type = Float64Array) {
  let x = seed;
  const data = new Type(rows * cols);
  for (let i = 0; i < data.length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    data[i] = x / 2147483648 - 0.5;
  }
  return { rows, cols, data };
}
const asFloat32 = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });

/** Attention as plain JavaScript loops over Float64Arrays: the peer a web developer writes. */
function plainAttention(Q, K, V) {
  const n = Q.rows, m = K.rows, d = Q.cols, dv = V.cols;
  const q = Q.data, k = K.data, v = V.data;
  const scale = 1 / Math.sqrt(d);
  const weights = new Float64Array(n * m);
  const output = new Float64Array(n * dv);
  for (let i = 0; i < n; i++) {
    let top = -Infinity;
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += q[i * d + c] * k[j * d + c];
      weights[i * m + j] = s * scale;
      if (s * scale > top) top = s * scale;
    }
    let sum = 0;
    for (let j = 0; j < m; j++) sum += (weights[i * m + j] = Math.exp(weights[i * m + j] - top));
    for (let j = 0; j < m; j++) {
      const w = (weights[i * m + j] /= sum);
      for (let c = 0; c < dv; c++) output[i * dv + c] += w * v[j * dv + c];
    }
  }
  return { weights: { rows: n, cols: m, data: weights }, output: { rows: n, cols: dv, data: output } };
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

function tfjsAttention(Q, K, V) {
  const { rows: n, cols: d } = Q;
  const root = Math.sqrt(d);
  return () => {
    const out = tf.tidy(() => {
      const q = tf.tensor2d(Q.data, [n, d]), k = tf.tensor2d(K.data, [K.rows, d]), v = tf.tensor2d(V.data, [V.rows, V.cols]);
      return tf.matMul(tf.softmax(tf.div(tf.matMul(q, k, false, true), root)), v);
    });
    const data = out.dataSync();
    out.dispose();
    return data;
  };
}

async function onnxAttention(Q, K, V) {
  const session = await ort.InferenceSession.create(attentionModel(Q.rows, K.rows, Q.cols, V.cols), {
    executionProviders: ['wasm'], graphOptimizationLevel: 'all',
  });
  const tensor = (x) => new ort.Tensor('float32', x.data, [x.rows, x.cols]);
  return async () => (await session.run({ Q: tensor(Q), K: tensor(K), V: tensor(V) })).O.data;
}

// Every implementation's output at a size, against the float64 core: a table of wrong numbers
// would time nothing worth timing.
function agree(name, got, expected, tolerance) {
  let largest = 0, worst = 0;
  for (let i = 0; i < expected.length; i++) {
    largest = Math.max(largest, Math.abs(expected[i]));
    worst = Math.max(worst, Math.abs(got[i] - expected[i]));
  }
  if (!(worst <= tolerance * largest)) throw new Error(`${name}: its output is off by ${worst} (of ${largest})`);
}

// ---- the cases ------------------------------------------------------------------------------
const IMPLEMENTATIONS = ['wasm float64', 'wasm float32 SIMD', 'wasm float32 SIMD, output only', 'wasm streaming float32', 'plain JS (Float64Array)',
  'tfjs-backend-wasm', 'onnxruntime-web'];
const PEERS = ['tfjs-backend-wasm', 'onnxruntime-web'];
const cases = []; // { group, name, n, d, run, async, samples: [] }
for (const [n, d] of SIZES) {
  const Q = randomMatrix(n, d, 1), K = randomMatrix(n, d, 2), V = randomMatrix(n, d, 3);
  const Qf = asFloat32(Q), Kf = asFloat32(K), Vf = asFloat32(V);
  const reference = lab.attention(Q, K, V).output.data;
  const onnx = await onnxAttention(Qf, Kf, Vf);
  const runs = {
    'wasm float64': () => lab.attention(Q, K, V).output.data,
    'wasm float32 SIMD': () => lab.attention(Qf, Kf, Vf).output.data,
    // What the peers hand back, the output alone (options.results = 'output').
    'wasm float32 SIMD, output only': () => lab.attention(Qf, Kf, Vf, { results: 'output' }).output.data,
    'wasm streaming float32': () => lab.streamingAttention(Qf, Kf, Vf).output.data,
    'plain JS (Float64Array)': () => plainAttention(Q, K, V).output.data,
    'tfjs-backend-wasm': tfjsAttention(Qf, Kf, Vf),
    'onnxruntime-web': onnx,
  };
  for (const name of IMPLEMENTATIONS) {
    const isAsync = name === 'onnxruntime-web';
    agree(`${name} at n = ${n}`, isAsync ? await runs[name]() : runs[name](), reference, name.includes('64') ? 1e-12 : 1e-5);
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
const format = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(2)} ms`);
const ratio = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '');
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
  const fasterPeer = Math.min(...entries.filter((e) => PEERS.includes(e.name)).map((e) => e.ms));
  for (const e of entries) {
    rows.push({ n, m: n, d, implementation: e.name, median_ms: e.ms, gflops: flops / e.ms / 1e6,
      times_native_f32: nativeF32 ? e.ms / nativeF32 : null, speedup_over_faster_peer: fasterPeer / e.ms });
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
  { call: 'float32 SIMD at n = 256, speed-up over the faster peer', value: Math.min(at('tfjs-backend-wasm', 256), at('onnxruntime-web', 256)) / at('wasm float32 SIMD', 256),
    budget: '≥ 1.15×' },
  { call: '  the same, output only (like the peers, which return nothing else)', value: Math.min(at('tfjs-backend-wasm', 256), at('onnxruntime-web', 256)) / at('wasm float32 SIMD, output only', 256),
    budget: '≥ 1.15×' },
  ...[64, 256, 1024].map((n) => ({ call: `float32 SIMD at n = ${n}, speed-up over plain JS`, value: at('plain JS (Float64Array)', n) / at('wasm float32 SIMD', n), budget: '≥ 15×' })),
  { call: 'streaming at n = 1024, time over the direct float32 form', value: at('wasm streaming float32', 1024) / at('wasm float32 SIMD', 1024), budget: '≤ 1.2×' },
];
for (const b of budgets) {
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

// For each budget this run missed, by how much and where the time goes, from this run's rows.
function whyMissed() {
  const t = budgetTime;
  const missed = (call) => budgets.find((b) => b.call.startsWith(call))?.met === false;
  const out = [];
  if (missed('attention, n = m = 8')) {
    const floor = t.eightRaw + t.buffer8;
    const natively = native.has('f64_direct/8/16') ? ` (natively the whole call takes ${format(native.get('f64_direct/8/16'))})` : '';
    out.push(`- **attention 8×16, ${format(t.eight)} against 2 µs.** Two parts of it no binding removes: the core's own ` +
      `work, ${format(t.eightRaw)}${natively}, and the one fresh ` +
      `buffer the caller gets its four results in, ${format(t.buffer8)} (V8 makes every ArrayBuffer outside its heap). ` +
      `Those two alone are ${format(floor)}; the other ${format(Math.max(0, t.eight - floor))} is reading and checking the ` +
      'arguments and copying the data in and out.');
  }
  if (missed('multiHead, toy sentence 8×16, h = 4')) {
    const floor = t.multiHeadRaw + t.buffer18;
    out.push(`- **multiHead at h = 4, ${format(t.multiHead)} against 6 µs.** The core's work is ${format(t.multiHeadRaw)} ` +
      `(three projections, four heads, the output projection: about 10,000 multiply-adds in float64) and the buffer ` +
      `for its 18 result matrices (1,152 numbers) ${format(t.buffer18)}: ${format(floor)} before a single argument is read.`);
  }
  if (missed('attention 8×16 through the JS API, speed-up')) {
    const asked = t.eightPlain / 3;
    const floor = t.eightRaw + t.buffer8;
    out.push(`- **3× plain JS at 8×16.** Plain JS loops took ${format(t.eightPlain)} in this run, so 3× asks for ` +
      `${format(asked)}: ${asked < floor ? 'under the floor above' : `the call took ${format(t.eight - asked)} more`}.`);
  }
  if (missed('float32 SIMD at n = 256, speed-up over the faster peer')) {
    out.push(`- **float32 at n = 256 with every result.** It hands back the raw scores, the scaled scores and the ` +
      'weights besides the output: 3·n² floats (768 KiB) formed, checked and copied out, which the peers never ' +
      `make. With results: 'output', the work the peers do, it is ${ratio(budgets.find((b) => b.call.includes('output only'))?.value)} the faster peer.`);
  }
  const input = page?.input;
  if (input) {
    for (const [name, row] of [['the τ slider', input.tau], ['the head split to h = 8', input.headsToEight],
      ['the width experiment\'s keys slider', input.widthExperimentKeys]]) {
      if (!row || (row.workMedianMs <= 8 && row.workP95Ms <= 16)) continue;
      out.push(`- **Key presses on ${name}: ${row.workMedianMs} ms of work (median), ${row.workP95Ms} ms (p95).** ` +
        `An empty page's press costs ${input.baseline?.workMedianMs} ms here; the rest is the figure's handler (the core's ` +
        'part of it is microseconds) and its frame\'s style, layout and paint of the SVG charts.');
    }
  }
  if (!out.length) return [];
  return ['### Where this run missed a budget, and why', '',
    `(The machine is shared: its load average was ${machine.load_average_1_5_15[0].join(' ')} at the start; the same rows vary by up to 40 % between runs.)`, '',
    ...out, ''];
}

const lines = [
  '# Performance',
  '',
  'Measured by `npm run bench` (scripts/bench.sh → scripts/bench.mjs): one node process, every row',
  'interleaved pass by pass; the median CPU time of one call in a pass, best of',
  `${PASSES} pass${PASSES === 1 ? '' : 'es'}. GFLOP/s counts 4·n·m·d; n = m. "× native" is the time over native float32`,
  '(the same core compiled natively, Google Benchmark); "× faster peer" is the faster peer\'s time over',
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
  '| n | d | implementation | median | GFLOP/s | × native | × faster peer |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.n} | ${r.d} | ${r.implementation} | ${format(r.median_ms)} | ${r.gflops.toFixed(2)} | ${r.times_native_f32 === null ? '' : ratio(r.times_native_f32)} | ${ratio(r.speedup_over_faster_peer)} |`),
  '',
  '## Budgets: small calls and speed-ups',
  '',
  '| call | measured | budget | |',
  '| --- | --- | --- | --- |',
  ...budgets.map((b) => `| ${b.call.trim()} | ${b.value !== undefined ? ratio(b.value) : format(b.median_ms)} | ${b.budget_ms ? format(b.budget_ms) : (b.budget ?? '')} | ${b.met === null ? '' : b.met ? 'met' : 'missed'} |`),
  '',
  ...whyMissed(),
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
