// Argument checks of the float32 and streaming forms, worded as check.hpp words them. Kept apart
// from check.hpp so that the float64 checks stay as they are.
#pragma once

#include "types.hpp"

namespace attn::check {

void all_finite(const char* name, MatrixFIn m);
// max |m(i, j)|, after all_finite's check (and its error): one pass for both.
float finite_magnitude(const char* name, MatrixFIn m);
void same_cols(const char* a_name, MatrixFIn a, const char* b_name, MatrixFIn b);
void same_rows(const char* a_name, MatrixFIn a, const char* b_name, MatrixFIn b);

// The work budget of limits.hpp for attention of Q (n×dk), K (m×dk), V (m×dv): each dimension,
// the n·m·(dk + dv) multiply-adds, and, when the n×m matrices are formed (`forms_scores`), their
// n·m entries.
void attention_budget(Eigen::Index n, Eigen::Index m, Eigen::Index dk, Eigen::Index dv, bool forms_scores);

// Every score q_i·k_j / divisor, every partial sum of it, and the difference of any two stay
// finite in a type whose largest value is `largest` when dk·max|Q|·max|K|·max(1, 1/divisor) ≤
// largest/4 (|q·k| ≤ dk·max|q_l|·max|k_l|, with room for rounding). Checked before any product,
// so that an overflow is refused with the bound instead of surfacing as ∞ or NaN.
void scores_in_range(const char* precision, Eigen::Index dk, double largest_q, double largest_k, double divisor,
                     double largest);

}  // namespace attn::check
