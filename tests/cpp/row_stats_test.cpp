#include "row_stats.hpp"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <cmath>

#include "matrices.hpp"
#include "softmax.hpp"

namespace attn {
namespace {

using testing::invalid_argument_message;
using testing::rows;
using ::testing::HasSubstr;

TEST(RowStats, EntropyOfUniformAndOneHot) {
  const Vector h = row_entropy(rows({{0.25, 0.25, 0.25, 0.25}, {0, 1, 0, 0}}));
  EXPECT_NEAR(h(0), std::log(4.0), 1e-15);
  EXPECT_EQ(h(1), 0.0);
}

TEST(RowStats, EntropyLargestArgmax) {
  const RowStats s = row_stats(rows({{0.1, 0.7, 0.2}, {0.25, 0.25, 0.5}, {1.0 / 3, 1.0 / 3, 1.0 / 3}}));
  EXPECT_NEAR(s.entropy(0), -(0.1 * std::log(0.1) + 0.7 * std::log(0.7) + 0.2 * std::log(0.2)), 1e-15);
  EXPECT_NEAR(s.entropy(2), std::log(3.0), 1e-15);
  EXPECT_EQ(s.largest(0), 0.7);
  EXPECT_EQ(s.argmax(0), 1);
  EXPECT_EQ(s.argmax(1), 2);
  EXPECT_EQ(s.argmax(2), 0);  // ties go to the first key
}

TEST(RowStats, GradientFactorRawAgainstScaled) {
  // Two keys at d_k = 64: raw scores (8, 0) against scaled (1, 0).
  const double raw = gradient_factor(softmax_rows(rows({{8, 0}})))(0, 0);
  const double scaled = gradient_factor(softmax_rows(rows({{1, 0}})))(0, 0);
  EXPECT_NEAR(raw, 0.0003, 5e-5);
  EXPECT_NEAR(scaled, 0.197, 5e-4);
  EXPECT_NEAR(scaled / raw, 590, 15);  // "almost 600×"
}

TEST(RowStats, LogGradientFactorAgreesWhereTheWeightsAreExact) {
  const Matrix scores = rows({{0.3, -1.2, 2.0, 0.5}, {8, 0, 0, 0}});
  for (const double tau : {1.0, 0.5, 8.0}) {
    const Matrix direct = gradient_factor(softmax_rows(scores, tau));
    const Matrix logged = log_gradient_factor(scores, tau);
    for (Eigen::Index i = 0; i < scores.rows(); ++i) {
      for (Eigen::Index j = 0; j < scores.cols(); ++j) {
        EXPECT_NEAR(std::exp(logged(i, j)), direct(i, j), 1e-14 * (1 + direct(i, j))) << i << "," << j << " tau " << tau;
      }
    }
  }
}

TEST(RowStats, LogGradientFactorWherePRoundsToOne) {
  // Four keys at d_k = 1024: raw scores (64, 0, 0, 0). In float64 the top weight is exactly 1
  // and p(1 − p) from the weights is 0; the true value is 3e^−64 / (1 + 3e^−64)² ≈ 4.8e−28.
  const Matrix raw = rows({{64, 0, 0, 0}});
  EXPECT_EQ(gradient_factor(softmax_rows(raw))(0, 0), 0.0);
  const Matrix logged = log_gradient_factor(raw);
  EXPECT_NEAR(logged(0, 0), std::log(3.0) - 64, 1e-12);
  // Scaled by √1024 = 32 the scores are (2, 0, 0, 0): the ratio scaled ÷ raw is about 4.3×10^26.
  const double scaled = log_gradient_factor(raw, 32)(0, 0);
  const double p = std::exp(2.0) / (std::exp(2.0) + 3);
  EXPECT_NEAR(scaled, std::log(p * (1 - p)), 1e-14);
  EXPECT_NEAR((scaled - logged(0, 0)) / std::log(10.0), 26.630, 0.001);
  // The small weights: p_j ≈ e^−64, 1 − p_j ≈ 1.
  EXPECT_NEAR(logged(0, 1), -64 - std::log1p(3 * std::exp(-64.0)), 1e-12);
}

TEST(RowStats, LogGradientFactorRefusesOneKeyAndBadTemperature) {
  EXPECT_THAT(invalid_argument_message([] { log_gradient_factor(rows({{1}, {2}})); }),
              HasSubstr("at least 2 columns"));
  EXPECT_THAT(invalid_argument_message([] { log_gradient_factor(rows({{1, 2}}), 0); }), HasSubstr("temperature"));
  EXPECT_THAT(invalid_argument_message([] { log_gradient_factor(rows({{1e300, -1e300}}), 1e-10); }),
              HasSubstr("ln p(1 − p)"));
}

TEST(RowStats, JacobianMatchesFiniteDifferences) {
  const Matrix z = rows({{0.3, -1.2, 2.0, 0.5}});
  const Matrix p = softmax_rows(z);
  const Matrix J = softmax_jacobian(p);
  const double h = 1e-6;
  for (Eigen::Index j = 0; j < 4; ++j) {
    Matrix up = z, down = z;
    up(0, j) += h;
    down(0, j) -= h;
    const Matrix column = (softmax_rows(up) - softmax_rows(down)) / (2 * h);
    for (Eigen::Index i = 0; i < 4; ++i) EXPECT_NEAR(J(i, j), column(0, i), 1e-9);
  }
  // Each column sums to 0 (the weights keep summing to 1) and the diagonal is p(1 − p).
  EXPECT_NEAR(J.colwise().sum().cwiseAbs().maxCoeff(), 0.0, 1e-15);
  EXPECT_TRUE(J.diagonal().transpose().isApprox(gradient_factor(p)));
  EXPECT_TRUE(J.isApprox(J.transpose()));
}

TEST(RowStats, SumsAndDifferences) {
  const Sums s = sums(rows({{0.25, 0.75, 0}, {1, 2, 3}}));
  EXPECT_EQ(s.rows(0), 1.0);
  EXPECT_EQ(s.rows(1), 6.0);
  EXPECT_EQ(s.cols(0), 1.25);
  EXPECT_EQ(s.cols(2), 3.0);
  const Matrix m = rows({{1, 2}, {5, 4}});
  EXPECT_EQ(max_abs_difference(m, m.transpose()), 3.0);
  EXPECT_EQ(max_abs_difference(m, m), 0.0);
}

TEST(RowStatsErrors, Shapes) {
  EXPECT_THAT(invalid_argument_message([] { max_abs_difference(rows({{1, 2}}), rows({{1}, {2}})); }),
              HasSubstr("a (1x2) and b (2x1) must have the same shape"));
  EXPECT_THAT(invalid_argument_message([] { sums(Matrix(0, 0)); }), HasSubstr("matrix is empty (0x0)"));
  EXPECT_THAT(invalid_argument_message([] { row_stats(Matrix(2, 0)); }), HasSubstr("weights is empty (2x0)"));
  EXPECT_THAT(invalid_argument_message([] { softmax_jacobian(rows({{0.5, 0.5}, {0.5, 0.5}})); }),
              HasSubstr("probability row p must be 1xm, got 2x2"));
  EXPECT_THAT(invalid_argument_message([] { gradient_factor(rows({{NAN}})); }),
              HasSubstr("probabilities has a non-finite entry"));
}

}  // namespace
}  // namespace attn
