// A random number generator written in the project, so that the native build and the
// WebAssembly build draw exactly the same numbers for the same seed (the standard library's
// distributions differ between libstdc++ and libc++).
#pragma once

#include <cstdint>

namespace attn {

// xoshiro256** (Blackman & Vigna), seeded through splitmix64.
class Random {
 public:
  explicit Random(std::uint64_t seed);

  std::uint64_t next_u64();
  double uniform();            // [0, 1), 53 random bits
  double normal();             // N(0, 1) by Box–Muller
  // N(0, 1) by the ziggurat (Marsaglia & Tsang 2000, in Doornik's 2005 form): the same
  // distribution as normal(), a different stream of numbers, several times faster (one draw,
  // a table lookup and a multiply, 98.8% of the time). For the sampling experiments, whose
  // speed a key press waits on; normal() keeps its stream for the learn figure's start.
  double normal_ziggurat();
  double gamma(double shape);  // Gamma(shape, 1) for shape ≥ 1, Marsaglia–Tsang
  double chi_square(double degrees_of_freedom);

 private:
  std::uint64_t state_[4];
  double spare_normal_ = 0;
  bool has_spare_ = false;
};

}  // namespace attn
