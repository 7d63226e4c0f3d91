// Argument checks of the float32 and streaming forms, worded as check.hpp words them. Kept apart
// from check.hpp so that the float64 checks stay as they are.
#pragma once

#include "types.hpp"

namespace attn::check {

void all_finite(const char* name, MatrixFIn m);
// max |m(i, j)|, after all_finite's check (and its error): one pass for both.
float finite_magnitude(const char* name, MatrixFIn m);

// The shapes and work budget (budget.hpp) of attention of Q (n×dk), K (m×dk), V (m×dv), checked
// in the float64 form's order and words; the n×m scores only when they are formed.
// `single` is true for float32, whose multiply-add limit is its own (limits.hpp).
void attention_shapes(const char* what, Eigen::Index q_rows, Eigen::Index q_cols, Eigen::Index k_rows,
                      Eigen::Index k_cols, Eigen::Index v_rows, Eigen::Index v_cols, bool forms_scores, bool single);

// Every score q_i·k_j / divisor, every partial sum of it, and the difference of any two stay
// finite in a type whose largest value is `largest` when dk·max|Q|·max|K|·max(1, 1/divisor) ≤
// largest/4 (|q·k| ≤ dk·max|q_l|·max|k_l|, with room for rounding). Checked before any product,
// so that an overflow is refused with the bound instead of surfacing as ∞ or NaN.
void scores_in_range(const char* precision, Eigen::Index dk, double largest_q, double largest_k, double divisor,
                     double largest);
// A weighted average of V's rows stays finite when max|V| ≤ largest/4.
void values_in_range(const char* precision, double largest_v, double largest);

}  // namespace attn::check
