#include "width_experiment.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "budget.hpp"
#include "random.hpp"
#include "softmax.hpp"
#include "types.hpp"

namespace attn {
namespace {

std::string describe(const WidthExperimentSetup& s) {
  return "the width experiment (keys m = " + std::to_string(s.keys) + ", widths 2^1 … 2^" + std::to_string(s.max_log2) +
         ", trials T = " + std::to_string(s.trials) + ")";
}

void check_setup(const WidthExperimentSetup& s) {
  if (s.keys < 2 || s.keys > 4096) {
    throw std::invalid_argument("keys m must be between 2 and 4096, got " + std::to_string(s.keys));
  }
  if (s.max_log2 < 1 || s.max_log2 > 16) {
    throw std::invalid_argument("max_log2 must be between 1 and 16, got " + std::to_string(s.max_log2));
  }
  if (s.trials < 1 || s.trials > 1000000) {
    throw std::invalid_argument("trials T must be between 1 and 1000000, got " + std::to_string(s.trials));
  }
}

// Adds one trial's unscaled scores (1×m) to the running means of `point`.
void accumulate(WidthPoint& point, const RowVector& unscaled, double trials) {
  const SoftmaxSummary raw = softmax_summary(unscaled);
  const SoftmaxSummary scaled = softmax_summary(unscaled, std::sqrt(static_cast<double>(point.width)));
  point.mean_largest_unscaled += raw.largest / trials;
  point.mean_entropy_unscaled += raw.entropy / trials;
  point.mean_largest_scaled += scaled.largest / trials;
  point.mean_entropy_scaled += scaled.entropy / trials;
}

std::vector<WidthPoint> empty_points(const WidthExperimentSetup& setup) {
  std::vector<WidthPoint> points(setup.max_log2);
  for (int k = 1; k <= setup.max_log2; ++k) points[k - 1].width = 1 << k;
  return points;
}

}  // namespace

std::vector<WidthPoint> width_experiment(const WidthExperimentSetup& setup) {
  check_setup(setup);
  // Per width and trial: m normal draws and one chi-square draw, then two softmax summaries over m.
  budget::experiment_work(describe(setup).c_str(),
                          budget::product({setup.trials, setup.max_log2, budget::sum({budget::product({3, setup.keys}), 1})}));
  Random random(setup.seed);
  std::vector<WidthPoint> points = empty_points(setup);
  RowVector scores(setup.keys);
  for (WidthPoint& point : points) {
    for (int t = 0; t < setup.trials; ++t) {
      const double query_norm = std::sqrt(random.chi_square(point.width));
      for (int j = 0; j < setup.keys; ++j) scores(j) = query_norm * random.normal();
      accumulate(point, scores, setup.trials);
    }
  }
  return points;
}

std::vector<WidthPoint> width_experiment_direct(const WidthExperimentSetup& setup) {
  check_setup(setup);
  // Per trial: (m + 1)·d_k normal draws at each width d_k = 2 … 2^L, then two softmax rows of m.
  const std::int64_t widths_sum = (std::int64_t{1} << (setup.max_log2 + 1)) - 2;
  budget::experiment_work(describe(setup).c_str(),
                          budget::product({setup.trials, budget::sum({budget::product({setup.keys + 1, widths_sum}),
                                                                       budget::product({2, setup.keys, setup.max_log2})})}));
  Random random(setup.seed);
  std::vector<WidthPoint> points = empty_points(setup);
  for (WidthPoint& point : points) {
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
