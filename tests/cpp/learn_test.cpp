// The learn figure's core: the backward pass of one attention head against central finite
// differences, the task and its loss, and the two copies training from one start.
#include "learn/attention_backward.hpp"
#include "learn/learn_task.hpp"
#include "learn/optimiser.hpp"
#include "learn/training.hpp"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "attention.hpp"
#include "matrices.hpp"
#include "random.hpp"

namespace attn::learn {
namespace {

using testing::invalid_argument_message;
using ::testing::AllOf;
using ::testing::HasSubstr;

Matrix normal_matrix(Eigen::Index rows, Eigen::Index cols, Random& random, double deviation = 1.0) {
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = deviation * random.normal();
  return m;
}

// ∂f/∂x_ij by central differences, one entry at a time (x is changed and put back).
Matrix central_differences(Matrix& x, const std::function<double()>& f) {
  const double h = 1e-5;
  Matrix gradient(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double kept = x.data()[i];
    x.data()[i] = kept + h;
    const double up = f();
    x.data()[i] = kept - h;
    const double down = f();
    x.data()[i] = kept;
    gradient.data()[i] = (up - down) / (2 * h);
  }
  return gradient;
}

// Agreement to 1e-6 relative, entry by entry. Entries far smaller than the matrix's largest one
// (a saturated softmax makes many gradients ~1e-12) are compared relative to a thousandth of the
// largest, since a difference quotient cannot resolve them any better than that.
void expect_same_gradient(const char* name, const Matrix& analytic, const Matrix& numeric) {
  ASSERT_EQ(analytic.rows(), numeric.rows()) << name;
  ASSERT_EQ(analytic.cols(), numeric.cols()) << name;
  const double largest = analytic.cwiseAbs().maxCoeff();
  ASSERT_GT(largest, 0) << name << " is all zero, so the comparison would prove nothing";
  for (Eigen::Index i = 0; i < analytic.size(); ++i) {
    const double a = analytic.data()[i], b = numeric.data()[i];
    const double reference = std::max({std::abs(a), std::abs(b), 1e-3 * largest});
    EXPECT_LE(std::abs(a - b), 1e-6 * reference) << name << " entry " << i << ": analytic " << a << ", numeric " << b;
  }
}

struct Shape {
  Eigen::Index n, m, d, dk, dv;
};
const Shape kShapes[] = {{1, 3, 1, 1, 1}, {3, 5, 4, 2, 3}, {8, 8, 12, 16, 4}, {4, 6, 5, 64, 2}};
void PrintTo(const Shape& s, std::ostream* out) {
  *out << "n" << s.n << " m" << s.m << " d" << s.d << " dk" << s.dk << " dv" << s.dv;
}

class GradientCheck : public ::testing::TestWithParam<std::tuple<Shape, bool>> {
 protected:
  Shape shape() const { return std::get<0>(GetParam()); }
  double divisor() const { return std::get<1>(GetParam()) ? std::sqrt(static_cast<double>(shape().dk)) : 1.0; }
};

// L = Σ G ∘ O for a fixed random G, so that dL/dO = G.
TEST_P(GradientCheck, QueriesKeysValues) {
  const Shape s = shape();
  Random random(11 + static_cast<std::uint64_t>(s.dk));
  Matrix Q = normal_matrix(s.n, s.dk, random), K = normal_matrix(s.m, s.dk, random), V = normal_matrix(s.m, s.dv, random);
  const Matrix G = normal_matrix(s.n, s.dv, random);
  AttentionOptions options;
  options.scale = divisor();
  const auto loss = [&] { return (attention(Q, K, V, options).output.array() * G.array()).sum(); };
  const AttentionResult r = attention(Q, K, V, options);
  const AttentionGradients g = attention_backward(Q, K, V, r.weights, G, divisor());
  expect_same_gradient("dQ", g.dQ, central_differences(Q, loss));
  expect_same_gradient("dK", g.dK, central_differences(K, loss));
  expect_same_gradient("dV", g.dV, central_differences(V, loss));
}

TEST_P(GradientCheck, ProjectionsInCrossAndSelfAttention) {
  const Shape s = shape();
  Random random(23 + static_cast<std::uint64_t>(s.n));
  const Matrix X_query = normal_matrix(s.n, s.d, random), X_memory = normal_matrix(s.m, s.d, random);
  Projections w{normal_matrix(s.d, s.dk, random, 0.5), normal_matrix(s.d, s.dk, random, 0.5),
                normal_matrix(s.d, s.dv, random)};
  const Matrix G = normal_matrix(s.n, s.dv, random);
  for (const bool self : {false, true}) {
    const Matrix& X_m = self ? X_query : X_memory;
    if (self && s.n != s.m) continue;
    const auto loss = [&] { return (head_forward(X_query, X_m, w, divisor()).O.array() * G.array()).sum(); };
    const Projections g = head_backward(X_query, X_m, head_forward(X_query, X_m, w, divisor()), G, divisor());
    SCOPED_TRACE(self ? "self-attention" : "cross-attention");
    expect_same_gradient("dW_Q", g.W_Q, central_differences(w.W_Q, loss));
    expect_same_gradient("dW_K", g.W_K, central_differences(w.W_K, loss));
    expect_same_gradient("dW_V", g.W_V, central_differences(w.W_V, loss));
  }
}

// With a single key every weight is exactly 1, whatever the scores: nothing flows back to Q or K.
TEST(LearnBackward, OneKeyPassesNoGradientToQueriesOrKeys) {
  Random random(3);
  const Matrix Q = normal_matrix(4, 3, random), K = normal_matrix(1, 3, random), V = normal_matrix(1, 2, random);
  const Matrix P = Matrix::Ones(4, 1);
  const AttentionGradients g = attention_backward(Q, K, V, P, normal_matrix(4, 2, random), 1.0);
  EXPECT_EQ(g.dQ.cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ(g.dK.cwiseAbs().maxCoeff(), 0.0);
  EXPECT_GT(g.dV.cwiseAbs().maxCoeff(), 0.0);
}

INSTANTIATE_TEST_SUITE_P(ShapesAndScales, GradientCheck,
                         ::testing::Combine(::testing::ValuesIn(kShapes), ::testing::Bool()));

// The whole training loss (both tasks, all sequences) against its gradient, for both copies,
// from the session's own initialisation and after some training has moved the weights.
TEST(LearnGradient, TaskLossThroughTheOutputs) {
  for (const Task task : {Task::PreviousToken, Task::MatchingType}) {
    for (const int key_width : {3, 32}) {
      LearnSettings settings;
      settings.task = task;
      settings.key_width = key_width;
      settings.shape = {5, 3, 4};
      LearnSession session(settings);
      session.train(20);
      for (const Scaling scaling : {Scaling::ByRootDk, Scaling::Unscaled}) {
        const double divisor = scaling == Scaling::ByRootDk ? std::sqrt(double(key_width)) : 1.0;
        Projections w = session.projections(scaling);
        const auto loss = [&] { return evaluate(session.data(), w, divisor).record.loss; };
        const Projections g = evaluate(session.data(), w, divisor).gradients;
        SCOPED_TRACE(::testing::Message() << "dk " << key_width << (scaling == Scaling::ByRootDk ? " scaled" : " unscaled"));
        expect_same_gradient("dW_Q", g.W_Q, central_differences(w.W_Q, loss));
        expect_same_gradient("dW_K", g.W_K, central_differences(w.W_K, loss));
        expect_same_gradient("dW_V", g.W_V, central_differences(w.W_V, loss));
      }
    }
  }
}

TEST(LearnTask, PreviousTokenTargetsAreTheContentOfTheTokenBefore) {
  Random random(5);
  const TaskData data = make_task(Task::PreviousToken, {6, 3, 2}, random);
  ASSERT_EQ(data.queries.size(), 2u);
  const Matrix& x = data.memories[1];
  EXPECT_EQ(x.cols(), 9);
  EXPECT_EQ(data.queries[1], x);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(x(i, i), 1.0);
    EXPECT_EQ(x.row(i).head(6).sum(), 1.0);
    const int previous = (i + 5) % 6;
    EXPECT_EQ(data.answers[1][static_cast<std::size_t>(i)], previous);
    EXPECT_EQ(data.targets[1].row(i), x.row(previous).tail(3));
  }
}

TEST(LearnTask, MatchingTypeTargetsAreTheContentOfTheKeyOfTheSameType) {
  Random random(6);
  const TaskData data = make_task(Task::MatchingType, {7, 2, 3}, random);
  for (std::size_t b = 0; b < 3; ++b) {
    Eigen::Index type_q = 0, type_k = 0;
    for (int i = 0; i < 7; ++i) {
      const int j = data.answers[b][static_cast<std::size_t>(i)];
      data.queries[b].row(i).head(7).maxCoeff(&type_q);
      data.memories[b].row(j).head(7).maxCoeff(&type_k);
      EXPECT_EQ(type_q, type_k);
      EXPECT_EQ(data.targets[b].row(i), data.memories[b].row(j).tail(2));
    }
  }
  // The key of a given type moves between sequences, so position alone cannot answer.
  EXPECT_NE(data.answers[0], data.answers[1]);
}

TEST(LearnTask, SquaredErrorIsTheMeanOverEveryEntry) {
  const std::vector<Matrix> outputs{testing::rows({{1, 2}, {0, 0}})};
  const std::vector<Matrix> targets{testing::rows({{0, 0}, {0, 2}})};
  EXPECT_DOUBLE_EQ(squared_error(outputs, targets), (1 + 4 + 4) / 4.0);
  const Matrix d = squared_error_backward(outputs[0], targets[0], 4);
  EXPECT_EQ(d, testing::rows({{0.5, 1}, {0, -1}}));
}

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
  // In two calls: 600 steps at d_k = 256 pass the work one call may take (about a second).
  session.train(steps / 2);
  session.train(steps / 2);
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
  for (int piece = 0; piece < 3; ++piece) session.train(100);  // within one call's work each
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
  s.key_width = 64;
  s.shape = {64, 64, 64};
  LearnSession session(s);  // one step fits the budget …
  EXPECT_THAT(invalid_argument_message([&] { session.train(50); }),
              AllOf(HasSubstr("multiply-adds in one call"), HasSubstr("train in pieces of at most 3 steps")));
  EXPECT_EQ(session.steps_taken(Scaling::ByRootDk), 0);  // … fifty do not, and nothing was done
  // The widest setting: one step alone would take more than a call may.
  s.key_width = 4096;
  EXPECT_THAT(invalid_argument_message([&] { LearnSession wide(s); }), HasSubstr("one training step would take"));
}

TEST(LearnOptimiser, SgdStepsAgainstTheGradientAndChecksShapes) {
  Projections w{testing::rows({{1, 2}}), testing::rows({{3}}), testing::rows({{4}})};
  const Projections g{testing::rows({{1, -1}}), testing::rows({{2}}), testing::rows({{0}})};
  sgd_step(w, g, 0.5);
  EXPECT_EQ(w.W_Q, testing::rows({{0.5, 2.5}}));
  EXPECT_EQ(w.W_K(0, 0), 2.0);
  EXPECT_EQ(w.W_V(0, 0), 4.0);
  const Projections wrong{testing::rows({{1, -1}}), testing::rows({{2}}), testing::rows({{0, 1}})};
  EXPECT_THAT(invalid_argument_message([&] { sgd_step(w, wrong, 0.5); }), HasSubstr("gradient of W_V (1x2)"));
  EXPECT_EQ(w.W_Q, testing::rows({{0.5, 2.5}}));  // untouched by the refused step
}

TEST(LearnBackward, ShapeMistakesNameTheArgument) {
  const Matrix Q = Matrix::Ones(2, 3), K = Matrix::Ones(4, 3), V = Matrix::Ones(4, 2), P = Matrix::Constant(2, 4, 0.25);
  EXPECT_THAT(invalid_argument_message([&] { attention_backward(Q, K, V, P, Matrix::Ones(2, 3), 1.0); }),
              HasSubstr("dO (2x3) must have the output's shape 2x2"));
  EXPECT_THAT(invalid_argument_message([&] { attention_backward(Q, K, V, Matrix::Ones(2, 3), Matrix::Ones(2, 2), 1.0); }),
              HasSubstr("P (2x3) must have one column per key"));
  const Projections w{Matrix::Ones(3, 2), Matrix::Ones(3, 2), Matrix::Ones(2, 2)};
  EXPECT_THAT(invalid_argument_message([&] { head_forward(Matrix::Ones(2, 3), Matrix::Ones(2, 3), w, 1.0); }),
              HasSubstr("W_V (2x2)"));
}

}  // namespace
}  // namespace attn::learn
