#include "attention.hpp"

#include <cmath>
#include <stdexcept>

#include "check.hpp"
#include "softmax.hpp"

namespace attn {

Matrix dot_scores(MatrixIn Q, MatrixIn K) {
  check::not_empty("Q", Q.rows(), Q.cols());
  check::not_empty("K", K.rows(), K.cols());
  check::same_cols("Q", Q, "K", K);
  check::all_finite("Q", Q);
  check::all_finite("K", K);
  return Q * K.transpose();
}

Mask causal_mask(Eigen::Index n, Eigen::Index m) {
  check::positive_count("causal mask rows n", n);
  check::positive_count("causal mask columns m", m);
  Mask mask(n, m);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < m; ++j) mask(i, j) = j <= i;
  }
  return mask;
}

AttentionResult attention(MatrixIn Q, MatrixIn K, MatrixIn V, const AttentionOptions& options) {
  check::not_empty("V", V.rows(), V.cols());
  check::same_rows("K", K, "V", V);
  check::all_finite("V", V);
  if (options.scale != 0.0) check::positive_finite("scale", options.scale);

  AttentionResult result;
  result.raw_scores = dot_scores(Q, K);
  const double scale = options.scale != 0.0 ? options.scale : std::sqrt(static_cast<double>(Q.cols()));
  result.scaled_scores = result.raw_scores / scale;
  if (options.axis == SoftmaxAxis::Keys) {
    result.weights = softmax_rows(result.scaled_scores, options.temperature, options.mask);
  } else {
    if (options.mask) throw std::invalid_argument("mask is only supported with the softmax over keys");
    result.weights = softmax_columns(result.scaled_scores, options.temperature);
  }
  result.output = result.weights * V;
  return result;
}

}  // namespace attn
