#include "row_stats.hpp"

#include <stdexcept>

#include "check.hpp"
#include "softmax.hpp"

namespace attn {

RowStats row_stats(MatrixIn weights) {
  check::not_empty("weights", weights.rows(), weights.cols());
  check::all_finite("weights", weights);
  RowStats stats{row_entropy(weights), Vector(weights.rows()), IndexVector(weights.rows())};
  for (Eigen::Index i = 0; i < weights.rows(); ++i) {
    Eigen::Index j = 0;
    stats.largest(i) = weights.row(i).maxCoeff(&j);
    stats.argmax(i) = j;
  }
  return stats;
}

Sums sums(MatrixIn m) {
  check::not_empty("matrix", m.rows(), m.cols());
  check::all_finite("matrix", m);
  return {m.rowwise().sum(), m.colwise().sum().transpose()};
}

double max_abs_difference(MatrixIn a, MatrixIn b) {
  check::not_empty("a", a.rows(), a.cols());
  if (a.rows() != b.rows() || a.cols() != b.cols()) {
    throw std::invalid_argument("a (" + check::shape_of(a) + ") and b (" + check::shape_of(b) + ") must have the same shape");
  }
  check::all_finite("a", a);
  check::all_finite("b", b);
  return (a - b).cwiseAbs().maxCoeff();
}

Matrix gradient_factor(MatrixIn probabilities) {
  check::not_empty("probabilities", probabilities.rows(), probabilities.cols());
  check::all_finite("probabilities", probabilities);
  return (probabilities.array() * (1.0 - probabilities.array())).matrix();
}

Matrix softmax_jacobian(MatrixIn probability_row) {
  check::not_empty("probability row p", probability_row.rows(), probability_row.cols());
  if (probability_row.rows() != 1) {
    throw std::invalid_argument("probability row p must be 1xm, got " + check::shape_of(probability_row));
  }
  check::all_finite("probability row p", probability_row);
  const RowVector p = probability_row.row(0);
  Matrix jacobian = -p.transpose() * p;
  jacobian.diagonal() += p.transpose();
  return jacobian;
}

}  // namespace attn
