#include "additive.hpp"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <cmath>

#include "matrices.hpp"

namespace attn {
namespace {

using testing::invalid_argument_message;
using testing::rows;
using ::testing::HasSubstr;

TEST(Additive, MatchesTheFormulaEntryByEntry) {
  const Matrix Q = rows({{1, 0}, {0.5, -2}});
  const Matrix K = rows({{1, 0}, {0, 1}, {1, 1}});
  const Matrix W = rows({{0.5, -1}, {2, 0.25}, {0, 1}});
  const Matrix U = rows({{1, 1}, {-0.5, 3}, {2, 0}});
  Vector v(3);
  v << 0.75, -1, 0.5;
  const Matrix e = additive_scores(Q, K, W, U, v);
  ASSERT_EQ(e.rows(), 2);
  ASSERT_EQ(e.cols(), 3);
  for (Eigen::Index i = 0; i < 2; ++i) {
    for (Eigen::Index j = 0; j < 3; ++j) {
      double expected = 0;
      for (Eigen::Index a = 0; a < 3; ++a) {
        double hidden = 0;
        for (Eigen::Index c = 0; c < 2; ++c) hidden += W(a, c) * Q(i, c) + U(a, c) * K(j, c);
        expected += v(a) * std::tanh(hidden);
      }
      EXPECT_NEAR(e(i, j), expected, 1e-14);
    }
  }
  // A hand-checked entry: e_00 = 0.75·tanh(1.5) − tanh(1.5) + 0.5·tanh(2).
  EXPECT_NEAR(e(0, 0), -0.25 * std::tanh(1.5) + 0.5 * std::tanh(2.0), 1e-15);
}

TEST(Additive, ScoresAreBoundedUnlikeDotProducts) {
  // tanh saturates: however long the query, |e| ≤ Σ|v|.
  const Matrix K = rows({{1, 0}, {0, 1}});
  const Matrix I = rows({{1, 0}, {0, 1}});
  Vector v(2);
  v << 1, 1;
  const Matrix e = additive_scores(rows({{1000, 0}}), K, I, I, v);
  EXPECT_LE(e.cwiseAbs().maxCoeff(), 2.0);
}

TEST(AdditiveErrors, Shapes) {
  const Matrix Q = rows({{1, 0}});
  const Matrix K = rows({{1, 0}, {0, 1}});
  Vector v(3);
  v << 1, 1, 1;
  EXPECT_THAT(invalid_argument_message([&] { additive_scores(Q, K, rows({{1, 0}, {0, 1}}), Matrix::Ones(3, 2), v); }),
              HasSubstr("W must be 3x2 (d_a x d_q), got 2x2"));
  EXPECT_THAT(invalid_argument_message([&] { additive_scores(Q, K, Matrix::Ones(3, 2), Matrix::Ones(3, 5), v); }),
              HasSubstr("U must be 3x2 (d_a x d_k), got 3x5"));
  EXPECT_THAT(invalid_argument_message([&] { additive_scores(Matrix(0, 2), K, Matrix::Ones(3, 2), Matrix::Ones(3, 2), v); }),
              HasSubstr("Q is empty (0x2)"));
}

}  // namespace
}  // namespace attn
