// What a row of attention weights says at a glance, and how softmax passes gradients back.
#pragma once

#include "types.hpp"

namespace attn {

// Entropy in nats of each row, with 0·ln 0 taken as 0.
Vector row_entropy(MatrixIn weights);

struct RowStats {
  Vector entropy;      // nats; ln m for a uniform row, 0 for a one-hot row
  Vector largest;      // the row's largest weight
  IndexVector argmax;  // its key (the first one on ties)
};

RowStats row_stats(MatrixIn weights);

// The sum of each row and of each column: a softmax over keys makes every row sum to 1, the
// wrong-axis mistake makes every column sum to 1 instead.
struct Sums {
  Vector rows;
  Vector cols;
};
Sums sums(MatrixIn m);

// max |a_ij − b_ij| over two matrices of the same shape (e.g. S against Sᵀ for symmetry).
double max_abs_difference(MatrixIn a, MatrixIn b);

// p(1 − p), element-wise: the diagonal of the softmax Jacobian, i.e. how much a weight can
// still move when its own score moves.
Matrix gradient_factor(MatrixIn probabilities);

// ln(p_ij (1 − p_ij)) for p = softmax(scores / τ) row by row, computed from the scores in log
// space: ln p_j = z_j − ln Σ_k exp z_k and ln(1 − p_j) = ln Σ_{k≠j} exp z_k − ln Σ_k exp z_k.
// Where p_j rounds to 1 in float64 (raw scores 64 apart at d_k = 1024), p(1 − p) from the
// weights is exactly 0, but its logarithm here is still right (about −62.9 for (64, 0, 0, 0)).
// Needs at least two keys per row: with one, 1 − p is exactly 0 and has no logarithm.
Matrix log_gradient_factor(MatrixIn scores, double temperature = 1.0);

// ∂p_i/∂z_j = p_i (δ_ij − p_j) for one probability row p (1×m): diag(p) − pᵀp.
Matrix softmax_jacobian(MatrixIn probability_row);

}  // namespace attn
