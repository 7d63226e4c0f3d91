// One query attended by hand, written for reading rather than speed.
//
// The page's "One query by hand" figure shows the function between the two page-code
// markers below, line for line (scripts/build-web.mjs bundles this file as text), and
// lights up the lines of the step the learner is on. Each step starts with a comment
// "// <number>. …", which is how the page knows which lines belong to which step.
//
// Plain loops over std::vector<double>: no Eigen, no classes. The core (attn::attention)
// does the same work with matrices for every query at once; tests/cpp/teaching_copy_test.cpp
// checks that the two agree.
//
// Preconditions (not checked, to keep the function short): at least one key; every key has
// q.size() entries; there are as many values as keys, all of the same width.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace teaching {

using Vec = std::vector<double>;

// page-code-begin
// Attention for one query q over keys[j] and values[j]: returns the blended value.
inline Vec attend_one(const Vec& q, const std::vector<Vec>& keys, const std::vector<Vec>& values) {
  const std::size_t m = keys.size();  // how many keys (and values)
  const std::size_t d_k = q.size();   // width of the query and of each key

  // 1. Dot products: how well does each key match the query?
  Vec score(m, 0.0);
  for (std::size_t j = 0; j < m; ++j)
    for (std::size_t c = 0; c < d_k; ++c) score[j] += q[c] * keys[j][c];

  // 2. Scale: divide every score by the square root of the key width.
  const double root = std::sqrt(static_cast<double>(d_k));
  for (double& s : score) s /= root;

  // 3. Softmax: exponentiate (minus the top score, to avoid overflow), then normalise.
  const double top = *std::max_element(score.begin(), score.end());
  Vec weight(m);
  double total = 0.0;
  for (std::size_t j = 0; j < m; ++j) total += weight[j] = std::exp(score[j] - top);
  for (double& w : weight) w /= total;  // now positive and summing to 1

  // 4. Weighted sum: blend the values in proportion to the weights.
  Vec out(values[0].size(), 0.0);
  for (std::size_t j = 0; j < m; ++j)
    for (std::size_t c = 0; c < out.size(); ++c) out[c] += weight[j] * values[j][c];
  return out;
}
// page-code-end

}  // namespace teaching
