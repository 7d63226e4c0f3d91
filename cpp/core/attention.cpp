#include "attention.hpp"

#include <cmath>
#include <stdexcept>

#include "budget.hpp"
#include "check.hpp"
#include "softmax.hpp"

namespace attn {
namespace {

// Shapes and the work budget of Q Kᵀ, before anything is allocated.
void check_scores(MatrixIn Q, MatrixIn K) {
  check::not_empty("Q", Q.rows(), Q.cols());
  check::not_empty("K", K.rows(), K.cols());
  check::same_cols("Q", Q, "K", K);
  budget::matrix("Q", Q.rows(), Q.cols());
  budget::matrix("K", K.rows(), K.cols());
  budget::matrix("the scores Q·Kᵀ", Q.rows(), K.rows());
}

// Why finite Q and K gave a non-finite score: before the scale divides (the dot product itself
// overflows) or after (a tiny scale).
std::string overflow_reason(double scale, bool before_scale) {
  return std::string("Q and K are finite, but their dot products ") +
         (before_scale ? "pass the largest float64 (about 1.8e308) before the scale " + check::number(scale) + " divides them"
                       : "divided by the scale " + check::number(scale) + " pass the largest float64 (about 1.8e308)") +
         "; make Q or K smaller" + (before_scale ? "" : " or the scale larger");
}

}  // namespace

Matrix dot_scores(MatrixIn Q, MatrixIn K) {
  check_scores(Q, K);
  budget::multiply_adds("Q·Kᵀ", budget::product({Q.rows(), K.rows(), Q.cols()}));
  check::all_finite("Q", Q);
  check::all_finite("K", K);
  Matrix scores = Q * K.transpose();
  check::finite_result("the scores Q·Kᵀ", scores, overflow_reason(1.0, false));
  return scores;
}

Mask causal_mask(std::int64_t n, std::int64_t m) {
  check::positive_count("causal mask rows n", n);
  check::positive_count("causal mask columns m", m);
  // Checked as 64-bit numbers, before Eigen::Index (32 bits in WebAssembly) sees them.
  budget::matrix("the causal mask", n, m);
  Mask mask(n, m);
  for (Eigen::Index i = 0; i < mask.rows(); ++i) {
    for (Eigen::Index j = 0; j < mask.cols(); ++j) mask(i, j) = j <= i;
  }
  return mask;
}

AttentionResult attention(MatrixIn Q, MatrixIn K, MatrixIn V, const AttentionOptions& options) {
  check_scores(Q, K);
  check::not_empty("V", V.rows(), V.cols());
  check::same_rows("K", K, "V", V);
  budget::matrix("V", V.rows(), V.cols());
  budget::matrix("the output", Q.rows(), V.cols());
  budget::multiply_adds("attention (Q·Kᵀ and weights·V)",
                        budget::product({Q.rows(), K.rows(), budget::sum({Q.cols(), V.cols()})}));
  check::all_finite("Q", Q);
  check::all_finite("K", K);
  check::all_finite("V", V);
  if (options.scale != 0.0) check::positive_finite("scale", options.scale);
  check::positive_finite("temperature", options.temperature);
  if (options.mask) {
    if (options.axis != SoftmaxAxis::Keys) throw std::invalid_argument("mask is only supported with the softmax over keys");
    check::usable_mask(*options.mask, Q.rows(), K.rows());
  }

  AttentionResult result;
  const double scale = options.scale != 0.0 ? options.scale : std::sqrt(static_cast<double>(Q.cols()));
  result.raw_scores = Q * K.transpose();
  result.scaled_scores = result.raw_scores / scale;
  check::finite_result("the scores Q·Kᵀ", result.raw_scores, overflow_reason(scale, true));
  check::finite_result("the scaled scores Q·Kᵀ/scale", result.scaled_scores, overflow_reason(scale, false));
  if (options.axis == SoftmaxAxis::Keys) {
    result.weights = softmax_rows(result.scaled_scores, options.temperature, options.mask);
  } else {
    result.weights = softmax_columns(result.scaled_scores, options.temperature);
  }
  result.output = result.weights * V;
  check::finite_result("the output weights·V", result.output,
                       "V is finite, but its entries are so close to the largest float64 that their weighted sum passes it");
  return result;
}

}  // namespace attn
