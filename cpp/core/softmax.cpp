#include "softmax.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "budget.hpp"
#include "check.hpp"

namespace attn {

Matrix softmax_rows(MatrixIn logits, double temperature, const std::optional<Mask>& mask) {
  check::not_empty("logits", logits.rows(), logits.cols());
  budget::matrix("logits", logits.rows(), logits.cols());
  check::all_finite("logits", logits);
  check::positive_finite("temperature", temperature);
  if (mask) check::usable_mask(*mask, logits.rows(), logits.cols());

  const auto allowed = [&](Eigen::Index i, Eigen::Index j) { return !mask || (*mask)(i, j); };
  Matrix weights(logits.rows(), logits.cols());
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    // pass 1: the row's largest allowed logit, so that every exponent below is ≤ 0
    double row_max = -std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < logits.cols(); ++j) {
      if (allowed(i, j)) row_max = std::max(row_max, logits(i, j));
    }
    // pass 2: exponentials of the shifted logits. Shifting before dividing by τ keeps a tiny τ
    // from overflowing: the largest term is exactly exp(0) = 1, the rest underflow to 0 at worst.
    double sum = 0;
    for (Eigen::Index j = 0; j < logits.cols(); ++j) {
      const double e = allowed(i, j) ? std::exp((logits(i, j) - row_max) / temperature) : 0.0;
      weights(i, j) = e;
      sum += e;
    }
    // pass 3: normalise; sum ≥ 1 because the maximum contributes exp(0)
    weights.row(i) /= sum;
  }
  return weights;
}

Matrix softmax_columns(MatrixIn logits, double temperature) {
  // Checked here, before transposing, so that a message gives the caller's (row, column).
  check::not_empty("logits", logits.rows(), logits.cols());
  budget::matrix("logits", logits.rows(), logits.cols());
  check::all_finite("logits", logits);
  check::positive_finite("temperature", temperature);
  const Matrix transposed = logits.transpose();
  return softmax_rows(transposed, temperature).transpose();
}

SoftmaxSummary softmax_summary(const Eigen::Ref<const RowVector>& scores, double divisor) {
  check::not_empty("scores", 1, scores.size());
  budget::matrix("scores", 1, scores.size());
  if (!scores.allFinite()) throw std::invalid_argument("scores has a non-finite entry");
  check::positive_finite("divisor", divisor);
  const double top = scores.maxCoeff();
  double partition = 0;   // Z
  double weighted_z = 0;  // Σ exp(z_j)·z_j
  for (Eigen::Index j = 0; j < scores.size(); ++j) {
    const double z = (scores(j) - top) / divisor;
    const double e = std::exp(z);
    partition += e;
    weighted_z += e * z;
  }
  return {1.0 / partition, std::log(partition) - weighted_z / partition};
}

}  // namespace attn
