#include "streaming.hpp"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "attention.hpp"
#include "attention_f32.hpp"
#include "float_matrices.hpp"
#include "matrices.hpp"

namespace attn {
namespace {

using testing::invalid_argument_message;
using testing::random_rows;
using testing::relative_gap;
using testing::rows;
using testing::to_float;
using testing::worked_keys;
using testing::worked_values;
using ::testing::HasSubstr;

// The direct form's options for the same computation (the causal order as an explicit mask).
AttentionOptions direct_options(const StreamingOptions& s, Eigen::Index n, Eigen::Index m) {
  AttentionOptions d;
  d.temperature = s.temperature;
  d.scale = s.scale;
  if (s.causal || s.mask) {
    Mask mask = s.causal ? causal_mask(n, m) : Mask::Constant(n, m, true);
    if (s.mask) mask = mask.array() && s.mask->array();
    d.mask = mask;
  }
  return d;
}

// The streaming output against the direct one: 1e-12 in float64, 1e-5 in float32 (against both
// the float32 and the float64 direct forms), relative to the largest entry.
void expect_equal_to_direct(const Matrix& Q, const Matrix& K, const Matrix& V, const StreamingOptions& options) {
  const AttentionOptions direct = direct_options(options, Q.rows(), K.rows());
  const Matrix exact = attention(Q, K, V, direct).output;
  EXPECT_LT(relative_gap(streaming_attention(Q, K, V, options), exact), 1e-12) << "float64";
  const MatrixF fast = streaming_attention(to_float(Q), to_float(K), to_float(V), options);
  EXPECT_LT(relative_gap(fast, exact), 1e-5) << "float32 against float64";
  const MatrixF direct_fast = attention(to_float(Q), to_float(K), to_float(V), direct).output;
  EXPECT_LT(relative_gap(fast, direct_fast.cast<double>()), 1e-5) << "float32 against direct float32";
}

struct StreamingCase {
  Eigen::Index n, m, dk, dv, key_tile;
};
// Tiles of 1 key, tiles that do not divide m, one tile larger than m, query counts on both sides
// of the 32-query block, and cross-attention both ways.
const StreamingCase kStreamingCases[] = {{1, 1, 1, 1, 0},     {1, 3, 2, 2, 0},    {8, 8, 16, 16, 0},  {5, 13, 7, 3, 4},
                       {33, 100, 16, 9, 64}, {70, 45, 8, 8, 7},  {64, 64, 64, 64, 0}, {31, 200, 5, 12, 1000},
                       {40, 129, 32, 16, 1}, {100, 10, 4, 4, 3}};

TEST(Streaming, EqualsTheDirectFormAcrossShapesAndTiles) {
  for (const StreamingCase& c : kStreamingCases) {
    SCOPED_TRACE(::testing::Message() << c.n << "x" << c.m << " dk=" << c.dk << " dv=" << c.dv << " tile=" << c.key_tile);
    const Matrix Q = random_rows(c.n, c.dk, 11, 2.0), K = random_rows(c.m, c.dk, 12, 2.0), V = random_rows(c.m, c.dv, 13);
    StreamingOptions options;
    options.key_tile = c.key_tile;
    expect_equal_to_direct(Q, K, V, options);
  }
}

TEST(Streaming, EqualsTheDirectFormWithMasksAndOptions) {
  for (const StreamingCase& c : kStreamingCases) {
    SCOPED_TRACE(::testing::Message() << c.n << "x" << c.m << " tile=" << c.key_tile);
    const Matrix Q = random_rows(c.n, c.dk, 21, 3.0), K = random_rows(c.m, c.dk, 22, 3.0), V = random_rows(c.m, c.dv, 23);
    StreamingOptions causal;
    causal.causal = true;
    causal.key_tile = c.key_tile;
    expect_equal_to_direct(Q, K, V, causal);

    // a 0/1 mask hiding about a third of the pairs (key 0 always visible), alone and with causal
    StreamingOptions holes;
    holes.key_tile = c.key_tile;
    holes.temperature = 0.5;
    holes.mask = (random_rows(c.n, c.m, 24).array() > -0.3).matrix();
    holes.mask->col(0).setConstant(true);
    expect_equal_to_direct(Q, K, V, holes);
    holes.causal = true;
    holes.scale = 2.5;
    expect_equal_to_direct(Q, K, V, holes);
  }
}

TEST(Streaming, SharpRowsAcrossTilesKeepTheirWeight) {
  // The largest score of each row sits in the last tile: every earlier tile's sum is rescaled by
  // exp(c(μ − μ')) with μ' far above μ; with τ = 0.05 the row is close to one-hot.
  const Eigen::Index m = 50;
  Matrix K = random_rows(m, 4, 31);
  K.row(m - 1) << 4, 4, 4, 4;
  const Matrix Q = rows({{1, 1, 1, 1}, {1, 1, 1, 0.9}});
  const Matrix V = random_rows(m, 3, 32);
  StreamingOptions options;
  options.temperature = 0.05;
  options.key_tile = 8;
  expect_equal_to_direct(Q, K, V, options);
  EXPECT_NEAR(streaming_attention(Q, K, V, options)(0, 0), V(m - 1, 0), 1e-9);
}

TEST(Streaming, ValuesNearTheLargestNumberStayFinite) {
  // Found by the fuzzer: the unnormalised sum of e^{c(s − μ)}·v over many keys overflowed to
  // Infinity for values the form accepts (up to a quarter of the largest number), where the
  // direct form, which normalises first, is finite.
  const Eigen::Index m = 12;
  const Matrix Q = rows({{0.5, 0.0}, {0.0, 0.5}});
  const Matrix K = Matrix::Zero(m, 2);
  Matrix V(m, 2);
  for (Eigen::Index j = 0; j < m; ++j) {
    V(j, 0) = 4.0e307;
    V(j, 1) = (j % 2 == 0 ? -4.0e307 : 3.0);
  }
  const Matrix streamed = streaming_attention(Q, K, V, StreamingOptions{});
  const Matrix direct = attention(Q, K, V).output;
  ASSERT_TRUE(streamed.allFinite());
  for (Eigen::Index i = 0; i < direct.rows(); ++i) {
    for (Eigen::Index j = 0; j < direct.cols(); ++j) {
      EXPECT_NEAR(streamed(i, j) / 1e307, direct(i, j) / 1e307, 1e-12) << i << ", " << j;
    }
  }
  const MatrixF streamed32 = streaming_attention(to_float(Q), to_float(K), to_float(V * 2e-270), StreamingOptions{});
  ASSERT_TRUE(streamed32.allFinite());
  EXPECT_NEAR(streamed32(0, 0) / 8e37, 1.0, 1e-5);
}

TEST(Streaming, TinyValuesBesideHugeOnesKeepTheirColumnsRange) {
  // Found by the fuzzer: values near the largest number in one column had the whole of V divided
  // by one power of two, which flushed a column of tiny values to zero, so that column's output
  // (a weighted mean of values all above 1e-300) came out 0.
  const Eigen::Index m = 6;
  const Matrix Q = rows({{0.5, 0.0}, {0.0, 0.5}});
  const Matrix K = random_rows(m, 2, 3);
  Matrix V(m, 2);
  for (Eigen::Index j = 0; j < m; ++j) {
    V(j, 0) = (j % 2 == 0 ? 4.0e307 : -4.0e307);
    V(j, 1) = (1.0 + static_cast<double>(j)) * 1e-300;
  }
  const Matrix streamed = streaming_attention(Q, K, V, StreamingOptions{});
  const Matrix direct = attention(Q, K, V).output;
  for (Eigen::Index i = 0; i < direct.rows(); ++i) {
    EXPECT_GE(streamed(i, 1), 1e-300) << i;
    EXPECT_LE(streamed(i, 1), 6e-300) << i;
    EXPECT_NEAR(streamed(i, 1) / direct(i, 1), 1.0, 1e-12) << i;
    EXPECT_NEAR(streamed(i, 0) / 1e307, direct(i, 0) / 1e307, 1e-12) << i;
  }
  // A column of the smallest denormals beside the huge one: kept as it is (lifting it to 1 would
  // take 2^1074, which overflows), not turned into Infinity.
  Matrix W = V;
  W.col(1).setConstant(std::numeric_limits<double>::denorm_min());
  const Matrix streamed_tiny = streaming_attention(Q, K, W, StreamingOptions{});
  ASSERT_TRUE(streamed_tiny.allFinite());
  for (Eigen::Index i = 0; i < streamed_tiny.rows(); ++i) {
    // A weighted mean of equal values, within the rounding of a product with the smallest denormal.
    EXPECT_GE(streamed_tiny(i, 1), 0.0) << i;
    EXPECT_LE(streamed_tiny(i, 1), 2 * std::numeric_limits<double>::denorm_min()) << i;
  }
  // float32: 8e37 (about the largest the direct form takes) beside 1e-30.
  MatrixF V32(m, 2);
  for (Eigen::Index j = 0; j < m; ++j) {
    V32(j, 0) = (j % 2 == 0 ? 8.0e37f : -8.0e37f);
    V32(j, 1) = (1.0f + static_cast<float>(j)) * 1e-30f;
  }
  const MatrixF streamed32 = streaming_attention(to_float(Q), to_float(K), V32, StreamingOptions{});
  const MatrixF direct32 = attention(to_float(Q), to_float(K), V32).output;
  for (Eigen::Index i = 0; i < direct32.rows(); ++i) {
    EXPECT_GE(streamed32(i, 1), 1e-30f) << i;
    EXPECT_NEAR(streamed32(i, 1) / direct32(i, 1), 1.0f, 1e-5f) << i;
  }
}

TEST(Streaming, AHugeTemperatureGivesUniformRowsNotNaN) {
  // Found by the fuzzer: τ = scale = 1e200 made 1/(τ·scale) round to 0, and 0·(−∞) is NaN.
  const Matrix Q = rows({{-4.0}, {2.0}});
  const Matrix K = rows({{-1.0}, {3.0}, {0.5}});
  const Matrix V = rows({{-9.9, 1.0}, {9.3, 2.0}, {1e200, 3.0}});
  StreamingOptions options;
  options.temperature = 1e200;
  options.scale = 1e200;
  options.key_tile = 2;
  for (const bool masked : {false, true}) {
    if (masked) options.mask = Mask::Constant(2, 3, true);
    if (masked) (*options.mask)(1, 0) = false;
    const Matrix out = streaming_attention(Q, K, V, options);
    ASSERT_TRUE(out.allFinite()) << "masked " << masked;
    EXPECT_NEAR(out(0, 1), 2.0, 1e-12);
    EXPECT_NEAR(out(1, 1), masked ? 2.5 : 2.0, 1e-12);
  }
}

TEST(Streaming, RunsPastTheDirectFormsBudget) {
  // n = m = 4097: the direct form refuses its 4097² scores; streaming needs O((n + m)·d).
  // d = 1 and the causal order keep the test quick; rows are checked against the direct form
  // run on the keys each one sees.
  const Eigen::Index n = 4097;
  const Matrix X = random_rows(n, 1, 41, 2.0), V = random_rows(n, 2, 42);
  StreamingOptions causal;
  causal.causal = true;
  EXPECT_THAT(invalid_argument_message([&] { attention(to_float(X), to_float(X), to_float(V)); }),
              HasSubstr("past the limit"));
  const Matrix out64 = streaming_attention(X, X, V, causal);
  const MatrixF out32 = streaming_attention(to_float(X), to_float(X), to_float(V), causal);
  for (Eigen::Index i : {Eigen::Index{0}, Eigen::Index{1}, Eigen::Index{1000}, n - 1}) {
    AttentionOptions scale_of_one_width;
    scale_of_one_width.scale = 1.0;  // √d_k with d_k = 1
    const Matrix row = attention(X.row(i), X.topRows(i + 1), V.topRows(i + 1), scale_of_one_width).output;
    EXPECT_LT(relative_gap(out64.row(i), row), 1e-12) << "row " << i;
    EXPECT_LT(relative_gap(out32.row(i), row), 1e-5) << "row " << i;
  }
}

TEST(Streaming, RefusesHiddenRowsAndBadInputsAsTheDirectFormDoes) {
  const Matrix Q = rows({{1, 0}, {0, 1}});
  StreamingOptions hidden;
  hidden.mask = Mask::Constant(2, 3, true);
  hidden.mask->row(1).setConstant(false);
  EXPECT_THAT(invalid_argument_message([&] { streaming_attention(Q, worked_keys(), worked_values(), hidden); }),
              HasSubstr("mask row 1 hides every key; softmax needs at least one"));
  EXPECT_THAT(invalid_argument_message(
                  [&] { streaming_attention(to_float(Q), to_float(worked_keys()), to_float(worked_values()), hidden); }),
              HasSubstr("mask row 1 hides every key; softmax needs at least one"));
  // key 0 hidden from query 0, whom the causal order allows nothing else
  StreamingOptions causal_hidden;
  causal_hidden.causal = true;
  causal_hidden.mask = Mask::Constant(2, 3, true);
  (*causal_hidden.mask)(0, 0) = false;
  EXPECT_THAT(invalid_argument_message([&] { streaming_attention(Q, worked_keys(), worked_values(), causal_hidden); }),
              HasSubstr("mask row 0 hides every key the causal order leaves"));
  StreamingOptions wrong_shape;
  wrong_shape.mask = Mask::Constant(3, 3, true);
  EXPECT_THAT(invalid_argument_message([&] { streaming_attention(Q, worked_keys(), worked_values(), wrong_shape); }),
              HasSubstr("mask (3x3) must match the scores (2x3)"));
  EXPECT_THAT(invalid_argument_message([&] { streaming_attention(rows({{1, 0, 0}}), worked_keys(), worked_values()); }),
              HasSubstr("Q (1x3) and K (3x2) must have the same number of columns"));
  EXPECT_THAT(invalid_argument_message([&] { streaming_attention(Q, worked_keys(), rows({{1, 0}})); }),
              HasSubstr("K (3x2) and V (1x2) must have the same number of rows"));
  EXPECT_THAT(invalid_argument_message([&] { streaming_attention(rows({{INFINITY, 0}}), worked_keys(), worked_values()); }),
              HasSubstr("Q has a non-finite entry inf at (0, 0)"));
  StreamingOptions bad_tau;
  bad_tau.temperature = -1;
  EXPECT_THAT(invalid_argument_message([&] { streaming_attention(Q, worked_keys(), worked_values(), bad_tau); }),
              HasSubstr("temperature must be positive and finite, got -1"));
  StreamingOptions bad_tile;
  bad_tile.key_tile = -4;
  EXPECT_THAT(invalid_argument_message([&] { streaming_attention(Q, worked_keys(), worked_values(), bad_tile); }),
              HasSubstr("key_tile must be at least 1"));
  const MatrixF huge = MatrixF::Constant(2, 2, 1e20f);
  EXPECT_THAT(invalid_argument_message([&] { streaming_attention(huge, huge, huge); }),
              HasSubstr("Q and K are too large for float32"));
}

}  // namespace
}  // namespace attn
