// The page's running example: "the cat sat on the mat because it", eight tokens with a
// hand-built embedding of named features and hand-built projections; and the same embedding
// for any sentence of up to 16 tokens, built from each token's word and features.
//
// d_model = 64, in three parts:
//   columns  0–15  identity code: row w of a 16×16 Hadamard matrix, scaled by ¼, for the w-th
//                  distinct word, so up to 16 distinct words have orthogonal codes of length 1
//   columns 16–31  sixteen named features, 0 or 1 (pronoun, animate, verb, …)
//   columns 32–63  position: sixteen (cos, sin) pairs of angles 2πk·i/33, k = 1…16, scaled by
//                  ¼, so a place has length 1 and any two of 33 places meet at exactly −1/32:
//                  no two positions of a 16-token sentence look alike
// With h = 4 the four 16-wide slices each do one job:
//   slice 0  same word        (a word's identity code against every identity code: the ↔ the)
//   slice 1  pronoun → animate (the pronoun's query asks for the "animate" feature: it → cat)
//   slice 2  verb/relation → noun (sat, on, because look for cat and mat)
//   slice 3  previous word    (the eight slowest position pairs turned back one step)
#pragma once

#include <string>
#include <vector>

#include "types.hpp"

namespace attn {

constexpr int kSentenceModelWidth = 64;
constexpr int kSentenceMaxTokens = 16;     // also the number of orthogonal identity codes
constexpr int kSentenceFeatureCount = 16;  // named features, columns 16–31 of X
constexpr int kSentenceCodeColumn = 0;
constexpr int kSentenceFeatureColumn = 16;
constexpr int kSentencePositionColumn = 32;

// The named features, in the order of their columns (the names the JS API takes).
const std::vector<std::string>& sentence_feature_names();

// X (n×64) for a sentence of n tokens, 1 ≤ n ≤ 16, from `tokens`, n×17: column 0 is the
// token's word number w (a whole number 0…15: tokens of the same word share it, and it picks
// the identity code), columns 1–16 its features in the order of sentence_feature_names(),
// each exactly 0 (off) or 1 (on). Throws std::invalid_argument naming the entry otherwise.
Matrix sentence_embedding(MatrixIn tokens);

struct ToySentence {
  std::vector<std::string> tokens;          // 8 tokens
  std::vector<std::string> features;        // 64 column names, one per column of X
  std::vector<std::string> token_features;  // the 16 named features (columns 16–31)
  std::vector<std::string> head_jobs;       // what each slice does at h = 4
  Matrix token_table;                       // 8×17: the tokens' word numbers and features
  Matrix X;                                 // 8×64 embedding: sentence_embedding(token_table)
  Matrix WQ, WK, WV, WO;                    // 64×64 projections, the same for every sentence
  std::vector<std::string> cross_tokens;    // a short decoder sentence for cross-attention
  Matrix cross_X;                           // its embedding, same features
};

const ToySentence& toy_sentence();

}  // namespace attn
