// Streaming attention: softmax(Q Kᵀ / (τ·scale)) V computed one tile of keys at a time with an
// online softmax, so that the n×m scores and weights are never formed (memory O((n + m)·d)).
//
// For each query row, over tiles of keys, keep a running maximum μ, a running sum ℓ and an
// unnormalised output o (Milakov & Gimelshein 2018, "Online normalizer calculation for softmax";
// tiled over blocks of queries and keys as FlashAttention does, Dao et al. 2022). With c = 1/(τ·scale)
// and s_j the raw scores q·k_j of a tile:
//   μ' = max(μ, max_j s_j)
//   ℓ' = ℓ·exp(c(μ − μ')) + Σ_j exp(c(s_j − μ'))
//   o' = o·exp(c(μ − μ')) + Σ_j exp(c(s_j − μ')) v_j
// and at the end output = o / ℓ: the same sums as the direct form, every exponent ≤ 0.
#pragma once

#include <optional>

#include "types.hpp"

namespace attn {

struct StreamingOptions {
  double temperature = 1.0;   // τ
  double scale = 0.0;         // divisor of Q Kᵀ; 0 means √d_k
  bool causal = false;        // query i sees keys 0 … i, without any mask being formed
  std::optional<Mask> mask;   // n×m, true = the query may see that key; combined with `causal`
  Eigen::Index key_tile = 0;  // keys per tile; 0 picks the default
};

// Q (n×dk), K (m×dk), V (m×dv) → output (n×dv). Errors as the direct form's, and a mask (with
// `causal`, what it leaves) that hides every key from a query is refused.
Matrix streaming_attention(MatrixIn Q, MatrixIn K, MatrixIn V, const StreamingOptions& options = {});
MatrixF streaming_attention(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const StreamingOptions& options = {});

}  // namespace attn
