#include "toy_sentence.hpp"

#include <gtest/gtest.h>

#include <set>

#include "multi_head.hpp"
#include "row_stats.hpp"

namespace attn {
namespace {

enum Token { kThe = 0, kCat = 1, kSat = 2, kOn = 3, kThe2 = 4, kMat = 5, kBecause = 6, kIt = 7 };

MultiHeadResult run(int heads, double tau = 1.0) {
  const ToySentence& t = toy_sentence();
  MultiHeadOptions options;
  options.temperature = tau;
  return multi_head_attention(t.X, t.WQ, t.WK, t.WV, t.WO, heads, options);
}

Eigen::Index argmax_of_row(const Matrix& weights, Eigen::Index i) { return row_stats(weights).argmax(i); }

TEST(ToySentence, EightTokensSixteenNamedFeatures) {
  const ToySentence& t = toy_sentence();
  const std::vector<std::string> expected{"the", "cat", "sat", "on", "the", "mat", "because", "it"};
  EXPECT_EQ(t.tokens, expected);
  EXPECT_EQ(t.X.rows(), 8);
  EXPECT_EQ(t.X.cols(), 16);
  EXPECT_EQ(t.features.size(), 16u);
  EXPECT_EQ(t.X.cols() % 8, 0);
  EXPECT_EQ(t.head_jobs.size(), 4u);
  // Both "the"s have the same word features; only their positions differ.
  EXPECT_TRUE(t.X.row(kThe).head(12).isApprox(t.X.row(kThe2).head(12)));
}

TEST(ToySentence, FullWidthRowForItPutsItsLargestWeightOnCat) {
  const Matrix w = run(1).heads[0].weights;
  EXPECT_EQ(argmax_of_row(w, kIt), kCat);
}

TEST(ToySentence, TemperatureTurnsTheItRowOneHotOrFlat) {
  EXPECT_GT(run(1, 0.01).heads[0].weights(kIt, kCat), 0.99);
  const Matrix flat = run(1, 100).heads[0].weights;
  for (Eigen::Index j = 0; j < 8; ++j) EXPECT_NEAR(flat(kIt, j), 1.0 / 8, 0.01);
}

TEST(ToySentence, FourHeadsDoFourJobs) {
  const MultiHeadResult r = run(4);
  // slice 0, same word: each "the" looks at the two "the"s.
  const Matrix& same = r.heads[0].weights;
  EXPECT_GT(same(kThe, kThe) + same(kThe, kThe2), 0.8);
  EXPECT_GT(same(kThe2, kThe) + same(kThe2, kThe2), 0.8);
  EXPECT_EQ(argmax_of_row(same, kCat), kCat);
  // slice 1, pronoun → animal: "it" looks at "cat".
  EXPECT_GT(r.heads[1].weights(kIt, kCat), 0.9);
  // slice 2, verbs and relation words → nouns.
  const Matrix& nouns = r.heads[2].weights;
  for (Token from : {kSat, kOn, kBecause}) {
    EXPECT_GT(nouns(from, kCat) + nouns(from, kMat), 0.8) << "from token " << from;
  }
  // slice 3, previous word.
  const Matrix& previous = r.heads[3].weights;
  for (Eigen::Index i = 1; i < 8; ++i) EXPECT_EQ(argmax_of_row(previous, i), i - 1) << "from token " << i;
}

TEST(ToySentence, HeadsDisagreeAboutTheSameQuery) {
  const MultiHeadResult r = run(4);
  std::set<Eigen::Index> picks;
  for (const auto& head : r.heads) picks.insert(argmax_of_row(head.weights, kIt));
  EXPECT_GE(picks.size(), 3u);
}

TEST(ToySentence, CrossSentenceAlignsWithItsTranslation) {
  const ToySentence& t = toy_sentence();
  EXPECT_EQ(t.cross_tokens.size(), 3u);
  const MultiHeadResult r = multi_head_attention(t.cross_X, t.X, t.WQ, t.WK, t.WV, t.WO, 4);
  const Matrix& same = r.heads[0].weights;
  EXPECT_EQ(same.rows(), 3);
  EXPECT_EQ(same.cols(), 8);
  EXPECT_GT(same(0, kThe) + same(0, kThe2), 0.8);  // le → the
  EXPECT_EQ(argmax_of_row(same, 1), kCat);          // chat → cat
  EXPECT_EQ(argmax_of_row(same, 2), kSat);          // s'assit → sat
}

}  // namespace
}  // namespace attn
