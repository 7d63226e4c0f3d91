// Small helpers for writing matrices in tests.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <stdexcept>
#include <string>

#include "types.hpp"

namespace attn::testing {

inline Matrix rows(std::initializer_list<std::initializer_list<double>> values) {
  Matrix m(static_cast<Eigen::Index>(values.size()), static_cast<Eigen::Index>(values.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& r : values) {
    Eigen::Index j = 0;
    for (double v : r) m(i, j++) = v;
    ++i;
  }
  return m;
}

// The message of the std::invalid_argument that `body` throws, or a failure if it throws none.
template <typename Body>
std::string invalid_argument_message(Body&& body) {
  try {
    body();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected std::invalid_argument";
  return "";
}

// The lesson's 2-D worked example: keys and queries [1,0], [0,1], [1,1]; values [1,0], [0,1], [½,½].
inline Matrix worked_keys() { return rows({{1, 0}, {0, 1}, {1, 1}}); }
inline Matrix worked_values() { return rows({{1, 0}, {0, 1}, {0.5, 0.5}}); }

}  // namespace attn::testing
