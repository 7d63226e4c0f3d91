// The learn figure's float32 training core against float64: the same loss and gradients within
// 1e-4 relative at the same weights, and runs that reach the figure's target loss at the same
// step within 2%.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "learn/training.hpp"
#include "learn/training_f32.hpp"

namespace attn::learn {
namespace {

double relative(const Matrix& got, const Matrix& want) { return (got - want).norm() / want.norm(); }

ProjectionsF narrowed(const Projections& w) {
  return {w.W_Q.cast<float>(), w.W_K.cast<float>(), w.W_V.cast<float>()};
}

LearnSettings settings_of(Task task, int dk, double rate, Precision precision) {
  LearnSettings s;
  s.task = task;
  s.key_width = dk;
  s.learning_rate = rate;
  s.seed = 1;
  s.precision = precision;
  return s;
}

// At the initial weights and after some float64 steps (the weights then are no longer random),
// both copies' gradients and loss agree.
TEST(LearnFloat32, GradientsAndLossMatchFloat64) {
  for (Task task : {Task::PreviousToken, Task::MatchingType}) {
    for (int dk : {4, 16, 64, 256, 512}) {
      LearnSession session(settings_of(task, dk, 0.5, Precision::Float64));
      const StackedTask stacked = stack_task(session.data());
      EvaluationBuffers buffers;
      EvaluationF out;
      for (int round = 0; round < 3; ++round) {
        for (Scaling which : {Scaling::ByRootDk, Scaling::Unscaled}) {
          const double divisor = which == Scaling::ByRootDk ? std::sqrt(static_cast<double>(dk)) : 1.0;
          const Projections& w = session.projections(which);
          const Evaluation want = evaluate(session.data(), w, divisor);
          evaluate_f32(stacked, narrowed(w), static_cast<float>(divisor), buffers, out);
          SCOPED_TRACE(::testing::Message() << "task " << static_cast<int>(task) << ", dk " << dk << ", round " << round
                                          << (which == Scaling::ByRootDk ? ", scaled" : ", unscaled"));
          EXPECT_LT(relative(out.gradients.W_Q.cast<double>(), want.gradients.W_Q), 1e-4);
          EXPECT_LT(relative(out.gradients.W_K.cast<double>(), want.gradients.W_K), 1e-4);
          EXPECT_LT(relative(out.gradients.W_V.cast<double>(), want.gradients.W_V), 1e-4);
          EXPECT_NEAR(out.record.loss, want.record.loss, 1e-4 * want.record.loss);
          EXPECT_NEAR(out.record.mean_p_one_minus_p, want.record.mean_p_one_minus_p, 1e-4 * want.record.mean_p_one_minus_p + 1e-7);
          EXPECT_NEAR(out.record.mean_largest_weight, want.record.mean_largest_weight, 1e-4 * want.record.mean_largest_weight);
          EXPECT_NEAR(out.record.gradient_norm_Q, want.record.gradient_norm_Q, 1e-4 * want.record.gradient_norm_Q);
        }
        session.train(40);
      }
    }
  }
}

// The first step whose loss is below `target`, training in pieces up to `cap` steps.
std::optional<int> reached(LearnSession& session, Scaling which, double target, int cap) {
  while (session.steps_taken(which) < cap && !session.diverged(which)) {
    session.train(100);
    for (const StepRecord& r : session.history(which)) {
      if (r.loss < target) return r.step;
    }
  }
  return std::nullopt;
}

TEST(LearnFloat32, ReachesTheTargetAtTheSameStepWithinTwoPercent) {
  const double target = 0.05;
  struct Case {
    Task task;
    int dk;
    double rate;
  };
  for (const Case& c : {Case{Task::PreviousToken, 16, 0.5}, Case{Task::PreviousToken, 64, 0.5},
                        Case{Task::PreviousToken, 256, 0.5}, Case{Task::PreviousToken, 256, 1.0},
                        Case{Task::MatchingType, 16, 1.0}, Case{Task::MatchingType, 64, 1.0}}) {
    for (Scaling which : {Scaling::ByRootDk, Scaling::Unscaled}) {
      LearnSession f64(settings_of(c.task, c.dk, c.rate, Precision::Float64));
      LearnSession f32(settings_of(c.task, c.dk, c.rate, Precision::Float32));
      const int cap = 3000;
      const std::optional<int> want = reached(f64, which, target, cap);
      const std::optional<int> got = reached(f32, which, target, cap);
      SCOPED_TRACE(::testing::Message() << "task " << static_cast<int>(c.task) << ", dk " << c.dk << ", rate " << c.rate
                                      << (which == Scaling::ByRootDk ? ", scaled" : ", unscaled"));
      ASSERT_EQ(want.has_value(), got.has_value()) << "float64 " << want.value_or(-1) << ", float32 " << got.value_or(-1);
      if (want) EXPECT_LE(std::abs(*got - *want), std::max(1.0, 0.02 * *want)) << "float64 " << *want << ", float32 " << *got;
    }
  }
}

TEST(LearnFloat32, SessionReportsItsStateLikeFloat64) {
  LearnSession f64(settings_of(Task::PreviousToken, 64, 0.5, Precision::Float64));
  LearnSession f32(settings_of(Task::PreviousToken, 64, 0.5, Precision::Float32));
  // Step 0: the very same start.
  EXPECT_NEAR(f32.measure(Scaling::ByRootDk).loss, f64.measure(Scaling::ByRootDk).loss, 1e-5);
  f64.train(50);
  f32.train(50);
  for (Scaling which : {Scaling::ByRootDk, Scaling::Unscaled}) {
    EXPECT_EQ(f32.steps_taken(which), 50);
    EXPECT_EQ(f32.measure(which).step, 50);
    EXPECT_NEAR(f32.measure(which).loss, f64.measure(which).loss, 1e-3 * f64.measure(which).loss);
    EXPECT_LT((f32.attention_weights(which) - f64.attention_weights(which)).cwiseAbs().maxCoeff(), 1e-3);
  }
  f32.reset();
  EXPECT_EQ(f32.steps_taken(Scaling::ByRootDk), 0);
  EXPECT_NEAR(f32.measure(Scaling::Unscaled).loss, LearnSession(settings_of(Task::PreviousToken, 64, 0.5, Precision::Float64)).measure(Scaling::Unscaled).loss, 1e-5);
}

}  // namespace
}  // namespace attn::learn
