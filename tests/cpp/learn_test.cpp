// The learn figure's core, its parts: the backward pass of one attention head against central
// finite differences, the tasks and their loss, and the optimiser. The two copies training side
// by side are tested in learn_session_test.cpp.
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

// A step's gradients come from the d×d products A = W_Q W_Kᵀ / s and G = Σ_b X_qbᵀ dS_b X_mb
// (training.cpp); they must equal the sum over sequences of the plain per-sequence pair,
// head_forward and head_backward, which reads like the maths.
TEST(LearnGradient, BatchedStepEqualsTheSumOverSequences) {
  for (const Task task : {Task::PreviousToken, Task::MatchingType}) {
    for (const int key_width : {4, 256}) {
      LearnSettings settings;
      settings.task = task;
      settings.key_width = key_width;
      LearnSession session(settings);
      session.train(30);
      for (const Scaling scaling : {Scaling::ByRootDk, Scaling::Unscaled}) {
        const double divisor = scaling == Scaling::ByRootDk ? std::sqrt(double(key_width)) : 1.0;
        const Projections& w = session.projections(scaling);
        const TaskData& data = session.data();
        const Eigen::Index total = static_cast<Eigen::Index>(data.targets.size()) * data.targets[0].size();
        Projections sum{Matrix::Zero(w.W_Q.rows(), w.W_Q.cols()), Matrix::Zero(w.W_K.rows(), w.W_K.cols()),
                        Matrix::Zero(w.W_V.rows(), w.W_V.cols())};
        double squared = 0;
        for (std::size_t b = 0; b < data.targets.size(); ++b) {
          const HeadForward f = head_forward(data.queries[b], data.memories[b], w, divisor);
          squared += (f.O - data.targets[b]).squaredNorm();
          const Projections g = head_backward(data.queries[b], data.memories[b], f,
                                              squared_error_backward(f.O, data.targets[b], total), divisor);
          sum.W_Q += g.W_Q;
          sum.W_K += g.W_K;
          sum.W_V += g.W_V;
        }
        const Evaluation e = evaluate(data, w, divisor);
        SCOPED_TRACE(::testing::Message() << "dk " << key_width << (scaling == Scaling::ByRootDk ? " scaled" : " unscaled"));
        EXPECT_NEAR(e.record.loss, squared / static_cast<double>(total), 1e-12);
        EXPECT_LE((e.gradients.W_Q - sum.W_Q).norm(), 1e-10 * sum.W_Q.norm());
        EXPECT_LE((e.gradients.W_K - sum.W_K).norm(), 1e-10 * sum.W_K.norm());
        EXPECT_LE((e.gradients.W_V - sum.W_V).norm(), 1e-10 * sum.W_V.norm());
        EXPECT_GT(sum.W_Q.norm(), 0);
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

TEST(LearnTask, SquaredErrorGradientIsTwiceTheDifferenceOverEveryEntry) {
  const Matrix d = squared_error_backward(testing::rows({{1, 2}, {0, 0}}), testing::rows({{0, 0}, {0, 2}}), 4);
  EXPECT_EQ(d, testing::rows({{0.5, 1}, {0, -1}}));
}

// The loss a step records is the mean squared error over every entry of every sequence's output.
TEST(LearnTask, LossIsTheMeanSquaredErrorOverEveryEntry) {
  LearnSettings settings;
  settings.task = Task::MatchingType;
  settings.key_width = 8;
  settings.shape = {5, 3, 4};
  LearnSession session(settings);
  const TaskData& data = session.data();
  // With W_V = 0 every output is 0, so the loss is the mean of the squared targets.
  Projections silent = session.projections(Scaling::Unscaled);
  silent.W_V.setZero();
  double target_squares = 0;
  for (const Matrix& t : data.targets) target_squares += t.squaredNorm();
  EXPECT_NEAR(evaluate(data, silent, 1.0).record.loss, target_squares / (4 * 5 * 3), 1e-12);
  // And at the session's own start, from each sequence's forward pass.
  const Projections& w = session.projections(Scaling::ByRootDk);
  const double divisor = std::sqrt(8.0);
  double squares = 0;
  for (std::size_t b = 0; b < data.targets.size(); ++b) {
    squares += (head_forward(data.queries[b], data.memories[b], w, divisor).O - data.targets[b]).squaredNorm();
  }
  const double loss = evaluate(data, w, divisor).record.loss;
  EXPECT_GT(loss, 0.1);
  EXPECT_NEAR(loss, squares / (4 * 5 * 3), 1e-12);
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
