#include "kernels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "float_matrices.hpp"

namespace attn {
namespace {

using testing::double_kernel_sets;
using testing::float_kernel_sets;
using testing::random_rows;

TEST(Kernels, MatmulMatchesTheProductAtEveryTailSize) {
  // 1 … 9 rows and 1 … 19 columns cover the 4×8 register tiles, the 4-wide tiles and the single
  // columns and rows around them; strides wider than the matrices check the lda/ldb/ldc handling.
  for (const auto* set : float_kernel_sets()) {
    for (Eigen::Index M = 1; M <= 9; ++M) {
      for (Eigen::Index N = 1; N <= 19; N += 3) {
        for (Eigen::Index K : {1, 3, 16}) {
          const Matrix A = random_rows(M, K + 2, 10 * M + N);
          const Matrix B = random_rows(K, N + 5, 7 * K + N);
          const Matrix C0 = random_rows(M, N + 1, 3);
          const MatrixF a = A.cast<float>(), b = B.cast<float>();
          MatrixF c = C0.cast<float>();
          set->matmul(M, N, K, a.data(), a.cols(), b.data(), b.cols(), c.data(), c.cols(), false);
          const Matrix expected = A.leftCols(K) * B.leftCols(N);
          EXPECT_LT((c.leftCols(N).cast<double>() - expected).cwiseAbs().maxCoeff(), 1e-5)
              << set->name << " M=" << M << " N=" << N << " K=" << K;
          EXPECT_EQ(c(0, N), static_cast<float>(C0(0, N))) << set->name << ": wrote past column N";
          set->matmul(M, N, K, a.data(), a.cols(), b.data(), b.cols(), c.data(), c.cols(), true);
          EXPECT_LT((c.leftCols(N).cast<double>() - 2 * expected).cwiseAbs().maxCoeff(), 2e-5)
              << set->name << " accumulate M=" << M << " N=" << N << " K=" << K;
        }
      }
    }
  }
}

// The product over column panels against the plain product, bit for bit, at every tail size:
// 1 … 9 rows, columns from 1 to 19 (the last panel full, partial or a single column), with B laid
// out from a row-major B and from its transpose (as Kᵀ is from K), and in both precisions.
template <typename Scalar>
void expect_panel_products_match(const std::vector<const kernels::Kernels<Scalar>*>& sets) {
  using Rows = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  for (const auto* set : sets) {
    for (Eigen::Index M = 1; M <= 9; ++M) {
      for (Eigen::Index N = 1; N <= 19; N += 2) {
        for (Eigen::Index K : {1, 3, 16}) {
          const Rows A = random_rows(M, K + 2, 10 * M + N).cast<Scalar>();
          const Rows B = random_rows(K, N + 5, 7 * K + N).cast<Scalar>();
          const Rows Bt = B.leftCols(N).transpose();
          const Rows C0 = random_rows(M, N + 1, 3).cast<Scalar>();
          std::vector<Scalar> panels(static_cast<std::size_t>(kernels::panel_entries<Scalar>(K, N)), Scalar{-1});
          std::vector<Scalar> from_transpose(panels.size(), Scalar{-1});
          kernels::write_column_panels(K, N, B.data(), B.cols(), panels.data());
          kernels::write_column_panels_of_transpose(K, N, Bt.data(), Bt.cols(), from_transpose.data());
          EXPECT_EQ(panels, from_transpose) << "K=" << K << " N=" << N;
          for (const bool accumulate : {false, true}) {
            Rows plain = C0, panelled = C0;
            set->matmul(M, N, K, A.data(), A.cols(), B.data(), B.cols(), plain.data(), plain.cols(), accumulate);
            set->matmul_panels(M, N, K, A.data(), A.cols(), panels.data(), panelled.data(), panelled.cols(), accumulate);
            const Rows start = accumulate ? Rows(C0.leftCols(N)) : Rows(Rows::Zero(M, N));
            const Rows expected = start + A.leftCols(K) * B.leftCols(N);
            const double tolerance = std::is_same_v<Scalar, float> ? 2e-5 : 1e-12;
            EXPECT_LT((panelled.leftCols(N) - expected).cwiseAbs().maxCoeff(), tolerance)
                << set->name << " M=" << M << " N=" << N << " K=" << K << " accumulate=" << accumulate;
            EXPECT_EQ(panelled(0, N), C0(0, N)) << set->name << ": wrote past column N";
            if (!accumulate && std::string(set->name) == "simd") {
              // the same sums in the same order as the row-major tiles
              EXPECT_TRUE((panelled.leftCols(N).array() == plain.leftCols(N).array()).all())
                  << set->name << " M=" << M << " N=" << N << " K=" << K;
            }
          }
        }
      }
    }
  }
}

TEST(Kernels, PanelProductsMatchThePlainProduct) {
  expect_panel_products_match<float>(float_kernel_sets());
  expect_panel_products_match<double>(double_kernel_sets());
}

TEST(Kernels, PanelsPadTheLastPanelWithZeros) {
  // 3 columns of a 2×3 float32 matrix: one panel of 8, columns 3 … 7 zero in both rows
  const float B[] = {1, 2, 3, 4, 5, 6};
  std::vector<float> panels(static_cast<std::size_t>(kernels::panel_entries<float>(2, 3)), -1.0f);
  ASSERT_EQ(panels.size(), 16u);
  kernels::write_column_panels(2, 3, B, 3, panels.data());
  const std::vector<float> expected{1, 2, 3, 0, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0};
  EXPECT_EQ(panels, expected);
  // float64 panels are 4 wide: 5 columns take two panels
  EXPECT_EQ(kernels::panel_entries<double>(7, 5), 7 * 8);
}

TEST(Kernels, ExpSumIsAccurateToFloat32) {
  // exponents from −87 to 0, the range the softmax uses, at 9 lengths (vector body and tails)
  for (const auto* set : float_kernel_sets()) {
    for (Eigen::Index count : {1, 3, 4, 5, 8, 11, 64, 100, 1001}) {
      std::vector<float> x(count);
      for (Eigen::Index j = 0; j < count; ++j) x[j] = -87.0f * static_cast<float>(j) / static_cast<float>(count);
      const std::vector<float> arguments = x;
      const float sum = set->exp_sum(x.data(), count, 0.0f, 1.0f);
      double exact_sum = 0;
      for (Eigen::Index j = 0; j < count; ++j) {
        const double exact = std::exp(static_cast<double>(arguments[j]));
        exact_sum += exact;
        EXPECT_NEAR(x[j], exact, 3e-7 * exact) << set->name << " exp(" << arguments[j] << ")";
      }
      EXPECT_NEAR(sum, exact_sum, 1e-6 * exact_sum) << set->name << " count=" << count;
    }
  }
}

// The softmax's exponential against std::exp (in float64) over the whole float32 range the softmax
// uses: arguments ≤ 0 (the row's maximum is subtracted first) down to ln(2^−126) ≈ −87.34, below
// which the result would be under float's smallest normal and is exactly 0. Every 61st float32 in
// that range by bit pattern (about 18 million arguments, so every exponent and many mantissas),
// plus the ends, in batches of 4096 through exp_sum as the softmax calls it.
// Bound: a relative error of at most 1 unit in the last place of float32 (2^−23 ≈ 1.19e-7) above
// the cut, and exactly 0 (an absolute error under 2^−126) below it. (Measured: 0.50 ulp for the
// portable set natively, Eigen's exp; 0.68 ulp for the WebAssembly SIMD set.)
TEST(Kernels, ExpErrorAgainstStdExpOverTheSoftmaxRange) {
  constexpr double kBound = 1.1920928955078125e-7;  // 2^−23: 1 ulp of float32 (relative, at worst)
  const float cut = -87.33654f;                     // ln(2^−126), the smallest normal result
  const std::vector<float> ends{0.0f, -0.0f, cut, std::nextafter(cut, 0.0f), std::nextafter(cut, -1.0f), -1e-30f, -88.7f, -103.97f};
  for (const auto* set : float_kernel_sets()) {
    double worst = 0, worst_at = 0;
    std::size_t below_cut_nonzero = 0, tested = 0;
    std::vector<float> arguments, x;
    const auto check_batch = [&] {
      x = arguments;
      set->exp_sum(x.data(), static_cast<Eigen::Index>(x.size()), 0.0f, 1.0f);
      for (std::size_t j = 0; j < x.size(); ++j) {
        const float a = arguments[j];
        const double exact = std::exp(static_cast<double>(a));
        ++tested;
        if (a < cut) {
          if (!(x[j] == 0.0f || std::fabs(x[j] - exact) < FLT_MIN)) ++below_cut_nonzero;
          continue;
        }
        const double error = std::fabs(x[j] - exact) / exact;
        if (error > worst) {
          worst = error;
          worst_at = a;
        }
      }
      arguments.clear();
    };
    // from −0 (bits 0x80000000) to −103.97 (0xC2CFF1B5, where float's denormal results end)
    for (std::uint32_t bits = 0x80000000u; bits <= 0xC2CFF1B5u; bits += 61) {
      float a;
      std::memcpy(&a, &bits, sizeof a);
      arguments.push_back(a);
      if (arguments.size() == 4096) check_batch();
    }
    arguments.insert(arguments.end(), ends.begin(), ends.end());
    check_batch();
    // Printed, so that the measured error is in the test's log on both targets.
    std::printf("[ exp error ] %s: max relative error %.3g (%.2f ulp of float32) at x = %.9g, %zu arguments\n", set->name,
                worst, worst / 1.1920928955078125e-7, worst_at, tested);
    EXPECT_LE(worst, kBound) << set->name << ": at x = " << worst_at;
    EXPECT_EQ(below_cut_nonzero, 0u) << set->name;
  }
}

TEST(Kernels, ExpSumShiftsScalesAndZeroesMinusInfinity) {
  const float inf = std::numeric_limits<float>::infinity();
  for (const auto* set : float_kernel_sets()) {
    // (x − 3)·0.5 for x = 3, 1, −∞, 5 − 200, −∞, 2, 3: a row with masked keys and a deep underflow
    std::vector<float> x{3, 1, -inf, -195, -inf, 2, 3};
    const float sum = set->exp_sum(x.data(), 7, 3.0f, 0.5f);
    EXPECT_FLOAT_EQ(x[0], 1.0f) << set->name;
    EXPECT_FLOAT_EQ(x[1], std::exp(-1.0f)) << set->name;
    EXPECT_EQ(x[2], 0.0f) << set->name;
    EXPECT_EQ(x[3], 0.0f) << set->name;  // exp(−99) is below float's smallest normal
    EXPECT_EQ(x[4], 0.0f) << set->name;
    EXPECT_FLOAT_EQ(x[5], std::exp(-0.5f)) << set->name;
    EXPECT_FLOAT_EQ(sum, 2.0f + std::exp(-1.0f) + std::exp(-0.5f)) << set->name;
  }
}

TEST(Kernels, RowMaxAndScale) {
  const float inf = std::numeric_limits<float>::infinity();
  for (const auto* set : float_kernel_sets()) {
    std::vector<float> x{-inf, -2, 7.5f, -inf, 1, 7.25f, 0, -inf, 3};
    for (Eigen::Index count = 1; count <= 9; ++count) {
      float expected = -inf;
      for (Eigen::Index j = 0; j < count; ++j) expected = std::max(expected, x[j]);
      EXPECT_EQ(set->row_max(x.data(), count), expected) << set->name << " count=" << count;
    }
    std::vector<float> y{1, -2, 3, 4, 5};
    set->scale(y.data(), 5, 0.5f);
    EXPECT_EQ(y, (std::vector<float>{0.5f, -1, 1.5f, 2, 2.5f})) << set->name;
  }
}

// The float64 sets (portable: Eigen and std::exp; simd: 2-lane WebAssembly kernels) agree: the
// product at every tail size to 1e-14 of its scale (the sums run in another order), the largest
// entry and the scaling exactly.
TEST(KernelsF64, SimdAgreesWithPortable) {
  const auto& portable = kernels::portable_f64();
  for (const auto* set : double_kernel_sets()) {
    for (Eigen::Index M = 1; M <= 9; ++M) {
      for (Eigen::Index N = 1; N <= 11; N += 2) {
        for (Eigen::Index K : {1, 2, 5, 16}) {
          const Matrix A = random_rows(M, K + 1, 5 * M + N), B = random_rows(K, N + 3, 3 * K + N), C0 = random_rows(M, N + 1, 9);
          Matrix c = C0, expected = C0;
          set->matmul(M, N, K, A.data(), A.cols(), B.data(), B.cols(), c.data(), c.cols(), false);
          portable.matmul(M, N, K, A.data(), A.cols(), B.data(), B.cols(), expected.data(), expected.cols(), false);
          EXPECT_LT((c - expected).cwiseAbs().maxCoeff(), 1e-14 * K) << set->name << " M=" << M << " N=" << N << " K=" << K;
          EXPECT_EQ(c(0, N), C0(0, N)) << set->name << ": wrote past column N";
          set->matmul(M, N, K, A.data(), A.cols(), B.data(), B.cols(), c.data(), c.cols(), true);
          EXPECT_LT((c.leftCols(N) - 2 * expected.leftCols(N)).cwiseAbs().maxCoeff(), 2e-14 * K) << set->name << " accumulate";
        }
      }
    }
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> x{-inf, -2, 7.5, -inf, 1, 7.25, 0, -inf, 3};
    for (Eigen::Index count = 1; count <= 9; ++count) {
      EXPECT_EQ(set->row_max(x.data(), count), portable.row_max(x.data(), count)) << set->name << " count=" << count;
    }
    std::vector<double> y{1, -2, 3, 4, 5}, z = y;
    set->scale(y.data(), 5, 0.3);
    portable.scale(z.data(), 5, 0.3);
    EXPECT_EQ(y, z) << set->name;
    // shifted, scaled, with masked keys: the same weights to 2 ulp
    std::vector<double> w{3, 1, -inf, -1000, -inf, 2, 3}, v = w;
    const double sum_w = set->exp_sum(w.data(), 7, 3.0, 0.5), sum_v = portable.exp_sum(v.data(), 7, 3.0, 0.5);
    for (std::size_t j = 0; j < w.size(); ++j) EXPECT_NEAR(w[j], v[j], 4.5e-16 * v[j]) << set->name << " entry " << j;
    EXPECT_EQ(w[2], 0.0) << set->name;
    EXPECT_EQ(w[4], 0.0) << set->name;
    EXPECT_NEAR(sum_w, sum_v, 1e-15 * sum_v) << set->name;
  }
}

// The float64 exponential against std::exp over the range the softmax uses: from 0 down to
// ln(2^−1022) ≈ −708.4, below which it is exactly 0 (std::exp's results there are under float64's
// smallest normal, and add nothing to a row whose sum is at least 1). Two million arguments spread
// evenly, plus every power of two down to 2^−60 near 0 and the ends. Bound: a relative error of at
// most 2 units in the last place (2^−51 ≈ 4.4e-16).
TEST(KernelsF64, ExpErrorAgainstStdExpOverTheSoftmaxRange) {
  constexpr double kBound = 4.440892098500626e-16;  // 2^−51: 2 ulp of float64's 2^−52
  const double cut = -708.39641853226408;
  std::vector<double> arguments;
  for (int i = 0; i <= 2'000'000; ++i) arguments.push_back(-745.0 * i / 2'000'000.0);
  for (int e = 0; e <= 60; ++e) arguments.push_back(-std::ldexp(1.0, -e));
  for (double a : {0.0, -0.0, cut, std::nextafter(cut, 0.0), std::nextafter(cut, -1.0), -1e-300, -744.4, -745.2}) arguments.push_back(a);
  for (const auto* set : double_kernel_sets()) {
    std::vector<double> x = arguments;
    double worst = 0, worst_at = 0;
    std::size_t below_cut_large = 0;
    for (std::size_t start = 0; start < x.size(); start += 4096) {
      set->exp_sum(x.data() + start, static_cast<Eigen::Index>(std::min<std::size_t>(4096, x.size() - start)), 0.0, 1.0);
    }
    for (std::size_t j = 0; j < x.size(); ++j) {
      const double exact = std::exp(arguments[j]);
      if (arguments[j] < cut) {
        if (!(x[j] >= 0 && x[j] < DBL_MIN)) ++below_cut_large;
        continue;
      }
      const double error = std::fabs(x[j] - exact) / exact;
      if (error > worst) {
        worst = error;
        worst_at = arguments[j];
      }
    }
    std::printf("[ exp error ] %s float64: max relative error %.3g (%.2f ulp of float64) at x = %.17g, %zu arguments\n",
                set->name, worst, worst / 2.220446049250313e-16, worst_at, x.size());
    EXPECT_LE(worst, kBound) << set->name << ": at x = " << worst_at;
    EXPECT_EQ(below_cut_large, 0u) << set->name;
  }
}

}  // namespace
}  // namespace attn
