#include "multi_head.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "budget.hpp"
#include "limits.hpp"
#include "check.hpp"

namespace attn {
namespace {

// Both forms share these; the names say which argument a message blames (the self form has
// one X, the cross form two).
MultiHeadLayout layout_of(const char* xq_name, MatrixIn Xq, const char* xkv_name, MatrixIn Xkv, MatrixIn WQ,
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
  budget::multiply_adds("multi-head attention (projections (2n + 2m)·d², scores 2·n·m·d, and each head's pairs)",
                        budget::sum({budget::product({budget::sum({n, n, m, m}), d, d}), budget::product({2, n, m, d}),
                                     budget::product({heads, n, m, limits::kPairWork})}));
  MultiHeadLayout layout;
  layout.n = Xq.rows();
  layout.m = Xkv.rows();
  layout.d = d;
  layout.heads = heads;
  return layout;
}

// Room for a few matrices of numbers: on the stack when small (a page-sized call allocates
// nothing), on the heap otherwise.
class Scratch {
 public:
  explicit Scratch(Eigen::Index entries) {
    if (entries > kStackEntries) {
      heap_.resize(entries, 1);
      data_ = heap_.data();
    }
  }
  double* data() { return data_; }

 private:
  static constexpr Eigen::Index kStackEntries = 6144;
  double stack_[kStackEntries];
  Eigen::VectorXd heap_;
  double* data_ = stack_;
};

void multi_head_into(const char* xq_name, MatrixIn Xq, const char* xkv_name, MatrixIn Xkv, MatrixIn WQ,
                     MatrixIn WK, MatrixIn WV, MatrixIn WO, int heads, const MultiHeadOptions& options,
                     double* results) {
  const MultiHeadLayout layout = layout_of(xq_name, Xq, xkv_name, Xkv, WQ, WK, WV, WO, heads, options);
  // The inputs' finiteness is read off the products: a non-finite entry of X or W_Q makes a row or
  // a column of Q = X·W_Q non-finite (0·∞ is NaN), and likewise for K, V and the output. So a good
  // call reads each input once, and a bad one names the first bad input before any overflow.
  const auto check_inputs = [&] {
    check::all_finite(xq_name, Xq);
    check::all_finite(xkv_name, Xkv);
    check::all_finite("W_Q", WQ);
    check::all_finite("W_K", WK);
    check::all_finite("W_V", WV);
    check::all_finite("W_O", WO);
  };

  // The projections are computed once at full width; head s reads columns [s·w, (s+1)·w).
  const Eigen::Index n = layout.n, m = layout.m, d = layout.d, w = layout.width();
  Scratch scratch(n * d + 2 * m * d);
  Eigen::Map<Matrix> Q(scratch.data(), n, d), K(scratch.data() + n * d, m, d), V(scratch.data() + (n + m) * d, m, d);
  multiply_into(Xq, WQ, Q);
  multiply_into(Xkv, WK, K);
  multiply_into(Xkv, WV, V);
  const auto finite_but_large = [](const char* x_name, const char* w_name) {
    return std::string(x_name) + " and " + w_name + " are finite, but their product passes the largest float64 (about 1.8e308)";
  };
  if (!check::finite(Q) || !check::finite(K) || !check::finite(V)) check_inputs();
  if (!check::finite(Q)) check::finite_result("Q = X·W_Q", Q, finite_but_large(xq_name, "W_Q"));
  if (!check::finite(K)) check::finite_result("K = X·W_K", K, finite_but_large(xkv_name, "W_K"));
  if (!check::finite(V)) check::finite_result("V = X·W_V", V, finite_but_large(xkv_name, "W_V"));

  AttentionOptions head_options;
  head_options.temperature = options.temperature;
  head_options.scale = std::sqrt(static_cast<double>(options.scale == HeadScale::HeadWidth ? w : d));
  const Mask* mask = options.mask ? &*options.mask : nullptr;

  double* next = results;
  const auto take = [&](Eigen::Index rows, Eigen::Index cols) {
    Eigen::Map<Matrix> block(next, rows, cols);
    next += rows * cols;
    return block;
  };
  double* const concat_data = results + heads * layout.head_entries();
  Eigen::Map<Matrix> concat(concat_data, n, d);
  for (int s = 0; s < heads; ++s) {
    const AttentionOut head{take(n, m), take(n, m), take(n, m), take(n, w)};
    try {
      attention_into(Q.middleCols(s * w, w), K.middleCols(s * w, w), V.middleCols(s * w, w), head_options, mask,
                     head);
    } catch (const std::invalid_argument& e) {
      check_inputs();  // a bad W_O is named ahead of a head's overflow
      throw std::invalid_argument("head " + std::to_string(s + 1) + " of " + std::to_string(heads) + ": " + e.what());
    }
    concat.middleCols(s * w, w) = head.output;
  }
  Eigen::Map<Matrix> output(concat_data + n * d, n, d);
  multiply_into(concat, WO, output);
  if (!check::finite(output)) check_inputs();
  check::finite_result("the output concat·W_O", output,
                       "the heads' outputs and W_O are finite, but their product passes the largest float64 (about 1.8e308)");
}

MultiHeadResult multi_head(const char* xq_name, MatrixIn Xq, const char* xkv_name, MatrixIn Xkv, MatrixIn WQ,
                           MatrixIn WK, MatrixIn WV, MatrixIn WO, int heads, const MultiHeadOptions& options) {
  const MultiHeadLayout layout = layout_of(xq_name, Xq, xkv_name, Xkv, WQ, WK, WV, WO, heads, options);
  Eigen::VectorXd results(layout.entries());
  multi_head_into(xq_name, Xq, xkv_name, Xkv, WQ, WK, WV, WO, heads, options, results.data());
  const Eigen::Index n = layout.n, m = layout.m, d = layout.d, w = layout.width();
  const double* next = results.data();
  const auto take = [&](Eigen::Index rows, Eigen::Index cols) {
    Matrix block = Eigen::Map<const Matrix>(next, rows, cols);
    next += rows * cols;
    return block;
  };
  MultiHeadResult result;
  result.heads.reserve(static_cast<std::size_t>(heads));
  for (int s = 0; s < heads; ++s) {
    AttentionResult head;
    head.raw_scores = take(n, m);
    head.scaled_scores = take(n, m);
    head.weights = take(n, m);
    head.output = take(n, w);
    result.heads.push_back(std::move(head));
  }
  result.concat = take(n, d);
  result.output = take(n, d);
  return result;
}

}  // namespace

MultiHeadLayout multi_head_layout(MatrixIn Xq, MatrixIn Xkv, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO,
                                  int heads, const MultiHeadOptions& options) {
  return layout_of("X (queries)", Xq, "X (keys and values)", Xkv, WQ, WK, WV, WO, heads, options);
}

void multi_head_into(MatrixIn Xq, MatrixIn Xkv, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO, int heads,
                     const MultiHeadOptions& options, double* results) {
  multi_head_into("X (queries)", Xq, "X (keys and values)", Xkv, WQ, WK, WV, WO, heads, options, results);
}

MultiHeadResult multi_head_attention(MatrixIn Xq, MatrixIn Xkv, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO,
                                     int heads, const MultiHeadOptions& options) {
  return multi_head("X (queries)", Xq, "X (keys and values)", Xkv, WQ, WK, WV, WO, heads, options);
}

MultiHeadResult multi_head_attention(MatrixIn X, MatrixIn WQ, MatrixIn WK, MatrixIn WV, MatrixIn WO, int heads,
                                     const MultiHeadOptions& options) {
  return multi_head("X", X, "X", X, WQ, WK, WV, WO, heads, options);
}

}  // namespace attn
