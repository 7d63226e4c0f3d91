#include "toy_sentence.hpp"

#include <cmath>

namespace attn {
namespace {

// Feature columns of the embedding.
enum Feature {
  kCode0, kCode1, kCode2, kCode3,  // word identity code, ±½ per entry: a word dotted with itself gives 1
  kPronoun, kAnimate, kVerb, kRelation, kNoun, kDeterminer, kPlace, kCause,
  kPosCos, kPosSin, kPosCos2, kPosSin2,  // position i as angles iθ and 2iθ
  kFeatureCount,
};

constexpr int kModelWidth = kFeatureCount;   // 16
constexpr double kAngle = 3.14159265358979323846 / 6;  // θ: 12 steps go once round the circle

// How strongly each slice's query meets its key. Chosen so that each slice's job stands out
// at τ = 1 and the pronoun's pull wins the full-width row of "it".
constexpr double kSameWordGain = 8;       // slice 0: a² on the identity code
constexpr double kPronounGain = 36;       // slice 1
constexpr double kRelationGain = 8;       // slice 2
constexpr double kPreviousWordGain = 8;   // slice 3

struct Word {
  const char* text;
  int code[4];            // ±1, halved when written into X
  std::vector<Feature> on;
};

// Identity codes: rows of a 4×4 Hadamard matrix and their negations, so two different words
// score 0 or −1 and a word with itself scores +1.
const Word kThe{"the", {1, 1, 1, 1}, {kDeterminer}};
const Word kCat{"cat", {1, -1, 1, -1}, {kNoun, kAnimate}};
const Word kSat{"sat", {1, 1, -1, -1}, {kVerb}};
const Word kOn{"on", {1, -1, -1, 1}, {kRelation, kPlace}};
const Word kMat{"mat", {-1, 1, 1, -1}, {kNoun, kPlace}};
const Word kBecause{"because", {-1, -1, 1, 1}, {kRelation, kCause}};
const Word kIt{"it", {-1, 1, -1, 1}, {kPronoun}};
// The decoder sentence reuses the English words' identity codes: "le" means "the" and so on.
const Word kLe{"le", {1, 1, 1, 1}, {kDeterminer}};
const Word kChat{"chat", {1, -1, 1, -1}, {kNoun, kAnimate}};
const Word kAssis{"s'assit", {1, 1, -1, -1}, {kVerb}};

Matrix embed(const std::vector<Word>& words, std::vector<std::string>& tokens) {
  Matrix X = Matrix::Zero(static_cast<Eigen::Index>(words.size()), kModelWidth);
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    const Word& w = words[i];
    tokens.emplace_back(w.text);
    for (int c = 0; c < 4; ++c) X(i, kCode0 + c) = 0.5 * w.code[c];
    for (Feature f : w.on) X(i, f) = 1;
    const double a = kAngle * static_cast<double>(i);
    X(i, kPosCos) = std::cos(a);
    X(i, kPosSin) = std::sin(a);
    X(i, kPosCos2) = std::cos(2 * a);
    X(i, kPosSin2) = std::sin(2 * a);
  }
  return X;
}

// Writes into W the map (x, y) ↦ rotation of (x, y) back by `angle`, times `gain`, taking the
// input pair from rows (r, r+1) to output columns (c, c+1). Position i becomes position i−1.
void rotate_back(Matrix& W, int r, int c, double angle, double gain) {
  W(r, c) = gain * std::cos(angle);
  W(r + 1, c) = gain * std::sin(angle);
  W(r, c + 1) = -gain * std::sin(angle);
  W(r + 1, c + 1) = gain * std::cos(angle);
}

ToySentence build() {
  ToySentence toy;
  toy.features = {"code 1", "code 2", "code 3", "code 4", "pronoun", "animate", "verb", "relation",
                  "noun", "determiner", "place", "cause", "pos cos", "pos sin", "pos cos 2", "pos sin 2"};
  toy.head_jobs = {"same word", "pronoun → animal", "verb or relation → noun", "previous word"};
  toy.X = embed({kThe, kCat, kSat, kOn, kThe, kMat, kBecause, kIt}, toy.tokens);
  toy.cross_X = embed({kLe, kChat, kAssis}, toy.cross_tokens);

  toy.WQ = Matrix::Zero(kModelWidth, kModelWidth);
  toy.WK = Matrix::Zero(kModelWidth, kModelWidth);
  // slice 0 (columns 0–3): identity code against identity code; the gain is split evenly.
  const double same = std::sqrt(kSameWordGain);
  for (int c = 0; c < 4; ++c) {
    toy.WQ(kCode0 + c, c) = same;
    toy.WK(kCode0 + c, c) = same;
  }
  // slice 1 (column 4): a pronoun asks for something animate.
  const double pronoun = std::sqrt(kPronounGain);
  toy.WQ(kPronoun, 4) = pronoun;
  toy.WK(kAnimate, 4) = pronoun;
  // slice 2 (column 8): verbs and relation words ask for nouns.
  const double relation = std::sqrt(kRelationGain);
  toy.WQ(kVerb, 8) = relation;
  toy.WQ(kRelation, 8) = relation;
  toy.WK(kNoun, 8) = relation;
  // slice 3 (columns 12–15): the query is the position one step back; the key is the position.
  const double previous = std::sqrt(kPreviousWordGain);
  rotate_back(toy.WQ, kPosCos, 12, kAngle, previous);
  rotate_back(toy.WQ, kPosCos2, 14, 2 * kAngle, previous);
  for (int c = 12; c < 16; ++c) toy.WK(c, c) = previous;

  // Values carry the features unchanged and W_O keeps the heads' outputs as they are, so an
  // output row reads as a blend of the attended words' features.
  toy.WV = Matrix::Identity(kModelWidth, kModelWidth);
  toy.WO = Matrix::Identity(kModelWidth, kModelWidth);
  return toy;
}

}  // namespace

const ToySentence& toy_sentence() {
  static const ToySentence toy = build();
  return toy;
}

}  // namespace attn
