#include "streaming.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "check.hpp"
#include "check_float.hpp"
#include "kernels.hpp"

namespace attn {
namespace {

template <typename Scalar>
using Rows = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename Scalar>
using RowsIn = const Eigen::Ref<const Rows<Scalar>>&;

// Queries per block and keys per tile: a block's scores (32×64 floats, 8 KiB) and the tile of Kᵀ
// and V it reads stay in the L1 cache. Measured with cpp/bench/ (build/bench/kernels.md).
constexpr Eigen::Index kQueryBlock = 32;
constexpr Eigen::Index kDefaultKeyTile = 64;

// max |x|, after the finiteness check that names a bad entry
double finite_magnitude(const char* name, MatrixIn X) {
  check::all_finite(name, X);
  return X.cwiseAbs().maxCoeff();
}
double finite_magnitude(const char* name, MatrixFIn X) { return check::finite_magnitude(name, X); }

// A mask, with the causal order when asked, must leave every query at least one key.
void usable_streaming_mask(const StreamingOptions& options, Eigen::Index n, Eigen::Index m) {
  if (!options.mask) return;
  if (!options.causal) return check::usable_mask(*options.mask, n, m);
  const Mask& mask = *options.mask;
  if (mask.rows() != n || mask.cols() != m) {
    throw std::invalid_argument("mask (" + check::shape_of(mask) + ") must match the scores (" + check::shape(n, m) +
                                ")");
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!mask.row(i).head(std::min(i + 1, m)).any()) {
      throw std::invalid_argument("mask row " + std::to_string(i) +
                                  " hides every key the causal order leaves; softmax needs at least one");
    }
  }
}

template <typename Scalar>
Rows<Scalar> stream(RowsIn<Scalar> Q, RowsIn<Scalar> K, RowsIn<Scalar> V, const StreamingOptions& options,
                    const kernels::Kernels<Scalar>& k, const char* precision) {
  constexpr Scalar kMinusInfinity = -std::numeric_limits<Scalar>::infinity();
  constexpr double kLargest = std::numeric_limits<Scalar>::max();
  // --- checks: those of the direct form (but for the n×m scores, never formed), then the mask ---
  check::attention_shapes("streaming attention (Q·Kᵀ and weights·V)", Q.rows(), Q.cols(), K.rows(), K.cols(),
                          V.rows(), V.cols(), /*forms_scores=*/false, std::is_same_v<Scalar, float>);
  const double largest_q = finite_magnitude("Q", Q);
  const double largest_k = finite_magnitude("K", K);
  const double largest_v = finite_magnitude("V", V);
  if (options.scale != 0.0) check::positive_finite("scale", options.scale);
  check::positive_finite("temperature", options.temperature);
  if (options.key_tile < 0) {
    throw std::invalid_argument("key_tile must be at least 1 (or 0 for the default), got " +
                                std::to_string(options.key_tile));
  }
  const Eigen::Index n = Q.rows(), m = K.rows(), dk = Q.cols(), dv = V.cols();
  usable_streaming_mask(options, n, m);
  const double scale = options.scale != 0.0 ? options.scale : std::sqrt(static_cast<double>(dk));
  check::scores_in_range(precision, dk, largest_q, largest_k, scale, kLargest);
  check::values_in_range(precision, largest_v, kLargest);

  // c = 1/(τ·scale) turns raw scores into exponents; clamped to the type's range. A τ that small
  // makes each row one-hot either way. A τ·scale so large that c would be 0 makes every row
  // uniform either way, but c = 0 would turn the −∞ of a hidden key (or of a row's first tile)
  // into 0·∞ = NaN, so c stays at the smallest normal number.
  constexpr double kSmallest = std::numeric_limits<Scalar>::min();
  const Scalar c = static_cast<Scalar>(std::clamp(1.0 / (options.temperature * scale), kSmallest, kLargest));
  const Eigen::Index key_tile = std::min(options.key_tile > 0 ? options.key_tile : kDefaultKeyTile, m);
  // Kᵀ (dk×m), laid out once so that each tile's scores are a product: as column panels
  // (kernels.hpp) when every tile starts on a panel, as the default tile does, else row-major.
  constexpr Eigen::Index kWidth = kernels::kPanelWidth<Scalar>;
  const bool by_panels = key_tile % kWidth == 0 || key_tile == m;
  std::vector<Scalar> key_panels;
  if (by_panels) {
    key_panels.resize(static_cast<std::size_t>(kernels::panel_entries<Scalar>(dk, m)));
    kernels::write_column_panels_of_transpose(dk, m, K.data(), K.outerStride(), key_panels.data());
  }
  const Rows<Scalar> Kt = by_panels ? Rows<Scalar>() : Rows<Scalar>(K.transpose());
  const Scalar* q = Q.data();
  const Eigen::Index ldq = Q.outerStride();

  // o sums e^{c(s − μ)}·v over up to m keys before it is divided by ℓ, so with values near the
  // type's largest it can overflow where the direct form, which normalises first, cannot. Such
  // values are divided by a power of two (exact) for the sums, and the output multiplied back.
  // Each column by its own: an output column is a weighted mean of its value column alone, and
  // one power for all of V flushed a column of tiny values to zero beside a column of huge ones
  // (found by the fuzzer: an output outside its column's range). Only ever divided: a column of
  // values below 1 stays as it is (2^1074, to lift the smallest, is no double).
  Eigen::VectorXi column_exponents;  // empty: V is used as it is
  Rows<Scalar> V_scaled;
  if (largest_v * static_cast<double>(m) > kLargest / 4) {
    column_exponents.setZero(dv);
    V_scaled.resize(m, dv);
    for (Eigen::Index col = 0; col < dv; ++col) {
      int exponent = 0;  // the column's largest |v| < 2^exponent
      std::frexp(static_cast<double>(V.col(col).cwiseAbs().maxCoeff()), &exponent);
      column_exponents(col) = std::max(exponent, 0);
      V_scaled.col(col) = (V.col(col).template cast<double>() * std::ldexp(1.0, -column_exponents(col))).template cast<Scalar>();
    }
  }
  const bool scaled = column_exponents.size() > 0;
  const Scalar* v = scaled ? V_scaled.data() : V.data();
  const Eigen::Index ldv = scaled ? V_scaled.outerStride() : V.outerStride();

  Rows<Scalar> output = Rows<Scalar>::Zero(n, dv);  // o, then o / ℓ
  Rows<Scalar> S(kQueryBlock, key_tile);            // one tile of scores, then of their exponentials
  Eigen::Array<Scalar, Eigen::Dynamic, 1> running_max(kQueryBlock);  // μ, in raw-score units
  Eigen::ArrayXd running_sum(kQueryBlock);                           // ℓ, kept in double

  for (Eigen::Index i0 = 0; i0 < n; i0 += kQueryBlock) {
    const Eigen::Index rows = std::min(kQueryBlock, n - i0);
    Scalar* o = output.row(i0).data();
    running_max.setConstant(kMinusInfinity);
    running_sum.setZero();
    // Under the causal order no query of this block sees a key past its last query.
    const Eigen::Index key_end = options.causal ? std::min(m, i0 + rows) : m;

    for (Eigen::Index j0 = 0; j0 < key_end; j0 += key_tile) {
      const Eigen::Index cols = std::min(key_tile, key_end - j0);
      // pass 1: the tile's raw scores, S = Q[i0…] · Kᵀ[:, j0…]  (rows×cols)
      if (by_panels) {
        k.matmul_panels(rows, cols, dk, q + i0 * ldq, ldq, key_panels.data() + j0 / kWidth * dk * kWidth, S.data(),
                        key_tile, false);
      } else {
        k.matmul(rows, cols, dk, q + i0 * ldq, ldq, Kt.data() + j0, m, S.data(), key_tile, false);
      }

      // pass 2: hidden keys get −∞, whose exponential is exactly 0
      for (Eigen::Index r = 0; r < rows; ++r) {
        Scalar* s = S.row(r).data();
        if (options.causal) {
          for (Eigen::Index j = std::max(j0, i0 + r + 1); j < j0 + cols; ++j) s[j - j0] = kMinusInfinity;
        }
        if (options.mask) {
          for (Eigen::Index j = 0; j < cols; ++j) {
            if (!(*options.mask)(i0 + r, j0 + j)) s[j] = kMinusInfinity;
          }
        }
      }

      // pass 3: the online softmax update of each row: new maximum, rescaled sum and output
      for (Eigen::Index r = 0; r < rows; ++r) {
        Scalar* s = S.row(r).data();
        const Scalar new_max = std::max(running_max(r), k.row_max(s, cols));
        if (new_max == kMinusInfinity) {  // no key of this row seen yet: this tile adds nothing
          std::fill(s, s + cols, Scalar{0});
          continue;
        }
        // exp(c(μ − μ')) ≤ 1; 0 at the row's first visible tile, where ℓ and o are still 0
        const Scalar correction = std::exp((running_max(r) - new_max) * c);
        const Scalar tile_sum = k.exp_sum(s, cols, new_max, c);
        running_sum(r) = running_sum(r) * correction + tile_sum;
        if (correction != Scalar{1}) k.scale(o + r * dv, dv, correction);
        running_max(r) = new_max;
      }

      // pass 4: o += exp(c(S − μ')) · V[j0…]  (rows×dv)
      k.matmul(rows, dv, cols, S.data(), key_tile, v + j0 * ldv, ldv, o, dv, true);
    }

    // pass 5: normalise, output = o / ℓ (ℓ ≥ 1: the row's maximum contributes exp(0))
    for (Eigen::Index r = 0; r < rows; ++r) k.scale(o + r * dv, dv, static_cast<Scalar>(1.0 / running_sum(r)));
  }
  for (Eigen::Index col = 0; col < column_exponents.size(); ++col) {
    output.col(col) = (output.col(col).template cast<double>() * std::ldexp(1.0, column_exponents(col))).template cast<Scalar>();
  }
  return output;
}

}  // namespace

Matrix streaming_attention(MatrixIn Q, MatrixIn K, MatrixIn V, const StreamingOptions& options) {
  return stream<double>(Q, K, V, options, kernels::best_f64(), "float64");
}

MatrixF streaming_attention(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const StreamingOptions& options) {
  return stream<float>(Q, K, V, options, kernels::best_f32(), "float32");
}

}  // namespace attn
