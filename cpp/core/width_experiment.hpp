// The "why divide by √d_k" experiment: how peaked is the softmax of random scores as the
// key width grows, with and without the scale?
#pragma once

#include <cstdint>
#include <vector>

namespace attn {

struct WidthPoint {
  int width = 0;  // d_k
  double mean_largest_unscaled = 0;
  double mean_entropy_unscaled = 0;  // nats
  double mean_largest_scaled = 0;
  double mean_entropy_scaled = 0;
};

struct WidthExperimentSetup {
  int keys = 10;      // m
  int max_log2 = 10;  // widths 2^min_log2 … 2^max_log2
  int trials = 2000;  // T random queries per width
  std::uint64_t seed = 1;
  int min_log2 = 1;
};

// Each width draws from its own random stream, seeded from (seed, log2 of the width), so a
// run over some of the widths gives exactly the numbers of the full run at those widths. The
// page relies on that: it computes one width per slice of main-thread time.
std::uint64_t width_seed(std::uint64_t seed, int log2_width);

// Sampled exactly in O(m) per trial: for a fixed query q and independent N(0, I) keys, the
// scores q·k_j are |q|·z_j with z_j independent N(0, 1), and |q|² is chi-square with d_k
// degrees of freedom. Same distribution as drawing the vectors, at a fraction of the draws.
std::vector<WidthPoint> width_experiment(const WidthExperimentSetup& setup);

// The experiment as the lesson states it: draw q and the m keys, d_k components each, and
// take the dot products. The reference the fast version is tested against.
std::vector<WidthPoint> width_experiment_direct(const WidthExperimentSetup& setup);

}  // namespace attn
