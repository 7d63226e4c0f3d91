#include "attention_f32.hpp"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "float_matrices.hpp"
#include "limits.hpp"
#include "matrices.hpp"

namespace attn {
namespace {

using testing::invalid_argument_message;
using testing::float_kernel_sets;
using testing::random_rows;
using testing::relative_gap;
using testing::rows;
using testing::to_float;
using testing::worked_keys;
using testing::worked_values;
using ::testing::HasSubstr;

// Every matrix of the float32 result within 1e-5 of the float64 one, relative to its largest entry.
void expect_agreement(const Matrix& Q, const Matrix& K, const Matrix& V, const AttentionOptions& options,
                      const kernels::Kernels<float>& set) {
  const AttentionResult exact = attention(Q, K, V, options);
  const AttentionResultF fast = attention(to_float(Q), to_float(K), to_float(V), options, set);
  EXPECT_LT(relative_gap(fast.raw_scores, exact.raw_scores), 1e-5) << set.name;
  EXPECT_LT(relative_gap(fast.scaled_scores, exact.scaled_scores), 1e-5) << set.name;
  EXPECT_LT(relative_gap(fast.weights, exact.weights), 1e-5) << set.name;
  EXPECT_LT(relative_gap(fast.output, exact.output), 1e-5) << set.name;
  // The output-only form: the same output, from one n×m block in place.
  const MatrixF alone = attention_output(to_float(Q), to_float(K), to_float(V), options, set);
  EXPECT_LT(relative_gap(alone, exact.output), 1e-5) << set.name;
}

struct Shape {
  Eigen::Index n, m, dk, dv;
};
const Shape kShapes[] = {{1, 3, 2, 2}, {8, 8, 16, 16}, {5, 13, 7, 3}, {33, 70, 17, 9}, {64, 64, 64, 64}, {3, 257, 64, 8}};

TEST(AttentionF32, AgreesWithFloat64AcrossShapes) {
  for (const auto* set : float_kernel_sets()) {
    for (const Shape& s : kShapes) {
      SCOPED_TRACE(::testing::Message() << s.n << "x" << s.m << " dk=" << s.dk << " dv=" << s.dv);
      // spread 2 gives scaled scores of several units: weights far from uniform
      const Matrix Q = random_rows(s.n, s.dk, 1, 2.0), K = random_rows(s.m, s.dk, 2, 2.0), V = random_rows(s.m, s.dv, 3);
      expect_agreement(Q, K, V, {}, *set);
    }
  }
}

TEST(AttentionF32, AgreesWithFloat64WithOptions) {
  const Matrix Q = random_rows(12, 16, 4, 3.0), K = random_rows(20, 16, 5, 3.0), V = random_rows(20, 5, 6);
  for (const auto* set : float_kernel_sets()) {
    AttentionOptions sharp;
    sharp.temperature = 0.25;
    expect_agreement(Q, K, V, sharp, *set);
    AttentionOptions unscaled;
    unscaled.scale = 1.0;
    unscaled.temperature = 3.0;
    expect_agreement(Q, K, V, unscaled, *set);
    AttentionOptions causal;
    causal.mask = causal_mask(12, 20);
    expect_agreement(Q, K, V, causal, *set);
    AttentionOptions holes;
    holes.mask = (random_rows(12, 20, 7).array() > -0.3).matrix();
    holes.mask->col(0).setConstant(true);  // no row is fully hidden
    expect_agreement(Q, K, V, holes, *set);
    AttentionOptions wrong_axis;
    wrong_axis.axis = SoftmaxAxis::Queries;
    expect_agreement(Q, K, V, wrong_axis, *set);
  }
}

// attention_into over one buffer mapped as four matrices (as the boundary does) gives the
// numbers attention(…) gives, for sizes around the blocks of query rows (4 to 64 rows, by m), with a
// mask and on the wrong axis; and the blocked output-only form agrees with both.
TEST(AttentionF32, IntoOneBufferGivesTheSameBitsAcrossRowBlocks) {
  using MapF = Eigen::Map<MatrixF>;
  const Shape shapes[] = {{1, 1, 1, 1}, {3, 5, 4, 2}, {65, 256, 8, 5}, {130, 70, 16, 9}, {9, 4100, 4, 3}, {67, 1, 3, 2}};
  for (const auto* set : float_kernel_sets()) {
    for (const Shape& s : shapes) {
      SCOPED_TRACE(::testing::Message() << set->name << " " << s.n << "x" << s.m << " dk=" << s.dk << " dv=" << s.dv);
      const MatrixF Q = to_float(random_rows(s.n, s.dk, 11, 2.0)), K = to_float(random_rows(s.m, s.dk, 12, 2.0));
      const MatrixF V = to_float(random_rows(s.m, s.dv, 13));
      AttentionOptions causal;
      causal.mask = causal_mask(s.n, s.m);
      AttentionOptions wrong_axis;
      wrong_axis.axis = SoftmaxAxis::Queries;
      AttentionOptions sharp;
      sharp.temperature = 0.3;
      for (const AttentionOptions* options : {&sharp, &causal, &wrong_axis}) {
        const AttentionResultF expected = attention(Q, K, V, *options, *set);
        const Eigen::Index scores = s.n * s.m;
        std::vector<float> room(3 * scores + s.n * s.dv, -7.0f);
        attention_into(Q, K, V, *options,
                       {MapF(room.data(), s.n, s.m), MapF(room.data() + scores, s.n, s.m),
                        MapF(room.data() + 2 * scores, s.n, s.m), MapF(room.data() + 3 * scores, s.n, s.dv)},
                       *set);
        EXPECT_EQ(MapF(room.data(), s.n, s.m), expected.raw_scores);
        EXPECT_EQ(MapF(room.data() + scores, s.n, s.m), expected.scaled_scores);
        // Eigen's exponential (the portable set) takes a scalar path for entries before the first
        // 16-byte boundary: the same numbers to float32 rounding, not the same bits, at another address.
        const auto gap = [](const MapF& a, const MatrixF& b) { return relative_gap(a.cast<double>(), b.cast<double>()); };
        EXPECT_LT(gap(MapF(room.data() + 2 * scores, s.n, s.m), expected.weights), 1e-6);
        EXPECT_LT(gap(MapF(room.data() + 3 * scores, s.n, s.dv), expected.output), 1e-6);
        const MatrixF alone = attention_output(Q, K, V, *options, *set);
        EXPECT_LT(relative_gap(alone.cast<double>(), expected.output.cast<double>()), 1e-5);
        // every row of the weights sums to 1
        EXPECT_LT((expected.weights.cast<double>().rowwise().sum().array() - 1).abs().maxCoeff(),
                  options->axis == SoftmaxAxis::Keys ? 1e-5 : 1e9);
      }
    }
  }
}

TEST(AttentionF32, IntoRefusesWrongShapes) {
  const MatrixF Q = to_float(rows({{1, 0}})), K = to_float(worked_keys()), V = to_float(worked_values());
  MatrixF raw(1, 3), scaled(1, 3), weights(1, 3), output(1, 3);
  EXPECT_THROW(attention_into(Q, K, V, {}, {raw, scaled, weights, output}), std::logic_error);
}

TEST(AttentionF32, WorkedExampleAndMaskedZeros) {
  for (const auto* set : float_kernel_sets()) {
    const AttentionResultF r = attention(MatrixF(rows({{1, 0}}).cast<float>()), to_float(worked_keys()),
                                         to_float(worked_values()), {}, *set);
    EXPECT_NEAR(r.weights(0, 0), 0.401, 5e-4);
    EXPECT_NEAR(r.weights(0, 1), 0.198, 5e-4);
    EXPECT_NEAR(r.output(0, 0), 0.602, 5e-4);
    const MatrixF X = random_rows(6, 4, 8).cast<float>();
    AttentionOptions causal;
    causal.mask = causal_mask(6, 6);
    const AttentionResultF c = attention(X, X, X, causal, *set);
    for (Eigen::Index i = 0; i < 6; ++i) {
      for (Eigen::Index j = i + 1; j < 6; ++j) EXPECT_EQ(c.weights(i, j), 0.0f);
      EXPECT_NEAR(c.weights.row(i).sum(), 1.0f, 1e-6);
    }
    EXPECT_EQ(c.weights(0, 0), 1.0f);
  }
}

TEST(AttentionF32, TinyTemperatureSharesTiesAndStaysFinite) {
  for (const auto* set : float_kernel_sets()) {
    AttentionOptions frozen;
    frozen.temperature = 1e-300;  // 1/τ is far past float's range
    const AttentionResultF r = attention(MatrixF(rows({{1, 0}}).cast<float>()), to_float(worked_keys()),
                                         to_float(worked_values()), frozen, *set);
    EXPECT_EQ(r.weights(0, 0), 0.5f);
    EXPECT_EQ(r.weights(0, 1), 0.0f);
    EXPECT_EQ(r.weights(0, 2), 0.5f);
    EXPECT_TRUE(r.output.allFinite());
    const MatrixF alone = attention_output(MatrixF(rows({{1, 0}}).cast<float>()), to_float(worked_keys()),
                                           to_float(worked_values()), frozen, *set);
    EXPECT_EQ(alone, r.output);
  }
}

TEST(AttentionF32, HugeTemperatureWithAMaskIsUniformNotNaN) {
  // Found by the fuzzer: τ = 1e60 made 1/τ round to 0 in float32, and a masked key's −∞ times 0
  // is NaN. The row must be uniform over the keys the mask leaves.
  for (const auto* set : float_kernel_sets()) {
    AttentionOptions hot;
    hot.temperature = 1e60;
    hot.mask = Mask::Constant(1, 3, true);
    (*hot.mask)(0, 1) = false;
    const AttentionResultF r = attention(MatrixF(rows({{1, 0}}).cast<float>()), to_float(worked_keys()),
                                         to_float(worked_values()), hot, *set);
    EXPECT_FLOAT_EQ(r.weights(0, 0), 0.5f);
    EXPECT_EQ(r.weights(0, 1), 0.0f);
    EXPECT_FLOAT_EQ(r.weights(0, 2), 0.5f);
    EXPECT_TRUE(r.output.allFinite());
    const MatrixF alone = attention_output(MatrixF(rows({{1, 0}}).cast<float>()), to_float(worked_keys()),
                                           to_float(worked_values()), hot, *set);
    EXPECT_TRUE(alone.allFinite());
    EXPECT_LT(relative_gap(alone, Matrix(r.output.cast<double>())), 1e-6);
  }
}

TEST(AttentionF32, ATinyScaleWithZeroScoresIsNotNaN) {
  // Found by the fuzzer: scale = 1e-300 passes the score bound when K is all zeros, and 1/scale
  // overflowed float32 to ∞, so 0 · ∞ gave NaN scores.
  for (const auto* set : float_kernel_sets()) {
    AttentionOptions tiny;
    tiny.scale = 1e-300;
    const AttentionResultF r = attention(MatrixF(rows({{10}}).cast<float>()), MatrixF(rows({{0}, {0}}).cast<float>()),
                                         MatrixF(rows({{1, 2}, {3, 4}}).cast<float>()), tiny, *set);
    EXPECT_TRUE(r.scaled_scores.allFinite());
    EXPECT_FLOAT_EQ(r.output(0, 0), 2.0f);
    EXPECT_FLOAT_EQ(r.output(0, 1), 3.0f);
    const MatrixF alone = attention_output(MatrixF(rows({{10}}).cast<float>()), MatrixF(rows({{0}, {0}}).cast<float>()),
                                           MatrixF(rows({{1, 2}, {3, 4}}).cast<float>()), tiny, *set);
    EXPECT_FLOAT_EQ(alone(0, 0), 2.0f);
    EXPECT_FLOAT_EQ(alone(0, 1), 3.0f);
  }
}

TEST(AttentionF32, RefusesWhatFloat64RefusesWithTheSameWords) {
  const std::vector<std::function<void(bool)>> calls = {
      [](bool f32) {
        const Matrix Q = rows({{1, 0, 0}});
        f32 ? (void)attention(to_float(Q), to_float(worked_keys()), to_float(worked_values()))
            : (void)attention(Q, worked_keys(), worked_values());
      },
      [](bool f32) {
        const Matrix V = rows({{1, 0}});
        f32 ? (void)attention(to_float(rows({{1, 0}})), to_float(worked_keys()), to_float(V))
            : (void)attention(rows({{1, 0}}), worked_keys(), V);
      },
      [](bool f32) {
        const Matrix Q(0, 2);
        f32 ? (void)attention(to_float(Q), to_float(worked_keys()), to_float(worked_values()))
            : (void)attention(Q, worked_keys(), worked_values());
      },
      [](bool f32) {
        const Matrix Q = rows({{1, NAN}});
        f32 ? (void)attention(to_float(Q), to_float(worked_keys()), to_float(worked_values()))
            : (void)attention(Q, worked_keys(), worked_values());
      },
      [](bool f32) {
        AttentionOptions o;
        o.temperature = 0;
        f32 ? (void)attention(to_float(rows({{1, 0}})), to_float(worked_keys()), to_float(worked_values()), o)
            : (void)attention(rows({{1, 0}}), worked_keys(), worked_values(), o);
      },
      [](bool f32) {
        AttentionOptions o;
        o.mask = Mask::Constant(1, 3, false);
        f32 ? (void)attention(to_float(rows({{1, 0}})), to_float(worked_keys()), to_float(worked_values()), o)
            : (void)attention(rows({{1, 0}}), worked_keys(), worked_values(), o);
      },
      [](bool f32) {
        AttentionOptions o;
        o.mask = Mask::Constant(2, 3, true);
        f32 ? (void)attention(to_float(rows({{1, 0}})), to_float(worked_keys()), to_float(worked_values()), o)
            : (void)attention(rows({{1, 0}}), worked_keys(), worked_values(), o);
      },
  };
  for (const auto& call : calls) {
    const std::string expected = invalid_argument_message([&] { call(false); });
    EXPECT_FALSE(expected.empty());
    EXPECT_EQ(invalid_argument_message([&] { call(true); }), expected);
  }
  // The output-only form refuses with the same words: the first and the last cases, by hand.
  EXPECT_EQ(invalid_argument_message([] { attention_output(to_float(rows({{1, 0, 0}})), to_float(worked_keys()),
                                                           to_float(worked_values())); }),
            invalid_argument_message([] { attention(rows({{1, 0, 0}}), worked_keys(), worked_values()); }));
  AttentionOptions wrong_rows;
  wrong_rows.mask = Mask::Constant(2, 3, true);
  EXPECT_EQ(invalid_argument_message([&] { attention_output(to_float(rows({{1, 0}})), to_float(worked_keys()),
                                                            to_float(worked_values()), wrong_rows); }),
            invalid_argument_message([&] { attention(rows({{1, 0}}), worked_keys(), worked_values(), wrong_rows); }));
}

TEST(AttentionF32, RefusesScoresPastFloat32AndTheWorkBudget) {
  const MatrixF huge = MatrixF::Constant(2, 2, 1e20f);
  EXPECT_THAT(invalid_argument_message([&] { attention(huge, huge, huge); }),
              HasSubstr("Q and K are too large for float32: scores could reach 2e+40"));
  EXPECT_THAT(invalid_argument_message([&] { attention_output(huge, huge, huge); }),
              HasSubstr("Q and K are too large for float32: scores could reach 2e+40"));
  const MatrixF near_largest = MatrixF::Constant(2, 2, 1e38f);
  EXPECT_THAT(invalid_argument_message([&] { attention(MatrixF::Ones(2, 2), MatrixF::Ones(2, 2), near_largest); }),
              HasSubstr("V is too large for float32"));
  // 4097² scores pass the 2^24-entry budget: refused before anything n×m is allocated
  const MatrixF column = MatrixF::Ones(4097, 1);
  EXPECT_THAT(invalid_argument_message([&] { attention(column, column, column); }),
              HasSubstr("the scores Q·Kᵀ would be 4097x4097 = 16785409 entries, past the limit"));
}

}  // namespace
}  // namespace attn
