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
  // The largest of x[0 … count); −∞ when every entry is −∞ (a fully masked stretch).
  Scalar (*row_max)(const Scalar* x, Index count);
  // x[j] ← exp((x[j] − shift)·factor) in place, and returns Σ_j x[j]. Callers keep the argument
  // ≤ 0 (shift is the row's maximum, factor > 0); an entry of −∞ becomes exactly 0.
  Scalar (*exp_sum)(Scalar* x, Index count, Scalar shift, Scalar factor);
  // x[j] ← x[j]·factor
  void (*scale)(Scalar* x, Index count, Scalar factor);
};

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
