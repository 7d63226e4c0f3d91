// Additive (Bahdanau) scoring, for the side-by-side with the dot product.
#pragma once

#include <cstdint>

#include "types.hpp"

namespace attn {

// e_ij = vᵀ tanh(W q_i + U k_j) for Q (n×dq), K (m×dk), W (da×dq), U (da×dk), v (da).
Matrix additive_scores(MatrixIn Q, MatrixIn K, MatrixIn W, MatrixIn U, VectorIn v);

// The multiply-adds that additive_scores counts against the budget: n·d_a·d_q + m·d_a·d_k for
// the two projections, and each of the n·m·d_a tanh terms weighted (limits.hpp).
std::int64_t additive_multiply_adds(std::int64_t n, std::int64_t dq, std::int64_t m, std::int64_t dk, std::int64_t da);

}  // namespace attn
