// The portable kernels: Eigen for the products and the exponentials, plain C++ around them.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels.hpp"

namespace attn::kernels {
namespace {

template <typename Scalar>
using RowMajor = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename Scalar>
using ConstView = Eigen::Map<const RowMajor<Scalar>, 0, Eigen::OuterStride<>>;
template <typename Scalar>
using View = Eigen::Map<RowMajor<Scalar>, 0, Eigen::OuterStride<>>;
template <typename Scalar>
using Row = Eigen::Map<Eigen::Array<Scalar, 1, Eigen::Dynamic>>;

template <typename Scalar>
void matmul(Index M, Index N, Index K, const Scalar* A, Index lda, const Scalar* B, Index ldb, Scalar* C, Index ldc,
            bool accumulate) {
  const ConstView<Scalar> a(A, M, K, Eigen::OuterStride<>(lda));
  const ConstView<Scalar> b(B, K, N, Eigen::OuterStride<>(ldb));
  View<Scalar> c(C, M, N, Eigen::OuterStride<>(ldc));
  if (accumulate) {
    c.noalias() += a * b;
  } else {
    c.noalias() = a * b;
  }
}

// Panel by panel, each an Eigen product of A and the panel's first (up to kPanelWidth) columns.
template <typename Scalar>
void matmul_panels(Index M, Index N, Index K, const Scalar* A, Index lda, const Scalar* panels, Scalar* C, Index ldc,
                   bool accumulate) {
  constexpr Index W = kPanelWidth<Scalar>;
  for (Index j = 0; j < N; j += W) {
    const Index cols = std::min(W, N - j);
    matmul(M, cols, K, A, lda, panels + (j / W) * K * W, W, C + j, ldc, accumulate);
  }
}

template <typename Scalar>
Scalar row_max(const Scalar* x, Index count) {
  return Eigen::Map<const Eigen::Array<Scalar, 1, Eigen::Dynamic>>(x, count).maxCoeff();
}

float exp_sum_f32(float* x, Index count, float shift, float factor) {
  Row<float> row(x, count);
  // Eigen's vectorised exp clamps its argument at about −88.4 and returns ~4e-39 there, not 0:
  // arguments below float's smallest normal exponent are set to exactly 0 (masked keys give −∞).
  const float smallest = -87.33654f;  // ln(2^−126)
  row = (row - shift) * factor;
  row = (row < smallest).select(0.0f, row.exp());
  return row.sum();
}

double exp_sum_f64(double* x, Index count, double shift, double factor) {
  double sum = 0;
  for (Index j = 0; j < count; ++j) {
    x[j] = std::exp((x[j] - shift) * factor);
    sum += x[j];
  }
  return sum;
}

template <typename Scalar>
void scale(Scalar* x, Index count, Scalar factor) {
  Row<Scalar>(x, count) *= factor;
}

}  // namespace

template <typename Scalar>
void write_column_panels(Index K, Index N, const Scalar* B, Index ldb, Scalar* panels) {
  constexpr Index W = kPanelWidth<Scalar>;
  std::fill_n(panels, panel_entries<Scalar>(K, N), Scalar{0});
  for (Index j = 0; j < N; j += W) {
    const Index cols = std::min(W, N - j);
    Scalar* panel = panels + (j / W) * K * W;
    for (Index k = 0; k < K; ++k) std::copy_n(B + k * ldb + j, cols, panel + k * W);
  }
}

template <typename Scalar>
void write_column_panels_of_transpose(Index K, Index N, const Scalar* B, Index ldb, Scalar* panels) {
  constexpr Index W = kPanelWidth<Scalar>;
  std::fill_n(panels, panel_entries<Scalar>(K, N), Scalar{0});
  // column j of Bᵀ is row j of B
  for (Index j = 0; j < N; ++j) {
    Scalar* column = panels + (j / W) * K * W + j % W;
    const Scalar* row = B + j * ldb;
    for (Index k = 0; k < K; ++k) column[k * W] = row[k];
  }
}

template void write_column_panels(Index, Index, const float*, Index, float*);
template void write_column_panels(Index, Index, const double*, Index, double*);
template void write_column_panels_of_transpose(Index, Index, const float*, Index, float*);
template void write_column_panels_of_transpose(Index, Index, const double*, Index, double*);

const Kernels<float>& portable_f32() {
  static const Kernels<float> set{"portable", matmul<float>, matmul_panels<float>, row_max<float>, exp_sum_f32,
                                  scale<float>};
  return set;
}

const Kernels<double>& portable_f64() {
  static const Kernels<double> set{"portable", matmul<double>, matmul_panels<double>, row_max<double>, exp_sum_f64,
                                   scale<double>};
  return set;
}

}  // namespace attn::kernels
