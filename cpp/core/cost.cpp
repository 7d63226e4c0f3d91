#include "cost.hpp"

#include "check.hpp"

#include <cmath>
#include <stdexcept>

namespace attn {
namespace {

void positive_whole(const char* name, double value) {
  if (!std::isfinite(value) || value < 1 || value != std::floor(value)) {
    throw std::invalid_argument(std::string(name) + " must be a whole number >= 1, got " + check::number(value));
  }
}

}  // namespace

Cost attention_cost(const CostSetup& s) {
  positive_whole("n", s.n);
  positive_whole("m", s.m);
  positive_whole("d_model", s.d_model);
  positive_whole("heads h", s.heads);
  positive_whole("bytes per number", s.bytes_per_number);
  if (std::fmod(s.d_model, s.heads) != 0) {
    throw std::invalid_argument("heads h = " + check::number(s.heads) + " must divide d_model = " + check::number(s.d_model));
  }
  Cost c;
  // Each head multiplies n×(d/h) by (d/h)×m; h of them make n·m·d.
  c.qk_macs = s.n * s.m * s.d_model;
  c.av_macs = s.n * s.m * s.d_model;
  c.projection_macs = (2 * s.n + 2 * s.m) * s.d_model * s.d_model;
  c.weight_numbers_per_head = s.n * s.m;
  c.weight_bytes_per_head = c.weight_numbers_per_head * s.bytes_per_number;
  c.weight_bytes_all_heads = c.weight_bytes_per_head * s.heads;
  c.projection_parameters = s.heads * 3 * (s.d_model * (s.d_model / s.heads));
  c.output_parameters = s.d_model * s.d_model;
  c.parameters = c.projection_parameters + c.output_parameters;
  c.parameter_bytes = c.parameters * s.bytes_per_number;
  return c;
}

std::vector<LayerComparisonRow> layer_comparison(double n, double d, double k) {
  positive_whole("n", n);
  positive_whole("d", d);
  positive_whole("kernel width k", k);
  if (k < 2) throw std::invalid_argument("kernel width k must be at least 2, got " + check::number(k));
  return {
      {"self-attention", n * n * d, 1, 1},
      {"recurrent", n * d * d, n, n},
      {"convolutional", k * n * d * d, 1, std::ceil(std::log(n) / std::log(k))},
  };
}

}  // namespace attn
