#include "attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <stdexcept>
#include <vector>

#include "budget.hpp"
#include "limits.hpp"
#include "check.hpp"
#include "softmax.hpp"

#include "kernels.hpp"

namespace attn {
namespace {

// Shapes and the work budget of Q Kᵀ, before anything is allocated.
void check_scores(MatrixIn Q, MatrixIn K) {
  check::not_empty("Q", Q.rows(), Q.cols());
  check::not_empty("K", K.rows(), K.cols());
  check::same_cols("Q", Q, "K", K);
  budget::matrix("Q", Q.rows(), Q.cols());
  budget::matrix("K", K.rows(), K.cols());
  budget::matrix("the scores Q·Kᵀ", Q.rows(), K.rows());
}

// The shapes and the work budget of a whole attention call.
void check_attention_shapes(MatrixIn Q, MatrixIn K, MatrixIn V) {
  check_scores(Q, K);
  check::not_empty("V", V.rows(), V.cols());
  check::same_rows("K", K, "V", V);
  budget::matrix("V", V.rows(), V.cols());
  budget::matrix("the output", Q.rows(), V.cols());
  budget::multiply_adds("attention (Q·Kᵀ and weights·V, and each pair's score, weight and results)",
                        budget::product({Q.rows(), K.rows(), budget::sum({Q.cols(), V.cols(), limits::kPairWork})}));
}

// Why finite Q and K gave a non-finite score: before the scale divides (the dot product itself
// overflows) or after (a tiny scale).
std::string overflow_reason(double scale, bool before_scale) {
  return std::string("Q and K are finite, but their dot products ") +
         (before_scale ? "pass the largest float64 (about 1.8e308) before the scale " + check::number(scale) + " divides them"
                       : "divided by the scale " + check::number(scale) + " pass the largest float64 (about 1.8e308)") +
         "; make Q or K smaller" + (before_scale ? "" : " or the scale larger");
}

}  // namespace

Mask causal_mask(std::int64_t n, std::int64_t m) {
  check::positive_count("causal mask rows n", n);
  check::positive_count("causal mask columns m", m);
  // Checked as 64-bit numbers, before Eigen::Index (32 bits in WebAssembly) sees them.
  budget::matrix("the causal mask", n, m);
  Mask mask(n, m);
  for (Eigen::Index i = 0; i < mask.rows(); ++i) {
    for (Eigen::Index j = 0; j < mask.cols(); ++j) mask(i, j) = j <= i;
  }
  return mask;
}

namespace {

// C(i, col) = Σ_k A(i, k)·B(k, col), summed in the order of k, for one row i and the columns
// [col, col + width): the partial sums stay in registers while k runs. In WebAssembly the product
// runs on the 2-lane SIMD kernels' tiles (kernels::simd_f64(), 4 rows × 4 columns at a time),
// whose every lane does exactly this scalar form's multiplications and additions in the same
// order (there is no fused multiply-add in either), so native and WebAssembly builds give the same
// bits.
template <int kWidth>
void multiply_row_block(const double* a, Eigen::Index inner, const double* b, Eigen::Index ldb, double* c) {
  double s[kWidth] = {};
  for (Eigen::Index k = 0; k < inner; ++k) {
    const double x = a[k];
    const double* row = b + k * ldb;
    for (int l = 0; l < kWidth; ++l) s[l] += x * row[l];
  }
  for (int l = 0; l < kWidth; ++l) c[l] = s[l];
}

}  // namespace

void multiply_into(MatrixIn A, MatrixIn B, MatrixOut C) {
  const Eigen::Index rows = A.rows(), inner = A.cols(), cols = B.cols();
#ifdef __wasm_simd128__
  kernels::simd_f64().matmul(rows, cols, inner, A.data(), A.outerStride(), B.data(), B.outerStride(), C.data(),
                             C.outerStride(), false);
#else
  const Eigen::Index ldb = B.outerStride();
  for (Eigen::Index i = 0; i < rows; ++i) {
    const double* a = A.data() + i * A.outerStride();
    double* c = C.data() + i * C.outerStride();
    Eigen::Index col = 0;
    for (; col + 8 <= cols; col += 8) multiply_row_block<8>(a, inner, B.data() + col, ldb, c + col);
    for (; col + 2 <= cols; col += 2) multiply_row_block<2>(a, inner, B.data() + col, ldb, c + col);
    if (col < cols) multiply_row_block<1>(a, inner, B.data() + col, ldb, c + col);
  }
#endif
}

namespace {

// raw(i, j) = Q(i, :)·K(j, :), summed in the order of the width: Q times Kᵀ (dk×m), laid out so
// that the product reads contiguous keys. In WebAssembly Kᵀ is laid out as column panels
// (kernels.hpp), natively row-major. A small Kᵀ is laid out on the stack.
constexpr Eigen::Index kStackEntries = 4096;
void dot_scores_into(MatrixIn Q, MatrixIn K, MatrixOut raw) {
  const Eigen::Index m = K.rows(), dk = K.cols();
  double stack[kStackEntries];
  std::vector<double> heap;
#ifdef __wasm_simd128__
  const Eigen::Index entries = kernels::panel_entries<double>(dk, m);
#else
  const Eigen::Index entries = dk * m;
#endif
  double* storage = stack;
  if (entries > kStackEntries) {
    heap.resize(static_cast<std::size_t>(entries));
    storage = heap.data();
  }
#ifdef __wasm_simd128__
  kernels::write_column_panels_of_transpose(dk, m, K.data(), K.outerStride(), storage);
  kernels::simd_f64().matmul_panels(Q.rows(), m, dk, Q.data(), Q.outerStride(), storage, raw.data(),
                                    raw.outerStride(), false);
#else
  Eigen::Map<Matrix> Kt(storage, dk, m);
  for (Eigen::Index j = 0; j < m; ++j) {
    const double* key = K.data() + j * K.outerStride();
    for (Eigen::Index c = 0; c < dk; ++c) Kt(c, j) = key[c];
  }
  multiply_into(Q, Kt, raw);
#endif
}

// The row-wise softmax of softmax_rows (softmax.cpp), the same arithmetic, into `weights`; the
// caller has checked the scores, τ and the mask.
void softmax_rows_into(MatrixIn scores, double temperature, const Mask* mask, MatrixOut weights) {
  const Eigen::Index m = scores.cols();
  for (Eigen::Index i = 0; i < scores.rows(); ++i) {
    const double* l = scores.data() + i * scores.outerStride();
    double* w = weights.data() + i * weights.outerStride();
    const bool* allowed = mask != nullptr ? mask->data() + i * mask->cols() : nullptr;
    double row_max = -std::numeric_limits<double>::infinity();
    double sum = 0;
#ifdef __wasm_simd128__
    // The exponents (l − max)/τ, −∞ for a hidden key, then their exponentials 2 lanes at a time
    // (kernels::exp_f64x2, within 1 ulp of std::exp; a hidden key's is exactly 0).
    for (Eigen::Index j = 0; j < m; ++j) {
      if (allowed == nullptr || allowed[j]) row_max = std::max(row_max, l[j]);
    }
    for (Eigen::Index j = 0; j < m; ++j) {
      const double exponent = temperature == 1.0 ? l[j] - row_max : (l[j] - row_max) / temperature;
      w[j] = allowed == nullptr || allowed[j] ? exponent : -std::numeric_limits<double>::infinity();
    }
    sum = kernels::simd_f64().exp_sum(w, m, 0.0, 1.0);
#else
    if (allowed == nullptr) {
      for (Eigen::Index j = 0; j < m; ++j) row_max = std::max(row_max, l[j]);
      if (temperature == 1.0) {  // x / 1 is x exactly: the division is skipped, not the rounding changed
        for (Eigen::Index j = 0; j < m; ++j) sum += (w[j] = std::exp(l[j] - row_max));
      } else {
        for (Eigen::Index j = 0; j < m; ++j) sum += (w[j] = std::exp((l[j] - row_max) / temperature));
      }
    } else {
      for (Eigen::Index j = 0; j < m; ++j) {
        if (allowed[j]) row_max = std::max(row_max, l[j]);
      }
      for (Eigen::Index j = 0; j < m; ++j) sum += (w[j] = allowed[j] ? std::exp((l[j] - row_max) / temperature) : 0.0);
    }
#endif
    // sum ≥ 1: the maximum contributes exp(0)
    for (Eigen::Index j = 0; j < m; ++j) w[j] /= sum;
  }
}

void require_shape(const char* what, const MatrixOut& out, Eigen::Index rows, Eigen::Index cols) {
  if (out.rows() != rows || out.cols() != cols) {
    throw std::logic_error(std::string("attention_into: ") + what + " is " + check::shape_of(out) + ", expected " +
                           check::shape(rows, cols));
  }
}

}  // namespace

Matrix dot_scores(MatrixIn Q, MatrixIn K) {
  check_scores(Q, K);
  budget::multiply_adds("Q·Kᵀ", budget::product({Q.rows(), K.rows(), Q.cols()}));
  check::all_finite("Q", Q);
  check::all_finite("K", K);
  Matrix scores(Q.rows(), K.rows());
  dot_scores_into(Q, K, scores);
  if (!check::finite(scores)) check::finite_result("the scores Q·Kᵀ", scores, overflow_reason(1.0, false));
  return scores;
}

void attention_into(MatrixIn Q, MatrixIn K, MatrixIn V, const AttentionOptions& options, const Mask* mask,
                    AttentionOut out) {
  check_attention_shapes(Q, K, V);
  // The inputs' finiteness is read off the results: a non-finite entry of Q or K makes a whole row
  // or column of Q·Kᵀ non-finite, and one of V a column of the output (0·∞ is NaN). So a good call
  // reads each input once, and a bad one is checked in full, in the order of the messages: inputs
  // first, then the options, then the results.
  const auto check_inputs = [&] {
    check::all_finite("Q", Q);
    check::all_finite("K", K);
    check::all_finite("V", V);
  };
  try {
    if (options.scale != 0.0) check::positive_finite("scale", options.scale);
    check::positive_finite("temperature", options.temperature);
    if (mask != nullptr) {
      if (options.axis != SoftmaxAxis::Keys) throw std::invalid_argument("mask is only supported with the softmax over keys");
      check::usable_mask(*mask, Q.rows(), K.rows());
    }
  } catch (const std::invalid_argument&) {
    check_inputs();
    throw;
  }
  const Eigen::Index n = Q.rows(), m = K.rows();
  require_shape("raw_scores", out.raw_scores, n, m);
  require_shape("scaled_scores", out.scaled_scores, n, m);
  require_shape("weights", out.weights, n, m);
  require_shape("output", out.output, n, V.cols());

  const double scale = options.scale != 0.0 ? options.scale : std::sqrt(static_cast<double>(Q.cols()));
  dot_scores_into(Q, K, out.raw_scores);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double* raw = out.raw_scores.data() + i * out.raw_scores.outerStride();
    double* scaled = out.scaled_scores.data() + i * out.scaled_scores.outerStride();
    for (Eigen::Index j = 0; j < m; ++j) scaled[j] = raw[j] / scale;
  }
  // The messages are built only when a score overflowed.
  if (!check::finite(out.raw_scores)) {
    check_inputs();
    check::finite_result("the scores Q·Kᵀ", out.raw_scores, overflow_reason(scale, true));
  }
  if (!check::finite(out.scaled_scores)) {
    check::finite_result("the scaled scores Q·Kᵀ/scale", out.scaled_scores, overflow_reason(scale, false));
  }
  if (options.axis == SoftmaxAxis::Keys) {
    softmax_rows_into(out.scaled_scores, options.temperature, mask, out.weights);
  } else {
    out.weights = softmax_columns(out.scaled_scores, options.temperature);
  }
  multiply_into(out.weights, V, out.output);
  if (!check::finite(out.output)) check_inputs();
  check::finite_result("the output weights·V", out.output,
                       "V is finite, but its entries are so close to the largest float64 that their weighted sum passes it");
}

void attention_into(MatrixIn Q, MatrixIn K, MatrixIn V, const AttentionOptions& options, AttentionOut out) {
  attention_into(Q, K, V, options, options.mask ? &*options.mask : nullptr, out);
}

AttentionResult attention(MatrixIn Q, MatrixIn K, MatrixIn V, const AttentionOptions& options) {
  // Shapes and the budget are checked before anything is allocated.
  check_attention_shapes(Q, K, V);
  AttentionResult result;
  result.raw_scores.resize(Q.rows(), K.rows());
  result.scaled_scores.resize(Q.rows(), K.rows());
  result.weights.resize(Q.rows(), K.rows());
  result.output.resize(Q.rows(), V.cols());
  attention_into(Q, K, V, options, {result.raw_scores, result.scaled_scores, result.weights, result.output});
  return result;
}

}  // namespace attn
