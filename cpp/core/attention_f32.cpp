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

}  // namespace

AttentionResultF attention(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options) {
  return attention(Q, K, V, options, kernels::best_f32());
}

AttentionResultF attention(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options,
                           const kernels::Kernels<float>& kernels) {
  // --- checks, in the order and words of the float64 form, then float32's own range ------------
  check::attention_shapes("attention (Q·Kᵀ and weights·V)", Q.rows(), Q.cols(), K.rows(), K.cols(), V.rows(),
                          V.cols(), /*forms_scores=*/true);
  const float largest_q = check::finite_magnitude("Q", Q);
  const float largest_k = check::finite_magnitude("K", K);
  const float largest_v = check::finite_magnitude("V", V);
  if (options.scale != 0.0) check::positive_finite("scale", options.scale);
  check::positive_finite("temperature", options.temperature);
  const Eigen::Index n = Q.rows(), m = K.rows(), dk = Q.cols(), dv = V.cols();
  if (options.mask) {
    if (options.axis != SoftmaxAxis::Keys) throw std::invalid_argument("mask is only supported with the softmax over keys");
    check::usable_mask(*options.mask, n, m);
  }
  const double scale = options.scale != 0.0 ? options.scale : std::sqrt(static_cast<double>(dk));
  check::scores_in_range("float32", dk, largest_q, largest_k, scale, FLT_MAX);
  check::values_in_range("float32", largest_v, FLT_MAX);

  AttentionResultF result;
  // --- forward pass 1: raw scores Q Kᵀ (n×m). Kᵀ is laid out once (dk×m), so that the product is
  // a plain row-major one whose inner loop runs along contiguous keys.
  const MatrixF Kt = K.transpose();
  result.raw_scores.resize(n, m);
  kernels.matmul(n, m, dk, Q.data(), Q.outerStride(), Kt.data(), m, result.raw_scores.data(), m, false);

  // --- forward pass 2: scaled scores, Q Kᵀ / scale
  // (1/scale clamped to float's range: a scale of 1e-300 with all-zero scores passes the bound
  // check, and 0 · ∞ would be NaN.)
  result.scaled_scores = result.raw_scores * static_cast<float>(std::fmin(1.0 / scale, FLT_MAX));

  // --- forward pass 3: weights, the softmax of each row (or column) of scaled / τ. A masked key
  // gets −∞, whose exponential is exactly 0. 1/τ is clamped to float's range: a τ so small that
  // it overflows makes the row one-hot either way.
  // A τ so large that 1/τ rounds to 0 makes every row uniform either way, but 0 would turn a
  // masked key's −∞ into 0·∞ = NaN, so 1/τ stays at least the smallest normal float.
  const float inverse_temperature = static_cast<float>(std::fmax(std::fmin(1.0 / options.temperature, FLT_MAX), FLT_MIN));
  if (options.axis == SoftmaxAxis::Keys) {
    if (options.mask) {
      result.weights = options.mask->select(result.scaled_scores, -INFINITY);
    } else {
      result.weights = result.scaled_scores;
    }
    softmax_rows_in_place(kernels, result.weights, inverse_temperature);
  } else {
    MatrixF by_key = result.scaled_scores.transpose();
    softmax_rows_in_place(kernels, by_key, inverse_temperature);
    result.weights = by_key.transpose();
  }

  // --- forward pass 4: output = weights · V (n×dv)
  result.output.resize(n, dv);
  kernels.matmul(n, dv, m, result.weights.data(), m, V.data(), V.outerStride(), result.output.data(), dv, false);
  return result;
}

}  // namespace attn
