// The work budget: the largest request the core accepts. Chosen so that a browser tab on a
// 2-core laptop survives any call (memory stays well under 1 GiB, a refused call costs nothing),
// and checked before any allocation, so a huge request is refused with its size and the limit
// instead of reaching std::bad_alloc. The JS API states and checks the same numbers at its edge,
// and the README quotes them.
#pragma once

#include <cstdint>

namespace attn::limits {

// Rows or columns of any one matrix (a token count or a width).
inline constexpr std::int64_t kMaxDimension = 1'000'000;
// Entries of any one matrix the core reads or makes: 2^24, i.e. 128 MiB in float64. The direct
// form's n×m score matrix must fit, so direct attention stops at n = m = 4096 (in float64 the work
// of one call stops it at 2048); the streaming form, which never forms it, goes on to n = 16,384
// and beyond (in blocks of query rows where one call's work would pass the limit below).
inline constexpr std::int64_t kMaxEntries = std::int64_t{1} << 24;
// The work of one synchronous call, in multiply-adds (and the multiply-adds that the steps below
// stand for), capped so that the slowest accepted call of each kind takes about a second of one
// core: measured as WebAssembly under node on this project's 2-core machine (CPU time; see
// `node scripts/bench.mjs --limits`). Longer work is several calls: a training session trains in
// pieces, and the streaming form runs over blocks of query rows.
//   float64: 2^31 ≈ 2.1·10^9 (a matmul at this cap about 0.7 s, direct attention 0.8–1.5 s)
inline constexpr std::int64_t kMaxMultiplyAdds = std::int64_t{1} << 31;
//   float32 (WebAssembly SIMD, about three times as fast): 2^33 ≈ 8.6·10^9
inline constexpr std::int64_t kMaxMultiplyAddsF32 = std::int64_t{1} << 33;
// A pair (i, j) of the direct form, or of one head, counts as this many multiply-adds beside its
// dot products: its raw score, scaled score and weight are formed, exponentiated, and copied out
// as three n×m matrices (about 140 ns a pair in float64, 60 ns in float32).
inline constexpr std::int64_t kPairWork = 384;
// Additive scores: each of the n·m·d_a terms of vᵀ tanh(W q_i + U k_j) counts as this many
// multiply-adds (a tanh and its sum: 13–30 ns).
inline constexpr std::int64_t kAdditivePairWeight = 64;
// A training step counts this many multiply-adds per training sequence beside its products:
// the small matrices of each sequence cost about 8 µs a step whatever d_k.
inline constexpr std::int64_t kStepWorkPerSequence = 16'384;
// Random normal draws plus softmax entries of one width experiment: 5·10^7 (0.6–1.2 s).
inline constexpr std::int64_t kMaxExperimentWork = 50'000'000;
// Counts the cost model returns are exact integers up to 2^53, the largest that a JavaScript
// number holds exactly; a setting whose counts would pass it is refused.
inline constexpr std::int64_t kMaxExactCount = std::int64_t{1} << 53;

}  // namespace attn::limits
