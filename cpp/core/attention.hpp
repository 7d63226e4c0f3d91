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

// Where attention_into writes its four results: any row-major storage of the right shapes (the
// matrices of an AttentionResult, or a caller's buffer mapped as matrices).
using MatrixOut = Eigen::Ref<Matrix>;
struct AttentionOut {
  MatrixOut raw_scores;     // n×m
  MatrixOut scaled_scores;  // n×m
  MatrixOut weights;        // n×m
  MatrixOut output;         // n×dv
};

// Q Kᵀ for Q (n×dk) and K (m×dk).
Matrix dot_scores(MatrixIn Q, MatrixIn K);

// A causal mask: query i may see keys 0 … i.
// Sizes are 64-bit so that a huge request is refused, not narrowed, where Eigen::Index is 32 bits.
Mask causal_mask(std::int64_t n, std::int64_t m);

// Q (n×dk), K (m×dk), V (m×dv); n ≠ m is cross-attention.
AttentionResult attention(MatrixIn Q, MatrixIn K, MatrixIn V, const AttentionOptions& options = {});

// The same, written into `out` (shapes n×m, n×m, n×m, n×dv) instead of new matrices: no
// allocation on a good call without a mask. attention() is this over fresh matrices, so both give
// the very same numbers. Every entry of a product is summed in the order of its inner index, the
// same order natively and in WebAssembly.
void attention_into(MatrixIn Q, MatrixIn K, MatrixIn V, const AttentionOptions& options, AttentionOut out);

// The same with the mask given apart (nullptr: none), for callers that hold one mask for many
// calls (the heads of multi-head attention).
void attention_into(MatrixIn Q, MatrixIn K, MatrixIn V, const AttentionOptions& options, const Mask* mask,
                    AttentionOut out);

// C = A·B into C (A.rows()×B.cols()), each entry summed in the order of the inner index; no
// checks (callers check shapes and finiteness).
void multiply_into(MatrixIn A, MatrixIn B, MatrixOut C);

}  // namespace attn
