#include "check.hpp"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace attn::check {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string shape(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

void not_empty(const char* name, Eigen::Index rows, Eigen::Index cols) {
  if (rows == 0 || cols == 0) {
    throw std::invalid_argument(std::string(name) + " is empty (" + shape(rows, cols) + ")");
  }
}

bool finite(MatrixIn m) {
  // |x| <= DBL_MAX is false for ±∞ and for NaN; and-ing the answers needs no early exit.
  bool all = true;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    const double* row = m.data() + i * m.outerStride();
    for (Eigen::Index j = 0; j < m.cols(); ++j) all &= std::fabs(row[j]) <= DBL_MAX;
  }
  return all;
}

void all_finite(const char* name, MatrixIn m) {
  if (finite(m)) return;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      if (!std::isfinite(m(i, j))) {
        throw std::invalid_argument(std::string(name) + " has a non-finite entry " + number(m(i, j)) + " at (" +
                                    std::to_string(i) + ", " + std::to_string(j) + ")");
      }
    }
  }
}

void finite_result(const char* what, MatrixIn m, const char* why) {
  if (!finite(m)) finite_result(what, m, std::string(why));
}

void finite_result(const char* what, MatrixIn m, const std::string& why) {
  if (finite(m)) return;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      if (!std::isfinite(m(i, j))) {
        throw std::invalid_argument(std::string(what) + " overflows float64 at (" + std::to_string(i) + ", " +
                                    std::to_string(j) + "), got " + number(m(i, j)) + ": " + why);
      }
    }
  }
}

void positive_finite(const char* name, double value) {
  if (!std::isfinite(value) || value <= 0) {
    throw std::invalid_argument(std::string(name) + " must be positive and finite, got " + number(value));
  }
}

void positive_count(const char* name, long long value) {
  if (value <= 0) {
    throw std::invalid_argument(std::string(name) + " must be at least 1, got " + std::to_string(value));
  }
}

void same_cols(const char* a_name, MatrixIn a, const char* b_name, MatrixIn b) {
  if (a.cols() != b.cols()) {
    throw std::invalid_argument(std::string(a_name) + " (" + shape_of(a) + ") and " + b_name + " (" +
                                shape_of(b) + ") must have the same number of columns");
  }
}

void same_rows(const char* a_name, MatrixIn a, const char* b_name, MatrixIn b) {
  if (a.rows() != b.rows()) {
    throw std::invalid_argument(std::string(a_name) + " (" + shape_of(a) + ") and " + b_name + " (" +
                                shape_of(b) + ") must have the same number of rows");
  }
}

void square(const char* name, MatrixIn m, Eigen::Index size) {
  if (m.rows() != size || m.cols() != size) {
    throw std::invalid_argument(std::string(name) + " must be " + shape(size, size) + ", got " + shape_of(m));
  }
}

void usable_mask(MaskIn mask, Eigen::Index rows, Eigen::Index cols) {
  if (mask.rows() != rows || mask.cols() != cols) {
    throw std::invalid_argument("mask (" + shape_of(mask) + ") must match the scores (" + shape(rows, cols) + ")");
  }
  for (Eigen::Index i = 0; i < rows; ++i) {
    if (!mask.row(i).any()) {
      throw std::invalid_argument("mask row " + std::to_string(i) + " hides every key; softmax needs at least one");
    }
  }
}

}  // namespace attn::check
