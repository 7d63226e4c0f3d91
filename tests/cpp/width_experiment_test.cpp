#include "width_experiment.hpp"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <cmath>

#include "matrices.hpp"

namespace attn {
namespace {

using testing::invalid_argument_message;
using ::testing::HasSubstr;

// The lesson's setting: 10 keys, widths 2 … 1024, 2000 trials.
const std::vector<WidthPoint>& lesson_run() {
  static const auto points = width_experiment({10, 10, 2000, 1});
  return points;
}

const WidthPoint& at_width(int width) {
  for (const auto& p : lesson_run()) {
    if (p.width == width) return p;
  }
  throw std::logic_error("no such width");
}

TEST(WidthExperiment, WidthsArePowersOfTwo) {
  ASSERT_EQ(lesson_run().size(), 10u);
  EXPECT_EQ(lesson_run().front().width, 2);
  EXPECT_EQ(lesson_run().back().width, 1024);
}

TEST(WidthExperiment, UnscaledSoftmaxTurnsIntoArgmax) {
  EXPECT_NEAR(at_width(4).mean_largest_unscaled, 0.49, 0.02);
  EXPECT_NEAR(at_width(64).mean_largest_unscaled, 0.86, 0.02);
  EXPECT_NEAR(at_width(1024).mean_largest_unscaled, 0.97, 0.01);
  // The entropy collapses towards zero as the width grows.
  EXPECT_GT(at_width(2).mean_entropy_unscaled, 1.5);
  EXPECT_LT(at_width(1024).mean_entropy_unscaled, 0.12);
  for (std::size_t k = 1; k < lesson_run().size(); ++k) {
    EXPECT_GT(lesson_run()[k].mean_largest_unscaled, lesson_run()[k - 1].mean_largest_unscaled);
  }
}

TEST(WidthExperiment, ScaledSoftmaxIsFlatAtEveryWidth) {
  // At d_k ≤ 8, |q|²/d_k still fluctuates noticeably, so the narrowest widths sit a little lower.
  for (const auto& p : lesson_run()) {
    EXPECT_NEAR(p.mean_largest_scaled, 0.31, 0.025) << "d_k = " << p.width;
    EXPECT_NEAR(p.mean_entropy_scaled, 1.94, 0.04) << "d_k = " << p.width;
  }
  for (int width : {16, 64, 256, 1024}) {
    EXPECT_NEAR(at_width(width).mean_largest_scaled, 0.32, 0.01);
    EXPECT_NEAR(at_width(width).mean_entropy_scaled, 1.93, 0.02);
  }
}

TEST(WidthExperiment, SameSeedSameNumbers) {
  const auto a = width_experiment({5, 4, 50, 99});
  const auto b = width_experiment({5, 4, 50, 99});
  const auto c = width_experiment({5, 4, 50, 100});
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].mean_largest_unscaled, b[k].mean_largest_unscaled);
    EXPECT_NE(a[k].mean_largest_unscaled, c[k].mean_largest_unscaled);
  }
}

TEST(WidthExperiment, ARangeOfWidthsGivesTheFullRunsNumbersThere) {
  // The page computes one width per slice of time; the pieces must be the full run, exactly.
  const auto full = width_experiment({6, 8, 300, 7});
  for (int k = 1; k <= 8; ++k) {
    WidthExperimentSetup one{6, k, 300, 7, k};
    const auto piece = width_experiment(one);
    ASSERT_EQ(piece.size(), 1u);
    EXPECT_EQ(piece[0].width, 1 << k);
    EXPECT_EQ(piece[0].mean_largest_unscaled, full[k - 1].mean_largest_unscaled) << "d_k = " << (1 << k);
    EXPECT_EQ(piece[0].mean_entropy_scaled, full[k - 1].mean_entropy_scaled) << "d_k = " << (1 << k);
  }
  const auto middle = width_experiment_direct({6, 5, 40, 7, 3});
  const auto whole = width_experiment_direct({6, 5, 40, 7});
  ASSERT_EQ(middle.size(), 3u);
  EXPECT_EQ(middle[0].mean_largest_scaled, whole[2].mean_largest_scaled);
}

TEST(WidthExperiment, FastSamplingAgreesWithDrawingTheVectors) {
  // Different random streams, so the two agree within sampling error, not exactly.
  const WidthExperimentSetup setup{10, 7, 3000, 3};
  const auto fast = width_experiment(setup);
  const auto direct = width_experiment_direct(setup);
  for (std::size_t k = 0; k < fast.size(); ++k) {
    EXPECT_NEAR(fast[k].mean_largest_unscaled, direct[k].mean_largest_unscaled, 0.02) << "d_k = " << fast[k].width;
    EXPECT_NEAR(fast[k].mean_entropy_unscaled, direct[k].mean_entropy_unscaled, 0.05) << "d_k = " << fast[k].width;
    EXPECT_NEAR(fast[k].mean_largest_scaled, direct[k].mean_largest_scaled, 0.015) << "d_k = " << fast[k].width;
    EXPECT_NEAR(fast[k].mean_entropy_scaled, direct[k].mean_entropy_scaled, 0.03) << "d_k = " << fast[k].width;
  }
}

TEST(WidthExperiment, MoreKeysSpreadTheScaledWeights) {
  const auto few = width_experiment({2, 6, 2000, 1});
  const auto many = width_experiment({64, 6, 2000, 1});
  EXPECT_GT(few.back().mean_largest_scaled, many.back().mean_largest_scaled);
  EXPECT_LT(few.back().mean_entropy_scaled, std::log(2.0));
  EXPECT_LT(many.back().mean_entropy_scaled, std::log(64.0));
}

TEST(WidthExperimentErrors, Setup) {
  EXPECT_THAT(invalid_argument_message([] { width_experiment({1, 10, 10, 1}); }),
              HasSubstr("keys m must be between 2 and 4096, got 1"));
  EXPECT_THAT(invalid_argument_message([] { width_experiment({10, 0, 10, 1}); }),
              HasSubstr("max_log2 must be between 1 and 16, got 0"));
  EXPECT_THAT(invalid_argument_message([] { width_experiment({10, 10, 0, 1}); }),
              HasSubstr("trials T must be between 1 and 1000000, got 0"));
  EXPECT_THAT(invalid_argument_message([] { width_experiment({10, 4, 10, 1, 5}); }),
              HasSubstr("min_log2 must be between 1 and max_log2 = 4, got 5"));
  EXPECT_THAT(invalid_argument_message([] { width_experiment({10, 4, 10, 1, 0}); }),
              HasSubstr("min_log2 must be between 1 and max_log2 = 4, got 0"));
}

}  // namespace
}  // namespace attn
