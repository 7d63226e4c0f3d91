// The learn figure's two copies of one head, trained side by side from one start (training.hpp):
// the initialisation, the claim the figure shows (the scaled copy learns at d_k = 256, the
// unscaled one stays stuck), bit-identical runs, reset, the learning rate, divergence, and
// refused settings and runs.
#include "learn/training.hpp"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "matrices.hpp"

namespace attn::learn {
namespace {

using testing::invalid_argument_message;
using ::testing::AllOf;
using ::testing::HasSubstr;

// Footnote 4's assumption at the start: query and key entries with mean 0 and variance 1.
TEST(LearnSession, QueriesAndKeysStartWithMeanZeroAndVarianceOne) {
  LearnSettings settings;
  settings.key_width = 512;
  LearnSession session(settings);
  const Projections& w = session.projections(Scaling::Unscaled);
  for (const Matrix* W : {&w.W_Q, &w.W_K}) {
    double sum = 0, squares = 0, count = 0;
    for (const Matrix& x : session.data().memories) {
      const Matrix q = x * *W;
      sum += q.sum();
      squares += q.squaredNorm();
      count += static_cast<double>(q.size());
    }
    const double mean = sum / count;
    EXPECT_NEAR(mean, 0.0, 0.05);
    EXPECT_NEAR(squares / count - mean * mean, 1.0, 0.1);
  }
  EXPECT_EQ(session.projections(Scaling::ByRootDk).W_Q, w.W_Q);  // one start for both copies
}

// The figure's claim at d_k = 256, seed 1, the default task and SGD at η = 0.5: the scaled copy
// learns and the unscaled one, saturated from the start, does not. Measured (native and wasm
// alike): the scaled copy goes from 1.31 to below 0.05 at step 525 and 0.037 at step 599; the
// unscaled copy goes from 1.84 to 0.76 by step 100 and stays there (0.68 at step 599, 0.64 at
// 3000); mean p(1 − p) at step 0 is 0.093 scaled against 0.0136 unscaled (ratio 6.9), the mean
// largest weight 0.37 against 0.92.
TEST(LearnSession, ScaledCopyLearnsWhileTheUnscaledCopyIsStuckAtDk256) {
  LearnSettings settings;
  settings.key_width = 256;
  settings.seed = 1;
  ASSERT_EQ(settings.learning_rate, 0.5);
  LearnSession session(settings);
  const int steps = 600;
  const double stated_loss = 0.05;
  session.train(steps);
  const auto& scaled = session.history(Scaling::ByRootDk);
  const auto& unscaled = session.history(Scaling::Unscaled);
  ASSERT_EQ(scaled.size(), static_cast<std::size_t>(steps));
  ASSERT_EQ(unscaled.size(), static_cast<std::size_t>(steps));
  EXPECT_LT(scaled.back().loss, stated_loss);
  EXPECT_GT(unscaled.back().loss, 10 * stated_loss);
  // At the start the unscaled softmax is saturated: p(1 − p) several times smaller.
  EXPECT_GT(scaled.front().mean_p_one_minus_p, 5 * unscaled.front().mean_p_one_minus_p);
  EXPECT_NEAR(scaled.front().mean_p_one_minus_p, 0.093, 0.005);
  EXPECT_GT(unscaled.front().mean_largest_weight, 0.9);
  EXPECT_LT(scaled.front().mean_largest_weight, 0.45);
  // Learning the task means attending: the scaled copy's rows now pick the right key.
  EXPECT_GT(scaled.back().mean_largest_weight, 0.55);
}

// The other half of the hedge: at d_k = 4 the unscaled copy learns too.
TEST(LearnSession, AtSmallDkBothCopiesLearn) {
  LearnSettings settings;
  settings.key_width = 4;
  LearnSession session(settings);
  session.train(600);
  EXPECT_LT(session.history(Scaling::ByRootDk).back().loss, 0.05);
  EXPECT_LT(session.history(Scaling::Unscaled).back().loss, 0.05);
}

void expect_identical(const std::vector<StepRecord>& a, const std::vector<StepRecord>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].step, b[k].step);
    EXPECT_EQ(a[k].loss, b[k].loss) << "step " << k;
    EXPECT_EQ(a[k].mean_p_one_minus_p, b[k].mean_p_one_minus_p) << "step " << k;
    EXPECT_EQ(a[k].mean_largest_weight, b[k].mean_largest_weight) << "step " << k;
    EXPECT_EQ(a[k].gradient_norm_Q, b[k].gradient_norm_Q) << "step " << k;
    EXPECT_EQ(a[k].gradient_norm_K, b[k].gradient_norm_K) << "step " << k;
    EXPECT_EQ(a[k].gradient_norm_V, b[k].gradient_norm_V) << "step " << k;
  }
}

TEST(LearnSession, SameSeedGivesBitIdenticalCurves) {
  LearnSettings settings;
  settings.key_width = 64;
  settings.seed = 42;
  LearnSession first(settings), second(settings);
  first.train(150);
  second.train(100);
  second.train(50);  // in slices, as the page runs it
  expect_identical(first.history(Scaling::ByRootDk), second.history(Scaling::ByRootDk));
  expect_identical(first.history(Scaling::Unscaled), second.history(Scaling::Unscaled));
  settings.seed = 43;
  LearnSession other(settings);
  other.train(1);
  EXPECT_NE(other.history(Scaling::ByRootDk)[0].loss, first.history(Scaling::ByRootDk)[0].loss);
}

TEST(LearnSession, ResetKeepsTheInitialisation) {
  LearnSettings settings;
  settings.task = Task::MatchingType;
  settings.key_width = 32;
  LearnSession session(settings);
  const Matrix start = session.attention_weights(Scaling::Unscaled, 2);
  const std::vector<StepRecord> before = session.train(80).unscaled;
  EXPECT_NE(session.attention_weights(Scaling::Unscaled, 2), start);
  session.reset();
  EXPECT_EQ(session.steps_taken(Scaling::ByRootDk), 0);
  EXPECT_EQ(session.measure(Scaling::Unscaled).loss, before[0].loss);
  EXPECT_EQ(session.attention_weights(Scaling::Unscaled, 2), start);
  expect_identical(session.train(80).unscaled, before);
}

TEST(LearnSession, LearningRateChangesBetweenStepsWithoutReset) {
  LearnSettings settings;
  settings.key_width = 16;
  LearnSession steady(settings), changed(settings);
  steady.train(40);
  changed.train(20);
  changed.set_learning_rate(0.05);
  changed.train(20);
  const auto& a = steady.history(Scaling::ByRootDk);
  const auto& b = changed.history(Scaling::ByRootDk);
  ASSERT_EQ(b.size(), 40u);
  EXPECT_EQ(a[20].loss, b[20].loss);  // measured before the first step at the new rate
  EXPECT_NE(a[21].loss, b[21].loss);
  // A tenth of the rate moves the loss about a tenth as far per step.
  EXPECT_LT(std::abs(b[39].loss - b[20].loss), 0.5 * std::abs(a[39].loss - a[20].loss));
  EXPECT_EQ(changed.settings().learning_rate, 0.05);
}

TEST(LearnSession, MeasureMatchesTheNextStepsRecord) {
  LearnSession session(LearnSettings{});
  session.train(7);
  const StepRecord now = session.measure(Scaling::ByRootDk);
  EXPECT_EQ(now.step, 7);
  const StepRecord next = session.train(1).scaled.at(0);
  EXPECT_EQ(now.loss, next.loss);
  EXPECT_EQ(now.gradient_norm_K, next.gradient_norm_K);
}

TEST(LearnSession, DivergingCopyStopsWithFiniteNumbers) {
  LearnSettings settings;
  settings.key_width = 512;
  settings.learning_rate = 20;
  LearnSession session(settings);
  session.train(300);
  bool any_diverged = false;
  for (const Scaling scaling : {Scaling::ByRootDk, Scaling::Unscaled}) {
    any_diverged = any_diverged || session.diverged(scaling);
    for (const StepRecord& r : session.history(scaling)) {
      EXPECT_TRUE(std::isfinite(r.loss) && r.loss <= kDivergedLoss);
      EXPECT_TRUE(std::isfinite(r.gradient_norm_Q) && std::isfinite(r.gradient_norm_V));
    }
    EXPECT_TRUE(session.attention_weights(scaling).allFinite());
  }
  EXPECT_TRUE(any_diverged);
  EXPECT_LT(session.steps_taken(Scaling::Unscaled), 300);
  // What a diverged copy reports now is its last step, finite, not its runaway weights.
  for (const Scaling scaling : {Scaling::ByRootDk, Scaling::Unscaled}) {
    if (!session.diverged(scaling)) continue;
    const StepRecord now = session.measure(scaling);
    EXPECT_EQ(now.loss, session.history(scaling).back().loss);
    EXPECT_TRUE(std::isfinite(now.gradient_norm_Q));
  }
}

TEST(LearnSession, BadSettingsAreRefusedWithTheirName) {
  LearnSettings s;
  s.key_width = 5000;
  EXPECT_THAT(invalid_argument_message([&] { LearnSession{s}; }), HasSubstr("key width dk must be between 1 and 4096, got 5000"));
  s = {};
  s.shape.tokens = 1;
  EXPECT_THAT(invalid_argument_message([&] { LearnSession{s}; }), HasSubstr("tokens must be between 2 and 64, got 1"));
  s = {};
  s.learning_rate = -1;
  EXPECT_THAT(invalid_argument_message([&] { LearnSession{s}; }), HasSubstr("learning rate must be positive"));
  s = {};
  s.task = static_cast<Task>(7);
  EXPECT_THAT(invalid_argument_message([&] { LearnSession{s}; }), HasSubstr("task"));
}

TEST(LearnSession, RefusedCallsLoseNothing) {
  LearnSession session(LearnSettings{});
  session.train(5);
  const StepRecord before = session.measure(Scaling::ByRootDk);
  EXPECT_THAT(invalid_argument_message([&] { session.set_learning_rate(std::nan("")); }), HasSubstr("learning rate"));
  EXPECT_THAT(invalid_argument_message([&] { session.train(0); }), HasSubstr("steps must be at least 1"));
  EXPECT_THAT(invalid_argument_message([&] { session.train(kMaxSteps); }), HasSubstr("past 100000 steps"));
  EXPECT_THAT(invalid_argument_message([&] { session.attention_weights(Scaling::Unscaled, 16); }),
              HasSubstr("sequence must be between 0 and 15, got 16"));
  EXPECT_EQ(session.settings().learning_rate, 0.5);
  EXPECT_EQ(session.steps_taken(Scaling::ByRootDk), 5);
  EXPECT_EQ(session.measure(Scaling::ByRootDk).loss, before.loss);
}

// The work budget of limits.hpp: a wide, long setting is refused before any work.
TEST(LearnSession, HugeRunsAreRefusedByTheBudget) {
  LearnSettings s;
  s.key_width = 4096;
  s.shape = {64, 64, 64};
  LearnSession session(s);  // one step fits the budget …
  EXPECT_THAT(invalid_argument_message([&] { session.train(100); }),
              AllOf(HasSubstr("multiply-adds in one call"), HasSubstr("train in pieces of at most")));
  EXPECT_EQ(session.steps_taken(Scaling::ByRootDk), 0);  // … a hundred do not, and nothing was done
}

}  // namespace
}  // namespace attn::learn
