#include "multi_head.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "check.hpp"

namespace attn {

MultiHeadResult multi_head_attention(MatrixIn Xq, MatrixIn Xkv, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO,
                                     int heads, const MultiHeadOptions& options) {
  check::not_empty("X (queries)", Xq.rows(), Xq.cols());
  check::not_empty("X (keys and values)", Xkv.rows(), Xkv.cols());
  check::same_cols("X (queries)", Xq, "X (keys and values)", Xkv);
  const Eigen::Index d = Xq.cols();
  check::square("W_Q", WQ, d);
  check::square("W_K", WK, d);
  check::square("W_V", WV, d);
  check::square("W_O", WO, d);
  check::positive_count("heads h", heads);
  if (d % heads != 0) {
    throw std::invalid_argument("heads h = " + std::to_string(heads) + " must divide d_model = " + std::to_string(d));
  }

  // The projections are computed once at full width; head s reads columns [s·w, (s+1)·w).
  const Matrix Q = Xq * WQ;
  const Matrix K = Xkv * WK;
  const Matrix V = Xkv * WV;
  const Eigen::Index w = d / heads;

  AttentionOptions head_options;
  head_options.temperature = options.temperature;
  head_options.mask = options.mask;
  head_options.scale = std::sqrt(static_cast<double>(options.scale == HeadScale::HeadWidth ? w : d));

  MultiHeadResult result;
  result.concat.resize(Xq.rows(), d);
  for (int s = 0; s < heads; ++s) {
    result.heads.push_back(attention(Q.middleCols(s * w, w), K.middleCols(s * w, w), V.middleCols(s * w, w),
                                     head_options));
    result.concat.middleCols(s * w, w) = result.heads.back().output;
  }
  result.output = result.concat * WO;
  return result;
}

MultiHeadResult multi_head_attention(MatrixIn X, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO, int heads,
                                     const MultiHeadOptions& options) {
  return multi_head_attention(X, X, WQ, WK, WV, WO, heads, options);
}

}  // namespace attn
