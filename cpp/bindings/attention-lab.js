// The JavaScript API of Attention Lab: an idiomatic layer over the raw Embind bindings.
//
// The page and the tests use only this module. A matrix here is a plain object
// { rows, cols, data } with `data` a Float64Array in row-major order. Every array that
// comes back is a copy owned by JavaScript, never a live view of the WebAssembly heap.
// Errors from the core arrive as ordinary `Error`s carrying the core's message, and the
// module stays usable afterwards.

/** Builds a matrix from nested rows: matrix([[1, 0], [0, 1]]). */
export function matrix(rows) {
  if (!Array.isArray(rows) || rows.length === 0 || !Array.isArray(rows[0])) {
    throw new Error('matrix: expected a non-empty array of rows');
  }
  const cols = rows[0].length;
  const data = new Float64Array(rows.length * cols);
  rows.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== cols) {
      throw new Error(`matrix: row ${i} has ${row?.length} entries, expected ${cols}`);
    }
    data.set(row, i * cols);
  });
  return { rows: rows.length, cols, data };
}

/** Nested arrays from a matrix, for display and JSON. */
export function toRows(m) {
  return Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
}

/** One row of a matrix as a Float64Array copy. */
export function row(m, i) {
  return m.data.slice(i * m.cols, (i + 1) * m.cols);
}

/** Entry (i, j) of a matrix. */
export function at(m, i, j) {
  return m.data[i * m.cols + j];
}

function checkMatrix(name, m) {
  if (!m || !Number.isInteger(m.rows) || !Number.isInteger(m.cols) || !(m.data instanceof Float64Array)) {
    throw new Error(`${name}: expected { rows, cols, data: Float64Array }`);
  }
  if (m.data.length !== m.rows * m.cols) {
    throw new Error(`${name}: data has ${m.data.length} entries, expected ${m.rows}x${m.cols}`);
  }
  return m;
}

// A mask is either the string 'causal', null (no mask), or a matrix of 0/1 (1 = allowed).
function maskArgs(name, mask) {
  if (mask === null || mask === undefined) return { kind: 0, mask: { rows: 0, cols: 0, data: new Float64Array(0) } };
  if (mask === 'causal') return { kind: 1, mask: { rows: 0, cols: 0, data: new Float64Array(0) } };
  return { kind: 2, mask: checkMatrix(name, mask) };
}

// Raw results carry { rows, cols, data } objects already; wrap them as frozen-shape matrices.
const asMatrix = (raw) => ({ rows: raw.rows, cols: raw.cols, data: raw.data });

function wrapResult(raw) {
  return {
    rawScores: asMatrix(raw.rawScores),
    scaledScores: asMatrix(raw.scaledScores),
    weights: asMatrix(raw.weights),
    output: asMatrix(raw.output),
  };
}

/**
 * Creates the API over an Emscripten module factory (the ES module build in the browser,
 * the CommonJS build under node). `moduleOptions` is passed to the factory, e.g.
 * { wasmBinary } under node or { locateFile } in the browser.
 */
export async function createAttentionLab(factory, moduleOptions = {}) {
  const core = await factory(moduleOptions);
  const api = {
    /**
     * softmax(Q Kᵀ / (τ·scale)) V. Options: tau (temperature, default 1), scale (divisor,
     * default √d_k), mask (null | 'causal' | 0/1 matrix), axis ('keys' the right one, or
     * 'queries' to normalise the columns, a common mistake shown on the page).
     * Returns { rawScores, scaledScores, weights, output }.
     */
    attention(Q, K, V, { tau = 1, scale = 0, mask = null, axis = 'keys' } = {}) {
      const m = maskArgs('mask', mask);
      return wrapResult(
        core.attention(
          checkMatrix('Q', Q), checkMatrix('K', K), checkMatrix('V', V),
          tau, scale, m.kind, m.mask, axis === 'queries' ? 1 : 0,
        ),
      );
    },

    /** Row-wise softmax of logits / tau, with an optional mask. */
    softmax(logits, { tau = 1, mask = null } = {}) {
      const m = maskArgs('mask', mask);
      return asMatrix(core.softmax(checkMatrix('logits', logits), tau, m.kind, m.mask));
    },

    /** The n×m causal mask as a 0/1 matrix (1 where key j ≤ query i). */
    causalMask(n, m = n) {
      return asMatrix(core.causalMask(n, m));
    },

    /**
     * Multi-head self-attention of X (n×d_model) with square W_Q, W_K, W_V, W_O and h heads.
     * Options: tau, mask, scaleBy ('head' = √(d_model/h), the right one, or 'model' = √d_model).
     * Returns { heads: [{ rawScores, scaledScores, weights, output }], concat, output }.
     */
    multiHead(X, WQ, WK, WV, WO, h, { tau = 1, mask = null, scaleBy = 'head' } = {}) {
      const m = maskArgs('mask', mask);
      const raw = core.multiHead(
        checkMatrix('X', X), checkMatrix('W_Q', WQ), checkMatrix('W_K', WK),
        checkMatrix('W_V', WV), checkMatrix('W_O', WO), h, tau, m.kind, m.mask,
        scaleBy === 'model' ? 1 : 0,
      );
      return { heads: raw.heads.map(wrapResult), concat: asMatrix(raw.concat), output: asMatrix(raw.output) };
    },

    /** Cross-attention: queries from Xq (n×d), keys and values from Xkv (m×d), h heads. */
    crossMultiHead(Xq, Xkv, WQ, WK, WV, WO, h, { tau = 1 } = {}) {
      const raw = core.crossMultiHead(
        checkMatrix('Xq', Xq), checkMatrix('Xkv', Xkv), checkMatrix('W_Q', WQ), checkMatrix('W_K', WK),
        checkMatrix('W_V', WV), checkMatrix('W_O', WO), h, tau,
      );
      return { heads: raw.heads.map(wrapResult), concat: asMatrix(raw.concat), output: asMatrix(raw.output) };
    },

    /** Additive (Bahdanau) scores e_ij = vᵀ tanh(W q_i + U k_j); v is a 1×d_a matrix. */
    additiveScores(Q, K, W, U, v) {
      return asMatrix(core.additiveScores(
        checkMatrix('Q', Q), checkMatrix('K', K), checkMatrix('W', W), checkMatrix('U', U), checkMatrix('v', v)));
    },

    /** Per-row entropy (nats), largest weight and its index: { entropy, max, argmax } arrays. */
    rowStats(weights) {
      return core.rowStats(checkMatrix('weights', weights));
    },

    /** The sum of every row and of every column: { rows, cols } Float64Arrays. */
    sums(m) {
      return core.sums(checkMatrix('matrix', m));
    },

    /** max |a_ij − b_ij| over two matrices of the same shape (0 for S against Sᵀ when S is symmetric). */
    maxAbsDifference(a, b) {
      return core.maxAbsDifference(checkMatrix('a', a), checkMatrix('b', b));
    },

    /** The softmax gradient factor p(1−p), element-wise over a 1-row or any matrix. */
    gradientFactor(p) {
      return asMatrix(core.gradientFactor(checkMatrix('p', p)));
    },

    /** The full softmax Jacobian diag(p) − p pᵀ of one probability row (1×m). */
    softmaxJacobian(p) {
      return asMatrix(core.softmaxJacobian(checkMatrix('p', p)));
    },

    /**
     * The "why divide by √d_k" experiment: widths d_k = 2^1 … 2^maxLog2, `trials` random
     * N(0,1) queries against `keys` keys each. Returns { widths, unscaled: { meanMax,
     * meanEntropy }, scaled: { meanMax, meanEntropy } }, arrays indexed like widths.
     */
    widthExperiment({ keys = 10, maxLog2 = 10, trials = 2000, seed = 1 } = {}) {
      return core.widthExperiment(keys, maxLog2, trials, seed);
    },

    /**
     * Cost of one attention layer: n queries, m keys, width dModel, h heads, bytes per number.
     * Returns { qkMacs, avMacs, projectionMacs, weightNumbersPerHead, weightBytesPerHead,
     * weightBytesAllHeads, projectionParameters, outputParameters, parameters, parameterBytes }.
     */
    cost({ n, m = n, dModel, heads = 1, bytesPerNumber = 4 }) {
      return core.cost(n, m, dModel, heads, bytesPerNumber);
    },

    /**
     * Table 1 of the paper (first three rows) evaluated at length n, width d, kernel k:
     * [{ layer, complexityPerLayer, sequentialOps, maxPathLength }].
     */
    layerComparison({ n, d, k = 3 }) {
      return core.layerComparison(n, d, k);
    },

    /**
     * The toy eight-token sentence "the cat sat on the mat because it": { tokens, features,
     * X, WQ, WK, WV, WO }, plus the decoder sentence for cross-attention: { crossTokens, crossX }.
     */
    toySentence() {
      const raw = core.toySentence();
      return {
        tokens: raw.tokens, features: raw.features,
        X: asMatrix(raw.X), WQ: asMatrix(raw.WQ), WK: asMatrix(raw.WK), WV: asMatrix(raw.WV), WO: asMatrix(raw.WO),
        crossTokens: raw.crossTokens, crossX: asMatrix(raw.crossX),
        headJobs: raw.headJobs,
      };
    },

    /** Matrix product A·B (for the Q = X W_Q step of the page). */
    matmul(A, B) {
      return asMatrix(core.matmul(checkMatrix('A', A), checkMatrix('B', B)));
    },
  };
  return api;
}
