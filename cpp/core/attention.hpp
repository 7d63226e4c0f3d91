// Scaled dot-product attention: softmax(Q Kᵀ / (τ·√d_k)) V, for self- and cross-attention.
#pragma once

#include <cstdint>
#include <optional>

#include "types.hpp"

namespace attn {

enum class SoftmaxAxis {
  Keys,     // each query's row sums to 1: the right one
  Queries,  // each key's column sums to 1: a common mistake, shown on the page
};

struct AttentionOptions {
  double temperature = 1.0;        // τ; 1 is the paper's softmax
  double scale = 0.0;              // divisor of Q Kᵀ; 0 means √d_k
  std::optional<Mask> mask;        // true = the query may see that key
  SoftmaxAxis axis = SoftmaxAxis::Keys;
};

struct AttentionResult {
  Matrix raw_scores;     // n×m  Q Kᵀ
  Matrix scaled_scores;  // n×m  Q Kᵀ / scale
  Matrix weights;        // n×m  softmax of scaled_scores / τ
  Matrix output;         // n×dv weights · V
};

// Q Kᵀ for Q (n×dk) and K (m×dk).
Matrix dot_scores(MatrixIn Q, MatrixIn K);

// A causal mask: query i may see keys 0 … i.
// Sizes are 64-bit so that a huge request is refused, not narrowed, where Eigen::Index is 32 bits.
Mask causal_mask(std::int64_t n, std::int64_t m);

// Q (n×dk), K (m×dk), V (m×dv); n ≠ m is cross-attention.
AttentionResult attention(MatrixIn Q, MatrixIn K, MatrixIn V, const AttentionOptions& options = {});

}  // namespace attn
