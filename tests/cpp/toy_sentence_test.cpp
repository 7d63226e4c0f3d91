#include "toy_sentence.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "attention.hpp"
#include "multi_head.hpp"
#include "row_stats.hpp"

namespace attn {
namespace {

enum Token { kThe = 0, kCat = 1, kSat = 2, kOn = 3, kThe2 = 4, kMat = 5, kBecause = 6, kIt = 7 };

MultiHeadResult run(MatrixIn X, int heads, double tau = 1.0) {
  const ToySentence& t = toy_sentence();
  MultiHeadOptions options;
  options.temperature = tau;
  return multi_head_attention(X, t.WQ, t.WK, t.WV, t.WO, heads, options);
}

MultiHeadResult run(int heads, double tau = 1.0) { return run(toy_sentence().X, heads, tau); }

Eigen::Index argmax_of_row(const Matrix& weights, Eigen::Index i) { return row_stats(weights).argmax(i); }

// ---- a sentence written compactly: "word/letters", one letter per feature ------------------
// p pronoun, a animate, v verb, r relation, n noun, d determiner, l place, c cause,
// j adjective, b adverb, u number, m name, s plural, t time, x negation, . punctuation
constexpr const char* kLetters = "pavrndlcjbumstx.";

struct Sentence {
  std::vector<std::string> words;  // lower-cased
  Matrix table;                    // n×17, as sentence_embedding takes it
  bool has(Eigen::Index i, char letter) const {
    return table(i, 1 + static_cast<Eigen::Index>(std::string(kLetters).find(letter))) == 1;
  }
};

Sentence parse(const std::string& text) {
  Sentence s;
  std::istringstream in(text);
  std::vector<std::string> items;
  for (std::string item; in >> item;) items.push_back(item);
  s.table = Matrix::Zero(static_cast<Eigen::Index>(items.size()), 17);
  std::map<std::string, int> numbers;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto slash = items[i].rfind('/');
    std::string word = items[i].substr(0, slash);
    std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return std::tolower(c); });
    s.words.push_back(word);
    const int number = numbers.emplace(word, static_cast<int>(numbers.size())).first->second;
    const auto r = static_cast<Eigen::Index>(i);
    s.table(r, 0) = number;
    for (char letter : items[i].substr(slash + 1)) {
      const auto f = std::string(kLetters).find(letter);
      if (f == std::string::npos) throw std::logic_error("unknown feature letter in " + items[i]);
      s.table(r, 1 + static_cast<Eigen::Index>(f)) = 1;
    }
  }
  return s;
}

// The sentences each head's job is checked on: 2 to 16 tokens, repeated words, several nouns,
// pronouns with and without something animate to point at.
const std::vector<std::string> kSentences{
    "the/d cat/na sat/v on/rl the/d mat/nl because/rc it/p",
    "the/d dog/na chased/v the/d ball/n because/rc it/p was/v fast/j ./.",
    "the/d ball/n hit/v the/d dog/na because/rc it/p was/v hard/j",
    "she/p gave/v the/d girl/na a/d book/n ./.",
    "birds/nas fly/v",
    "it/p barked/v",
    "the/d horse/na jumped/v over/rl the/d fence/n and/r it/p landed/v softly/b ./.",
    "my/d sister/na fed/v the/d cat/na ,/. and/r then/bt she/p slept/v ./.",
    "a/d man/na walked/v into/rl a/d bar/nl ./.",
    "the/d teacher/na told/v the/d class/n that/r he/p was/v late/jt ./.",
    "children/nas love/v dogs/nas because/rc they/p play/v ./.",
    "the/d fox/na saw/v the/d crow/na and/r the/d cheese/n ,/. then/bt it/p smiled/v ./.",
    "on/rl the/d table/nl sat/v a/d cup/n ./.",
    "the/d pilot/na flew/v the/d plane/n to/r paris/nlm because/rc she/p could/v ./.",
    "a/d b/n a/d b/n a/d b/n a/d b/n",
    "one/u two/u three/u four/u five/u six/u seven/u eight/u nine/u ten/u eleven/u twelve/u thirteen/u "
    "fourteen/u fifteen/u sixteen/u",
    "the/d old/j farmer/na sold/v his/p cow/na to/r the/d young/j butcher/na in/rl the/d town/nl "
    "market/nl on/rl monday/nt",
    "nobody/p saw/v the/d cat/na ./.",
    "the/d rain/n fell/v and/r the/d river/nl rose/v ./.",
    "when/rt the/d baby/na cried/v ,/. her/p mother/na sang/v ./.",
    "the/d robot/n lifted/v the/d box/n because/rc it/p could/v ./.",
    "The/d Cat/na saw/v the/d cat/na ./.",
    "he/p and/r she/p and/r it/p and/r they/p and/r we/p and/r you/p and/r i/p and/r me/p",
};

TEST(SentenceEmbedding, TheTableHasAtLeastTwentySentences) { EXPECT_GE(kSentences.size(), 20u); }

TEST(SentenceEmbedding, IdentityCodesAreOrthogonalForSixteenDistinctWords) {
  Matrix table = Matrix::Zero(16, 17);
  for (int i = 0; i < 16; ++i) table(i, 0) = i;
  const Matrix X = sentence_embedding(table);
  const Matrix codes = X.leftCols(16);
  const Matrix gram = codes * codes.transpose();
  EXPECT_LT((gram - Matrix::Identity(16, 16)).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(SentenceEmbedding, SameWordSameCodeWhateverItsPlace) {
  const Sentence s = parse("the/d cat/na saw/v the/d dog/na");
  const Matrix X = sentence_embedding(s.table);
  EXPECT_EQ(X.row(0).head(32), X.row(3).head(32));
  EXPECT_NE(X.row(0).tail(32), X.row(3).tail(32));
}

TEST(SentenceEmbedding, PositionsDoNotAliasOverSixteenTokens) {
  Matrix table = Matrix::Zero(16, 17);
  const Matrix X = sentence_embedding(table);  // one word sixteen times: only places differ
  const Matrix places = X.rightCols(32);
  const Matrix gram = places * places.transpose();
  for (Eigen::Index i = 0; i < 16; ++i) {
    for (Eigen::Index j = 0; j < 16; ++j) {
      EXPECT_NEAR(gram(i, j), i == j ? 1.0 : -1.0 / 32, 1e-12) << i << ", " << j;
    }
  }
  // And the previous-word slice tells every place's predecessor from all the others.
  const Matrix previous = run(X, 4).heads[3].weights;  // a copy: the result is a temporary
  for (Eigen::Index i = 1; i < 16; ++i) {
    EXPECT_EQ(argmax_of_row(previous, i), i - 1) << "from place " << i;
    EXPECT_GT(previous(i, i - 1), 0.5) << "from place " << i;
  }
}

TEST(SentenceEmbedding, FeaturesAreCopiedIntoTheirColumns) {
  const Sentence s = parse("the/d dog/na ran/v");
  const Matrix X = sentence_embedding(s.table);
  const auto& names = sentence_feature_names();
  ASSERT_EQ(names.size(), 16u);
  EXPECT_EQ(names[1], "animate");
  EXPECT_EQ(X(1, 16 + 1), 1);  // dog is animate
  EXPECT_EQ(X(1, 16 + 4), 1);  // and a noun
  EXPECT_EQ(X(2, 16 + 1), 0);
  EXPECT_EQ(X.cols(), kSentenceModelWidth);
}

TEST(SentenceEmbedding, RefusesBadTables) {
  EXPECT_THROW(sentence_embedding(Matrix::Zero(0, 17)), std::invalid_argument);
  EXPECT_THROW(sentence_embedding(Matrix::Zero(17, 17)), std::invalid_argument);
  EXPECT_THROW(sentence_embedding(Matrix::Zero(3, 16)), std::invalid_argument);
  Matrix table = Matrix::Zero(2, 17);
  table(1, 0) = 16;
  EXPECT_THROW(sentence_embedding(table), std::invalid_argument);
  table(1, 0) = 1.5;
  EXPECT_THROW(sentence_embedding(table), std::invalid_argument);
  table(1, 0) = -1;
  EXPECT_THROW(sentence_embedding(table), std::invalid_argument);
  table(1, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(sentence_embedding(table), std::invalid_argument);
  table(1, 0) = 1;
  table(0, 5) = 0.5;
  try {
    sentence_embedding(table);
    FAIL() << "a feature of 0.5 was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("feature \"noun\" of token 0"), std::string::npos) << e.what();
  }
}

// Each head's job, on every sentence of the table.
class HeadJobs : public ::testing::TestWithParam<std::string> {};

TEST_P(HeadJobs, EachSliceDoesItsJob) {
  const Sentence s = parse(GetParam());
  const Matrix X = sentence_embedding(s.table);
  const auto n = X.rows();
  const MultiHeadResult r = run(X, 4);
  for (Eigen::Index i = 0; i < n; ++i) {
    // slice 0, same word: all of a word's copies (itself included) take most of its weight.
    double same = 0;
    for (Eigen::Index j = 0; j < n; ++j) same += s.words[i] == s.words[j] ? r.heads[0].weights(i, j) : 0;
    EXPECT_GT(same, 0.75) << "same word, from " << s.words[i] << " (token " << i << ")";
    // slice 1, pronoun → animate: where the sentence has something animate.
    bool any_animate = false;
    for (Eigen::Index j = 0; j < n; ++j) any_animate |= s.has(j, 'a');
    if (s.has(i, 'p') && any_animate) {
      EXPECT_TRUE(s.has(argmax_of_row(r.heads[1].weights, i), 'a')) << "pronoun " << s.words[i] << " (token " << i << ")";
      double animate = 0;
      for (Eigen::Index j = 0; j < n; ++j) animate += s.has(j, 'a') ? r.heads[1].weights(i, j) : 0;
      EXPECT_GT(animate, 0.9) << "pronoun " << s.words[i];
    }
    // slice 2, verb or relation word → noun: where the sentence has a noun.
    bool any_noun = false;
    for (Eigen::Index j = 0; j < n; ++j) any_noun |= s.has(j, 'n');
    if ((s.has(i, 'v') || s.has(i, 'r')) && any_noun) {
      EXPECT_TRUE(s.has(argmax_of_row(r.heads[2].weights, i), 'n')) << "from " << s.words[i] << " (token " << i << ")";
      double nouns = 0;
      for (Eigen::Index j = 0; j < n; ++j) nouns += s.has(j, 'n') ? r.heads[2].weights(i, j) : 0;
      EXPECT_GT(nouns, 0.7) << "from " << s.words[i];
    }
    // slice 3, previous word.
    if (i > 0) {
      EXPECT_EQ(argmax_of_row(r.heads[3].weights, i), i - 1) << "from token " << i;
    }
  }
}

TEST_P(HeadJobs, OneHeadIsSingleHeadAttention) {
  const ToySentence& t = toy_sentence();
  const Matrix X = sentence_embedding(parse(GetParam()).table);
  const MultiHeadResult one = run(X, 1);
  const AttentionResult direct = attention(X * t.WQ, X * t.WK, X * t.WV);
  EXPECT_LT((one.heads[0].weights - direct.weights).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((one.output - direct.output * t.WO).cwiseAbs().maxCoeff(), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Sentences, HeadJobs, ::testing::ValuesIn(kSentences));

// ---- the lesson's sentence and what the page says about it ---------------------------------

TEST(ToySentence, EightTokensAndNamedFeatures) {
  const ToySentence& t = toy_sentence();
  const std::vector<std::string> expected{"the", "cat", "sat", "on", "the", "mat", "because", "it"};
  EXPECT_EQ(t.tokens, expected);
  EXPECT_EQ(t.X.rows(), 8);
  EXPECT_EQ(t.X.cols(), 64);
  EXPECT_EQ(t.features.size(), 64u);
  EXPECT_EQ(t.token_features, sentence_feature_names());
  EXPECT_EQ(t.X.cols() % 16, 0);  // h = 16 divides the width
  EXPECT_EQ(t.head_jobs.size(), 4u);
  EXPECT_EQ(t.X, sentence_embedding(t.token_table));
  // Both "the"s have the same word features; only their positions differ.
  EXPECT_TRUE(t.X.row(kThe).head(32).isApprox(t.X.row(kThe2).head(32)));
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
  // slice 1, pronoun → animate: "it" looks at "cat".
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

TEST(ToySentence, SixteenHeadsSplitTheWidth) {
  const MultiHeadResult r = run(16);
  EXPECT_EQ(r.heads.size(), 16u);
  EXPECT_EQ(r.heads[0].output.cols(), 4);
}

TEST(ToySentence, HeadsDisagreeAboutTheSameQuery) {
  const MultiHeadResult r = run(4);
  std::set<Eigen::Index> picks;
  for (const auto& head : r.heads) picks.insert(argmax_of_row(head.weights, kIt));
  EXPECT_GE(picks.size(), 3u);
}

TEST(ToySentence, TheWorkedFailureSendsItToTheAnimateNoun) {
  // "the ball hit the dog because it was hard": the pronoun head reads animacy, not sense.
  const Sentence s = parse(kSentences[2]);
  const Matrix X = sentence_embedding(s.table);
  EXPECT_EQ(argmax_of_row(run(X, 4).heads[1].weights, 6), 4);
  EXPECT_EQ(argmax_of_row(run(X, 1).heads[0].weights, 6), 4);
  // Marking "ball" animate instead moves it.
  Sentence swapped = s;
  for (Eigen::Index i : {1, 4}) swapped.table(i, 2) = 1 - swapped.table(i, 2);
  EXPECT_EQ(argmax_of_row(run(sentence_embedding(swapped.table), 1).heads[0].weights, 6), 1);
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
