#include "additive.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "budget.hpp"
#include "check.hpp"
#include "limits.hpp"

namespace attn {

std::int64_t additive_multiply_adds(std::int64_t n, std::int64_t dq, std::int64_t m, std::int64_t dk,
                                    std::int64_t da) {
  // Each (i, j, a) of vᵀ tanh(W q_i + U k_j) is an add, a tanh and a multiply-add: it counts as
  // kAdditivePairWeight multiply-adds, so that the limit stands for as much time as a product's.
  return budget::sum({budget::product({n, da, dq}), budget::product({m, da, dk}),
                      budget::product({limits::kAdditivePairWeight, n, m, da})});
}

Matrix additive_scores(MatrixIn Q, MatrixIn K, MatrixIn W, MatrixIn U, VectorIn v) {
  check::not_empty("Q", Q.rows(), Q.cols());
  check::not_empty("K", K.rows(), K.cols());
  check::not_empty("v", v.rows(), 1);
  if (W.rows() != v.rows() || W.cols() != Q.cols()) {
    throw std::invalid_argument("W must be " + check::shape(v.rows(), Q.cols()) + " (d_a x d_q), got " +
                                check::shape_of(W));
  }
  if (U.rows() != v.rows() || U.cols() != K.cols()) {
    throw std::invalid_argument("U must be " + check::shape(v.rows(), K.cols()) + " (d_a x d_k), got " +
                                check::shape_of(U));
  }
  budget::matrix("Q", Q.rows(), Q.cols());
  budget::matrix("K", K.rows(), K.cols());
  budget::matrix("W", W.rows(), W.cols());
  budget::matrix("U", U.rows(), U.cols());
  budget::matrix("the scores", Q.rows(), K.rows());
  const std::int64_t da = v.rows();
  // The query and key halves of the hidden layer, made once each below.
  budget::matrix("Q·Wᵀ", Q.rows(), da);
  budget::matrix("K·Uᵀ", K.rows(), da);
  budget::multiply_adds("additive scores (W·q, U·k and vᵀ tanh(…) for every pair)",
                        additive_multiply_adds(Q.rows(), Q.cols(), K.rows(), K.cols(), da));
  check::all_finite("Q", Q);
  check::all_finite("K", K);
  check::all_finite("W", W);
  check::all_finite("U", U);
  for (Eigen::Index i = 0; i < v.rows(); ++i) {
    if (!std::isfinite(v(i))) {
      throw std::invalid_argument("v has a non-finite entry " + check::number(v(i)) + " at " + std::to_string(i));
    }
  }

  // The query and key halves of the hidden layer are computed once each, then paired.
  const Matrix query_part = Q * W.transpose();  // n×da
  const Matrix key_part = K * U.transpose();    // m×da
  Matrix scores(Q.rows(), K.rows());
  for (Eigen::Index i = 0; i < Q.rows(); ++i) {
    for (Eigen::Index j = 0; j < K.rows(); ++j) {
      scores(i, j) = (query_part.row(i) + key_part.row(j)).array().tanh().matrix().dot(v);
    }
  }
  check::finite_result("the scores", scores,
                       "v is finite, but vᵀ tanh(…) sums its entries past the largest float64 (about 1.8e308)");
  return scores;
}

}  // namespace attn
