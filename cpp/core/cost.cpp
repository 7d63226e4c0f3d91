#include "cost.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "budget.hpp"
#include "check.hpp"
#include "limits.hpp"

namespace attn {
namespace {

// Every count is computed in 64-bit integers and returned only if a double (and so a
// JavaScript number) holds it exactly: up to 2^53.
const std::string kExactLimit = "2^53 = 9007199254740992, the largest count a JavaScript number holds exactly";

std::int64_t positive_whole(const char* name, double value) {
  if (!std::isfinite(value) || value < 1 || value != std::floor(value)) {
    throw std::invalid_argument(std::string(name) + " must be a whole number >= 1, got " + check::number(value));
  }
  if (value > static_cast<double>(limits::kMaxExactCount)) {
    throw std::invalid_argument(std::string(name) + " = " + check::number(value) + " is past " + kExactLimit);
  }
  return static_cast<std::int64_t>(value);
}

// A count of the setting, refused if it passes 2^53. `approximate` is the same count in
// floating point, for the message when the exact product has saturated.
double exact(const char* what, std::int64_t value, double approximate, const std::string& setting) {
  if (value > limits::kMaxExactCount) {
    throw std::invalid_argument(std::string(what) + " = " + check::number(approximate) + " passes " + kExactLimit +
                                " (" + setting + ")");
  }
  return static_cast<double>(value);
}

// The smallest p with k^p >= n: ⌈log_k n⌉ without rounding error.
std::int64_t ceil_log(std::int64_t n, std::int64_t k) {
  std::int64_t p = 0;
  for (std::int64_t power = 1; power < n; ++p) {
    if (power > n / k) return p + 1;  // power·k > n: the next power is enough (and would not fit)
    power *= k;
  }
  return p;
}

}  // namespace

Cost attention_cost(const CostSetup& s) {
  using budget::product;
  using budget::sum;
  const std::int64_t n = positive_whole("n", s.n);
  const std::int64_t m = positive_whole("m", s.m);
  const std::int64_t d = positive_whole("d_model", s.d_model);
  const std::int64_t h = positive_whole("heads h", s.heads);
  const std::int64_t b = positive_whole("bytes per number", s.bytes_per_number);
  if (d % h != 0) {
    throw std::invalid_argument("heads h = " + check::number(s.heads) + " must divide d_model = " + check::number(s.d_model));
  }
  const std::string setting = "n = " + check::number(s.n) + ", m = " + check::number(s.m) + ", d_model = " +
                              check::number(s.d_model) + ", h = " + check::number(s.heads) + ", " +
                              check::number(s.bytes_per_number) + " bytes per number";
  const double nd = s.n, md = s.m, dd = s.d_model, hd = s.heads, bd = s.bytes_per_number;
  Cost c;
  // Each head multiplies n×(d/h) by (d/h)×m; h of them make n·m·d.
  c.qk_macs = exact("the Q·Kᵀ multiply-adds n·m·d_model", product({n, m, d}), nd * md * dd, setting);
  c.av_macs = c.qk_macs;
  c.projection_macs = exact("the projection multiply-adds (2n + 2m)·d_model²", product({sum({n, n, m, m}), d, d}),
                            (2 * nd + 2 * md) * dd * dd, setting);
  c.weight_numbers_per_head = exact("the attention weights per head n·m", product({n, m}), nd * md, setting);
  c.weight_bytes_per_head = exact("the weight bytes per head n·m·bytes", product({n, m, b}), nd * md * bd, setting);
  c.weight_bytes_all_heads =
      exact("the weight bytes of all heads n·m·bytes·h", product({n, m, b, h}), nd * md * bd * hd, setting);
  c.projection_parameters = exact("the projection parameters 3·d_model²", product({3, d, d}), 3 * dd * dd, setting);
  c.output_parameters = exact("the output parameters d_model²", product({d, d}), dd * dd, setting);
  c.parameters = exact("the parameters 4·d_model²", product({4, d, d}), 4 * dd * dd, setting);
  c.parameter_bytes = exact("the parameter bytes 4·d_model²·bytes", product({4, d, d, b}), 4 * dd * dd * bd, setting);
  return c;
}

std::vector<LayerComparisonRow> layer_comparison(double n_in, double d_in, double k_in) {
  using budget::product;
  const std::int64_t n = positive_whole("n", n_in);
  const std::int64_t d = positive_whole("d", d_in);
  const std::int64_t k = positive_whole("kernel width k", k_in);
  if (k < 2) throw std::invalid_argument("kernel width k must be at least 2, got " + check::number(k_in));
  const std::string setting = "n = " + check::number(n_in) + ", d = " + check::number(d_in) + ", k = " + check::number(k_in);
  return {
      {"self-attention", exact("self-attention's n²·d", product({n, n, d}), n_in * n_in * d_in, setting), 1, 1},
      {"recurrent", exact("recurrence's n·d²", product({n, d, d}), n_in * d_in * d_in, setting), n_in, n_in},
      {"convolutional", exact("convolution's k·n·d²", product({k, n, d, d}), k_in * n_in * d_in * d_in, setting), 1,
       static_cast<double>(ceil_log(n, k))},
  };
}

}  // namespace attn
