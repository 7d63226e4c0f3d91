// The page's running example: "the cat sat on the mat because it", eight tokens with a
// hand-built embedding of named features and hand-built projections.
//
// d_model = 16. With h = 4 the four 4-wide slices each do one job:
//   slice 0  same word        (a word's identity code against every identity code: the ↔ the)
//   slice 1  pronoun → animal (the pronoun's query asks for the "animate" feature: it → cat)
//   slice 2  verb/relation → noun (sat, on, because look for cat and mat)
//   slice 3  previous word    (a rotated position code: each token looks one step back)
#pragma once

#include <string>
#include <vector>

#include "types.hpp"

namespace attn {

struct ToySentence {
  std::vector<std::string> tokens;         // 8 tokens
  std::vector<std::string> features;       // 16 feature names, one per column of X
  std::vector<std::string> head_jobs;      // what each slice does at h = 4
  Matrix X;                                // 8×16 embedding
  Matrix WQ, WK, WV, WO;                   // 16×16 projections
  std::vector<std::string> cross_tokens;   // a short decoder sentence for cross-attention
  Matrix cross_X;                          // its embedding, same features
};

const ToySentence& toy_sentence();

}  // namespace attn
