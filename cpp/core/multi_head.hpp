// Multi-head attention: h heads, each scaled dot-product attention in a slice of width d/h.
#pragma once

#include <optional>
#include <vector>

#include "attention.hpp"

namespace attn {

enum class HeadScale {
  HeadWidth,   // divide each head's scores by √(d/h): the right one
  ModelWidth,  // divide by √d: a common mistake, shown on the page
};

struct MultiHeadOptions {
  double temperature = 1.0;
  std::optional<Mask> mask;
  HeadScale scale = HeadScale::HeadWidth;
};

struct MultiHeadResult {
  std::vector<AttentionResult> heads;  // one per head; output is n×(d/h)
  Matrix concat;                       // n×d  the heads' outputs side by side
  Matrix output;                       // n×d  concat · W_O
};

// Cross form: queries from Xq (n×d), keys and values from Xkv (m×d); W_* are d×d.
MultiHeadResult multi_head_attention(MatrixIn Xq, MatrixIn Xkv, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO,
                                     int heads, const MultiHeadOptions& options = {});

// Self form: queries, keys and values all from X.
MultiHeadResult multi_head_attention(MatrixIn X, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO, int heads,
                                     const MultiHeadOptions& options = {});

}  // namespace attn
