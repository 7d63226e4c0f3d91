// The inner loops of attention, over row-major buffers: a matrix product, and the three passes of
// a row-wise softmax (largest entry, shifted exponentials and their sum, rescaling).
//
// Two implementations of the float32 set:
//   portable   Eigen and plain C++; what native builds use, and the reference the others are tested
//              against. Natively Eigen vectorises it (SSE/AVX); in WebAssembly it gets only what
//              clang's auto-vectoriser finds, since Eigen 3.4 has no WebAssembly SIMD code.
//   simd       hand-written WebAssembly SIMD (wasm_simd128.h, 4 float32 lanes), compiled only when
//              the target has it (-msimd128).
// `best()` is the set the attention functions use: per kernel, whichever measured faster
// (cpp/bench/, build/bench/kernels.md). The float64 sets (portable, and simd with 2 lanes) serve
// the streaming form and the float64 softmax.
#pragma once

#include <Eigen/Core>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace attn::kernels {

using Index = Eigen::Index;

template <typename Scalar>
struct Kernels {
  const char* name;
  // C (M×N) = A (M×K) · B (K×N), or C += A · B when `accumulate`. lda, ldb, ldc are row strides.
  void (*matmul)(Index M, Index N, Index K, const Scalar* A, Index lda, const Scalar* B, Index ldb, Scalar* C,
                 Index ldc, bool accumulate);
  // The same product with B given as column panels (column_panels below): C (M×N) = A · B, or
  // C += A · B when `accumulate`. B is then read in order, one panel after another.
  void (*matmul_panels)(Index M, Index N, Index K, const Scalar* A, Index lda, const Scalar* panels, Scalar* C,
                        Index ldc, bool accumulate);
  // The largest of x[0 … count); −∞ when every entry is −∞ (a fully masked stretch).
  Scalar (*row_max)(const Scalar* x, Index count);
  // x[j] ← exp((x[j] − shift)·factor) in place, and returns Σ_j x[j]. Callers keep the argument
  // ≤ 0 (shift is the row's maximum, factor > 0); an entry of −∞ becomes exactly 0.
  Scalar (*exp_sum)(Scalar* x, Index count, Scalar shift, Scalar factor);
  // x[j] ← x[j]·factor
  void (*scale)(Scalar* x, Index count, Scalar factor);
};

// Column panels: B (K×N) as its columns in groups of kPanelWidth (32 bytes: 8 float32 or 4
// float64, one SIMD register tile's width), each group's K rows stored one after another, the last
// group padded with zeros. Panel p starts at p·K·kPanelWidth.
// Why: a row-major B whose row stride is a power of two (4 KiB for Kᵀ at 1,024 keys) puts every
// row a tile reads into the same cache set, so a product that steps down B's rows keeps missing
// the first-level cache. Laid out once per call, the same product ran 2.3× faster at n = 1024.
template <typename Scalar>
inline constexpr Index kPanelWidth = 32 / static_cast<Index>(sizeof(Scalar));

// How many entries the panels of a K×N matrix take, padding included.
template <typename Scalar>
constexpr Index panel_entries(Index K, Index N) {
  return (N + kPanelWidth<Scalar> - 1) / kPanelWidth<Scalar> * kPanelWidth<Scalar> * K;
}
// Writes the panels of B (row-major K×N, row stride ldb) to panels[0 … panel_entries(K, N)).
template <typename Scalar>
void write_column_panels(Index K, Index N, const Scalar* B, Index ldb, Scalar* panels);
// Writes the panels of Bᵀ, for B row-major N×K with row stride ldb: Kᵀ's panels straight from K.
template <typename Scalar>
void write_column_panels_of_transpose(Index K, Index N, const Scalar* B, Index ldb, Scalar* panels);

const Kernels<float>& portable_f32();
const Kernels<double>& portable_f64();
#ifdef __wasm_simd128__
const Kernels<float>& simd_f32();
// 2 float64 lanes: the same tiles and passes as simd_f32, with exp_f64x2 below.
const Kernels<double>& simd_f64();
// exp(x) on 2 float64 lanes, for the softmax's arguments x ≤ 0: within 2 ulp of std::exp above
// ln(2^−1022) ≈ −708.4 (tested against it), and exactly 0 below, so exp(−∞) = 0.
v128_t exp_f64x2(v128_t x);
#endif
// What attention and streaming attention use in float32.
const Kernels<float>& best_f32();
// What the float64 forms use: simd_f64 in WebAssembly, portable_f64 natively.
const Kernels<double>& best_f64();

}  // namespace attn::kernels
