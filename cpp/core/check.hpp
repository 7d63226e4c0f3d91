// Argument checks shared by the core. Every failure is a std::invalid_argument whose
// message names the argument and the offending shape or value.
#pragma once

#include <string>

#include "types.hpp"

namespace attn::check {

std::string shape(Eigen::Index rows, Eigen::Index cols);
// A number as an error message shows it ("%g": 0.5, 1e+30, nan, inf). Written without
// iostreams, which would add a large part of the C++ library to the WebAssembly module.
std::string number(double value);

template <typename Derived>
std::string shape_of(const Eigen::DenseBase<Derived>& m) {
  return shape(m.rows(), m.cols());
}

void not_empty(const char* name, Eigen::Index rows, Eigen::Index cols);
// Whether every entry is finite: one branch-free pass (it vectorises), for the good call. The
// checks below run it first and look for the offending entry only when it fails.
bool finite(MatrixIn m);
void all_finite(const char* name, MatrixIn m);
// For a result computed from finite inputs: if an entry overflowed, says so, naming the result
// (`what`) and what made it overflow (`why`), rather than blaming a later step for it. Callers
// whose `why` costs something to build test finite() first and build it only for the message.
void finite_result(const char* what, MatrixIn m, const std::string& why);
void finite_result(const char* what, MatrixIn m, const char* why);
void positive_finite(const char* name, double value);
void positive_count(const char* name, long long value);
void same_cols(const char* a_name, MatrixIn a, const char* b_name, MatrixIn b);
void same_rows(const char* a_name, MatrixIn a, const char* b_name, MatrixIn b);
void square(const char* name, MatrixIn m, Eigen::Index size);
// Every row of the mask leaves at least one key; the mask has the scores' shape.
void usable_mask(MaskIn mask, Eigen::Index rows, Eigen::Index cols);

}  // namespace attn::check
