#include "check_float.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

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

void same_cols(const char* a_name, MatrixFIn a, const char* b_name, MatrixFIn b) {
  if (a.cols() != b.cols()) {
    throw std::invalid_argument(std::string(a_name) + " (" + shape_of(a) + ") and " + b_name + " (" +
                                shape_of(b) + ") must have the same number of columns");
  }
}

void same_rows(const char* a_name, MatrixFIn a, const char* b_name, MatrixFIn b) {
  if (a.rows() != b.rows()) {
    throw std::invalid_argument(std::string(a_name) + " (" + shape_of(a) + ") and " + b_name + " (" +
                                shape_of(b) + ") must have the same number of rows");
  }
}

void attention_budget(Eigen::Index n, Eigen::Index m, Eigen::Index dk, Eigen::Index dv, bool forms_scores) {
  const auto dimension = [](const char* name, Eigen::Index value) {
    if (value > limits::kMaxDimension) {
      throw std::invalid_argument(std::string(name) + " = " + std::to_string(value) + " is over the limit of " +
                                  std::to_string(limits::kMaxDimension));
    }
  };
  dimension("n (rows of Q)", n);
  dimension("m (rows of K and V)", m);
  dimension("dk (columns of Q and K)", dk);
  dimension("dv (columns of V)", dv);
  // each factor is at most 10^6, so these products fit in 64 bits
  const std::int64_t entries = std::int64_t{n} * m;
  if (forms_scores && entries > limits::kMaxEntries) {
    throw std::invalid_argument("the scores (" + shape(n, m) + ", " + std::to_string(entries) +
                                " entries) would pass the limit of " + std::to_string(limits::kMaxEntries) +
                                " entries; the streaming form never forms them");
  }
  const double multiply_adds = static_cast<double>(entries) * static_cast<double>(dk + dv);
  if (multiply_adds > static_cast<double>(limits::kMaxMultiplyAdds)) {
    throw std::invalid_argument("attention of Q (" + shape(n, dk) + "), K (" + shape(m, dk) + "), V (" +
                                shape(m, dv) + ") needs " + number(multiply_adds) +
                                " multiply-adds, over the limit of " +
                                std::to_string(limits::kMaxMultiplyAdds));
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

}  // namespace attn::check
