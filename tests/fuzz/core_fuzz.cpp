// libFuzzer target over the public core API. Each input picks one entry point and builds its
// arguments from the bytes: shapes from 0 to 9 (mismatched ones included), entries that are
// ordinary or extreme (NaN, ±Inf, ±1e308, denormals), any τ, scale, mask and h. The contract
// checked on every call: either a result whose numbers are finite and whose weights are
// row-stochastic (masked pairs exactly 0), or a std::invalid_argument with a message. Anything
// else (another exception, a sanitizer report, a broken contract) stops the fuzzer.
//
// Built by scripts/fuzz.sh with clang++ -fsanitize=fuzzer,address,undefined.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "attention_f32.hpp"
#include "attention_lab.hpp"
#include "streaming.hpp"

namespace {

using namespace attn;

[[noreturn]] void broken(const char* entry_point, const std::string& what) {
  std::fprintf(stderr, "contract broken in %s: %s\n", entry_point, what.c_str());
  std::abort();
}

// The values a hostile caller would try, mixed with ordinary ones.
double pick_value(FuzzedDataProvider& in) {
  static const double special[] = {0.0,
                                   -0.0,
                                   1.0,
                                   -1.0,
                                   0.5,
                                   std::numeric_limits<double>::quiet_NaN(),
                                   std::numeric_limits<double>::infinity(),
                                   -std::numeric_limits<double>::infinity(),
                                   1e308,
                                   -1e308,
                                   std::numeric_limits<double>::max(),
                                   std::numeric_limits<double>::lowest(),
                                   std::numeric_limits<double>::denorm_min(),
                                   -std::numeric_limits<double>::denorm_min(),
                                   std::numeric_limits<double>::min(),
                                   1e-300,
                                   1e200,
                                   -1e200,
                                   1e30,
                                   1e-6};
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return in.PickValueInArray(special);
    case 1: return in.ConsumeFloatingPoint<double>();
    default: return in.ConsumeFloatingPointInRange<double>(-10.0, 10.0);
  }
}

Eigen::Index pick_size(FuzzedDataProvider& in) { return in.ConsumeIntegralInRange<Eigen::Index>(0, 9); }

Matrix pick_matrix(FuzzedDataProvider& in, Eigen::Index rows, Eigen::Index cols) {
  Matrix m(rows, cols);
  // Mostly ordinary entries, so that calls get past the checks and into the arithmetic.
  const bool hostile = in.ConsumeBool();
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    m.data()[i] = hostile ? pick_value(in) : in.ConsumeFloatingPointInRange<double>(-4.0, 4.0);
  }
  return m;
}

// Rows and columns that usually agree with `rows`/`cols`, sometimes not.
Eigen::Index maybe(FuzzedDataProvider& in, Eigen::Index usual) {
  return in.ConsumeIntegralInRange<int>(0, 7) == 0 ? pick_size(in) : usual;
}

std::optional<Mask> pick_mask(FuzzedDataProvider& in, Eigen::Index rows, Eigen::Index cols) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return std::nullopt;
    case 1: return causal_mask(std::max<Eigen::Index>(rows, 1), std::max<Eigen::Index>(cols, 1));
    default: {
      Mask mask(maybe(in, rows), maybe(in, cols));
      for (Eigen::Index i = 0; i < mask.size(); ++i) mask.data()[i] = in.ConsumeIntegralInRange<int>(0, 3) != 0;
      return mask;
    }
  }
}

double pick_positive(FuzzedDataProvider& in) {
  return in.ConsumeBool() ? in.ConsumeFloatingPointInRange<double>(0.01, 10.0) : pick_value(in);
}

void expect_finite(const char* entry_point, const char* name, const Matrix& m) {
  if (!m.allFinite()) broken(entry_point, std::string(name) + " has a non-finite entry");
}

// Rows (or columns) that sum to 1, entries in [0, 1], masked pairs exactly 0.
void expect_stochastic(const char* entry_point, const Matrix& weights, const std::optional<Mask>& mask, bool by_rows) {
  expect_finite(entry_point, "weights", weights);
  if ((weights.array() < 0).any() || (weights.array() > 1).any()) broken(entry_point, "a weight outside [0, 1]");
  const Eigen::VectorXd sums = by_rows ? Eigen::VectorXd(weights.rowwise().sum()) : Eigen::VectorXd(weights.colwise().sum().transpose());
  const double tolerance = 1e-13 * static_cast<double>(by_rows ? weights.cols() : weights.rows()) + 1e-15;
  for (Eigen::Index i = 0; i < sums.size(); ++i) {
    if (std::abs(sums(i) - 1.0) > tolerance) broken(entry_point, "weights do not sum to 1: " + std::to_string(sums(i)));
  }
  if (mask) {
    for (Eigen::Index i = 0; i < weights.rows(); ++i) {
      for (Eigen::Index j = 0; j < weights.cols(); ++j) {
        if (!(*mask)(i, j) && weights(i, j) != 0.0) broken(entry_point, "a masked pair has a non-zero weight");
      }
    }
  }
}

void expect_attention(const char* entry_point, const AttentionResult& r, const std::optional<Mask>& mask, bool by_rows) {
  expect_finite(entry_point, "raw scores", r.raw_scores);
  expect_finite(entry_point, "scaled scores", r.scaled_scores);
  expect_finite(entry_point, "output", r.output);
  expect_stochastic(entry_point, r.weights, mask, by_rows);
}

void fuzz_attention(FuzzedDataProvider& in) {
  const Eigen::Index n = pick_size(in), m = pick_size(in), dk = pick_size(in), dv = pick_size(in);
  const Matrix Q = pick_matrix(in, n, maybe(in, dk));
  const Matrix K = pick_matrix(in, m, dk);
  const Matrix V = pick_matrix(in, maybe(in, m), dv);
  AttentionOptions options;
  options.temperature = pick_positive(in);
  options.scale = in.ConsumeBool() ? 0.0 : pick_value(in);
  options.axis = in.ConsumeIntegralInRange<int>(0, 4) == 0 ? SoftmaxAxis::Queries : SoftmaxAxis::Keys;
  options.mask = pick_mask(in, n, m);
  const AttentionResult r = attention(Q, K, V, options);
  expect_attention("attention", r, options.mask, options.axis == SoftmaxAxis::Keys);
  // The output is a weighted mean of V's rows: inside V's range, column by column.
  for (Eigen::Index c = 0; c < V.cols(); ++c) {
    const double lo = V.col(c).minCoeff(), hi = V.col(c).maxCoeff();
    // Relative rounding, plus half a denormal step per key for values near the underflow limit.
    const double slack = 1e-12 * std::max(std::abs(lo), std::abs(hi)) +
                         static_cast<double>(V.rows()) * std::numeric_limits<double>::denorm_min();
    const double below = r.output.col(c).minCoeff(), above = r.output.col(c).maxCoeff();
    if (options.axis == SoftmaxAxis::Keys && (below < lo - slack || above > hi + slack)) {
      char detail[160];
      std::snprintf(detail, sizeof detail, "output column %d spans [%.17g, %.17g], the values [%.17g, %.17g]",
                    static_cast<int>(c), below, above, lo, hi);
      broken("attention", std::string("an output outside the values' range: ") + detail);
    }
  }
}

// The float32 twin: the same contract, within float32's rounding.
void fuzz_attention_f32(FuzzedDataProvider& in) {
  const Eigen::Index n = pick_size(in), m = pick_size(in), dk = pick_size(in), dv = pick_size(in);
  // Doubles past float32's range become ±Inf here, which the core must refuse.
  const MatrixF Q = pick_matrix(in, n, maybe(in, dk)).cast<float>();
  const MatrixF K = pick_matrix(in, m, dk).cast<float>();
  const MatrixF V = pick_matrix(in, maybe(in, m), dv).cast<float>();
  AttentionOptions options;
  options.temperature = pick_positive(in);
  options.scale = in.ConsumeBool() ? 0.0 : pick_value(in);
  options.mask = pick_mask(in, n, m);
  const AttentionResultF r = attention(Q, K, V, options);
  if (!r.raw_scores.allFinite() || !r.scaled_scores.allFinite() || !r.output.allFinite()) {
    broken("attention (float32)", "a non-finite score or output");
  }
  const Matrix weights = r.weights.cast<double>();
  if (!weights.allFinite() || (weights.array() < 0).any() || (weights.array() > 1 + 1e-6).any()) {
    broken("attention (float32)", "a weight outside [0, 1]");
  }
  for (Eigen::Index i = 0; i < weights.rows(); ++i) {
    if (std::abs(weights.row(i).sum() - 1.0) > 1e-5) broken("attention (float32)", "weights do not sum to 1");
    for (Eigen::Index j = 0; j < weights.cols(); ++j) {
      if (options.mask && !(*options.mask)(i, j) && weights(i, j) != 0.0) broken("attention (float32)", "a masked pair has weight");
    }
  }
}

// The streaming form never forms the weights: its output must still be finite and a weighted mean.
void fuzz_streaming(FuzzedDataProvider& in) {
  const Eigen::Index n = pick_size(in), m = pick_size(in), dk = pick_size(in), dv = pick_size(in);
  const Matrix Q = pick_matrix(in, n, maybe(in, dk)), K = pick_matrix(in, m, dk), V = pick_matrix(in, maybe(in, m), dv);
  StreamingOptions options;
  options.temperature = pick_positive(in);
  options.scale = in.ConsumeBool() ? 0.0 : pick_value(in);
  options.causal = in.ConsumeBool();
  options.mask = pick_mask(in, n, m);
  options.key_tile = in.ConsumeIntegralInRange<Eigen::Index>(-1, 5);
  const Matrix output = streaming_attention(Q, K, V, options);
  expect_finite("streaming_attention", "output", output);
  for (Eigen::Index c = 0; c < V.cols(); ++c) {
    const double lo = V.col(c).minCoeff(), hi = V.col(c).maxCoeff();
    const double slack = 1e-12 * std::max(std::abs(lo), std::abs(hi)) +
                         static_cast<double>(V.rows()) * std::numeric_limits<double>::denorm_min();
    if (output.col(c).minCoeff() < lo - slack || output.col(c).maxCoeff() > hi + slack) {
      broken("streaming_attention", "an output outside the values' range");
    }
  }
}

void fuzz_softmax(FuzzedDataProvider& in, bool by_rows) {
  const Eigen::Index n = pick_size(in), m = pick_size(in);
  const Matrix logits = pick_matrix(in, n, m);
  const double tau = pick_positive(in);
  if (by_rows) {
    const auto mask = pick_mask(in, n, m);
    expect_stochastic("softmax_rows", softmax_rows(logits, tau, mask), mask, true);
  } else {
    expect_stochastic("softmax_columns", softmax_columns(logits, tau), std::nullopt, false);
  }
}

void fuzz_multi_head(FuzzedDataProvider& in, bool cross) {
  const Eigen::Index n = pick_size(in), m = cross ? pick_size(in) : n, d = pick_size(in);
  const Matrix Xq = pick_matrix(in, n, d);
  const Matrix Xkv = cross ? pick_matrix(in, m, maybe(in, d)) : Xq;
  const Matrix WQ = pick_matrix(in, d, maybe(in, d)), WK = pick_matrix(in, maybe(in, d), d);
  const Matrix WV = pick_matrix(in, d, d), WO = pick_matrix(in, d, maybe(in, d));
  const int heads = in.ConsumeIntegralInRange<int>(-1, 10);
  MultiHeadOptions options;
  options.temperature = pick_positive(in);
  options.scale = in.ConsumeBool() ? HeadScale::HeadWidth : HeadScale::ModelWidth;
  options.mask = pick_mask(in, n, m);
  const MultiHeadResult r =
      cross ? multi_head_attention(Xq, Xkv, WQ, WK, WV, WO, heads, options) : multi_head_attention(Xq, WQ, WK, WV, WO, heads, options);
  if (static_cast<int>(r.heads.size()) != heads) broken("multi_head_attention", "wrong number of heads");
  for (const auto& head : r.heads) expect_attention("multi_head_attention", head, options.mask, true);
  expect_finite("multi_head_attention", "concat", r.concat);
  expect_finite("multi_head_attention", "output", r.output);
}

void fuzz_additive(FuzzedDataProvider& in) {
  const Eigen::Index n = pick_size(in), m = pick_size(in), dq = pick_size(in), dk = pick_size(in), da = pick_size(in);
  const Matrix Q = pick_matrix(in, n, dq), K = pick_matrix(in, m, dk);
  const Matrix W = pick_matrix(in, maybe(in, da), maybe(in, dq)), U = pick_matrix(in, maybe(in, da), dk);
  const Matrix v = pick_matrix(in, da, 1);
  const Vector vv = Eigen::Map<const Vector>(v.data(), v.rows());
  expect_finite("additive_scores", "scores", additive_scores(Q, K, W, U, vv));
}

void fuzz_row_tools(FuzzedDataProvider& in) {
  const Eigen::Index n = pick_size(in), m = pick_size(in);
  const Matrix a = pick_matrix(in, n, m);
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0: {
      const RowStats s = row_stats(a);
      if (!s.entropy.allFinite() || !s.largest.allFinite()) broken("row_stats", "a non-finite statistic");
      break;
    }
    case 1: {
      const Sums s = sums(a);
      if (!s.rows.allFinite() || !s.cols.allFinite()) broken("sums", "a non-finite sum");
      break;
    }
    case 2: {
      const Matrix b = pick_matrix(in, maybe(in, n), maybe(in, m));
      if (!std::isfinite(max_abs_difference(a, b))) broken("max_abs_difference", "a non-finite difference");
      break;
    }
    case 3: expect_finite("gradient_factor", "p(1 - p)", gradient_factor(a)); break;
    default: expect_finite("softmax_jacobian", "jacobian", softmax_jacobian(a)); break;
  }
}

std::int64_t pick_count(FuzzedDataProvider& in) {
  static const std::int64_t wide[] = {-1, 0, 4097, 1'000'001, 3'000'000'000, std::numeric_limits<std::int64_t>::max(),
                                      std::numeric_limits<std::int64_t>::min()};
  return in.ConsumeIntegralInRange<int>(0, 5) == 0 ? in.PickValueInArray(wide) : in.ConsumeIntegralInRange<std::int64_t>(0, 12);
}

void fuzz_causal_mask(FuzzedDataProvider& in) {
  const std::int64_t n = pick_count(in), m = pick_count(in);
  const Mask mask = causal_mask(n, m);
  if (mask.rows() != n || mask.cols() != m) broken("causal_mask", "wrong shape");
}

double pick_setting(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return pick_value(in);
    case 1: return std::ldexp(1.0, in.ConsumeIntegralInRange<int>(0, 60));
    default: return static_cast<double>(in.ConsumeIntegralInRange<int>(0, 5000));
  }
}

void expect_exact(const char* entry_point, double count) {
  if (!std::isfinite(count) || count < 0 || count > 9007199254740992.0 || count != std::floor(count)) {
    broken(entry_point, "a count that is not an exact whole number: " + std::to_string(count));
  }
}

void fuzz_cost(FuzzedDataProvider& in) {
  const Cost c = attention_cost({pick_setting(in), pick_setting(in), pick_setting(in), pick_setting(in), pick_setting(in)});
  for (double count : {c.qk_macs, c.av_macs, c.projection_macs, c.weight_numbers_per_head, c.weight_bytes_per_head,
                       c.weight_bytes_all_heads, c.projection_parameters, c.output_parameters, c.parameters,
                       c.parameter_bytes}) {
    expect_exact("attention_cost", count);
  }
}

void fuzz_layer_comparison(FuzzedDataProvider& in) {
  const double n = pick_setting(in), k = pick_setting(in);
  const auto rows = layer_comparison(n, pick_setting(in), k);
  for (const auto& row : rows) {
    expect_exact("layer_comparison", row.complexity_per_layer);
    expect_exact("layer_comparison", row.maximum_path_length);
  }
  // ⌈log_k n⌉ = p exactly when k^(p−1) < n ≤ k^p.
  const double p = rows[2].maximum_path_length;
  if (n > 1 && !(std::pow(k, p - 1) < n && n <= std::pow(k, p))) {
    broken("layer_comparison", "path length " + std::to_string(p) + " is not ceil(log_k n)");
  }
}

void fuzz_width_experiment(FuzzedDataProvider& in) {
  WidthExperimentSetup setup;
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {
    setup = {4096, 16, 1'000'000, 1};  // an hour of work: refused before it starts
  } else {
    setup.keys = in.ConsumeIntegralInRange<int>(-1, 12);
    setup.max_log2 = in.ConsumeIntegralInRange<int>(-1, 5);
    setup.trials = in.ConsumeIntegralInRange<int>(-1, 8);
  }
  setup.seed = in.ConsumeIntegral<std::uint64_t>();
  setup.min_log2 = in.ConsumeBool() ? 1 : in.ConsumeIntegralInRange<int>(-1, 6);
  const auto points = in.ConsumeBool() ? width_experiment(setup) : width_experiment_direct(setup);
  for (const WidthPoint& p : points) {
    for (double v : {p.mean_largest_unscaled, p.mean_entropy_unscaled, p.mean_largest_scaled, p.mean_entropy_scaled}) {
      if (!std::isfinite(v) || v < 0) broken("width_experiment", "a non-finite or negative mean");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  try {
    switch (in.ConsumeIntegralInRange<int>(0, 13)) {
      case 12: fuzz_attention_f32(in); break;
      case 13: fuzz_streaming(in); break;
      case 0: fuzz_attention(in); break;
      case 1: fuzz_softmax(in, true); break;
      case 2: fuzz_softmax(in, false); break;
      case 3: fuzz_multi_head(in, false); break;
      case 4: fuzz_multi_head(in, true); break;
      case 5: fuzz_additive(in); break;
      case 6: fuzz_row_tools(in); break;
      case 7: fuzz_causal_mask(in); break;
      case 8: fuzz_cost(in); break;
      case 9: fuzz_layer_comparison(in); break;
      case 10: fuzz_width_experiment(in); break;
      default: {  // dot_scores on its own
        const Eigen::Index n = pick_size(in), m = pick_size(in), d = pick_size(in);
        expect_finite("dot_scores", "scores", dot_scores(pick_matrix(in, n, d), pick_matrix(in, m, maybe(in, d))));
      }
    }
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).empty()) broken("an entry point", "an error without a message");
  }
  return 0;
}
