#include "attention_f32.hpp"

#include <cfloat>
#include <cmath>
#include <stdexcept>

#include "check.hpp"
#include "check_float.hpp"

namespace attn {
namespace {

// Softmax of each row of W (rows×cols, in place) with exponent factor 1/τ; entries already set
// to −∞ (masked keys) come out as exactly 0.
void softmax_rows_in_place(const kernels::Kernels<float>& k, MatrixF& W, float inverse_temperature) {
  for (Eigen::Index i = 0; i < W.rows(); ++i) {
    float* row = W.row(i).data();
    // pass 1: the row's largest allowed score, so that every exponent is ≤ 0
    const float row_max = k.row_max(row, W.cols());
    // pass 2: exponentials of the shifted scores, and their sum (≥ 1: the maximum gives exp(0))
    const float sum = k.exp_sum(row, W.cols(), row_max, inverse_temperature);
    // pass 3: normalise
    k.scale(row, W.cols(), 1.0f / sum);
  }
}

// The checks both forms make, in the order and words of the float64 form, then float32's own
// range. Returns the scale (√dk unless options.scale is set).
double checked_scale(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options) {
  check::attention_shapes("attention (Q·Kᵀ and weights·V)", Q.rows(), Q.cols(), K.rows(), K.cols(), V.rows(),
                          V.cols(), /*forms_scores=*/true, /*single=*/true);
  const float largest_q = check::finite_magnitude("Q", Q);
  const float largest_k = check::finite_magnitude("K", K);
  const float largest_v = check::finite_magnitude("V", V);
  if (options.scale != 0.0) check::positive_finite("scale", options.scale);
  check::positive_finite("temperature", options.temperature);
  if (options.mask) {
    if (options.axis != SoftmaxAxis::Keys) throw std::invalid_argument("mask is only supported with the softmax over keys");
    check::usable_mask(*options.mask, Q.rows(), K.rows());
  }
  const double scale = options.scale != 0.0 ? options.scale : std::sqrt(static_cast<double>(Q.cols()));
  check::scores_in_range("float32", Q.cols(), largest_q, largest_k, scale, FLT_MAX);
  check::values_in_range("float32", largest_v, FLT_MAX);
  return scale;
}

// Q Kᵀ (n×m) into `scores`. Kᵀ is laid out once (dk×m), so that the product is a plain
// row-major one whose inner loop runs along contiguous keys.
void raw_scores_into(const kernels::Kernels<float>& kernels, MatrixFIn Q, MatrixFIn K, MatrixF& scores) {
  const MatrixF Kt = K.transpose();
  scores.resize(Q.rows(), K.rows());
  kernels.matmul(Q.rows(), K.rows(), Q.cols(), Q.data(), Q.outerStride(), Kt.data(), K.rows(), scores.data(),
                 K.rows(), false);
}

// 1/x clamped to float's normal range. 1/scale: a scale of 1e-300 with all-zero scores passes
// the bound check, and 0 · ∞ would be NaN. 1/τ: a τ so small that it overflows makes the row
// one-hot either way; a τ so large that 1/τ rounds to 0 makes every row uniform either way, but 0
// would turn a masked key's −∞ into 0·∞ = NaN.
float clamped_inverse(double x) { return static_cast<float>(std::fmax(std::fmin(1.0 / x, FLT_MAX), FLT_MIN)); }

// weights · V (n×dv)
MatrixF weighted_values(const kernels::Kernels<float>& kernels, const MatrixF& weights, MatrixFIn V) {
  MatrixF output(weights.rows(), V.cols());
  kernels.matmul(weights.rows(), V.cols(), weights.cols(), weights.data(), weights.cols(), V.data(), V.outerStride(),
                 output.data(), V.cols(), false);
  return output;
}

// `weights` (holding scores) becomes the softmax of factor·scores over keys (each row; masked
// keys get −∞, whose exponential is exactly 0) or over queries (each column: the mistake).
void softmax_in_place(const kernels::Kernels<float>& kernels, const AttentionOptions& options, float factor,
                      MatrixF& weights) {
  if (options.axis == SoftmaxAxis::Keys) {
    if (options.mask) weights = options.mask->select(weights, -INFINITY);
    softmax_rows_in_place(kernels, weights, factor);
  } else {
    MatrixF by_key = weights.transpose();
    softmax_rows_in_place(kernels, by_key, factor);
    weights = by_key.transpose();
  }
}

}  // namespace

AttentionResultF attention(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options) {
  return attention(Q, K, V, options, kernels::best_f32());
}

AttentionResultF attention(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options,
                           const kernels::Kernels<float>& kernels) {
  const double scale = checked_scale(Q, K, V, options);
  AttentionResultF result;
  // --- forward pass 1: raw scores Q Kᵀ (n×m)
  raw_scores_into(kernels, Q, K, result.raw_scores);

  // --- forward pass 2: scaled scores, Q Kᵀ / scale (1/scale never above FLT_MAX)
  result.scaled_scores = result.raw_scores * static_cast<float>(std::fmin(1.0 / scale, FLT_MAX));

  // --- forward pass 3: weights, the softmax of each row (or column) of scaled / τ
  result.weights = result.scaled_scores;
  softmax_in_place(kernels, options, clamped_inverse(options.temperature), result.weights);

  // --- forward pass 4: output = weights · V (n×dv)
  result.output = weighted_values(kernels, result.weights, V);
  return result;
}

MatrixF attention_output(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options) {
  return attention_output(Q, K, V, options, kernels::best_f32());
}

MatrixF attention_output(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options,
                         const kernels::Kernels<float>& kernels) {
  const double scale = checked_scale(Q, K, V, options);
  // --- pass 1: raw scores Q Kᵀ, into the one n×m block
  MatrixF weights;
  raw_scores_into(kernels, Q, K, weights);
  // --- pass 2: the softmax of scores / (scale·τ) in place: the two divisions are one factor of
  // the exponent, so the scaled scores are never stored.
  softmax_in_place(kernels, options, clamped_inverse(scale * options.temperature), weights);
  // --- pass 3: output = weights · V
  return weighted_values(kernels, weights, V);
}

}  // namespace attn
