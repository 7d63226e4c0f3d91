// Prints a fixed set of the core's results as JSON with 17 significant digits. The native
// and WebAssembly builds both run it; a node test checks that they agree to 1e-6 relative.
#include <cstdio>
#include <string>

#include "attention_lab.hpp"

namespace {

void print_matrix(const char* name, const attn::Matrix& m, bool last = false) {
  std::printf("  \"%s\": [", name);
  for (Eigen::Index i = 0; i < m.size(); ++i) std::printf("%s%.17g", i ? ", " : "", m.data()[i]);
  std::printf("]%s\n", last ? "" : ",");
}

attn::Matrix rows(std::initializer_list<std::initializer_list<double>> values) {
  attn::Matrix m(static_cast<Eigen::Index>(values.size()), static_cast<Eigen::Index>(values.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& r : values) {
    Eigen::Index j = 0;
    for (double v : r) m(i, j++) = v;
    ++i;
  }
  return m;
}

}  // namespace

int main() {
  using namespace attn;
  const Matrix keys = rows({{1, 0}, {0, 1}, {1, 1}});
  const Matrix values = rows({{1, 0}, {0, 1}, {0.5, 0.5}});
  const ToySentence& toy = toy_sentence();

  std::printf("{\n");
  print_matrix("worked_example_weights", attention(keys, keys, values).weights);
  print_matrix("worked_example_output", attention(keys, keys, values).output);
  print_matrix("toy_full_width_weights", multi_head_attention(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1).heads[0].weights);
  const auto four = multi_head_attention(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4, {0.5, causal_mask(8, 8)});
  print_matrix("toy_four_heads_causal_output", four.output);
  print_matrix("toy_cross_weights",
               multi_head_attention(toy.cross_X, toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 2).heads[1].weights);
  print_matrix("additive_scores", additive_scores(keys, keys, rows({{0.5, -1}, {2, 0.25}}),
                                                  rows({{1, 1}, {-0.5, 3}}), Vector::Constant(2, 0.75)));
  print_matrix("softmax_jacobian", softmax_jacobian(rows({{0.2, 0.3, 0.5}})));
  Matrix experiment(10, 4);
  const auto points = width_experiment({10, 10, 300, 7});
  for (int k = 0; k < 10; ++k) {
    experiment.row(k) << points[k].mean_largest_unscaled, points[k].mean_entropy_unscaled,
        points[k].mean_largest_scaled, points[k].mean_entropy_scaled;
  }
  print_matrix("width_experiment", experiment);
  const auto direct = width_experiment_direct({6, 5, 50, 11});
  Matrix direct_m(5, 2);
  for (int k = 0; k < 5; ++k) direct_m.row(k) << direct[k].mean_largest_unscaled, direct[k].mean_entropy_scaled;
  print_matrix("width_experiment_direct", direct_m, true);
  std::printf("}\n");
  return 0;
}
