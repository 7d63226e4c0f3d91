// Softmax with a temperature, row by row, numerically stable for any finite logits.
#pragma once

#include <optional>

#include "types.hpp"

namespace attn {

// weights(i, j) = exp(l_ij / τ) / Σ_j' exp(l_ij' / τ) over the allowed keys of row i.
// Masked pairs get exactly 0. Logits of ±1e30 with τ = 1e-6 give a one-hot row (ties share
// the weight evenly); a huge τ gives a uniform row. Never NaN.
Matrix softmax_rows(MatrixIn logits, double temperature = 1.0, const std::optional<Mask>& mask = std::nullopt);

// The same normalised down each column instead: the "wrong axis" mistake, kept for the page.
Matrix softmax_columns(MatrixIn logits, double temperature = 1.0);

// The largest weight and the entropy of softmax(scores / divisor) for one row of scores,
// without forming the weights: with z_j = (s_j − max s) / divisor and Z = Σ exp(z_j),
// the largest weight is 1/Z and the entropy is ln Z − Σ exp(z_j)·z_j / Z. Used where
// millions of rows are summarised (the width experiment). Scores must be finite.
struct SoftmaxSummary {
  double largest = 0;
  double entropy = 0;
};
SoftmaxSummary softmax_summary(const Eigen::Ref<const RowVector>& scores, double divisor = 1.0);

}  // namespace attn
