#include "multi_head.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "budget.hpp"
#include "check.hpp"

namespace attn {
namespace {

// Both forms share this; the names say which argument a message blames (the self form has
// one X, the cross form two).
MultiHeadResult multi_head(const char* xq_name, MatrixIn Xq, const char* xkv_name, MatrixIn Xkv, MatrixIn WQ,
                           MatrixIn WK, MatrixIn WV, MatrixIn WO, int heads, const MultiHeadOptions& options) {
  check::not_empty(xq_name, Xq.rows(), Xq.cols());
  check::not_empty(xkv_name, Xkv.rows(), Xkv.cols());
  check::same_cols(xq_name, Xq, xkv_name, Xkv);
  const Eigen::Index d = Xq.cols();
  check::square("W_Q", WQ, d);
  check::square("W_K", WK, d);
  check::square("W_V", WV, d);
  check::square("W_O", WO, d);
  check::positive_count("heads h", heads);
  if (d % heads != 0) {
    throw std::invalid_argument("heads h = " + std::to_string(heads) + " must divide d_model = " + std::to_string(d));
  }
  check::positive_finite("temperature", options.temperature);

  // The work budget, before anything is allocated: every matrix, and all heads' n×m scores
  // together (each head keeps three of them).
  const std::int64_t n = Xq.rows(), m = Xkv.rows();
  budget::matrix(xq_name, n, d);
  budget::matrix(xkv_name, m, d);
  budget::matrix("W_Q", d, d);
  budget::entries("the scores of all heads (h·n·m)", budget::product({heads, n, m}));
  budget::multiply_adds("multi-head attention (projections (2n + 2m)·d² and scores 2·n·m·d)",
                        budget::sum({budget::product({budget::sum({n, n, m, m}), d, d}), budget::product({2, n, m, d})}));

  check::all_finite(xq_name, Xq);
  check::all_finite(xkv_name, Xkv);
  check::all_finite("W_Q", WQ);
  check::all_finite("W_K", WK);
  check::all_finite("W_V", WV);
  check::all_finite("W_O", WO);

  // The projections are computed once at full width; head s reads columns [s·w, (s+1)·w).
  const Matrix Q = Xq * WQ;
  const Matrix K = Xkv * WK;
  const Matrix V = Xkv * WV;
  const std::string finite_but_large = " are finite, but their product passes the largest float64 (about 1.8e308)";
  check::finite_result("Q = X·W_Q", Q, std::string(xq_name) + " and W_Q" + finite_but_large);
  check::finite_result("K = X·W_K", K, std::string(xkv_name) + " and W_K" + finite_but_large);
  check::finite_result("V = X·W_V", V, std::string(xkv_name) + " and W_V" + finite_but_large);
  const Eigen::Index w = d / heads;

  AttentionOptions head_options;
  head_options.temperature = options.temperature;
  head_options.mask = options.mask;
  head_options.scale = std::sqrt(static_cast<double>(options.scale == HeadScale::HeadWidth ? w : d));

  MultiHeadResult result;
  result.concat.resize(Xq.rows(), d);
  for (int s = 0; s < heads; ++s) {
    try {
      result.heads.push_back(attention(Q.middleCols(s * w, w), K.middleCols(s * w, w), V.middleCols(s * w, w),
                                       head_options));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("head " + std::to_string(s + 1) + " of " + std::to_string(heads) + ": " + e.what());
    }
    result.concat.middleCols(s * w, w) = result.heads.back().output;
  }
  result.output = result.concat * WO;
  check::finite_result("the output concat·W_O", result.output,
                       "the heads' outputs and W_O are finite, but their product passes the largest float64 (about 1.8e308)");
  return result;
}

}  // namespace

MultiHeadResult multi_head_attention(MatrixIn Xq, MatrixIn Xkv, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO,
                                     int heads, const MultiHeadOptions& options) {
  return multi_head("X (queries)", Xq, "X (keys and values)", Xkv, WQ, WK, WV, WO, heads, options);
}

MultiHeadResult multi_head_attention(MatrixIn X, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO, int heads,
                                     const MultiHeadOptions& options) {
  return multi_head("X", X, "X", X, WQ, WK, WV, WO, heads, options);
}

}  // namespace attn
