// Additive (Bahdanau) scoring, for the side-by-side with the dot product.
#pragma once

#include "types.hpp"

namespace attn {

// e_ij = vᵀ tanh(W q_i + U k_j) for Q (n×dq), K (m×dk), W (da×dq), U (da×dk), v (da).
Matrix additive_scores(MatrixIn Q, MatrixIn K, MatrixIn W, MatrixIn U, VectorIn v);

}  // namespace attn
