#include "multi_head.hpp"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "matrices.hpp"
#include "random.hpp"

namespace attn {
namespace {

using testing::invalid_argument_message;
using ::testing::HasSubstr;

Matrix random_matrix(Random& random, Eigen::Index rows, Eigen::Index cols) {
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = random.normal();
  return m;
}

struct RandomLayer {
  Matrix X, WQ, WK, WV, WO;
};

RandomLayer random_layer(Eigen::Index n, Eigen::Index d, std::uint64_t seed) {
  Random random(seed);
  return {random_matrix(random, n, d), random_matrix(random, d, d), random_matrix(random, d, d),
          random_matrix(random, d, d), random_matrix(random, d, d)};
}

TEST(MultiHead, EachHeadIsAttentionInItsSliceScaledByItsWidth) {
  const RandomLayer l = random_layer(5, 8, 3);
  const MultiHeadResult r = multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 4);
  ASSERT_EQ(r.heads.size(), 4u);
  const Matrix Q = l.X * l.WQ, K = l.X * l.WK, V = l.X * l.WV;
  for (int s = 0; s < 4; ++s) {
    const auto& head = r.heads[s];
    EXPECT_EQ(head.weights.rows(), 5);
    EXPECT_EQ(head.output.cols(), 2);
    const Matrix expected_scores = Q.middleCols(s * 2, 2) * K.middleCols(s * 2, 2).transpose() / std::sqrt(2.0);
    EXPECT_TRUE(head.scaled_scores.isApprox(expected_scores, 1e-12));
    EXPECT_TRUE(head.output.isApprox(head.weights * V.middleCols(s * 2, 2), 1e-12));
    EXPECT_TRUE(r.concat.middleCols(s * 2, 2).isApprox(head.output));
  }
  EXPECT_TRUE(r.output.isApprox(r.concat * l.WO, 1e-12));
}

TEST(MultiHead, FullWidthScoresAreTheSumOfTheSlicesScores) {
  const RandomLayer l = random_layer(6, 16, 9);
  const MultiHeadResult full = multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 1);
  for (int h : {2, 4, 8, 16}) {
    const MultiHeadResult split = multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, h);
    Matrix sum = Matrix::Zero(6, 6);
    for (const auto& head : split.heads) sum += head.raw_scores;
    EXPECT_TRUE(sum.isApprox(full.heads[0].raw_scores, 1e-12)) << "h = " << h;
  }
}

TEST(MultiHead, OneHeadIsPlainAttention) {
  const RandomLayer l = random_layer(4, 6, 1);
  const MultiHeadResult r = multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 1);
  const AttentionResult plain = attention(l.X * l.WQ, l.X * l.WK, l.X * l.WV);
  EXPECT_TRUE(r.heads[0].weights.isApprox(plain.weights, 1e-12));
}

TEST(MultiHead, ScalingByModelWidthIsSharperMistake) {
  const RandomLayer l = random_layer(4, 8, 5);
  MultiHeadOptions wrong;
  wrong.scale = HeadScale::ModelWidth;
  const auto right = multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 4);
  const auto mistaken = multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 4, wrong);
  // √8 instead of √2: the scores are divided by twice as much.
  EXPECT_TRUE(mistaken.heads[1].scaled_scores.isApprox(right.heads[1].scaled_scores / 2.0, 1e-12));
}

TEST(MultiHead, CrossAttentionIsNonSquare) {
  const RandomLayer l = random_layer(7, 8, 2);
  const Matrix decoder = l.X.topRows(3);
  const MultiHeadResult r = multi_head_attention(decoder, l.X, l.WQ, l.WK, l.WV, l.WO, 2);
  EXPECT_EQ(r.heads[0].weights.rows(), 3);
  EXPECT_EQ(r.heads[0].weights.cols(), 7);
  EXPECT_EQ(r.output.rows(), 3);
  EXPECT_EQ(r.output.cols(), 8);
}

TEST(MultiHead, CausalMaskReachesEveryHead) {
  const RandomLayer l = random_layer(5, 8, 4);
  MultiHeadOptions options;
  options.mask = causal_mask(5, 5);
  const auto r = multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 4, options);
  for (const auto& head : r.heads) {
    EXPECT_EQ(head.weights(1, 2), 0.0);
    EXPECT_EQ(head.weights(0, 4), 0.0);
    EXPECT_NEAR(head.weights.row(3).sum(), 1.0, 1e-15);
  }
}

// The inputs' finiteness is read off the projections and the output (a good call reads each input
// once): each non-finite input must still be named, ahead of any overflow, in the order X, W_Q,
// W_K, W_V, W_O, whichever entry it is in (also where the other factor is 0, as 0·∞ is NaN).
TEST(MultiHeadErrors, NamesTheNonFiniteInputFirst) {
  const RandomLayer good = random_layer(4, 8, 5);
  const char* names[] = {"X", "W_Q", "W_K", "W_V", "W_O"};
  for (const double bad : {std::nan(""), double{INFINITY}, -double{INFINITY}}) {
    for (int which = 0; which < 5; ++which) {
      for (const auto [i, j] : {std::pair{0, 0}, std::pair{3, 7}}) {
        RandomLayer l = good;
        Matrix* inputs[] = {&l.X, &l.WQ, &l.WK, &l.WV, &l.WO};
        (*inputs[which])(i, j) = bad;
        if (which == 0) l.WQ.row(j).setZero();  // X's bad entry meets only zeros of W_Q
        SCOPED_TRACE(::testing::Message() << names[which] << "(" << i << ", " << j << ") = " << bad);
        EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 2); }),
                    HasSubstr(std::string(names[which]) + " has a non-finite entry"));
      }
    }
  }
  // Two bad inputs: the first in that order is named.
  RandomLayer two = good;
  two.WO(1, 1) = INFINITY;
  two.WK(2, 2) = std::nan("");
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(two.X, two.WQ, two.WK, two.WV, two.WO, 2); }),
              HasSubstr("W_K has a non-finite entry"));
  // A bad input beside an overflow: the input is named, not the overflow.
  RandomLayer both = good;
  both.X *= 1e300;
  both.WV(0, 0) = std::nan("");
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(both.X, both.WQ, both.WK, both.WV, both.WO, 2); }),
              HasSubstr("W_V has a non-finite entry"));
  // W_O bad while a head's scores overflow (Q and K finite but huge): W_O is named.
  RandomLayer late = good;
  late.X *= 1e150;
  late.WO(0, 0) = INFINITY;
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(late.X, late.WQ, late.WK, late.WV, late.WO, 2); }),
              HasSubstr("W_O has a non-finite entry"));
}

TEST(MultiHeadErrors, HeadsAndShapes) {
  const RandomLayer l = random_layer(3, 8, 6);
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 3); }),
              HasSubstr("heads h = 3 must divide d_model = 8"));
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(l.X, l.WQ, l.WK, l.WV, l.WO, 0); }),
              HasSubstr("heads h must be at least 1, got 0"));
  const Matrix narrow = l.WK.leftCols(4);
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(l.X, l.WQ, narrow, l.WV, l.WO, 2); }),
              HasSubstr("W_K must be 8x8, got 8x4"));
  const Matrix other_width = Matrix::Ones(2, 6);
  EXPECT_THAT(invalid_argument_message([&] { multi_head_attention(other_width, l.X, l.WQ, l.WK, l.WV, l.WO, 2); }),
              HasSubstr("X (queries) (2x6) and X (keys and values) (3x8) must have the same number of columns"));
}

}  // namespace
}  // namespace attn
