// The JS API's attention family: attention, streamingAttention, softmax, causalMask, multiHead,
// crossMultiHead, additiveScores. Each reads and checks its arguments (read-arguments.js), then
// stages them and runs one raw export through the heap protocol (heap-calls.js).
import {
  ATTENTION_OPTIONS, AXES, HEAD_SCALES, LIMITS, MULTI_HEAD_OPTIONS, PAIR_WORK, RESULT_SETS,
  budget, choice, dimension, entriesWithin, multiplyAdds, readOptions, scaleOption, temperature, wholeNumber,
} from './read-arguments.js';
// The heap's buffer by the saved getter: a caller may have redefined %TypedArray%.prototype.buffer.
import { bufferOf } from './built-ins.js';
import {
  NO_MASK, checkInto, intoProblem, onePrecision, readInto, readMask, readMatrix,
} from './read-matrix.js';

/** The attention and multi-head functions of the API over one core and its heap protocol. */
export function attentionFunctions(core, calls) {
  const { result } = calls; // called for every result of the hot calls
  // Records for the inputs of the hot calls (attention, multiHead), refilled on every call.
  const pool = recordPool();

  const attentionResult = attentionResultOf(result);
  // The open result table copied into the arrays of options.into (a fresh array for a result it
  // does not name), checked once more right before: no caller's code ran since the last check,
  // but staging may have grown the memory that a view of the old heap lay in. Then released.
  function resultsInto(into, outputOnly) {
    try {
      const problem = intoProblem(into, bufferOf(core.HEAPU8));
      if (problem !== null) throw problem;
      const one = (i) => (into[i] === null ? result(i) : calls.resultInto(i, into[i]));
      return outputOnly ? { output: one(0) } : { rawScores: one(0), scaledScores: one(1), weights: one(2), output: one(3) };
    } finally {
      calls.release();
    }
  }
  return {
    /**
     * softmax(Q Kᵀ / (τ·scale)) V. Options: tau (temperature, default 1), scale (divisor,
     * default 0 = √d_k), mask (null | 'causal' | 0/1 matrix), axis ('keys' the right one, or
     * 'queries' to normalise the columns, a common mistake shown on the page), results ('all',
     * or 'output' for the output alone, as a layer would use it: in float32 the n×m scores are
     * then formed once, in place, and never copied out).
     * Returns { rawScores, scaledScores, weights, output }, or { output }. Q, K, V with
     * Float32Array data run in float32 (WebAssembly SIMD, within 1e-5 of float64) and return
     * Float32Arrays. The matrices of one call may share one fresh ArrayBuffer, the caller's alone.
     * into: { output, weights, … } names typed arrays of the caller's (of the call's precision,
     * rows×cols entries each) that those results are written into and handed back as the
     * matrices' data, so that a caller who calls again and again makes no new buffers.
     */
    attention(Q, K, V, options) {
      const pooled = pool.enter();
      try {
        const o = readOptions('attention', options, ATTENTION_OPTIONS);
        const tau = temperature(o.tau);
        const scale = scaleOption(o.scale);
        const axis = choice('options.axis', o.axis, AXES, 'keys');
        const outputOnly = choice('options.results', o.results, RESULT_SETS, 'all') === 'output';
        const into = readInto('attention', o.into, outputOnly ? OUTPUT_ONLY : ALL_RESULTS, outputOnly);
        const q = readMatrix('Q', Q, true, pooled?.[0]);
        const k = readMatrix('K', K, true, pooled?.[1]);
        const v = readMatrix('V', V, true, pooled?.[2]);
        const precision = onePrecision('attention', q, k, v);
        const mask = readMask(o.mask);
        entriesWithin('attention', 'the scores Q Kᵀ', q.rows, k.rows);
        multiplyAdds('attention', q.rows * k.rows * (q.cols + v.cols + PAIR_WORK), precision);
        if (into !== null) {
          // After every getter has run: the arrays' kinds and lengths, then their buffers.
          const scores = [q.rows, k.rows];
          checkInto(into, precision, outputOnly ? [[q.rows, v.cols]] : [scores, scores, scores, [q.rows, v.cols]]);
          const problem = intoProblem(into, bufferOf(core.HEAPU8));
          if (problem !== null) throw problem;
        }
        // The record of AttentionCall in cpp/bindings/exports/attention.cpp.
        calls.stage(q, k, v, mask.matrix);
        calls.numbers(tau, scale, mask.kind, axis === 'queries' ? 1 : 0, outputOnly ? 1 : 0);
        calls.finish(calls.invoke(precision === 'float32' ? core._al_attention_f32 : core._al_attention), into === null);
        if (into !== null) return resultsInto(into, outputOnly);
        const out = outputOnly ? { output: result(0) } : attentionResult(0);
        calls.release();
        return out;
      } finally {
        pool.leave();
      }
    },

    /**
     * The same output, softmax(Q Kᵀ / (τ·scale)) V, by an online softmax over tiles of keys that
     * never forms the n×m scores: memory O((n + m)·d), so n and m may pass the direct form's
     * limit (16,384 tokens and more, within the multiply-add limit of one call: longer work runs
     * as several calls over blocks of query rows). Options: tau, scale, mask (null | 'causal' |
     * 0/1 matrix), keyTile (keys per tile, default 64). Float32Array inputs run in float32.
     * Returns { output }.
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
      multiplyAdds('streamingAttention', q.rows * k.rows * (q.cols + v.cols), precision);
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

    ...multiHeadFunctions(core, calls, pool),

    /** Additive (Bahdanau) scores e_ij = vᵀ tanh(W q_i + U k_j); v is a 1×d_a matrix. */
    additiveScores(Q, K, W, U, v) {
      const q = readMatrix('Q', Q);
      const k = readMatrix('K', K);
      const w = readMatrix('W', W);
      const u = readMatrix('U', U);
      const vr = readMatrix('v', v);
      entriesWithin('additiveScores', 'the scores', q.rows, k.rows);
      // The core makes Q·Wᵀ (n×d_a) and K·Uᵀ (m×d_a) once each, then pairs their rows.
      entriesWithin('additiveScores', 'Q·Wᵀ', q.rows, vr.cols);
      entriesWithin('additiveScores', 'K·Uᵀ', k.rows, vr.cols);
      multiplyAdds('additiveScores', additiveWork(q.rows, q.cols, k.rows, k.cols, vr.cols), 'float64');
      calls.stage(q, k, w, u, vr);
      return calls.run(core._al_additive_scores)[0];
    },
  };
}

const ALL_RESULTS = Object.freeze(['rawScores', 'scaledScores', 'weights', 'output']);
const OUTPUT_ONLY = Object.freeze(['output']);

// Both read the open result table; the caller releases it.
const attentionResultOf = (result) => (i) => ({ rawScores: result(i), scaledScores: result(i + 1), weights: result(i + 2), output: result(i + 3) });

/** multiHead and crossMultiHead, sharing the hot calls' record pool. */
function multiHeadFunctions(core, calls, pool) {
  const { result } = calls;
  const attentionResult = attentionResultOf(result);
  function multiHeadResult(heads) {
    const list = new Array(heads);
    for (let s = 0; s < heads; s++) list[s] = attentionResult(4 * s);
    return { heads: list, concat: result(4 * heads), output: result(4 * heads + 1) };
  }

  // The multi-head export (the record of MultiHeadCall in cpp/bindings/exports/multi_head.cpp;
  // self-attention passes X twice, copied once); its results copied out.
  // call: { xq, xkv, wq, wk, wv, wo, heads, tau, mask, byModelWidth }.
  function runMultiHead(call) {
    calls.stage(call.xq, call.xkv, call.wq, call.wk, call.wv, call.wo, call.mask.matrix);
    calls.numbers(call.heads, call.tau, call.mask.kind, call.byModelWidth);
    calls.finish(calls.invoke(core._al_multi_head));
    const out = multiHeadResult(call.heads);
    calls.release();
    return out;
  }

  return {
    /**
     * Multi-head self-attention of X (n×d_model) with square W_Q, W_K, W_V, W_O and h heads.
     * Options: tau, mask, scaleBy ('head' = √(d_model/h), the right one, or 'model' = √d_model).
     * Returns { heads: [{ rawScores, scaledScores, weights, output }], concat, output }.
     */
    multiHead(X, WQ, WK, WV, WO, h, options) {
      const pooled = pool.enter();
      try {
        const o = readOptions('multiHead', options, MULTI_HEAD_OPTIONS);
        const tau = temperature(o.tau);
        const scaleBy = choice('options.scaleBy', o.scaleBy, HEAD_SCALES, 'head');
        const x = readMatrix('X', X, false, pooled?.[0]);
        const wq = readMatrix('W_Q', WQ, false, pooled?.[1]);
        const wk = readMatrix('W_K', WK, false, pooled?.[2]);
        const wv = readMatrix('W_V', WV, false, pooled?.[3]);
        const wo = readMatrix('W_O', WO, false, pooled?.[4]);
        const heads = dimension('heads h', h, 1);
        const mask = readMask(o.mask);
        multiHeadBudget('multiHead', x, x, heads);
        return runMultiHead({ xq: x, xkv: x, wq, wk, wv, wo, heads, tau, mask, byModelWidth: scaleBy === 'model' ? 1 : 0 });
      } finally {
        pool.leave();
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
      return runMultiHead({ xq, xkv, wq, wk, wv, wo, heads, tau, mask: NO_MASK, byModelWidth: 0 });
    },

  };
}

/** The multiply-adds additiveScores counts (the same sum as cpp/core/additive.cpp). */
const additiveWork = (n, dq, m, dk, da) => n * da * dq + m * da * dk + ADDITIVE_PAIR_WEIGHT * n * m * da;
// Each (i, j, a) of vᵀ tanh(W q_i + U k_j) is an add, a tanh and a multiply-add: counted as
// kAdditivePairWeight multiply-adds (cpp/core/limits.hpp), so that its limit takes as long as
// a product's.
const ADDITIVE_PAIR_WEIGHT = 64;

function multiHeadBudget(fn, xq, xkv, heads) {
  const n = xq.rows;
  const m = xkv.rows;
  const d = xq.cols;
  entriesWithin(fn, 'each head\'s scores', n, m);
  budget(fn, () => `the results of ${heads} heads of ${n}x${m} scores in entries`, 3 * heads * n * m + 3 * n * d, 'maxResultEntries');
  multiplyAdds(fn, (2 * n + 2 * m) * d * d + 2 * n * m * d + heads * n * m * PAIR_WORK, 'float64');
}

/**
 * Records for the inputs of the hot calls, refilled on every call instead of made anew. A getter
 * in an argument may call the API again: such a nested call makes records of its own
 * (enter() returns the pool at depth 1 only). The callers' arrays are not held past their call.
 */
function recordPool() {
  let depth = 0;
  // The same fields in the same order as readMatrix's own records, so that both have one shape.
  const records = Array.from({ length: 5 }, () => ({
    name: '', rows: 0, cols: 0, data: null, length: 0, precision: null, address: 0, buffer: null, bytes: 0, bytesOf: null,
  }));
  return {
    enter: () => (++depth === 1 ? records : undefined),
    leave() {
      if (--depth !== 0) return;
      for (let i = 0; i < records.length; i++) {
        records[i].data = null;
        records[i].buffer = null;
      }
    },
  };
}
