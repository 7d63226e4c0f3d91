#include "attention.hpp"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <cmath>

#include "matrices.hpp"

namespace attn {
namespace {

using testing::invalid_argument_message;
using testing::rows;
using testing::worked_keys;
using testing::worked_values;
using ::testing::HasSubstr;

TEST(Attention, OneQueryByHand) {
  const AttentionResult r = attention(rows({{1, 0}}), worked_keys(), worked_values());
  EXPECT_NEAR(r.scaled_scores(0, 0), 0.707, 5e-4);
  EXPECT_EQ(r.scaled_scores(0, 1), 0.0);
  EXPECT_NEAR(r.weights(0, 0), 0.401, 5e-4);
  EXPECT_NEAR(r.weights(0, 1), 0.198, 5e-4);
  EXPECT_NEAR(r.weights(0, 2), 0.401, 5e-4);
  EXPECT_NEAR(r.output(0, 0), 0.602, 5e-4);
  EXPECT_NEAR(r.output(0, 1), 0.398, 5e-4);
}

TEST(Attention, SharperQuery) {
  const AttentionResult r = attention(rows({{4, 0}}), worked_keys(), worked_values());
  EXPECT_NEAR(r.scaled_scores(0, 0), 2.83, 5e-3);
  EXPECT_NEAR(r.weights(0, 0), 0.49, 5e-3);
  EXPECT_NEAR(r.weights(0, 1), 0.03, 5e-3);
  EXPECT_NEAR(r.weights(0, 2), 0.49, 5e-3);
  EXPECT_NEAR(r.output(0, 0), 0.73, 5e-3);
  EXPECT_NEAR(r.output(0, 1), 0.27, 5e-3);
}

TEST(Attention, FullThreeByThreeTable) {
  const AttentionResult r = attention(worked_keys(), worked_keys(), worked_values());
  ASSERT_EQ(r.weights.rows(), 3);
  ASSERT_EQ(r.weights.cols(), 3);
  // token 3 matches both: scores [0.707, 0.707, 1.414]
  EXPECT_NEAR(r.scaled_scores(2, 2), 1.414, 5e-4);
  EXPECT_NEAR(r.weights(2, 0), 0.248, 5e-4);
  EXPECT_NEAR(r.weights(2, 1), 0.248, 5e-4);
  EXPECT_NEAR(r.weights(2, 2), 0.504, 1e-3);  // 0.5035: the lesson rounds it up
  EXPECT_NEAR(r.output(2, 0), 0.5, 1e-12);
  EXPECT_NEAR(r.output(2, 1), 0.5, 1e-12);
  for (Eigen::Index i = 0; i < 3; ++i) EXPECT_NEAR(r.weights.row(i).sum(), 1.0, 1e-15);
}

TEST(Attention, TemperatureDividesTheScaledScores) {
  AttentionOptions options;
  options.temperature = 0.5;
  const AttentionResult hot = attention(rows({{1, 0}}), worked_keys(), worked_values(), options);
  const AttentionResult sharp = attention(rows({{2, 0}}), worked_keys(), worked_values());
  EXPECT_TRUE(hot.weights.isApprox(sharp.weights, 1e-14));
}

TEST(Attention, TiedProjectionsMakeScoresSymmetric) {
  // W_K = W_Q gives K = Q, so Q Kᵀ = Q Qᵀ: "it" can no longer look for "cat" without "cat" looking back.
  const Matrix X = rows({{1, 0, 2}, {0.5, -1, 0}, {3, 1, 1}, {0, 0, 1}});
  const Matrix W = rows({{1, 2, 0}, {0, 1, -1}, {2, 0, 1}});
  const Matrix scores = dot_scores(X * W, X * W);
  EXPECT_TRUE(scores.isApprox(scores.transpose(), 1e-15));
  const Matrix W_K = rows({{0, 1, 0}, {1, 0, 0}, {0, 0, 1}});
  const Matrix untied = dot_scores(X * W, X * W_K);
  EXPECT_FALSE(untied.isApprox(untied.transpose(), 1e-3));
}

TEST(Attention, CausalMaskHidesTheFuture) {
  const Matrix X = rows({{1, 0}, {0, 1}, {1, 1}, {2, -1}});
  AttentionOptions options;
  options.mask = causal_mask(4, 4);
  const AttentionResult r = attention(X, X, X, options);
  for (Eigen::Index i = 0; i < 4; ++i) {
    for (Eigen::Index j = i + 1; j < 4; ++j) EXPECT_EQ(r.weights(i, j), 0.0);
    EXPECT_NEAR(r.weights.row(i).sum(), 1.0, 1e-15);
  }
  EXPECT_EQ(r.weights(0, 0), 1.0);
  EXPECT_TRUE(r.output.row(0).isApprox(X.row(0)));
}

TEST(Attention, ArbitraryMask) {
  Mask mask(3, 3);
  mask << false, true, true, true, false, true, true, true, false;  // nobody looks at itself
  AttentionOptions options;
  options.mask = mask;
  const AttentionResult r = attention(worked_keys(), worked_keys(), worked_values(), options);
  for (Eigen::Index i = 0; i < 3; ++i) EXPECT_EQ(r.weights(i, i), 0.0);
  EXPECT_NEAR(r.weights(0, 2), 1.0 / (1.0 + std::exp(-1.0 / std::sqrt(2.0))), 1e-12);
}

TEST(Attention, CrossAttentionShapes) {
  // n = 2 queries, m = 5 keys of width 3, values of width 4.
  const Matrix Q = rows({{1, 0, 0}, {0, 1, 0}});
  const Matrix K = Matrix::Random(5, 3);
  const Matrix V = Matrix::Random(5, 4);
  const AttentionResult r = attention(Q, K, V);
  EXPECT_EQ(r.raw_scores.rows(), 2);
  EXPECT_EQ(r.raw_scores.cols(), 5);
  EXPECT_EQ(r.weights.rows(), 2);
  EXPECT_EQ(r.weights.cols(), 5);
  EXPECT_EQ(r.output.rows(), 2);
  EXPECT_EQ(r.output.cols(), 4);
  AttentionOptions causal;
  causal.mask = causal_mask(2, 5);
  EXPECT_EQ(attention(Q, K, V, causal).weights(0, 1), 0.0);
}

TEST(Attention, ColumnAxisMistakeMakesColumnsSumToOne) {
  AttentionOptions wrong;
  wrong.axis = SoftmaxAxis::Queries;
  const Matrix Q = rows({{1, 0}, {4, 0}});
  const AttentionResult r = attention(Q, worked_keys(), worked_values(), wrong);
  for (Eigen::Index j = 0; j < 3; ++j) EXPECT_NEAR(r.weights.col(j).sum(), 1.0, 1e-15);
  EXPECT_GT(std::abs(r.weights.row(0).sum() - 1.0), 0.1);
}

TEST(Attention, ExplicitScale) {
  AttentionOptions unscaled;
  unscaled.scale = 1.0;
  const AttentionResult r = attention(rows({{1, 0}}), worked_keys(), worked_values(), unscaled);
  EXPECT_EQ(r.scaled_scores(0, 0), 1.0);
}

TEST(AttentionErrors, ShapesAndValues) {
  EXPECT_THAT(invalid_argument_message([] { attention(rows({{1, 0, 0}}), worked_keys(), worked_values()); }),
              HasSubstr("Q (1x3) and K (3x2) must have the same number of columns"));
  EXPECT_THAT(invalid_argument_message([] { attention(rows({{1, 0}}), worked_keys(), rows({{1, 0}})); }),
              HasSubstr("K (3x2) and V (1x2) must have the same number of rows"));
  EXPECT_THAT(invalid_argument_message([] { attention(Matrix(0, 2), worked_keys(), worked_values()); }),
              HasSubstr("Q is empty (0x2)"));
  EXPECT_THAT(invalid_argument_message([] { attention(rows({{1, 0}}), worked_keys(), Matrix(3, 0)); }),
              HasSubstr("V is empty (3x0)"));
  EXPECT_THAT(invalid_argument_message([] { attention(rows({{INFINITY, 0}}), worked_keys(), worked_values()); }),
              HasSubstr("Q has a non-finite entry inf at (0, 0)"));
  AttentionOptions bad_tau;
  bad_tau.temperature = -2;
  EXPECT_THAT(invalid_argument_message([&] { attention(rows({{1, 0}}), worked_keys(), worked_values(), bad_tau); }),
              HasSubstr("temperature must be positive and finite, got -2"));
  AttentionOptions bad_scale;
  bad_scale.scale = NAN;
  EXPECT_THAT(invalid_argument_message([&] { attention(rows({{1, 0}}), worked_keys(), worked_values(), bad_scale); }),
              HasSubstr("scale must be positive and finite"));
  AttentionOptions hidden;
  hidden.mask = Mask::Constant(1, 3, false);
  EXPECT_THAT(invalid_argument_message([&] { attention(rows({{1, 0}}), worked_keys(), worked_values(), hidden); }),
              HasSubstr("mask row 0 hides every key"));
  EXPECT_THAT(invalid_argument_message([] { causal_mask(0, 3); }), HasSubstr("causal mask rows n must be at least 1"));
}

// attention_into writes into any storage, strided blocks included, exactly what attention()
// returns (attention() is attention_into over fresh matrices), and that is softmax(Q Kᵀ/√d) V.
TEST(AttentionInto, WritesIntoStridedBlocksTheNumbersAttentionReturns) {
  Matrix Q(5, 3), K(6, 3), V(6, 4);
  for (Eigen::Index i = 0; i < Q.size(); ++i) Q.data()[i] = std::sin(1.0 + i);
  for (Eigen::Index i = 0; i < K.size(); ++i) K.data()[i] = std::cos(2.0 + 3.0 * i);
  for (Eigen::Index i = 0; i < V.size(); ++i) V.data()[i] = std::sin(0.5 * i);
  AttentionOptions options;
  options.temperature = 0.7;
  const AttentionResult r = attention(Q, K, V, options);
  Matrix wide = Matrix::Constant(5, 3 * 6 + 4 + 2, -1.0);  // the four results side by side, and a margin
  attention_into(Q, K, V, options,
                 {wide.middleCols(0, 6), wide.middleCols(6, 6), wide.middleCols(12, 6), wide.middleCols(18, 4)});
  EXPECT_EQ(wide.middleCols(0, 6), r.raw_scores);
  EXPECT_EQ(wide.middleCols(6, 6), r.scaled_scores);
  EXPECT_EQ(wide.middleCols(12, 6), r.weights);
  EXPECT_EQ(wide.middleCols(18, 4), r.output);
  EXPECT_EQ(wide.rightCols(2), Matrix::Constant(5, 2, -1.0)) << "nothing written past the blocks";

  const Matrix scaled = Q * K.transpose() / std::sqrt(3.0);
  Matrix weights = (scaled.colwise() - scaled.rowwise().maxCoeff()).array() / 0.7;
  weights = weights.array().exp();
  weights = weights.array().colwise() / weights.rowwise().sum().array();
  EXPECT_LT((r.scaled_scores - scaled).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((r.weights - weights).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((r.output - weights * V).cwiseAbs().maxCoeff(), 1e-15);
}

// The inputs' finiteness is read off the results on a good call; a bad input is still named.
TEST(AttentionInto, NamesTheNonFiniteInputWhicheverItIs) {
  Matrix K = worked_keys(), V = worked_values();
  K(2, 1) = NAN;
  EXPECT_THAT(invalid_argument_message([&] { attention(rows({{1, 0}}), K, worked_values()); }),
              HasSubstr("K has a non-finite entry nan at (2, 1)"));
  V(1, 0) = -INFINITY;
  EXPECT_THAT(invalid_argument_message([&] { attention(rows({{1, 0}}), worked_keys(), V); }),
              HasSubstr("V has a non-finite entry -inf at (1, 0)"));
  AttentionOptions bad_scale;
  bad_scale.scale = -1;
  EXPECT_THAT(invalid_argument_message([&] { attention(rows({{1, 0}}), worked_keys(), V, bad_scale); }),
              HasSubstr("V has a non-finite entry")) << "inputs are named before the options";
}

}  // namespace
}  // namespace attn
