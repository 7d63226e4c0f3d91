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
// form's n×m score matrix must fit, so direct attention stops at n = m = 4096; the streaming form,
// which never forms it, goes on to n = 16,384 and beyond.
inline constexpr std::int64_t kMaxEntries = std::int64_t{1} << 24;
// Multiply-adds of one call: 2^36 (about 7·10^10, a few seconds at wasm SIMD speed).
inline constexpr std::int64_t kMaxMultiplyAdds = std::int64_t{1} << 36;
// Random normal draws plus softmax entries of one width experiment: 10^8 (about a second).
inline constexpr std::int64_t kMaxExperimentWork = 100'000'000;
// Counts the cost model returns are exact integers up to 2^53, the largest that a JavaScript
// number holds exactly; a setting whose counts would pass it is refused.
inline constexpr std::int64_t kMaxExactCount = std::int64_t{1} << 53;

}  // namespace attn::limits
