// Hand-written WebAssembly SIMD kernels (4 float32 or 2 float64 lanes per v128), and the choice of
// `best_f32()` and `best_f64()`.
// Without -msimd128 this file only says that the portable set is the best one.
#include "kernels.hpp"

#ifdef __wasm_simd128__

#include <wasm_simd128.h>

#include <algorithm>
#include <cmath>

namespace attn::kernels {
namespace {

// --- the lanes: what the kernels below need of a v128 of 4 float32 or 2 float64 ---------------
struct LanesF32 {
  using Scalar = float;
  static constexpr int kCount = 4;
  static v128_t zero() { return wasm_f32x4_splat(0.0f); }
  static v128_t splat(float x) { return wasm_f32x4_splat(x); }
  static v128_t broadcast(const float* x) { return wasm_v128_load32_splat(x); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f32x4_add(a, b); }
  static v128_t mul(v128_t a, v128_t b) { return wasm_f32x4_mul(a, b); }
  // pmax rather than max: V8 turns it into one x64 instruction instead of a NaN-handling sequence
  static v128_t larger(v128_t a, v128_t b) { return wasm_f32x4_pmax(a, b); }
  static float largest_lane(v128_t v) {
    return std::fmax(std::fmax(wasm_f32x4_extract_lane(v, 0), wasm_f32x4_extract_lane(v, 1)),
                     std::fmax(wasm_f32x4_extract_lane(v, 2), wasm_f32x4_extract_lane(v, 3)));
  }
};
struct LanesF64 {
  using Scalar = double;
  static constexpr int kCount = 2;
  static v128_t zero() { return wasm_f64x2_splat(0.0); }
  static v128_t splat(double x) { return wasm_f64x2_splat(x); }
  static v128_t broadcast(const double* x) { return wasm_v128_load64_splat(x); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f64x2_add(a, b); }
  static v128_t mul(v128_t a, v128_t b) { return wasm_f64x2_mul(a, b); }
  static v128_t larger(v128_t a, v128_t b) { return wasm_f64x2_pmax(a, b); }
  static double largest_lane(v128_t v) { return std::fmax(wasm_f64x2_extract_lane(v, 0), wasm_f64x2_extract_lane(v, 1)); }
};

// --- matmul: C (+)= A · B -------------------------------------------------------------------
// A register tile of R rows × L vectors of C's columns (4·L float32 or 2·L float64): R·L
// accumulators. Each step k loads L vectors of B's row k and broadcasts A(r, k) for each of the R
// rows; R = 4, L = 2 uses 8 of the 16 registers V8 has on x64 for accumulators, 2 for B and 1 for
// the broadcast. No FMA in baseline wasm SIMD: a multiply and an add per lane, as SSE2 does, so
// each lane sums in the order of k, as a scalar loop does.
template <typename Lanes, int R, int L, typename Scalar = typename Lanes::Scalar>
inline void tile(Index K, const Scalar* A, Index lda, const Scalar* B, Index ldb, Scalar* C, Index ldc,
                 bool accumulate) {
  constexpr int W = Lanes::kCount;
  v128_t acc[R][L];
  for (int r = 0; r < R; ++r) {
    for (int l = 0; l < L; ++l) acc[r][l] = Lanes::zero();
  }
  for (Index k = 0; k < K; ++k) {
    v128_t b[L];
    for (int l = 0; l < L; ++l) b[l] = wasm_v128_load(B + k * ldb + W * l);
    for (int r = 0; r < R; ++r) {
      const v128_t a = Lanes::broadcast(A + r * lda + k);
      for (int l = 0; l < L; ++l) acc[r][l] = Lanes::add(acc[r][l], Lanes::mul(a, b[l]));
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int l = 0; l < L; ++l) {
      Scalar* c = C + r * ldc + W * l;
      wasm_v128_store(c, accumulate ? Lanes::add(wasm_v128_load(c), acc[r][l]) : acc[r][l]);
    }
  }
}

// The last columns, fewer than a vector, one dot product at a time.
template <typename Scalar>
inline void columns_left(Index rows, Index j0, Index N, Index K, const Scalar* A, Index lda, const Scalar* B,
                         Index ldb, Scalar* C, Index ldc, bool accumulate) {
  for (Index r = 0; r < rows; ++r) {
    for (Index j = j0; j < N; ++j) {
      Scalar sum = accumulate ? C[r * ldc + j] : Scalar{0};
      for (Index k = 0; k < K; ++k) sum += A[r * lda + k] * B[k * ldb + j];
      C[r * ldc + j] = sum;
    }
  }
}

// One strip of R rows of C, all columns: two vectors at a time, then one, then one by one.
template <typename Lanes, int R, typename Scalar = typename Lanes::Scalar>
inline void row_strip(Index N, Index K, const Scalar* A, Index lda, const Scalar* B, Index ldb, Scalar* C, Index ldc,
                      bool accumulate) {
  constexpr Index W = Lanes::kCount;
  Index j = 0;
  for (; j + 2 * W <= N; j += 2 * W) tile<Lanes, R, 2>(K, A, lda, B + j, ldb, C + j, ldc, accumulate);
  for (; j + W <= N; j += W) tile<Lanes, R, 1>(K, A, lda, B + j, ldb, C + j, ldc, accumulate);
  columns_left(R, j, N, K, A, lda, B, ldb, C, ldc, accumulate);
}

template <typename Lanes, typename Scalar = typename Lanes::Scalar>
void matmul(Index M, Index N, Index K, const Scalar* A, Index lda, const Scalar* B, Index ldb, Scalar* C, Index ldc,
            bool accumulate) {
  Index i = 0;
  for (; i + 4 <= M; i += 4) row_strip<Lanes, 4>(N, K, A + i * lda, lda, B, ldb, C + i * ldc, ldc, accumulate);
  const Scalar* a = A + i * lda;
  Scalar* c = C + i * ldc;
  switch (M - i) {
    case 3: row_strip<Lanes, 3>(N, K, a, lda, B, ldb, c, ldc, accumulate); break;
    case 2: row_strip<Lanes, 2>(N, K, a, lda, B, ldb, c, ldc, accumulate); break;
    case 1: row_strip<Lanes, 1>(N, K, a, lda, B, ldb, c, ldc, accumulate); break;
    default: break;
  }
}

// --- matmul over column panels (kernels.hpp), for both types ----------------------------------
// One register tile is R rows × one panel (two registers wide): R·2 accumulators, each step k
// loading the panel's row k, which follows row k − 1 in memory. Each lane sums in the order of k,
// as the tiles above do.
template <typename Lanes, int R, typename Scalar = typename Lanes::Scalar>
inline void panel_tile(Index K, const Scalar* A, Index lda, const Scalar* panel, Scalar* C, Index ldc, Index cols,
                       bool accumulate) {
  constexpr Index W = kPanelWidth<Scalar>, half = W / 2;
  v128_t acc[R][2];
  for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = Lanes::zero();
  for (Index k = 0; k < K; ++k) {
    const v128_t b0 = wasm_v128_load(panel + k * W), b1 = wasm_v128_load(panel + k * W + half);
    for (int r = 0; r < R; ++r) {
      const v128_t a = Lanes::broadcast(A + r * lda + k);
      acc[r][0] = Lanes::add(acc[r][0], Lanes::mul(a, b0));
      acc[r][1] = Lanes::add(acc[r][1], Lanes::mul(a, b1));
    }
  }
  for (int r = 0; r < R; ++r) {
    Scalar* c = C + r * ldc;
    if (cols == W) {
      wasm_v128_store(c, accumulate ? Lanes::add(wasm_v128_load(c), acc[r][0]) : acc[r][0]);
      wasm_v128_store(c + half, accumulate ? Lanes::add(wasm_v128_load(c + half), acc[r][1]) : acc[r][1]);
    } else {  // the last panel, narrower than a tile: only its columns are written
      Scalar lanes[W];
      wasm_v128_store(lanes, acc[r][0]);
      wasm_v128_store(lanes + half, acc[r][1]);
      for (Index j = 0; j < cols; ++j) c[j] = accumulate ? c[j] + lanes[j] : lanes[j];
    }
  }
}

template <typename Lanes, int R, typename Scalar = typename Lanes::Scalar>
inline void panel_strip(Index N, Index K, const Scalar* A, Index lda, const Scalar* panels, Scalar* C, Index ldc,
                        bool accumulate) {
  constexpr Index W = kPanelWidth<Scalar>;
  for (Index j = 0; j < N; j += W) {
    panel_tile<Lanes, R>(K, A, lda, panels + (j / W) * K * W, C + j, ldc, std::min(W, N - j), accumulate);
  }
}

template <typename Lanes, typename Scalar = typename Lanes::Scalar>
void matmul_panels(Index M, Index N, Index K, const Scalar* A, Index lda, const Scalar* panels, Scalar* C, Index ldc,
                   bool accumulate) {
  Index i = 0;
  for (; i + 4 <= M; i += 4) panel_strip<Lanes, 4>(N, K, A + i * lda, lda, panels, C + i * ldc, ldc, accumulate);
  const Scalar* a = A + i * lda;
  Scalar* c = C + i * ldc;
  switch (M - i) {
    case 3: panel_strip<Lanes, 3>(N, K, a, lda, panels, c, ldc, accumulate); break;
    case 2: panel_strip<Lanes, 2>(N, K, a, lda, panels, c, ldc, accumulate); break;
    case 1: panel_strip<Lanes, 1>(N, K, a, lda, panels, c, ldc, accumulate); break;
    default: break;
  }
}

// --- softmax passes -----------------------------------------------------------------------------
template <typename Lanes, typename Scalar = typename Lanes::Scalar>
Scalar row_max(const Scalar* x, Index count) {
  constexpr Index W = Lanes::kCount;
  Index j = 0;
  Scalar largest = -INFINITY;
  if (count >= W) {
    v128_t m = wasm_v128_load(x);
    for (j = W; j + W <= count; j += W) m = Lanes::larger(m, wasm_v128_load(x + j));
    largest = Lanes::largest_lane(m);
  }
  for (; j < count; ++j) largest = std::fmax(largest, x[j]);
  return largest;
}

template <typename Lanes, typename Scalar = typename Lanes::Scalar>
void scale(Scalar* x, Index count, Scalar factor) {
  constexpr Index W = Lanes::kCount;
  const v128_t f = Lanes::splat(factor);
  Index j = 0;
  for (; j + W <= count; j += W) wasm_v128_store(x + j, Lanes::mul(wasm_v128_load(x + j), f));
  for (; j < count; ++j) x[j] *= factor;
}

// exp(x) on 4 lanes, to about 1 ulp of float32 (Cephes' expf, as Eigen and SLEEF do it):
//   exp(x) = 2^k · exp(r),  k = round(x / ln 2),  r = x − k·ln 2 ∈ [−ln2/2, ln2/2],
// with exp(r) ≈ 1 + r + r²·P(r), P a degree-5 minimax polynomial. Below ln(2^−126) the result
// is under float's smallest normal and is returned as 0, so exp(−∞) = 0 exactly.
// pmin/pmax rather than min/max, and the round-by-adding-1.5·2^23 trick rather than nearest and
// trunc_sat: V8 turns each of those into one x64 instruction instead of a NaN-handling sequence.
inline v128_t exp4(v128_t x) {
  const v128_t smallest = wasm_f32x4_splat(-87.33654f);  // ln(2^−126)
  const v128_t below = wasm_f32x4_lt(x, smallest);
  x = wasm_f32x4_pmin(wasm_f32x4_pmax(x, smallest), wasm_f32x4_splat(88.37626f));
  // t = x/ln 2 + 1.5·2^23 rounds x/ln 2 to the nearest integer k, held in t's low mantissa bits
  const v128_t round_shift = wasm_f32x4_splat(12582912.0f);
  const v128_t t = wasm_f32x4_add(wasm_f32x4_mul(x, wasm_f32x4_splat(1.44269504f)), round_shift);
  const v128_t k = wasm_f32x4_sub(t, round_shift);
  // r = x − k·ln 2 in two steps (Cody–Waite): ln 2 = 0.693359375 (exact in float) − 2.12194440e-4
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(k, wasm_f32x4_splat(0.693359375f)));
  r = wasm_f32x4_add(r, wasm_f32x4_mul(k, wasm_f32x4_splat(2.12194440e-4f)));
  v128_t p = wasm_f32x4_splat(1.9875691500e-4f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.3981999507e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(8.3334519073e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(4.1665795894e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.6666665459e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(5.0000001201e-1f));
  p = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(p, r), r), r), wasm_f32x4_splat(1.0f));
  // 2^k, written straight into the exponent bits: (k + 127) << 23, with k = bits(t) − bits(1.5·2^23)
  const v128_t two_to_k = wasm_i32x4_shl(wasm_i32x4_add(t, wasm_i32x4_splat(127 - 0x4B400000)), 23);
  return wasm_v128_andnot(wasm_f32x4_mul(p, two_to_k), below);
}

float exp_sum(float* x, Index count, float shift, float factor) {
  const v128_t s = wasm_f32x4_splat(shift);
  const v128_t f = wasm_f32x4_splat(factor);
  // two partial sums, so that consecutive adds do not wait on each other
  v128_t sum0 = wasm_f32x4_splat(0.0f), sum1 = sum0;
  Index j = 0;
  for (; j + 8 <= count; j += 8) {
    const v128_t e0 = exp4(wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(x + j), s), f));
    const v128_t e1 = exp4(wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(x + j + 4), s), f));
    wasm_v128_store(x + j, e0);
    wasm_v128_store(x + j + 4, e1);
    sum0 = wasm_f32x4_add(sum0, e0);
    sum1 = wasm_f32x4_add(sum1, e1);
  }
  for (; j + 4 <= count; j += 4) {
    const v128_t e = exp4(wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(x + j), s), f));
    wasm_v128_store(x + j, e);
    sum0 = wasm_f32x4_add(sum0, e);
  }
  sum0 = wasm_f32x4_add(sum0, sum1);
  float sum = (wasm_f32x4_extract_lane(sum0, 0) + wasm_f32x4_extract_lane(sum0, 1)) +
              (wasm_f32x4_extract_lane(sum0, 2) + wasm_f32x4_extract_lane(sum0, 3));
  // the last count mod 4 entries go through the same exp4, one lane used
  for (; j < count; ++j) {
    x[j] = wasm_f32x4_extract_lane(exp4(wasm_f32x4_splat((x[j] - shift) * factor)), 0);
    sum += x[j];
  }
  return sum;
}

}  // namespace

v128_t exp_f64x2(v128_t x) {
  const v128_t smallest = wasm_f64x2_splat(-708.39641853226408);  // ln(2^−1022), above it
  const v128_t below = wasm_f64x2_lt(x, smallest);
  x = wasm_f64x2_pmin(wasm_f64x2_pmax(x, smallest), wasm_f64x2_splat(709.0));
  // t = x/ln 2 + 1.5·2^52 rounds x/ln 2 to the nearest integer k, held in t's low mantissa bits
  const v128_t round_shift = wasm_f64x2_splat(6755399441055744.0);
  const v128_t t = wasm_f64x2_add(wasm_f64x2_mul(x, wasm_f64x2_splat(1.4426950408889634074)), round_shift);
  const v128_t k = wasm_f64x2_sub(t, round_shift);
  // r = x − k·ln 2 in two steps (Cody–Waite, Cephes' constants: k·C1 is exact for |k| < 2^11)
  v128_t r = wasm_f64x2_sub(x, wasm_f64x2_mul(k, wasm_f64x2_splat(6.93145751953125e-1)));
  r = wasm_f64x2_sub(r, wasm_f64x2_mul(k, wasm_f64x2_splat(1.42860682030941723212e-6)));
  // exp(r) for |r| ≤ ln2/2 by its Taylor series to r^13 (the next term is below 2^−55 of it)
  static constexpr double kInverseFactorials[] = {
      1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0, 1.0 / 362880.0,
      1.0 / 40320.0,      1.0 / 5040.0,      1.0 / 720.0,      1.0 / 120.0,     1.0 / 24.0,
      1.0 / 6.0,          0.5,               1.0,              1.0};
  v128_t p = wasm_f64x2_splat(kInverseFactorials[0]);
  for (int i = 1; i < 14; ++i) p = wasm_f64x2_add(wasm_f64x2_mul(p, r), wasm_f64x2_splat(kInverseFactorials[i]));
  // 2^k, written straight into the exponent bits: (k + 1023) << 52, k = bits(t) − bits(1.5·2^52)
  const v128_t two_to_k =
      wasm_i64x2_shl(wasm_i64x2_add(t, wasm_i64x2_splat(1023 - 0x4338000000000000LL)), 52);
  return wasm_v128_andnot(wasm_f64x2_mul(p, two_to_k), below);
}

namespace {

double simd_exp_sum_f64(double* x, Index count, double shift, double factor) {
  const v128_t s = wasm_f64x2_splat(shift);
  const v128_t f = wasm_f64x2_splat(factor);
  v128_t sum0 = wasm_f64x2_splat(0.0), sum1 = sum0;
  Index j = 0;
  for (; j + 4 <= count; j += 4) {
    const v128_t e0 = exp_f64x2(wasm_f64x2_mul(wasm_f64x2_sub(wasm_v128_load(x + j), s), f));
    const v128_t e1 = exp_f64x2(wasm_f64x2_mul(wasm_f64x2_sub(wasm_v128_load(x + j + 2), s), f));
    wasm_v128_store(x + j, e0);
    wasm_v128_store(x + j + 2, e1);
    sum0 = wasm_f64x2_add(sum0, e0);
    sum1 = wasm_f64x2_add(sum1, e1);
  }
  sum0 = wasm_f64x2_add(sum0, sum1);
  double sum = wasm_f64x2_extract_lane(sum0, 0) + wasm_f64x2_extract_lane(sum0, 1);
  for (; j < count; ++j) {
    x[j] = wasm_f64x2_extract_lane(exp_f64x2(wasm_f64x2_splat((x[j] - shift) * factor)), 0);
    sum += x[j];
  }
  return sum;
}

}  // namespace

const Kernels<float>& simd_f32() {
  static const Kernels<float> set{"simd", matmul<LanesF32>, matmul_panels<LanesF32>, row_max<LanesF32>, exp_sum,
                                  scale<LanesF32>};
  return set;
}

const Kernels<double>& simd_f64() {
  static const Kernels<double> set{"simd", matmul<LanesF64>, matmul_panels<LanesF64>, row_max<LanesF64>,
                                   simd_exp_sum_f64, scale<LanesF64>};
  return set;
}

const Kernels<float>& best_f32() { return simd_f32(); }
const Kernels<double>& best_f64() { return simd_f64(); }

}  // namespace attn::kernels

#else

namespace attn::kernels {
const Kernels<float>& best_f32() { return portable_f32(); }
const Kernels<double>& best_f64() { return portable_f64(); }
}  // namespace attn::kernels

#endif
