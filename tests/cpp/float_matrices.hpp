// Helpers for the float32 and streaming tests: reproducible random matrices whose entries are
// exact in float32 (so that a float64 reference sees the very same numbers), and the gap between
// two results relative to the reference's largest entry.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels.hpp"
#include "types.hpp"

namespace attn::testing {

// Entries uniform in [−spread, spread), rounded to float32, from a 64-bit LCG (the same numbers
// natively and in WebAssembly).
inline Matrix random_rows(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed, double spread = 1.0) {
  Matrix m(rows, cols);
  std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  for (Eigen::Index i = 0; i < rows; ++i) {
    for (Eigen::Index j = 0; j < cols; ++j) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const double unit = static_cast<double>(state >> 11) / 9007199254740992.0;  // [0, 1)
      m(i, j) = static_cast<float>((2 * unit - 1) * spread);
    }
  }
  return m;
}

// Every float32 kernel set this build has: the portable one, and the SIMD one in WebAssembly.
inline std::vector<const kernels::Kernels<float>*> float_kernel_sets() {
  std::vector<const kernels::Kernels<float>*> sets{&kernels::portable_f32()};
#ifdef __wasm_simd128__
  sets.push_back(&kernels::simd_f32());
#endif
  return sets;
}

// Every float64 kernel set this build has: the portable one, and the SIMD one (2 lanes) in WebAssembly.
inline std::vector<const kernels::Kernels<double>*> double_kernel_sets() {
  std::vector<const kernels::Kernels<double>*> sets{&kernels::portable_f64()};
#ifdef __wasm_simd128__
  sets.push_back(&kernels::simd_f64());
#endif
  return sets;
}

inline MatrixF to_float(const Matrix& m) { return m.cast<float>(); }

// max |a − b| / max |b|: how far a result is from its reference, at the reference's own scale.
template <typename A>
double relative_gap(const Eigen::MatrixBase<A>& a, const Matrix& reference) {
  const double largest = reference.cwiseAbs().maxCoeff();
  return (a.template cast<double>() - reference).cwiseAbs().maxCoeff() / (largest > 0 ? largest : 1.0);
}

}  // namespace attn::testing
