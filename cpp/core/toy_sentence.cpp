#include "toy_sentence.hpp"

#include <cmath>
#include <stdexcept>

#include "check.hpp"

namespace attn {
namespace {

// The named features, columns 16–31 of X. The heads read five of them (pronoun, animate, verb,
// relation, noun); the rest ride along in the values.
enum Feature {
  kPronoun, kAnimate, kVerb, kRelation, kNoun, kDeterminer, kPlace, kCause,
  kAdjective, kAdverb, kNumber, kName, kPlural, kTime, kNegation, kPunctuation,
  kFeatureCount,
};
static_assert(kFeatureCount == kSentenceFeatureCount, "one name per feature column");

constexpr int kPairs = 16;             // position pairs in X
constexpr int kPreviousPairs = 8;      // the slowest pairs, which the previous-word slice reads
constexpr double kPlaces = 33;         // the angles' period: places 0…32 are all distinct
constexpr double kPi = 3.14159265358979323846;

// How strongly each slice's query meets its key. Chosen so that each slice's job stands out
// at τ = 1 and the pronoun's pull wins the full-width row of "it".
constexpr double kSameWordGain = 16;      // slice 0, on codes of length 1
constexpr double kPronounGain = 72;       // slice 1
constexpr double kRelationGain = 16;      // slice 2
constexpr double kPreviousWordGain = 64;  // slice 3, on the eight pairs, whose peak is ½

double angle(int pair, double place) { return 2 * kPi * (pair + 1) * place / kPlaces; }

// Sylvester's Hadamard matrix of order 16: entry (r, c) is (−1)^popcount(r & c).
double hadamard(int r, int c) {
  int bits = r & c, parity = 0;
  while (bits != 0) {
    parity ^= bits & 1;
    bits >>= 1;
  }
  return parity == 0 ? 1.0 : -1.0;
}

// Writes into W the map (x, y) ↦ rotation of (x, y) back by `a`, times `gain`, taking the
// input pair from rows (r, r+1) to output columns (c, c+1). Place i becomes place i−1.
void rotate_back(Matrix& W, int r, int c, double a, double gain) {
  W(r, c) = gain * std::cos(a);
  W(r + 1, c) = gain * std::sin(a);
  W(r, c + 1) = -gain * std::sin(a);
  W(r + 1, c + 1) = gain * std::cos(a);
}

struct Word {
  const char* text;
  int word;  // which identity code
  std::vector<Feature> on;
};

// The rows of `tokens` sentence_embedding takes.
Matrix token_table(const std::vector<Word>& words, std::vector<std::string>& texts) {
  Matrix table = Matrix::Zero(static_cast<Eigen::Index>(words.size()), 1 + kFeatureCount);
  for (Eigen::Index i = 0; i < table.rows(); ++i) {
    const Word& w = words[static_cast<std::size_t>(i)];
    texts.emplace_back(w.text);
    table(i, 0) = w.word;
    for (Feature f : w.on) table(i, 1 + f) = 1;
  }
  return table;
}

// Word numbers in order of first use; the decoder sentence reuses the English words' codes:
// "le" means "the" and so on.
const Word kThe{"the", 0, {kDeterminer}};
const Word kCat{"cat", 1, {kNoun, kAnimate}};
const Word kSat{"sat", 2, {kVerb}};
const Word kOn{"on", 3, {kRelation, kPlace}};
const Word kMat{"mat", 4, {kNoun, kPlace}};
const Word kBecause{"because", 5, {kRelation, kCause}};
const Word kIt{"it", 6, {kPronoun}};
const Word kLe{"le", 0, {kDeterminer}};
const Word kChat{"chat", 1, {kNoun, kAnimate}};
const Word kAssis{"s'assit", 2, {kVerb}};

ToySentence build() {
  ToySentence toy;
  toy.token_features = sentence_feature_names();
  for (int c = 0; c < 16; ++c) toy.features.push_back("code " + std::to_string(c + 1));
  for (const auto& name : toy.token_features) toy.features.push_back(name);
  for (int k = 0; k < kPairs; ++k) {
    toy.features.push_back("pos cos " + std::to_string(k + 1));
    toy.features.push_back("pos sin " + std::to_string(k + 1));
  }
  toy.head_jobs = {"same word", "pronoun → animate", "verb or relation → noun", "previous word"};
  toy.token_table = token_table({kThe, kCat, kSat, kOn, kThe, kMat, kBecause, kIt}, toy.tokens);
  toy.X = sentence_embedding(toy.token_table);
  toy.cross_X = sentence_embedding(token_table({kLe, kChat, kAssis}, toy.cross_tokens));

  constexpr int d = kSentenceModelWidth;
  toy.WQ = Matrix::Zero(d, d);
  toy.WK = Matrix::Zero(d, d);
  // slice 0 (columns 0–15): identity code against identity code; the gain is split evenly.
  const double same = std::sqrt(kSameWordGain);
  for (int c = 0; c < 16; ++c) {
    toy.WQ(kSentenceCodeColumn + c, c) = same;
    toy.WK(kSentenceCodeColumn + c, c) = same;
  }
  // slice 1 (column 16): a pronoun asks for something animate.
  const double pronoun = std::sqrt(kPronounGain);
  toy.WQ(kSentenceFeatureColumn + kPronoun, 16) = pronoun;
  toy.WK(kSentenceFeatureColumn + kAnimate, 16) = pronoun;
  // slice 2 (column 32): verbs and relation words ask for nouns.
  const double relation = std::sqrt(kRelationGain);
  toy.WQ(kSentenceFeatureColumn + kVerb, 32) = relation;
  toy.WQ(kSentenceFeatureColumn + kRelation, 32) = relation;
  toy.WK(kSentenceFeatureColumn + kNoun, 32) = relation;
  // slice 3 (columns 48–63): the query is the place one step back; the key is the place.
  const double previous = std::sqrt(kPreviousWordGain);
  for (int k = 0; k < kPreviousPairs; ++k) {
    const int row = kSentencePositionColumn + 2 * k;
    rotate_back(toy.WQ, row, 48 + 2 * k, angle(k, 1), previous);
    toy.WK(row, 48 + 2 * k) = previous;
    toy.WK(row + 1, 48 + 2 * k + 1) = previous;
  }

  // Values carry the features unchanged and W_O keeps the heads' outputs as they are, so an
  // output row reads as a blend of the attended words' features.
  toy.WV = Matrix::Identity(d, d);
  toy.WO = Matrix::Identity(d, d);
  return toy;
}

}  // namespace

const std::vector<std::string>& sentence_feature_names() {
  static const std::vector<std::string> names{
      "pronoun", "animate", "verb", "relation", "noun", "determiner", "place", "cause",
      "adjective", "adverb", "number", "name", "plural", "time", "negation", "punctuation"};
  return names;
}

Matrix sentence_embedding(MatrixIn tokens) {
  const Eigen::Index n = tokens.rows();
  if (n < 1 || n > kSentenceMaxTokens || tokens.cols() != 1 + kFeatureCount) {
    throw std::invalid_argument("tokens (" + check::shape_of(tokens) + ") must have 1 to " +
                                std::to_string(kSentenceMaxTokens) + " rows and " +
                                std::to_string(1 + kFeatureCount) +
                                " columns (the word number, then one column per feature)");
  }
  Matrix X = Matrix::Zero(n, kSentenceModelWidth);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double w = tokens(i, 0);
    if (!(w >= 0 && w < kSentenceMaxTokens && w == std::floor(w))) {
      throw std::invalid_argument("tokens: word number of token " + std::to_string(i) + " is " + check::number(w) +
                                  "; it must be a whole number from 0 to " +
                                  std::to_string(kSentenceMaxTokens - 1));
    }
    for (int f = 0; f < kFeatureCount; ++f) {
      const double v = tokens(i, 1 + f);
      if (v != 0 && v != 1) {
        throw std::invalid_argument("tokens: feature \"" + sentence_feature_names()[static_cast<std::size_t>(f)] +
                                    "\" of token " + std::to_string(i) + " is " + check::number(v) +
                                    "; a feature must be exactly 0 (off) or 1 (on)");
      }
      X(i, kSentenceFeatureColumn + f) = v;
    }
    const int word = static_cast<int>(w);
    for (int c = 0; c < 16; ++c) X(i, kSentenceCodeColumn + c) = 0.25 * hadamard(word, c);
    for (int k = 0; k < kPairs; ++k) {
      const double a = angle(k, static_cast<double>(i));
      X(i, kSentencePositionColumn + 2 * k) = 0.25 * std::cos(a);
      X(i, kSentencePositionColumn + 2 * k + 1) = 0.25 * std::sin(a);
    }
  }
  return X;
}

const ToySentence& toy_sentence() {
  static const ToySentence toy = build();
  return toy;
}

}  // namespace attn
