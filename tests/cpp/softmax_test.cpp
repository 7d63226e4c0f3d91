#include "softmax.hpp"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <cmath>

#include "matrices.hpp"
#include "row_stats.hpp"

namespace attn {
namespace {

using testing::invalid_argument_message;
using testing::rows;
using ::testing::HasSubstr;

TEST(Softmax, TwoKeysRawAndScaledAtWidth64) {
  // d_k = 64: raw scores 8 and 0, then the same divided by √64 = 8.
  const Matrix raw = softmax_rows(rows({{8, 0}}));
  EXPECT_NEAR(raw(0, 0), 0.9997, 5e-5);
  EXPECT_NEAR(raw(0, 1), 0.0003, 5e-5);
  const Matrix scaled = softmax_rows(rows({{1, 0}}));
  EXPECT_NEAR(scaled(0, 0), 0.731, 5e-4);
  EXPECT_NEAR(scaled(0, 1), 0.269, 5e-4);
}

TEST(Softmax, FourKeysRawAndScaled) {
  const Matrix raw = softmax_rows(rows({{16, 0, 0, 0}}));
  EXPECT_NEAR(raw(0, 0), 0.9999997, 5e-8);
  EXPECT_NEAR(raw(0, 1), 1.1e-7, 1e-8);
  const Matrix scaled = softmax_rows(rows({{2, 0, 0, 0}}));
  EXPECT_NEAR(scaled(0, 0), 0.711, 5e-4);
  EXPECT_NEAR(scaled(0, 3), 0.096, 5e-4);
}

TEST(Softmax, RowsSumToOne) {
  const Matrix w = softmax_rows(rows({{0.3, -2, 5}, {1, 1, 1}, {-7, 0, 7}}));
  for (Eigen::Index i = 0; i < w.rows(); ++i) EXPECT_NEAR(w.row(i).sum(), 1.0, 1e-15);
}

TEST(Softmax, HugeLogitsAndTinyTemperatureGiveOneHotNotNaN) {
  const Matrix w = softmax_rows(rows({{1e30, -1e30, 0}, {-1e30, 1e30, 1e30}}), 1e-6);
  EXPECT_EQ(w(0, 0), 1.0);
  EXPECT_EQ(w(0, 1), 0.0);
  EXPECT_EQ(w(0, 2), 0.0);
  // A tie at the top shares the weight.
  EXPECT_EQ(w(1, 0), 0.0);
  EXPECT_EQ(w(1, 1), 0.5);
  EXPECT_EQ(w(1, 2), 0.5);
  EXPECT_TRUE(w.allFinite());
}

TEST(Softmax, TinyTemperatureOnOrdinaryLogitsIsArgmax) {
  const Matrix w = softmax_rows(rows({{0.1, 0.2, 0.15}}), 1e-6);
  EXPECT_EQ(w(0, 1), 1.0);
}

TEST(Softmax, HugeTemperatureIsUniform) {
  const Matrix w = softmax_rows(rows({{3, -2, 0.5, 9}}), 1e6);
  for (Eigen::Index j = 0; j < 4; ++j) EXPECT_NEAR(w(0, j), 0.25, 1e-5);
}

TEST(Softmax, MaskedPairsGetExactlyZero) {
  Mask mask(2, 3);
  mask << true, false, true, false, true, false;
  const Matrix w = softmax_rows(rows({{1, 50, 1}, {4, 2, 9}}), 1.0, mask);
  EXPECT_EQ(w(0, 1), 0.0);
  EXPECT_DOUBLE_EQ(w(0, 0), 0.5);
  EXPECT_EQ(w(1, 0), 0.0);
  EXPECT_EQ(w(1, 1), 1.0);
  EXPECT_EQ(w(1, 2), 0.0);
}

TEST(Softmax, ColumnsVariantNormalisesDownColumns) {
  const Matrix w = softmax_columns(rows({{1, 2}, {3, 0}, {-1, 4}}));
  EXPECT_NEAR(w.col(0).sum(), 1.0, 1e-15);
  EXPECT_NEAR(w.col(1).sum(), 1.0, 1e-15);
  EXPECT_GT(std::abs(w.row(0).sum() - 1.0), 0.1);
}

TEST(Softmax, SummaryAgreesWithTheWeights) {
  for (double divisor : {1.0, 8.0, 1e-3, 1e4}) {
    const Matrix scores = rows({{0.3, -2, 5, 5, 1e3, -1e3}});
    const Matrix p = softmax_rows(scores / divisor);
    const SoftmaxSummary s = softmax_summary(scores.row(0), divisor);
    EXPECT_NEAR(s.largest, p.maxCoeff(), 1e-12) << "divisor " << divisor;
    EXPECT_NEAR(s.entropy, row_entropy(p)(0), 1e-12) << "divisor " << divisor;
  }
  const SoftmaxSummary uniform = softmax_summary(RowVector::Constant(10, 3.0));
  EXPECT_NEAR(uniform.largest, 0.1, 1e-15);
  EXPECT_NEAR(uniform.entropy, std::log(10.0), 1e-14);
}

TEST(SoftmaxErrors, NameTheArgument) {
  EXPECT_THAT(invalid_argument_message([] { softmax_rows(Matrix(0, 3)); }), HasSubstr("logits is empty (0x3)"));
  EXPECT_THAT(invalid_argument_message([] { softmax_rows(rows({{1, 2}}), 0.0); }),
              HasSubstr("temperature must be positive and finite, got 0"));
  EXPECT_THAT(invalid_argument_message([] { softmax_rows(rows({{1, 2}}), -1.0); }), HasSubstr("temperature"));
  EXPECT_THAT(invalid_argument_message([] { softmax_rows(rows({{1, 2}}), std::nan("")); }), HasSubstr("temperature"));
  EXPECT_THAT(invalid_argument_message([] { softmax_rows(rows({{1, 2}}), INFINITY); }), HasSubstr("temperature"));
  EXPECT_THAT(invalid_argument_message([] { softmax_rows(rows({{1, NAN}})); }),
              HasSubstr("logits has a non-finite entry nan at (0, 1)"));
}

TEST(SoftmaxErrors, AllMaskedRowIsAnErrorNotNaN) {
  Mask mask(2, 2);
  mask << true, true, false, false;
  EXPECT_THAT(invalid_argument_message([&] { softmax_rows(rows({{1, 2}, {3, 4}}), 1.0, mask); }),
              HasSubstr("mask row 1 hides every key"));
  Mask wrong(1, 2);
  wrong << true, true;
  EXPECT_THAT(invalid_argument_message([&] { softmax_rows(rows({{1, 2}, {3, 4}}), 1.0, wrong); }),
              HasSubstr("mask (1x2) must match the scores (2x2)"));
}

}  // namespace
}  // namespace attn
