#include "row_stats.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "budget.hpp"
#include "check.hpp"

namespace attn {

Vector row_entropy(MatrixIn weights) {
  budget::matrix("weights", weights.rows(), weights.cols());
  Vector entropy(weights.rows());
  for (Eigen::Index i = 0; i < weights.rows(); ++i) {
    double h = 0;
    for (Eigen::Index j = 0; j < weights.cols(); ++j) {
      const double p = weights(i, j);
      if (p > 0) h -= p * std::log(p);
    }
    entropy(i) = h;
  }
  return entropy;
}

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

Matrix log_gradient_factor(MatrixIn scores, double temperature) {
  check::not_empty("scores", scores.rows(), scores.cols());
  budget::matrix("scores", scores.rows(), scores.cols());
  check::all_finite("scores", scores);
  check::positive_finite("temperature", temperature);
  if (scores.cols() < 2) {
    throw std::invalid_argument("scores must have at least 2 columns (keys), got " + check::shape_of(scores) +
                                ": with one key its weight is 1 and p(1 − p) is 0, which has no logarithm");
  }
  Matrix result(scores.rows(), scores.cols());
  for (Eigen::Index i = 0; i < scores.rows(); ++i) {
    // z_j = (s_j − max s) / τ ≤ 0, so every exponential below is at most 1 and none overflows.
    const double top = scores.row(i).maxCoeff();
    const RowVector z = ((scores.row(i).array() - top) / temperature).matrix();
    double partition = 0;
    for (Eigen::Index j = 0; j < z.size(); ++j) partition += std::exp(z(j));
    const double log_partition = std::log(partition);
    for (Eigen::Index j = 0; j < z.size(); ++j) {
      const double log_p = z(j) - log_partition;
      double log_rest = 0;  // ln(1 − p_j)
      if (log_p < -std::log(2.0)) {
        // p_j < 1/2: 1 − p_j > 1/2 loses nothing to cancellation.
        log_rest = std::log1p(-std::exp(log_p));
      } else {
        // p_j ≥ 1/2: j is the largest score, and 1 − p_j is the others' share, summed directly
        // (shifted by their own largest, so that a share of 1e−28 does not underflow to 0).
        double others_top = -std::numeric_limits<double>::infinity();
        for (Eigen::Index k = 0; k < z.size(); ++k) {
          if (k != j) others_top = std::max(others_top, z(k));
        }
        double others = 0;
        for (Eigen::Index k = 0; k < z.size(); ++k) {
          if (k != j) others += std::exp(z(k) - others_top);
        }
        log_rest = others_top + std::log(others) - log_partition;
      }
      result(i, j) = log_p + log_rest;
    }
  }
  check::finite_result("ln p(1 − p)", result, "scores are finite, but so far apart at this temperature that a weight underflows to exactly 0");
  return result;
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
