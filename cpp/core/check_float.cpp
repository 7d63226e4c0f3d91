#include "check_float.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "budget.hpp"
#include "check.hpp"
#include "limits.hpp"

namespace attn::check {

float finite_magnitude(const char* name, MatrixFIn m) {
  // One pass of integer maxima over the bits with the sign cleared: for floats of one sign the
  // bit patterns order as the values do, and ∞ and NaN sit above every finite one. A loop the
  // compiler vectorises (Eigen's allFinite is scalar in WebAssembly).
  std::uint32_t largest = 0;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    const float* row = m.row(i).data();
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      std::uint32_t bits;
      std::memcpy(&bits, row + j, sizeof bits);
      largest = std::max(largest, bits & 0x7FFFFFFFu);
    }
  }
  if (largest >= 0x7F800000u) all_finite(name, m);  // throws, naming the entry
  float magnitude;
  std::memcpy(&magnitude, &largest, sizeof magnitude);
  return magnitude;
}

void all_finite(const char* name, MatrixFIn m) {
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      if (!std::isfinite(m(i, j))) {
        throw std::invalid_argument(std::string(name) + " has a non-finite entry " + number(m(i, j)) + " at (" +
                                    std::to_string(i) + ", " + std::to_string(j) + ")");
      }
    }
  }
}

void attention_shapes(const char* what, Eigen::Index q_rows, Eigen::Index q_cols, Eigen::Index k_rows,
                      Eigen::Index k_cols, Eigen::Index v_rows, Eigen::Index v_cols, bool forms_scores,
                      bool single) {
  not_empty("Q", q_rows, q_cols);
  not_empty("K", k_rows, k_cols);
  if (q_cols != k_cols) {
    throw std::invalid_argument("Q (" + shape(q_rows, q_cols) + ") and K (" + shape(k_rows, k_cols) +
                                ") must have the same number of columns");
  }
  budget::matrix("Q", q_rows, q_cols);
  budget::matrix("K", k_rows, k_cols);
  if (forms_scores) budget::matrix("the scores Q·Kᵀ", q_rows, k_rows);
  not_empty("V", v_rows, v_cols);
  if (k_rows != v_rows) {
    throw std::invalid_argument("K (" + shape(k_rows, k_cols) + ") and V (" + shape(v_rows, v_cols) +
                                ") must have the same number of rows");
  }
  budget::matrix("V", v_rows, v_cols);
  budget::matrix("the output", q_rows, v_cols);
  // The direct form also forms, exponentiates and returns each pair's score and weight.
  const std::int64_t pair = forms_scores ? limits::kPairWork : 0;
  const std::int64_t work = budget::product({q_rows, k_rows, budget::sum({q_cols, v_cols, pair})});
  if (single) {
    budget::multiply_adds_f32(what, work);
  } else {
    budget::multiply_adds(what, work);
  }
}

void scores_in_range(const char* precision, Eigen::Index dk, double largest_q, double largest_k, double divisor,
                     double largest) {
  const double bound = static_cast<double>(dk) * largest_q * largest_k * std::max(1.0, 1.0 / divisor);
  if (!(bound <= largest / 4)) {
    throw std::invalid_argument(std::string("Q and K are too large for ") + precision + ": scores could reach " +
                                number(bound) + " (largest entries " + number(largest_q) + " of Q, " +
                                number(largest_k) + " of K, width " + std::to_string(dk) + ", divisor " +
                                number(divisor) + ")");
  }
}

void values_in_range(const char* precision, double largest_v, double largest) {
  if (!(largest_v <= largest / 4)) {
    throw std::invalid_argument(std::string("V is too large for ") + precision + ": its largest entry " +
                                number(largest_v) + " leaves no room for the weighted sums");
  }
}

}  // namespace attn::check
