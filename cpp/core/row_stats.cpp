#include "row_stats.hpp"

#include <cmath>
#include <stdexcept>

#include "budget.hpp"
#include "check.hpp"
#include "softmax.hpp"

namespace attn {

RowStats row_stats(MatrixIn weights) {
  check::not_empty("weights", weights.rows(), weights.cols());
  budget::matrix("weights", weights.rows(), weights.cols());
  check::all_finite("weights", weights);
  RowStats stats{row_entropy(weights), Vector(weights.rows()), IndexVector(weights.rows())};
  for (Eigen::Index i = 0; i < weights.rows(); ++i) {
    Eigen::Index j = 0;
    stats.largest(i) = weights.row(i).maxCoeff(&j);
    stats.argmax(i) = j;
  }
  check::finite_result("the row entropies", stats.entropy.transpose(), "weights are finite, but far outside [0, 1]");
  return stats;
}

Sums sums(MatrixIn m) {
  check::not_empty("matrix", m.rows(), m.cols());
  budget::matrix("matrix", m.rows(), m.cols());
  check::all_finite("matrix", m);
  Sums result{m.rowwise().sum(), m.colwise().sum().transpose()};
  const char* why = "the matrix is finite, but its entries add up past the largest float64 (about 1.8e308)";
  check::finite_result("the row sums", result.rows.transpose(), why);
  check::finite_result("the column sums", result.cols.transpose(), why);
  return result;
}

double max_abs_difference(MatrixIn a, MatrixIn b) {
  check::not_empty("a", a.rows(), a.cols());
  if (a.rows() != b.rows() || a.cols() != b.cols()) {
    throw std::invalid_argument("a (" + check::shape_of(a) + ") and b (" + check::shape_of(b) + ") must have the same shape");
  }
  budget::matrix("a", a.rows(), a.cols());
  check::all_finite("a", a);
  check::all_finite("b", b);
  const double largest = (a - b).cwiseAbs().maxCoeff();
  if (!std::isfinite(largest)) {
    throw std::invalid_argument("the difference a − b overflows float64: a and b are finite, but far apart near the largest float64");
  }
  return largest;
}

Matrix gradient_factor(MatrixIn probabilities) {
  check::not_empty("probabilities", probabilities.rows(), probabilities.cols());
  budget::matrix("probabilities", probabilities.rows(), probabilities.cols());
  check::all_finite("probabilities", probabilities);
  Matrix factor = (probabilities.array() * (1.0 - probabilities.array())).matrix();
  check::finite_result("p(1 − p)", factor, "probabilities are finite, but far outside [0, 1]");
  return factor;
}

Matrix softmax_jacobian(MatrixIn probability_row) {
  check::not_empty("probability row p", probability_row.rows(), probability_row.cols());
  if (probability_row.rows() != 1) {
    throw std::invalid_argument("probability row p must be 1xm, got " + check::shape_of(probability_row));
  }
  budget::matrix("the Jacobian", probability_row.cols(), probability_row.cols());
  check::all_finite("probability row p", probability_row);
  const RowVector p = probability_row.row(0);
  Matrix jacobian = -p.transpose() * p;
  jacobian.diagonal() += p.transpose();
  check::finite_result("the Jacobian diag(p) − pᵀp", jacobian, "p is finite, but far outside [0, 1]");
  return jacobian;
}

}  // namespace attn
