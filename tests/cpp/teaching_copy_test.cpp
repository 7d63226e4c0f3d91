// The page shows a short loop-by-loop function for one query (cpp/teaching/attend_one.hpp).
// These tests make sure that teaching copy computes the same thing as the core it explains.
#include "attend_one.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "attention.hpp"
#include "matrices.hpp"
#include "random.hpp"

namespace attn {
namespace {

using testing::rows;
using testing::worked_keys;
using testing::worked_values;
using teaching::Vec;

constexpr double kTolerance = 1e-12;

std::vector<Vec> to_rows(const Matrix& m) {
  std::vector<Vec> out(static_cast<std::size_t>(m.rows()), Vec(static_cast<std::size_t>(m.cols())));
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) out[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = m(i, j);
  }
  return out;
}

// Runs the teaching copy on every row of Q and compares it with the core's output row.
void expect_agreement(const Matrix& Q, const Matrix& K, const Matrix& V) {
  const AttentionResult core = attention(Q, K, V);
  const std::vector<Vec> queries = to_rows(Q);
  const std::vector<Vec> keys = to_rows(K);
  const std::vector<Vec> values = to_rows(V);
  for (Eigen::Index i = 0; i < Q.rows(); ++i) {
    const Vec mine = teaching::attend_one(queries[static_cast<std::size_t>(i)], keys, values);
    ASSERT_EQ(static_cast<Eigen::Index>(mine.size()), V.cols());
    for (Eigen::Index c = 0; c < V.cols(); ++c) {
      EXPECT_NEAR(mine[static_cast<std::size_t>(c)], core.output(i, c), kTolerance) << "query " << i << ", column " << c;
    }
  }
}

Matrix random_matrix(Random& random, Eigen::Index r, Eigen::Index c, double spread) {
  Matrix m(r, c);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = spread * random.normal();
  return m;
}

TEST(TeachingCopy, WorkedExampleOneQuery) {
  const Vec out = teaching::attend_one({1, 0}, to_rows(worked_keys()), to_rows(worked_values()));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0], 0.602, 5e-4);
  EXPECT_NEAR(out[1], 0.398, 5e-4);
  expect_agreement(rows({{1, 0}}), worked_keys(), worked_values());
}

TEST(TeachingCopy, WorkedExampleSharperQuery) {
  const Vec out = teaching::attend_one({4, 0}, to_rows(worked_keys()), to_rows(worked_values()));
  EXPECT_NEAR(out[0], 0.73, 5e-3);
  EXPECT_NEAR(out[1], 0.27, 5e-3);
  expect_agreement(rows({{4, 0}}), worked_keys(), worked_values());
}

TEST(TeachingCopy, WorkedExampleEveryTokenAsQuery) {
  expect_agreement(worked_keys(), worked_keys(), worked_values());
  const Vec third = teaching::attend_one({1, 1}, to_rows(worked_keys()), to_rows(worked_values()));
  EXPECT_NEAR(third[0], 0.5, kTolerance);
  EXPECT_NEAR(third[1], 0.5, kTolerance);
}

TEST(TeachingCopy, AgreesWithTheCoreOnRandomInputs) {
  Random random(2024);
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Index n = 1 + static_cast<Eigen::Index>(random.uniform() * 4);
    const Eigen::Index m = 1 + static_cast<Eigen::Index>(random.uniform() * 12);
    const Eigen::Index dk = 1 + static_cast<Eigen::Index>(random.uniform() * 16);
    const Eigen::Index dv = 1 + static_cast<Eigen::Index>(random.uniform() * 8);
    const double spread = 0.25 + 2.0 * random.uniform();
    SCOPED_TRACE(::testing::Message() << "trial " << trial << ": n=" << n << " m=" << m << " dk=" << dk << " dv=" << dv);
    expect_agreement(random_matrix(random, n, dk, spread), random_matrix(random, m, dk, spread),
                     random_matrix(random, m, dv, 1.0));
  }
}

TEST(TeachingCopy, LargeScoresDoNotOverflow) {
  // Raw scores of 1000 would overflow exp() without the shift by the top score.
  const Matrix K = rows({{1000, 0}, {0, 1000}, {1000, 1000}});
  const Vec out = teaching::attend_one({1, 1}, to_rows(K), to_rows(worked_values()));
  for (double x : out) EXPECT_TRUE(std::isfinite(x));
  expect_agreement(rows({{1, 1}}), K, worked_values());
}

}  // namespace
}  // namespace attn
