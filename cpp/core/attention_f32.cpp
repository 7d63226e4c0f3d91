#include "attention_f32.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"
#include "check_float.hpp"

namespace attn {
namespace {

// Softmax of each row of W (rows×cols, in place) with exponent factor 1/τ; entries already set
// to −∞ (masked keys) come out as exactly 0.
void softmax_rows_in_place(const kernels::Kernels<float>& k, MatrixF& W, float inverse_temperature) {
  for (Eigen::Index i = 0; i < W.rows(); ++i) {
    float* row = W.row(i).data();
    // pass 1: the row's largest allowed score, so that every exponent is ≤ 0
    const float row_max = k.row_max(row, W.cols());
    // pass 2: exponentials of the shifted scores, and their sum (≥ 1: the maximum gives exp(0))
    const float sum = k.exp_sum(row, W.cols(), row_max, inverse_temperature);
    // pass 3: normalise
    k.scale(row, W.cols(), 1.0f / sum);
  }
}

// The checks both forms make, in the order and words of the float64 form, then float32's own
// range. Returns the scale (√dk unless options.scale is set).
double checked_scale(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options) {
  check::attention_shapes("attention (Q·Kᵀ and weights·V)", Q.rows(), Q.cols(), K.rows(), K.cols(), V.rows(),
                          V.cols(), /*forms_scores=*/true, /*single=*/true);
  const float largest_q = check::finite_magnitude("Q", Q);
  const float largest_k = check::finite_magnitude("K", K);
  const float largest_v = check::finite_magnitude("V", V);
  if (options.scale != 0.0) check::positive_finite("scale", options.scale);
  check::positive_finite("temperature", options.temperature);
  if (options.mask) {
    if (options.axis != SoftmaxAxis::Keys) throw std::invalid_argument("mask is only supported with the softmax over keys");
    check::usable_mask(*options.mask, Q.rows(), K.rows());
  }
  const double scale = options.scale != 0.0 ? options.scale : std::sqrt(static_cast<double>(Q.cols()));
  check::scores_in_range("float32", Q.cols(), largest_q, largest_k, scale, FLT_MAX);
  check::values_in_range("float32", largest_v, FLT_MAX);
  return scale;
}

// Kᵀ (dk×m) laid out once as column panels (kernels.hpp), so that each tile of Q Kᵀ reads its
// keys in memory order.
std::vector<float> key_panels(MatrixFIn K) {
  std::vector<float> panels(static_cast<std::size_t>(kernels::panel_entries<float>(K.cols(), K.rows())));
  kernels::write_column_panels_of_transpose(K.cols(), K.rows(), K.data(), K.outerStride(), panels.data());
  return panels;
}

// 1/x clamped to float's normal range. 1/scale: a scale of 1e-300 with all-zero scores passes
// the bound check, and 0 · ∞ would be NaN. 1/τ: a τ so small that it overflows makes the row
// one-hot either way; a τ so large that 1/τ rounds to 0 makes every row uniform either way, but 0
// would turn a masked key's −∞ into 0·∞ = NaN.
float clamped_inverse(double x) { return static_cast<float>(std::fmax(std::fmin(1.0 / x, FLT_MAX), FLT_MIN)); }

// Query rows per block: the block's n×m rows of scores stay within about 64 KiB (in the first
// cache levels while they are scaled, exponentiated and multiplied by V), in multiples of the
// product kernel's 4-row tile, from 4 to 64 rows.
Eigen::Index rows_per_block(Eigen::Index m) {
  const Eigen::Index rows = (16384 / std::max<Eigen::Index>(m, 1)) / 4 * 4;
  return std::min<Eigen::Index>(64, std::max<Eigen::Index>(4, rows));
}

// One query row's scores (count entries) in place: masked keys to −∞ (exactly 0 after exp), then
// exp(factor·(score − the row's largest)); returns their sum (≥ 1: the largest gives exp(0)).
float exponentials_row(const kernels::Kernels<float>& k, float* row, Eigen::Index count, const bool* allowed,
                       float factor) {
  if (allowed != nullptr) {
    for (Eigen::Index j = 0; j < count; ++j) {
      if (!allowed[j]) row[j] = -INFINITY;
    }
  }
  // pass 1: the row's largest allowed score, so that every exponent is ≤ 0
  const float row_max = k.row_max(row, count);
  // pass 2: exponentials of the shifted scores, and their sum
  return k.exp_sum(row, count, row_max, factor);
}

// The softmax of factor·scores of one row, in place.
void softmax_row(const kernels::Kernels<float>& k, float* row, Eigen::Index count, const bool* allowed, float factor) {
  const float sum = exponentials_row(k, row, count, allowed, factor);
  // pass 3: normalise
  k.scale(row, count, 1.0f / sum);
}

// The softmax over queries (each column of `weights`, holding the scores): the mistake.
void softmax_columns_in_place(const kernels::Kernels<float>& kernels, float factor, MatrixFOut weights) {
  MatrixF by_key = weights.transpose();
  softmax_rows_in_place(kernels, by_key, factor);
  weights = by_key.transpose();
}

template <typename Out>
void require_shape(const char* what, const Out& out, Eigen::Index rows, Eigen::Index cols) {
  if (out.rows() != rows || out.cols() != cols) {
    throw std::logic_error(std::string("attention_into (float32): ") + what + " is " + check::shape_of(out) +
                           ", expected " + check::shape(rows, cols));
  }
}

}  // namespace

AttentionResultF attention(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options) {
  return attention(Q, K, V, options, kernels::best_f32());
}

AttentionResultF attention(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options,
                           const kernels::Kernels<float>& kernels) {
  // Shapes, values and options are checked before anything is allocated.
  checked_scale(Q, K, V, options);
  AttentionResultF result;
  result.raw_scores.resize(Q.rows(), K.rows());
  result.scaled_scores.resize(Q.rows(), K.rows());
  result.weights.resize(Q.rows(), K.rows());
  result.output.resize(Q.rows(), V.cols());
  attention_into(Q, K, V, options, {result.raw_scores, result.scaled_scores, result.weights, result.output}, kernels);
  return result;
}

void attention_into(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options, AttentionOutF out,
                    const kernels::Kernels<float>& kernels) {
  const double scale = checked_scale(Q, K, V, options);
  const Eigen::Index n = Q.rows(), m = K.rows(), dk = Q.cols(), dv = V.cols();
  require_shape("raw_scores", out.raw_scores, n, m);
  require_shape("scaled_scores", out.scaled_scores, n, m);
  require_shape("weights", out.weights, n, m);
  require_shape("output", out.output, n, dv);
  const std::vector<float> Kt = key_panels(K);
  // scaled = raw · (1/scale), 1/scale never above FLT_MAX; weights = softmax(scaled / τ)
  const float inverse_scale = static_cast<float>(std::fmin(1.0 / scale, FLT_MAX));
  const float inverse_temperature = clamped_inverse(options.temperature);
  const Eigen::Index ldr = out.raw_scores.outerStride(), lds = out.scaled_scores.outerStride();
  const Eigen::Index ldw = out.weights.outerStride(), ldo = out.output.outerStride();

  if (options.axis == SoftmaxAxis::Queries) {
    // Each column's softmax needs every row: no blocks.
    kernels.matmul_panels(n, m, dk, Q.data(), Q.outerStride(), Kt.data(), out.raw_scores.data(), ldr, false);
    out.scaled_scores = out.raw_scores * inverse_scale;
    out.weights = out.scaled_scores;
    softmax_columns_in_place(kernels, inverse_temperature, out.weights);
    kernels.matmul(n, dv, m, out.weights.data(), ldw, V.data(), V.outerStride(), out.output.data(), ldo, false);
    return;
  }
  const Mask* mask = options.mask ? &*options.mask : nullptr;
  const Eigen::Index block = rows_per_block(m);
  for (Eigen::Index i0 = 0; i0 < n; i0 += block) {
    const Eigen::Index rows = std::min(block, n - i0);
    // --- forward pass 1: raw scores Q Kᵀ of the block's rows
    float* raw = out.raw_scores.data() + i0 * ldr;
    kernels.matmul_panels(rows, m, dk, Q.data() + i0 * Q.outerStride(), Q.outerStride(), Kt.data(), raw, ldr, false);
    for (Eigen::Index i = 0; i < rows; ++i) {
      // --- pass 2: scaled scores, and the weights' row starting from them
      const float* r = raw + i * ldr;
      float* s = out.scaled_scores.data() + (i0 + i) * lds;
      float* w = out.weights.data() + (i0 + i) * ldw;
      for (Eigen::Index j = 0; j < m; ++j) w[j] = s[j] = r[j] * inverse_scale;
      // --- pass 3: the softmax of the row over keys
      softmax_row(kernels, w, m, mask != nullptr ? mask->data() + (i0 + i) * m : nullptr, inverse_temperature);
    }
    // --- pass 4: output = weights · V for the block's rows
    kernels.matmul(rows, dv, m, out.weights.data() + i0 * ldw, ldw, V.data(), V.outerStride(),
                   out.output.data() + i0 * ldo, ldo, false);
  }
}

MatrixF attention_output(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options) {
  return attention_output(Q, K, V, options, kernels::best_f32());
}

MatrixF attention_output(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options,
                         const kernels::Kernels<float>& kernels) {
  const double scale = checked_scale(Q, K, V, options);
  const Eigen::Index n = Q.rows(), m = K.rows(), dk = Q.cols(), dv = V.cols();
  const std::vector<float> Kt = key_panels(K);
  // The two divisions, by the scale and by τ, are one factor of the exponent: the scaled scores
  // are never stored.
  const float factor = clamped_inverse(scale * options.temperature);
  MatrixF output(n, dv);
  if (options.axis == SoftmaxAxis::Queries) {
    MatrixF weights(n, m);
    kernels.matmul_panels(n, m, dk, Q.data(), Q.outerStride(), Kt.data(), weights.data(), m, false);
    softmax_columns_in_place(kernels, factor, weights);
    kernels.matmul(n, dv, m, weights.data(), m, V.data(), V.outerStride(), output.data(), dv, false);
    return output;
  }
  const Mask* mask = options.mask ? &*options.mask : nullptr;
  // One block of query rows' scores, overwritten in place by their exponentials.
  const Eigen::Index block = std::min(rows_per_block(m), n);
  MatrixF weights(block, m);
  std::vector<float> sums(static_cast<std::size_t>(block));
  for (Eigen::Index i0 = 0; i0 < n; i0 += block) {
    const Eigen::Index rows = std::min(block, n - i0);
    // --- pass 1: raw scores Q Kᵀ of the block's rows
    kernels.matmul_panels(rows, m, dk, Q.data() + i0 * Q.outerStride(), Q.outerStride(), Kt.data(), weights.data(), m,
                          false);
    // --- pass 2: exp of scores / (scale·τ), shifted by each row's largest, and each row's sum
    for (Eigen::Index i = 0; i < rows; ++i) {
      sums[static_cast<std::size_t>(i)] =
          exponentials_row(kernels, weights.data() + i * m, m, mask != nullptr ? mask->data() + (i0 + i) * m : nullptr, factor);
    }
    // --- pass 3: output = exponentials · V, each row divided by its sum afterwards: the weights
    // are never normalised in place, a pass over dv entries per row instead of m
    float* out = output.data() + i0 * dv;
    kernels.matmul(rows, dv, m, weights.data(), m, V.data(), V.outerStride(), out, dv, false);
    for (Eigen::Index i = 0; i < rows; ++i) kernels.scale(out + i * dv, dv, 1.0f / sums[static_cast<std::size_t>(i)]);
  }
  return output;
}

}  // namespace attn
