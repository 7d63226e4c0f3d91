#include "width_experiment.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "budget.hpp"
#include "kernels.hpp"
#include "random.hpp"
#include "row_stats.hpp"
#include "softmax.hpp"
#include "types.hpp"

namespace attn {
namespace {

std::string describe(const WidthExperimentSetup& s) {
  return "the width experiment (keys m = " + std::to_string(s.keys) + ", widths 2^" + std::to_string(s.min_log2) +
         " … 2^" + std::to_string(s.max_log2) +
         ", trials T = " + std::to_string(s.trials) + ")";
}

void check_setup(const WidthExperimentSetup& s) {
  if (s.keys < 2 || s.keys > 4096) {
    throw std::invalid_argument("keys m must be between 2 and 4096, got " + std::to_string(s.keys));
  }
  if (s.max_log2 < 1 || s.max_log2 > 16) {
    throw std::invalid_argument("max_log2 must be between 1 and 16, got " + std::to_string(s.max_log2));
  }
  if (s.min_log2 < 1 || s.min_log2 > s.max_log2) {
    throw std::invalid_argument("min_log2 must be between 1 and max_log2 = " + std::to_string(s.max_log2) + ", got " +
                                std::to_string(s.min_log2));
  }
  if (s.trials < 1 || s.trials > 1000000) {
    throw std::invalid_argument("trials T must be between 1 and 1000000, got " + std::to_string(s.trials));
  }
}

// softmax_summary(scores, 1 / factor) for a trial's scores, given as `shifted` = scores − their
// largest: the exponentials on the core's vector kernels (2 float64 lanes in WebAssembly),
// in `work`. The scores are finite draws, so softmax_summary's checks are left out here.
SoftmaxSummary summarise(const RowVector& shifted, double factor, RowVector& work) {
  work = shifted;
  const double partition = kernels::best_f64().exp_sum(work.data(), work.size(), 0.0, factor);
  const double weighted_z = factor * work.dot(shifted);  // Σ exp(z_j)·z_j for z_j = factor·shifted_j
  return {1.0 / partition, std::log(partition) - weighted_z / partition};
}

// Adds one trial's unscaled scores (1×m) to the running means of `point`; `shifted` and
// `work` are buffers of m entries.
void accumulate(WidthPoint& point, const RowVector& unscaled, double trials, RowVector& shifted, RowVector& work) {
  shifted = unscaled.array() - unscaled.maxCoeff();
  const SoftmaxSummary raw = summarise(shifted, 1.0, work);
  const SoftmaxSummary scaled = summarise(shifted, 1.0 / std::sqrt(static_cast<double>(point.width)), work);
  point.mean_largest_unscaled += raw.largest / trials;
  point.mean_entropy_unscaled += raw.entropy / trials;
  point.mean_largest_scaled += scaled.largest / trials;
  point.mean_entropy_scaled += scaled.entropy / trials;
}

int width_count(const WidthExperimentSetup& setup) { return setup.max_log2 - setup.min_log2 + 1; }

std::vector<WidthPoint> empty_points(const WidthExperimentSetup& setup) {
  std::vector<WidthPoint> points(static_cast<std::size_t>(width_count(setup)));
  for (int k = setup.min_log2; k <= setup.max_log2; ++k) points[static_cast<std::size_t>(k - setup.min_log2)].width = 1 << k;
  return points;
}

int log2_of(const WidthPoint& point) {
  int k = 0;
  while ((1 << k) < point.width) ++k;
  return k;
}

}  // namespace

std::uint64_t width_seed(std::uint64_t seed, int log2_width) {
  // The width goes into the top byte: seeds below 2^56 (every seed a page can pass) and widths
  // up to 2^16 never collide. splitmix64 in Random spreads the bits.
  return seed ^ (static_cast<std::uint64_t>(log2_width) << 56);
}

std::vector<WidthPoint> width_experiment(const WidthExperimentSetup& setup) {
  check_setup(setup);
  // Per width and trial: m normal draws and one chi-square draw, then two softmax summaries over m.
  budget::experiment_work(describe(setup).c_str(),
                          budget::product({setup.trials, width_count(setup), budget::sum({budget::product({3, setup.keys}), 1})}));
  std::vector<WidthPoint> points = empty_points(setup);
  RowVector scores(setup.keys);
  RowVector shifted(setup.keys);
  RowVector work(setup.keys);
  for (WidthPoint& point : points) {
    Random random(width_seed(setup.seed, log2_of(point)));
    for (int t = 0; t < setup.trials; ++t) {
      const double query_norm = std::sqrt(random.chi_square(point.width));
      for (int j = 0; j < setup.keys; ++j) scores(j) = query_norm * random.normal_ziggurat();
      accumulate(point, scores, setup.trials, shifted, work);
    }
  }
  return points;
}

std::vector<WidthPoint> width_experiment_direct(const WidthExperimentSetup& setup) {
  check_setup(setup);
  // Per trial: (m + 1)·d_k normal draws at each width d_k = 2 … 2^L, then two softmax rows of m.
  const std::int64_t widths_sum = (std::int64_t{1} << (setup.max_log2 + 1)) - (std::int64_t{1} << setup.min_log2);
  budget::experiment_work(describe(setup).c_str(),
                          budget::product({setup.trials, budget::sum({budget::product({setup.keys + 1, widths_sum}),
                                                                       budget::product({2, setup.keys, width_count(setup)})})}));
  // The m×d_k keys matrix of the widest width, drawn anew each trial.
  budget::matrix("the keys (m x d_k)", setup.keys, std::int64_t{1} << setup.max_log2);
  std::vector<WidthPoint> points = empty_points(setup);
  for (WidthPoint& point : points) {
    Random random(width_seed(setup.seed, log2_of(point)));
    Vector q(point.width);
    Matrix keys(setup.keys, point.width);
    for (int t = 0; t < setup.trials; ++t) {
      for (Eigen::Index c = 0; c < q.size(); ++c) q(c) = random.normal();
      for (Eigen::Index j = 0; j < keys.rows(); ++j) {
        for (Eigen::Index c = 0; c < keys.cols(); ++c) keys(j, c) = random.normal();
      }
      // The reference path forms the weights with the page's own softmax.
      const Matrix weights = softmax_rows((keys * q).transpose());
      const Matrix scaled_weights = softmax_rows((keys * q).transpose() / std::sqrt(static_cast<double>(point.width)));
      point.mean_largest_unscaled += weights.maxCoeff() / setup.trials;
      point.mean_entropy_unscaled += row_entropy(weights)(0) / setup.trials;
      point.mean_largest_scaled += scaled_weights.maxCoeff() / setup.trials;
      point.mean_entropy_scaled += row_entropy(scaled_weights)(0) / setup.trials;
    }
  }
  return points;
}

}  // namespace attn
