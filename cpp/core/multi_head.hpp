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

// Where multi_head_into writes its results, one after another in one buffer of entries():
// head by head its raw scores, scaled scores and weights (n×m each) and output (n×w, w = d/h),
// then the heads' outputs side by side (n×d), then the output concat·W_O (n×d).
struct MultiHeadLayout {
  Eigen::Index n = 0, m = 0, d = 0, heads = 1;
  Eigen::Index width() const { return d / heads; }
  Eigen::Index head_entries() const { return 3 * n * m + n * width(); }
  Eigen::Index entries() const { return heads * head_entries() + 2 * n * d; }
};

// Checks the shapes and the work budget of the cross form (its messages), and gives the layout.
MultiHeadLayout multi_head_layout(MatrixIn Xq, MatrixIn Xkv, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO,
                                  int heads, const MultiHeadOptions& options = {});

// The cross form written into `results` (multi_head_layout(…).entries() numbers) instead of new
// matrices: no allocation on a good call of page size. The same numbers as multi_head_attention.
void multi_head_into(MatrixIn Xq, MatrixIn Xkv, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO, int heads,
                     const MultiHeadOptions& options, double* results);

// Self form: queries, keys and values all from X.
MultiHeadResult multi_head_attention(MatrixIn X, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO, int heads,
                                     const MultiHeadOptions& options = {});

}  // namespace attn
