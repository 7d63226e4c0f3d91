// The core's boundary: exact counts, blame on the argument that holds a bad value, and the
// work budget of limits.hpp, each refused before anything is allocated.
#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "attention_lab.hpp"
#include "limits.hpp"
#include "matrices.hpp"

namespace attn {
namespace {

using testing::invalid_argument_message;
using testing::rows;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr double kTwoTo53 = 9007199254740992.0;

// --- exact integer arithmetic in the cost model -------------------------------------------

TEST(BoundaryCost, ConvolutionalPathIsExactAtEveryPower) {
  EXPECT_EQ(layer_comparison(125, 1, 5)[2].maximum_path_length, 3);
  int powers = 0;
  // Every k^p that the comparison accepts (n²·d within 2^53 with d = 1, so n < 2^26.5).
  for (std::int64_t k = 2; k <= 1000; ++k) {
    std::int64_t power = k;
    for (int p = 1; power <= (std::int64_t{1} << 26); ++p, power *= k) {
      const double n = static_cast<double>(power);
      EXPECT_EQ(layer_comparison(n, 1, k)[2].maximum_path_length, p) << "n = " << power << ", k = " << k;
      EXPECT_EQ(layer_comparison(n + 1, 1, k)[2].maximum_path_length, p + 1) << "n = " << power + 1 << ", k = " << k;
      if (power - 1 > 1) {
        EXPECT_EQ(layer_comparison(n - 1, 1, k)[2].maximum_path_length, p) << "n = " << power - 1 << ", k = " << k;
      }
      ++powers;
    }
  }
  EXPECT_GT(powers, 1000);
  EXPECT_EQ(layer_comparison(1, 1, 2)[2].maximum_path_length, 0);  // one token: no path to walk
}

TEST(BoundaryCost, HugeSettingsAreRefusedWithTheLimit) {
  EXPECT_THAT(invalid_argument_message([] { attention_cost({1e200, 1, 8, 1, 4}); }),
              AllOf(HasSubstr("n"), HasSubstr("1e+200"), HasSubstr("9007199254740992")));
  EXPECT_THAT(invalid_argument_message([] { layer_comparison(1e200, 8, 3); }),
              AllOf(HasSubstr("n"), HasSubstr("9007199254740992")));
  // Each input fits, their product does not: the message names the count and the setting.
  EXPECT_THAT(invalid_argument_message([] { attention_cost({1e8, 1e8, 1e4, 1, 4}); }),
              AllOf(HasSubstr("n·m·d_model"), HasSubstr("9007199254740992")));
  EXPECT_THAT(invalid_argument_message([] { layer_comparison(1e8, 1, 3); }),
              AllOf(HasSubstr("n²·d"), HasSubstr("9007199254740992")));
  EXPECT_THAT(invalid_argument_message([] { attention_cost({1 << 20, 1 << 20, 1 << 13, 1 << 13, 1 << 20}); }),
              AllOf(HasSubstr("bytes"), HasSubstr("9007199254740992")));
}

TEST(BoundaryCost, CountsUpToTwoTo53AreExact) {
  const Cost c = attention_cost({1 << 20, 1 << 20, 1 << 13, 1, 4});
  EXPECT_EQ(c.qk_macs, kTwoTo53);
  EXPECT_EQ(c.av_macs, kTwoTo53);
  EXPECT_EQ(static_cast<std::int64_t>(limits::kMaxExactCount), static_cast<std::int64_t>(kTwoTo53));
}

// --- every argument checked, the blame on the one that holds the value ---------------------

struct SmallLayer {
  Matrix X = Matrix::Identity(3, 4) * 0.5;
  Matrix WQ = Matrix::Identity(4, 4), WK = Matrix::Identity(4, 4), WV = Matrix::Identity(4, 4),
         WO = Matrix::Identity(4, 4);
};

TEST(BoundaryBlame, MultiHeadChecksTheOutputProjection) {
  SmallLayer l;
  l.WO(1, 2) = INFINITY;
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 2); }),
              HasSubstr("W_O has a non-finite entry inf at (1, 2)"));
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(l.X, l.X, l.WQ, l.WK, l.WV, l.WO, 2); }),
              HasSubstr("W_O has a non-finite entry inf"));
}

TEST(BoundaryBlame, NonFiniteInputsNameTheirArgument) {
  SmallLayer l;
  l.X(2, 1) = NAN;
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 2); }),
              AllOf(HasSubstr("X has a non-finite entry nan at (2, 1)"), Not(HasSubstr("V"))));
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(SmallLayer().X, l.X, l.WQ, l.WK, l.WV, l.WO, 2); }),
              HasSubstr("X (keys and values) has a non-finite entry nan"));
  SmallLayer q;
  q.WQ(0, 3) = INFINITY;
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(q.X, q.WQ, q.WK, q.WV, q.WO, 1); }),
              HasSubstr("W_Q has a non-finite entry inf at (0, 3)"));
  SmallLayer v;
  v.WV(3, 0) = -INFINITY;
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(v.X, v.WQ, v.WK, v.WV, v.WO, 4); }),
              HasSubstr("W_V has a non-finite entry -inf at (3, 0)"));
}

TEST(BoundaryBlame, OverflowingScoresSayWhy) {
  const Matrix big = rows({{1e200, 1e200}});
  const std::string direct = invalid_argument_message([&] { attention(big, big, rows({{1, 2}})); });
  EXPECT_THAT(direct, AllOf(HasSubstr("overflow"), HasSubstr("Q"), HasSubstr("K"), HasSubstr("scale"),
                            Not(HasSubstr("logits"))));
  AttentionOptions tiny_scale;
  tiny_scale.scale = 1e-300;
  EXPECT_THAT(invalid_argument_message([&] { attention(rows({{1e10}}), rows({{1e10}}), rows({{1}}), tiny_scale); }),
              AllOf(HasSubstr("overflow"), HasSubstr("scale 1e-300"), Not(HasSubstr("logits"))));
  // Finite X and W_Q whose product already overflows.
  SmallLayer l;
  l.X *= 1e200;
  l.WQ *= 1e200;
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 2); }),
              AllOf(HasSubstr("Q = X·W_Q"), HasSubstr("overflow")));
  // Finite projections whose scores overflow.
  SmallLayer s;
  s.X *= 1e200;
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(s.X, s.WQ, s.WK, s.WV, s.WO, 2); }),
              AllOf(HasSubstr("overflow"), HasSubstr("Q"), HasSubstr("K"), HasSubstr("scale"), Not(HasSubstr("logits"))));
  // The output mix overflows.
  SmallLayer o;
  o.WO *= 1e308;
  o.X *= 100;
  o.WV *= 100;
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(o.X, o.WQ, o.WK, o.WV, o.WO, 2); }),
              AllOf(HasSubstr("W_O"), HasSubstr("overflow")));
}

TEST(BoundaryBlame, CausalMaskSizesAreCheckedBeforeNarrowing) {
  EXPECT_THAT(invalid_argument_message([] { causal_mask(std::int64_t{3'000'000'000}, 2); }),
              AllOf(HasSubstr("3000000000"), HasSubstr("1000000")));
  EXPECT_THAT(invalid_argument_message([] { causal_mask(5000, 5000); }),
              AllOf(HasSubstr("25000000"), HasSubstr("16777216")));
  EXPECT_THAT(invalid_argument_message([] { causal_mask(-3, 2); }), HasSubstr("got -3"));
}

// --- the work budget, refused before allocating -------------------------------------------

TEST(BoundaryBudget, ScoreMatricesPastTheEntryLimitAreRefused) {
  // 4097² = 16,785,409 scores: one row past 2^24.
  const Matrix tall = Matrix::Ones(4097, 1);
  EXPECT_THAT(invalid_argument_message([&] { attention(tall, tall, tall); }),
              AllOf(HasSubstr("4097x4097"), HasSubstr("16785409"), HasSubstr("16777216")));
  EXPECT_THAT(invalid_argument_message([&] { dot_scores(tall, tall); }), HasSubstr("16777216"));
  EXPECT_THAT(invalid_argument_message([] { softmax_jacobian(Matrix::Constant(1, 5000, 2e-4)); }),
              AllOf(HasSubstr("25000000"), HasSubstr("16777216")));
}

TEST(BoundaryBudget, MatricesPastTheDimensionLimitAreRefused) {
  const Matrix wide = Matrix::Constant(1, 1'000'001, 1e-6);
  EXPECT_THAT(invalid_argument_message([&] { row_stats(wide); }), AllOf(HasSubstr("1000001"), HasSubstr("1000000")));
  EXPECT_THAT(invalid_argument_message([&] { softmax_rows(wide); }), AllOf(HasSubstr("1000001"), HasSubstr("1000000")));
}

TEST(BoundaryBudget, MultiHeadCountsEveryHeadsScores) {
  // 64 heads of 1024×1024 scores: 2^26 entries in all, each head alone within the limit.
  const Matrix X = Matrix::Zero(1024, 64);
  const Matrix W = Matrix::Identity(64, 64);
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(X, W, W, W, W, 64); }),
              AllOf(HasSubstr("67108864"), HasSubstr("16777216")));
}

TEST(BoundaryBudget, MultiplyAddsPastTheLimitAreRefused) {
  // 1024 × 1024 scores, each a sum of tanh over a hidden layer 1024 wide: 2^30 terms, each
  // counted as 64 multiply-adds, past the 2^31 of one float64 call.
  const Matrix Q = Matrix::Zero(1024, 1);
  const Matrix W = Matrix::Zero(1024, 1);
  const Vector v = Vector::Zero(1024);
  EXPECT_THAT(invalid_argument_message([&] { additive_scores(Q, Q, W, W, v); }),
              AllOf(HasSubstr("multiply-adds"), HasSubstr("2147483648"), HasSubstr("float64")));
  // Direct attention at n = m = 4096: its 2^24 pairs alone count 384 multiply-adds each.
  const Matrix X = Matrix::Zero(4096, 1);
  EXPECT_THAT(invalid_argument_message([&] { attention(X, X, X); }),
              AllOf(HasSubstr("6476005376"), HasSubstr("2147483648")));
  EXPECT_EQ(additive_multiply_adds(1024, 1, 1024, 1, 1024), 2 * 1024 * 1024 + 64LL * 1024 * 1024 * 1024);
}

TEST(BoundaryBudget, AdditiveScoresCountTheirHiddenLayerMatrices) {
  // 8192 queries with a hidden layer 4096 wide: the scores are only 8192x1, but Q·Wᵀ, made once
  // for all keys, would be 8192x4096 = 2^25 entries.
  const Matrix Q = Matrix::Zero(8192, 1);
  const Matrix K = Matrix::Zero(1, 1);
  const Matrix W = Matrix::Zero(4096, 1);
  const Vector v = Vector::Zero(4096);
  EXPECT_THAT(invalid_argument_message([&] { additive_scores(Q, K, W, W, v); }),
              AllOf(HasSubstr("Q·Wᵀ would be 8192x4096 = 33554432 entries"), HasSubstr("16777216")));
  EXPECT_THAT(invalid_argument_message([&] { additive_scores(K, Q, W, W, v); }),
              HasSubstr("K·Uᵀ would be 8192x4096 = 33554432 entries"));
}

TEST(BoundaryBudget, WidthExperimentDirectCountsItsKeysMatrix) {
  // One trial at d_k = 2^16 with 512 keys: within the work budget, but its keys matrix would be
  // 512x65536 = 2^25 entries.
  WidthExperimentSetup setup{512, 16, 1, 1};
  setup.min_log2 = 16;
  EXPECT_THAT(invalid_argument_message([&] { width_experiment_direct(setup); }),
              AllOf(HasSubstr("the keys (m x d_k) would be 512x65536 = 33554432 entries"), HasSubstr("16777216")));
}

TEST(BoundaryBudget, WidthExperimentWorkIsBounded) {
  EXPECT_THAT(invalid_argument_message([] { width_experiment({4096, 16, 1'000'000, 1}); }),
              AllOf(HasSubstr("50000000"), HasSubstr("keys m = 4096"), HasSubstr("trials T = 1000000")));
  EXPECT_THAT(invalid_argument_message([] { width_experiment_direct({4096, 16, 1000, 1}); }),
              HasSubstr("50000000"));
  // The page's largest run stays well inside.
  EXPECT_EQ(width_experiment({64, 10, 200, 1}).size(), 10u);
}

}  // namespace
}  // namespace attn
