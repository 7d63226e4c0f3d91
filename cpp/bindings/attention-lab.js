// The JavaScript API of Attention Lab: the object createAttentionLab returns, whose every
// function reads and checks its arguments (cpp/bindings/js/read-arguments.js) and calls one raw
// export of the core through the heap protocol (cpp/bindings/js/heap-calls.js).
//
// The page and the tests use only this module. A matrix here is a plain object
// { rows, cols, data } with `data` a Float64Array in row-major order. Every array that
// comes back is a copy owned by the caller, never a live view of the WebAssembly heap.
//
// How a call crosses into the core (cpp/bindings/boundary.hpp and cpp/bindings/exports/, raw
// exports named _al_*):
//   1. Every argument is read once and checked here: types, real lengths (the typed array's
//      own length, whatever its `length` property says), shapes, options from a closed set,
//      mask entries, counts, and the work budget (LIMITS). A bad argument throws an Error
//      naming the argument, what was expected and what came, before the core is touched.
//   2. The inputs are copied once into one reused area of the WebAssembly heap, exactly as they
//      were read (an input whose buffer a later argument's getter grew, shrank or detached is
//      refused, naming it, before anything is written), behind a call record of their
//      addresses, shapes and the call's numbers, and one raw export runs the core. It never
//      throws: it returns a status, and the core's message for a failure, thrown here as an Error.
//   3. The results are copied out once into fresh typed arrays, and the core frees them.
// So an error, however many, leaves nothing behind: not a byte of heap, not a byte of the
// WebAssembly stack, not an Embind handle (see memoryStats and tests/js/api/error-path-leaks.test.mjs).
//
// Exposing a function of one matrix takes one line here: oneMatrix(argument name, raw export)
// for one result, matrixToRows(argument name, raw export, field names) for k rows.
import { createHeapCalls } from './js/heap-calls.js';
import {
  ATTENTION_OPTIONS, AXES, CORE_LIMITS, EXACT, HEAD_SCALES, LIMITS, MULTI_HEAD_OPTIONS, NO_MASK, RESULT_SETS,
  budget, choice, dimension, entriesWithin, given, onePrecision, readMask, readMatrix, readOptions, scaleOption,
  temperature, wholeNumber,
} from './js/read-arguments.js';
import { LEARN_LIMITS, createTraining } from './js/training.js';

export { LIMITS } from './js/read-arguments.js';
export { at, matrix, row, toRows } from './js/matrix.js';

/**
 * Creates the API over an Emscripten module factory (the ES module build in the browser,
 * the CommonJS build under node). `moduleOptions` is passed to the factory, e.g.
 * { wasmBinary } under node or { locateFile } in the browser.
 */
export async function createAttentionLab(factory, moduleOptions = {}) {
  const core = await factory(moduleOptions);
  CORE_LIMITS.forEach((name, i) => {
    if (core._al_limit(i) !== LIMITS[name]) {
      throw new Error(`attention-lab.js and the core disagree on ${name}: ${LIMITS[name]} here, ${core._al_limit(i)} in cpp/core/limits.hpp`);
    }
  });
  const calls = createHeapCalls(core);
  const { result } = calls; // called for every result of the hot calls

  // Records for the inputs of the hot calls, refilled on every call instead of made anew. A getter
  // in an argument may call the API again: such a nested call makes records of its own.
  let depth = 0;
  // The same fields in the same order as readMatrix's own records, so that both have one shape.
  const records = Array.from({ length: 6 }, () => ({ name: '', rows: 0, cols: 0, data: null, length: 0, precision: null, address: 0 }));
  const pooled = (i) => (depth === 1 ? records[i] : undefined);
  // The callers' arrays are not held past their call.
  function forget() {
    if (depth === 0) for (let i = 0; i < records.length; i++) records[i].data = null;
  }

  // Both read the open result table; the caller releases it.
  const attentionResult = (i) => ({ rawScores: result(i), scaledScores: result(i + 1), weights: result(i + 2), output: result(i + 3) });
  function multiHeadResult(heads) {
    const list = new Array(heads);
    for (let s = 0; s < heads; s++) list[s] = attentionResult(4 * s);
    return { heads: list, concat: result(4 * heads), output: result(4 * heads + 1) };
  }

  // The multi-head export (the record of MultiHeadCall in cpp/bindings/exports/multi_head.cpp;
  // self-attention passes X twice, copied once); its results copied out.
  function runMultiHead(xq, xkv, wq, wk, wv, wo, heads, tau, mask, byModelWidth) {
    calls.stage(xq, xkv, wq, wk, wv, wo, mask.matrix);
    calls.numbers(heads, tau, mask.kind, byModelWidth);
    calls.finish(calls.invoke(core._al_multi_head));
    const out = multiHeadResult(heads);
    calls.release();
    return out;
  }

  function multiHeadBudget(fn, xq, xkv, heads) {
    const n = xq.rows;
    const m = xkv.rows;
    const d = xq.cols;
    entriesWithin(fn, 'each head\'s scores', n, m);
    budget(fn, () => `the results of ${heads} heads of ${n}x${m} scores in entries`, 3 * heads * n * m + 3 * n * d, 'maxResultEntries');
    budget(fn, 'the multiply-adds', (2 * n + 2 * m) * d * d + 2 * n * m * d, 'maxMultiplyAdds');
  }

  /**
   * "One matrix in, one out" (AL_EXPORT_MATRIX_TO_MATRIX in cpp/bindings/boundary.hpp): reads the
   * matrix as `name`, runs `check` on the read record if given (a budget), returns the one result.
   */
  const oneMatrix = (name, exported, check) => (value) => {
    const x = readMatrix(name, value);
    if (check !== undefined) check(x);
    calls.stage(x);
    return calls.run(exported)[0];
  };
  /** "One matrix in, k rows out" (AL_EXPORT_MATRIX_TO_ROWS): { field: Float64Array } in the core's order. */
  const matrixToRows = (name, exported, fields) => (value) => {
    calls.stage(readMatrix(name, value));
    const rows = calls.run(exported);
    const out = {};
    for (let i = 0; i < fields.length; i++) out[fields[i]] = rows[i].data;
    return out;
  };

  let toy = null; // the toy sentence, fetched once; every caller gets copies

  const api = {
    /** The work budget; a call over it is refused before it starts. */
    limits: LIMITS,
    /** The largest training session createTraining accepts (cpp/core/learn/training.hpp). */
    learnLimits: LEARN_LIMITS,

    /**
     * What the WebAssembly module holds right now: { heapBytes (the memory's size, which
     * never shrinks), mallocBytes (heap in use, back to its size after every call),
     * stackPointer, handles (live Embind handles) }. For leak tests.
     */
    memoryStats() {
      return {
        heapBytes: core.HEAPU8.byteLength,
        mallocBytes: core._al_malloc_in_use(),
        stackPointer: core.stackSave(),
        handles: core.count_emval_handles(),
      };
    },

    /**
     * softmax(Q Kᵀ / (τ·scale)) V. Options: tau (temperature, default 1), scale (divisor,
     * default 0 = √d_k), mask (null | 'causal' | 0/1 matrix), axis ('keys' the right one, or
     * 'queries' to normalise the columns, a common mistake shown on the page), results ('all',
     * or 'output' for the output alone, as a layer would use it: in float32 the n×m scores are
     * then formed once, in place, and never copied out).
     * Returns { rawScores, scaledScores, weights, output }, or { output }. Q, K, V with
     * Float32Array data run in float32 (WebAssembly SIMD, within 1e-5 of float64) and return
     * Float32Arrays. The matrices of one call may share one fresh ArrayBuffer, the caller's alone.
     */
    attention(Q, K, V, options) {
      depth++;
      try {
        const o = readOptions('attention', options, ATTENTION_OPTIONS);
        const tau = temperature(o.tau);
        const scale = scaleOption(o.scale);
        const axis = choice('options.axis', o.axis, AXES, 'keys');
        const outputOnly = choice('options.results', o.results, RESULT_SETS, 'all') === 'output';
        const q = readMatrix('Q', Q, true, pooled(0));
        const k = readMatrix('K', K, true, pooled(1));
        const v = readMatrix('V', V, true, pooled(2));
        const precision = onePrecision('attention', q, k, v);
        const mask = readMask(o.mask);
        entriesWithin('attention', 'the scores Q Kᵀ', q.rows, k.rows);
        budget('attention', 'the multiply-adds', q.rows * k.rows * (q.cols + v.cols), 'maxMultiplyAdds');
        // The record of AttentionCall in cpp/bindings/exports/attention.cpp.
        calls.stage(q, k, v, mask.matrix);
        calls.numbers(tau, scale, mask.kind, axis === 'queries' ? 1 : 0, outputOnly ? 1 : 0);
        calls.finish(calls.invoke(precision === 'float32' ? core._al_attention_f32 : core._al_attention));
        const out = outputOnly ? { output: result(0) } : attentionResult(0);
        calls.release();
        return out;
      } finally {
        depth--;
        forget();
      }
    },

    /**
     * The same output, softmax(Q Kᵀ / (τ·scale)) V, by an online softmax over tiles of keys that
     * never forms the n×m scores: memory O((n + m)·d), so n and m may pass the direct form's
     * limit (16,384 tokens and more). Options: tau, scale, mask (null | 'causal' | 0/1 matrix),
     * keyTile (keys per tile, default 64). Float32Array inputs run in float32. Returns { output }.
     */
    streamingAttention(Q, K, V, options) {
      const o = readOptions('streamingAttention', options, ['tau', 'scale', 'mask', 'keyTile']);
      const tau = temperature(o.tau);
      const scale = scaleOption(o.scale);
      const keyTile = o.keyTile === undefined ? 0 : wholeNumber('options.keyTile', o.keyTile, 1, LIMITS.maxDimension);
      const q = readMatrix('Q', Q, true);
      const k = readMatrix('K', K, true);
      const v = readMatrix('V', V, true);
      const precision = onePrecision('streamingAttention', q, k, v);
      const mask = readMask(o.mask);
      budget('streamingAttention', 'the multiply-adds', q.rows * k.rows * (q.cols + v.cols), 'maxMultiplyAdds');
      // The record of StreamingCall in cpp/bindings/exports/attention.cpp.
      calls.stage(q, k, v, mask.matrix);
      calls.numbers(tau, scale, mask.kind, keyTile);
      const [output] = calls.run(precision === 'float32' ? core._al_streaming_attention_f32 : core._al_streaming_attention);
      return { output };
    },

    /** Row-wise softmax of logits / tau, with an optional mask (options: tau, mask). */
    softmax(logits, options) {
      const o = readOptions('softmax', options, ['tau', 'mask']);
      const tau = temperature(o.tau);
      const l = readMatrix('logits', logits);
      const mask = readMask(o.mask);
      calls.stage(l, mask.matrix);
      calls.numbers(tau, mask.kind);
      return calls.run(core._al_softmax)[0];
    },

    /** The n×m causal mask as a 0/1 matrix (1 where key j ≤ query i). */
    causalMask(n, m = n) {
      dimension('causal mask rows n', n, 1);
      dimension('causal mask columns m', m, 1);
      entriesWithin('causalMask', 'the mask', n, m);
      return calls.run(() => core._al_causal_mask(n, m))[0];
    },

    /**
     * Multi-head self-attention of X (n×d_model) with square W_Q, W_K, W_V, W_O and h heads.
     * Options: tau, mask, scaleBy ('head' = √(d_model/h), the right one, or 'model' = √d_model).
     * Returns { heads: [{ rawScores, scaledScores, weights, output }], concat, output }.
     */
    multiHead(X, WQ, WK, WV, WO, h, options) {
      depth++;
      try {
        const o = readOptions('multiHead', options, MULTI_HEAD_OPTIONS);
        const tau = temperature(o.tau);
        const scaleBy = choice('options.scaleBy', o.scaleBy, HEAD_SCALES, 'head');
        const x = readMatrix('X', X, false, pooled(0));
        const wq = readMatrix('W_Q', WQ, false, pooled(1));
        const wk = readMatrix('W_K', WK, false, pooled(2));
        const wv = readMatrix('W_V', WV, false, pooled(3));
        const wo = readMatrix('W_O', WO, false, pooled(4));
        const heads = dimension('heads h', h, 1);
        const mask = readMask(o.mask);
        multiHeadBudget('multiHead', x, x, heads);
        return runMultiHead(x, x, wq, wk, wv, wo, heads, tau, mask, scaleBy === 'model' ? 1 : 0);
      } finally {
        depth--;
        forget();
      }
    },

    /** Cross-attention: queries from Xq (n×d), keys and values from Xkv (m×d), h heads. Options: tau. */
    crossMultiHead(Xq, Xkv, WQ, WK, WV, WO, h, options) {
      const o = readOptions('crossMultiHead', options, ['tau']);
      const tau = temperature(o.tau);
      const xq = readMatrix('Xq', Xq);
      const xkv = readMatrix('Xkv', Xkv);
      const wq = readMatrix('W_Q', WQ);
      const wk = readMatrix('W_K', WK);
      const wv = readMatrix('W_V', WV);
      const wo = readMatrix('W_O', WO);
      const heads = dimension('heads h', h, 1);
      multiHeadBudget('crossMultiHead', xq, xkv, heads);
      return runMultiHead(xq, xkv, wq, wk, wv, wo, heads, tau, NO_MASK, 0);
    },

    /** Additive (Bahdanau) scores e_ij = vᵀ tanh(W q_i + U k_j); v is a 1×d_a matrix. */
    additiveScores(Q, K, W, U, v) {
      const q = readMatrix('Q', Q);
      const k = readMatrix('K', K);
      const w = readMatrix('W', W);
      const u = readMatrix('U', U);
      const vr = readMatrix('v', v);
      entriesWithin('additiveScores', 'the scores', q.rows, k.rows);
      budget('additiveScores', 'the multiply-adds', q.rows * k.rows * vr.cols + (q.rows * q.cols + k.rows * k.cols) * vr.cols, 'maxMultiplyAdds');
      calls.stage(q, k, w, u, vr);
      return calls.run(core._al_additive_scores)[0];
    },

    /** Per-row entropy (nats), largest weight and its index: { entropy, max, argmax } arrays. */
    rowStats: matrixToRows('weights', core._al_row_stats, ['entropy', 'max', 'argmax']),

    /** The sum of every row and of every column: { rows, cols } Float64Arrays. */
    sums: matrixToRows('matrix', core._al_sums, ['rows', 'cols']),

    /** max |a_ij − b_ij| over two matrices of the same shape (0 for S against Sᵀ when S is symmetric). */
    maxAbsDifference(a, b) {
      const x = readMatrix('a', a);
      const y = readMatrix('b', b);
      calls.stage(x, y);
      return calls.run(core._al_max_abs_difference)[0].data[0];
    },

    /** The softmax gradient factor p(1−p), element-wise over a 1-row or any matrix. */
    gradientFactor: oneMatrix('p', core._al_gradient_factor),

    /**
     * ln(p(1−p)) for p = softmax(scores / tau), element-wise, computed from the scores in log
     * space: right where p rounds to 1 and gradientFactor(p) would be exactly 0. Rows need two
     * or more keys. Options: tau.
     */
    logGradientFactor(scores, options) {
      const o = readOptions('logGradientFactor', options, ['tau']);
      const tau = temperature(o.tau);
      const s = readMatrix('scores', scores);
      calls.stage(s);
      calls.numbers(tau);
      return calls.run(core._al_log_gradient_factor)[0];
    },

    /** The full softmax Jacobian diag(p) − p pᵀ of one probability row (1×m). */
    softmaxJacobian: oneMatrix('p', core._al_softmax_jacobian, (x) => entriesWithin('softmaxJacobian', 'the Jacobian', x.cols, x.cols)),

    /**
     * The "why divide by √d_k" experiment: widths d_k = 2^minLog2 … 2^maxLog2 (minLog2 = 1 by
     * default), `trials` random
     * N(0,1) queries against `keys` keys each. Returns { widths, unscaled: { meanMax,
     * meanEntropy }, scaled: { meanMax, meanEntropy } }, arrays indexed like widths.
     */
    widthExperiment(setup) {
      const o = readOptions('widthExperiment', setup, ['keys', 'minLog2', 'maxLog2', 'trials', 'seed'], 'the setup', '{ keys: 10, trials: 2000 }');
      const keys = wholeNumber('keys m', given(o.keys, 10), 2, 4096);
      const maxLog2 = wholeNumber('maxLog2', given(o.maxLog2, 10), 1, 16);
      // Each width has its own random stream: any range of widths gives the full run's numbers there.
      const minLog2 = wholeNumber('minLog2', given(o.minLog2, 1), 1, maxLog2);
      const trials = wholeNumber('trials T', given(o.trials, 2000), 1, 1_000_000);
      const seed = wholeNumber('seed', given(o.seed, 1), 0, Number.MAX_SAFE_INTEGER);
      // Per width and trial: m normal draws for the scores and two softmax summaries of m entries.
      const widthCount = maxLog2 - minLog2 + 1;
      budget('widthExperiment', () => `the work (widths · trials · 3 · keys = ${widthCount} · ${trials} · 3 · ${keys})`,
        widthCount * trials * 3 * keys, 'maxExperimentWork');
      calls.stage();
      calls.numbers(keys, minLog2, maxLog2, trials, seed);
      const [widths, maxUnscaled, entropyUnscaled, maxScaled, entropyScaled] = calls.run(core._al_width_experiment);
      return {
        widths: widths.data,
        unscaled: { meanMax: maxUnscaled.data, meanEntropy: entropyUnscaled.data },
        scaled: { meanMax: maxScaled.data, meanEntropy: entropyScaled.data },
      };
    },

    /**
     * Cost of one attention layer: n queries, m keys, width dModel, h heads, bytes per number.
     * Every count is a whole number from 1 to 2^53. Returns { qkMacs, avMacs, projectionMacs,
     * weightNumbersPerHead, weightBytesPerHead, weightBytesAllHeads, projectionParameters,
     * outputParameters, parameters, parameterBytes }.
     */
    cost(setup) {
      const o = readOptions('cost', setup, ['n', 'm', 'dModel', 'heads', 'bytesPerNumber'], 'the setup', '{ n: 8, dModel: 16 }');
      const n = wholeNumber('n', o.n, 1, EXACT);
      const m = wholeNumber('m', given(o.m, n), 1, EXACT);
      const dModel = wholeNumber('d_model', o.dModel, 1, EXACT);
      const heads = wholeNumber('heads h', given(o.heads, 1), 1, EXACT);
      const bytes = wholeNumber('bytes per number', given(o.bytesPerNumber, 4), 1, EXACT);
      return calls.valueObject(core._al_cost(n, m, dModel, heads, bytes));
    },

    /**
     * Table 1 of the paper (first three rows) evaluated at length n, width d, kernel k:
     * [{ layer, complexityPerLayer, sequentialOps, maxPathLength }].
     */
    layerComparison(setup) {
      const o = readOptions('layerComparison', setup, ['n', 'd', 'k'], 'the setup', '{ n: 196, d: 768 }');
      const n = wholeNumber('n', o.n, 1, EXACT);
      const d = wholeNumber('d', o.d, 1, EXACT);
      const k = wholeNumber('kernel width k', given(o.k, 3), 2, EXACT);
      return calls.valueObject(core._al_layer_comparison(n, d, k));
    },

    /**
     * The toy eight-token sentence "the cat sat on the mat because it": { tokens, features,
     * X, WQ, WK, WV, WO }, plus the decoder sentence for cross-attention: { crossTokens, crossX }.
     */
    toySentence() {
      toy ??= core._al_toy_sentence();
      const copy = (m) => ({ rows: m.rows, cols: m.cols, data: m.data.slice() });
      return {
        tokens: [...toy.tokens], features: [...toy.features],
        X: copy(toy.X), WQ: copy(toy.WQ), WK: copy(toy.WK), WV: copy(toy.WV), WO: copy(toy.WO),
        crossTokens: [...toy.crossTokens], crossX: copy(toy.crossX),
        headJobs: [...toy.headJobs],
      };
    },

    /**
     * A training session for the learn figure (cpp/bindings/js/training.js): two copies of one
     * attention head, scaled by √d_k and not, trained side by side. Returns a session:
     * train(steps), setLearningRate(rate), reset(), state(options), history(), dispose().
     */
    createTraining: (settings) => createTraining(core, calls, settings),

    /** Matrix product A·B (for the Q = X W_Q step of the page). */
    matmul(A, B) {
      const a = readMatrix('A', A);
      const b = readMatrix('B', B);
      entriesWithin('matmul', 'the product', a.rows, b.cols);
      budget('matmul', 'the multiply-adds', a.rows * a.cols * b.cols, 'maxMultiplyAdds');
      calls.stage(a, b);
      return calls.run(core._al_matmul)[0];
    },
  };
  return api;
}
