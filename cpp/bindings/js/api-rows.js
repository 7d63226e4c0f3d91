// The JS API's functions of one or two matrices: row statistics, sums, differences, the softmax
// gradient factor and Jacobian, the product. Most are one line: oneMatrix, matrixToRows and
// twoMatrices below, each the JS side of one AL_EXPORT_* shape in cpp/bindings/boundary.hpp.
import { entriesWithin, multiplyAdds, readOptions, temperature } from './read-arguments.js';
import { readMatrix } from './read-matrix.js';

/** The row-statistics and matrix functions of the API over one core and its heap protocol. */
export function rowFunctions(core, calls) {
  /**
   * "One matrix in, one out" (AL_EXPORT_MATRIX_TO_MATRIX): reads the matrix as `name`, runs
   * `check` on the read record if given (a budget), returns the one result.
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
  /**
   * "Two matrices in, one out" (TwoMatricesCall): reads them as `names`, runs `check` on the two
   * read records if given (a budget), returns the one result, or `pick` of it.
   */
  const twoMatrices = ([nameA, nameB], exported, check, pick) => (first, second) => {
    const a = readMatrix(nameA, first);
    const b = readMatrix(nameB, second);
    if (check !== undefined) check(a, b);
    calls.stage(a, b);
    const out = calls.run(exported)[0];
    return pick === undefined ? out : pick(out);
  };

  return {
    /** Per-row entropy (nats), largest weight and its index: { entropy, max, argmax } arrays. */
    rowStats: matrixToRows('weights', core._al_row_stats, ['entropy', 'max', 'argmax']),

    /** The sum of every row and of every column: { rows, cols } Float64Arrays. */
    sums: matrixToRows('matrix', core._al_sums, ['rows', 'cols']),

    /** max |a_ij − b_ij| over two matrices of the same shape (0 for S against Sᵀ when S is symmetric). */
    maxAbsDifference: twoMatrices(['a', 'b'], core._al_max_abs_difference, undefined, (m) => m.data[0]),

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

    /** Matrix product A·B (for the Q = X W_Q step of the page). */
    matmul: twoMatrices(['A', 'B'], core._al_matmul, matmulBudget),
  };
}

function matmulBudget(a, b) {
  entriesWithin('matmul', 'the product', a.rows, b.cols);
  multiplyAdds('matmul', a.rows * a.cols * b.cols, 'float64');
}
