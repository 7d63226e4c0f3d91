// What a row of attention weights says at a glance, and how softmax passes gradients back.
#pragma once

#include "types.hpp"

namespace attn {

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

// ∂p_i/∂z_j = p_i (δ_ij − p_j) for one probability row p (1×m): diag(p) − pᵀp.
Matrix softmax_jacobian(MatrixIn probability_row);

}  // namespace attn
