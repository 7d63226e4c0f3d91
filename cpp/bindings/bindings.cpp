// Embind glue between the core and JavaScript: nothing but conversion and error translation.
//
// A matrix crosses as { rows, cols, data: Float64Array } in one bulk copy each way; arrays
// returned to JavaScript are fresh Float64Arrays, never views of the WebAssembly heap. Every
// C++ exception becomes a JavaScript Error with the same message, and the module stays usable.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "attention_lab.hpp"
#include "check.hpp"

namespace {

using emscripten::val;
using namespace attn;

// Runs `body`, turning any C++ exception into a thrown JavaScript Error.
template <typename Body>
val guarded(Body&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    val::global("Error").new_(std::string(e.what())).throw_();
  }
  return val::undefined();
}

Eigen::Index dimension(const val& js, const char* name, const char* field) {
  const val v = js[field];
  if (!v.isNumber()) throw std::invalid_argument(std::string(name) + "." + field + " must be a number");
  const double d = v.as<double>();
  if (!(d >= 0) || d != std::floor(d) || d > 1e7) {
    throw std::invalid_argument(std::string(name) + "." + field + " must be a whole number >= 0, got " +
                                check::number(d));
  }
  return static_cast<Eigen::Index>(d);
}

Matrix to_matrix(const val& js, const char* name) {
  if (js.isNull() || js.typeOf().as<std::string>() != "object") throw std::invalid_argument(std::string(name) + " must be an object { rows, cols, data }");
  const Eigen::Index rows = dimension(js, name, "rows");
  const Eigen::Index cols = dimension(js, name, "cols");
  const val data = js["data"];
  if (!data.instanceof(val::global("Float64Array"))) {
    throw std::invalid_argument(std::string(name) + ".data must be a Float64Array");
  }
  const auto length = data["length"].as<std::size_t>();
  if (length != static_cast<std::size_t>(rows * cols)) {
    throw std::invalid_argument(std::string(name) + ".data has " + std::to_string(length) + " entries, expected " +
                                std::to_string(rows) + "x" + std::to_string(cols));
  }
  Matrix m(rows, cols);
  val(emscripten::typed_memory_view(m.size(), m.data())).call<void>("set", data);
  return m;
}

val float64_array(const double* values, std::size_t count) {
  return val::global("Float64Array").new_(emscripten::typed_memory_view(count, values));
}

val from_matrix(const Matrix& m) {
  val js = val::object();
  js.set("rows", static_cast<double>(m.rows()));
  js.set("cols", static_cast<double>(m.cols()));
  js.set("data", float64_array(m.data(), static_cast<std::size_t>(m.size())));
  return js;
}

// JavaScript numbers arrive as doubles; counts must be whole and in range before they become ints.
int whole(const char* name, double value, double low, double high) {
  if (!(value >= low && value <= high) || value != std::floor(value)) {
    throw std::invalid_argument(std::string(name) + " must be a whole number from " + std::to_string(static_cast<long long>(low)) +
                                " to " + std::to_string(static_cast<long long>(high)) + ", got " + check::number(value));
  }
  return static_cast<int>(value);
}

val from_mask(const Mask& mask) { return from_matrix(mask.cast<double>()); }

val string_array(const std::vector<std::string>& strings) {
  val js = val::array();
  for (const auto& s : strings) js.call<void>("push", s);
  return js;
}

// Mask kinds, as the JS layer sends them: 0 none, 1 causal, 2 the given 0/1 matrix.
std::optional<Mask> to_mask(int kind, const val& js, Eigen::Index n, Eigen::Index m) {
  switch (kind) {
    case 0:
      return std::nullopt;
    case 1:
      return causal_mask(n, m);
    case 2: {
      const Matrix values = to_matrix(js, "mask");
      return Mask(values.array() != 0.0);
    }
    default:
      throw std::invalid_argument("mask kind must be 0, 1 or 2, got " + std::to_string(kind));
  }
}

val from_attention(const AttentionResult& r) {
  val js = val::object();
  js.set("rawScores", from_matrix(r.raw_scores));
  js.set("scaledScores", from_matrix(r.scaled_scores));
  js.set("weights", from_matrix(r.weights));
  js.set("output", from_matrix(r.output));
  return js;
}

val from_multi_head(const MultiHeadResult& r) {
  val heads = val::array();
  for (const auto& head : r.heads) heads.call<void>("push", from_attention(head));
  val js = val::object();
  js.set("heads", heads);
  js.set("concat", from_matrix(r.concat));
  js.set("output", from_matrix(r.output));
  return js;
}

val js_attention(val q, val k, val v, double tau, double scale, int mask_kind, val mask, int axis) {
  return guarded([&] {
    const Matrix Q = to_matrix(q, "Q");
    const Matrix K = to_matrix(k, "K");
    AttentionOptions options;
    options.temperature = tau;
    options.scale = scale;
    options.mask = to_mask(mask_kind, mask, Q.rows(), K.rows());
    options.axis = axis == 1 ? SoftmaxAxis::Queries : SoftmaxAxis::Keys;
    return from_attention(attention(Q, K, to_matrix(v, "V"), options));
  });
}

val js_softmax(val logits, double tau, int mask_kind, val mask) {
  return guarded([&] {
    const Matrix L = to_matrix(logits, "logits");
    return from_matrix(softmax_rows(L, tau, to_mask(mask_kind, mask, L.rows(), L.cols())));
  });
}

val js_causal_mask(double n, double m) {
  return guarded([&] {
    if (n != std::floor(n) || m != std::floor(m)) throw std::invalid_argument("causal mask sizes must be whole numbers");
    return from_mask(causal_mask(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(m)));
  });
}

val js_multi_head(val x, val wq, val wk, val wv, val wo, double heads, double tau, int mask_kind, val mask, int scale) {
  return guarded([&] {
    const Matrix X = to_matrix(x, "X");
    MultiHeadOptions options;
    options.temperature = tau;
    options.mask = to_mask(mask_kind, mask, X.rows(), X.rows());
    options.scale = scale == 1 ? HeadScale::ModelWidth : HeadScale::HeadWidth;
    const MultiHeadResult r = multi_head_attention(X, to_matrix(wq, "W_Q"), to_matrix(wk, "W_K"),
                                                   to_matrix(wv, "W_V"), to_matrix(wo, "W_O"),
                                                   whole("heads h", heads, 1, 4096), options);
    return from_multi_head(r);
  });
}

val js_cross_multi_head(val xq, val xkv, val wq, val wk, val wv, val wo, double heads, double tau) {
  return guarded([&] {
    MultiHeadOptions options;
    options.temperature = tau;
    const MultiHeadResult r =
        multi_head_attention(to_matrix(xq, "X (queries)"), to_matrix(xkv, "X (keys and values)"), to_matrix(wq, "W_Q"),
                             to_matrix(wk, "W_K"), to_matrix(wv, "W_V"), to_matrix(wo, "W_O"),
                             whole("heads h", heads, 1, 4096), options);
    return from_multi_head(r);
  });
}

val js_additive_scores(val q, val k, val w, val u, val v) {
  return guarded([&] {
    const Matrix v_row = to_matrix(v, "v");
    if (v_row.rows() != 1) throw std::invalid_argument("v must be 1xd_a, got " + check::shape_of(v_row));
    const Vector v_col = v_row.row(0).transpose();
    return from_matrix(additive_scores(to_matrix(q, "Q"), to_matrix(k, "K"), to_matrix(w, "W"), to_matrix(u, "U"), v_col));
  });
}

val js_row_stats(val weights) {
  return guarded([&] {
    const RowStats s = row_stats(to_matrix(weights, "weights"));
    const Vector argmax = s.argmax.cast<double>();
    val js = val::object();
    js.set("entropy", float64_array(s.entropy.data(), s.entropy.size()));
    js.set("max", float64_array(s.largest.data(), s.largest.size()));
    js.set("argmax", float64_array(argmax.data(), argmax.size()));
    return js;
  });
}

val js_sums(val m) {
  return guarded([&] {
    const Sums s = sums(to_matrix(m, "matrix"));
    val js = val::object();
    js.set("rows", float64_array(s.rows.data(), s.rows.size()));
    js.set("cols", float64_array(s.cols.data(), s.cols.size()));
    return js;
  });
}

val js_max_abs_difference(val a, val b) {
  return guarded([&] { return val(max_abs_difference(to_matrix(a, "a"), to_matrix(b, "b"))); });
}

val js_gradient_factor(val p) {
  return guarded([&] { return from_matrix(gradient_factor(to_matrix(p, "p"))); });
}

val js_softmax_jacobian(val p) {
  return guarded([&] { return from_matrix(softmax_jacobian(to_matrix(p, "p"))); });
}

val js_width_experiment(double keys, double max_log2, double trials, double seed) {
  return guarded([&] {
    if (!(seed >= 0) || seed != std::floor(seed) || seed > 9007199254740991.0) {
      throw std::invalid_argument("seed must be a whole number >= 0, got " + check::number(seed));
    }
    const auto points = width_experiment({whole("keys m", keys, 2, 4096), whole("max_log2", max_log2, 1, 16),
                                          whole("trials T", trials, 1, 1000000), static_cast<std::uint64_t>(seed)});
    std::vector<double> widths, max_u, ent_u, max_s, ent_s;
    for (const auto& p : points) {
      widths.push_back(p.width);
      max_u.push_back(p.mean_largest_unscaled);
      ent_u.push_back(p.mean_entropy_unscaled);
      max_s.push_back(p.mean_largest_scaled);
      ent_s.push_back(p.mean_entropy_scaled);
    }
    const auto series = [](const std::vector<double>& largest, const std::vector<double>& entropy) {
      val js = val::object();
      js.set("meanMax", float64_array(largest.data(), largest.size()));
      js.set("meanEntropy", float64_array(entropy.data(), entropy.size()));
      return js;
    };
    val js = val::object();
    js.set("widths", float64_array(widths.data(), widths.size()));
    js.set("unscaled", series(max_u, ent_u));
    js.set("scaled", series(max_s, ent_s));
    return js;
  });
}

val js_cost(double n, double m, double d_model, double heads, double bytes) {
  return guarded([&] {
    const Cost c = attention_cost({n, m, d_model, heads, bytes});
    val js = val::object();
    js.set("qkMacs", c.qk_macs);
    js.set("avMacs", c.av_macs);
    js.set("projectionMacs", c.projection_macs);
    js.set("weightNumbersPerHead", c.weight_numbers_per_head);
    js.set("weightBytesPerHead", c.weight_bytes_per_head);
    js.set("weightBytesAllHeads", c.weight_bytes_all_heads);
    js.set("projectionParameters", c.projection_parameters);
    js.set("outputParameters", c.output_parameters);
    js.set("parameters", c.parameters);
    js.set("parameterBytes", c.parameter_bytes);
    return js;
  });
}

val js_layer_comparison(double n, double d, double k) {
  return guarded([&] {
    val rows = val::array();
    for (const auto& r : layer_comparison(n, d, k)) {
      val js = val::object();
      js.set("layer", r.layer);
      js.set("complexityPerLayer", r.complexity_per_layer);
      js.set("sequentialOps", r.sequential_operations);
      js.set("maxPathLength", r.maximum_path_length);
      rows.call<void>("push", js);
    }
    return rows;
  });
}

val js_toy_sentence() {
  return guarded([&] {
    const ToySentence& toy = toy_sentence();
    val js = val::object();
    js.set("tokens", string_array(toy.tokens));
    js.set("features", string_array(toy.features));
    js.set("headJobs", string_array(toy.head_jobs));
    js.set("X", from_matrix(toy.X));
    js.set("WQ", from_matrix(toy.WQ));
    js.set("WK", from_matrix(toy.WK));
    js.set("WV", from_matrix(toy.WV));
    js.set("WO", from_matrix(toy.WO));
    js.set("crossTokens", string_array(toy.cross_tokens));
    js.set("crossX", from_matrix(toy.cross_X));
    return js;
  });
}

val js_matmul(val a, val b) {
  return guarded([&] {
    const Matrix A = to_matrix(a, "A");
    const Matrix B = to_matrix(b, "B");
    if (A.cols() != B.rows()) {
      throw std::invalid_argument("A (" + check::shape_of(A) + ") and B (" + check::shape_of(B) +
                                  ") cannot be multiplied: A's columns must equal B's rows");
    }
    check::all_finite("A", A);
    check::all_finite("B", B);
    return from_matrix(A * B);
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab) {
  emscripten::function("attention", &js_attention);
  emscripten::function("softmax", &js_softmax);
  emscripten::function("causalMask", &js_causal_mask);
  emscripten::function("multiHead", &js_multi_head);
  emscripten::function("crossMultiHead", &js_cross_multi_head);
  emscripten::function("additiveScores", &js_additive_scores);
  emscripten::function("rowStats", &js_row_stats);
  emscripten::function("sums", &js_sums);
  emscripten::function("maxAbsDifference", &js_max_abs_difference);
  emscripten::function("gradientFactor", &js_gradient_factor);
  emscripten::function("softmaxJacobian", &js_softmax_jacobian);
  emscripten::function("widthExperiment", &js_width_experiment);
  emscripten::function("cost", &js_cost);
  emscripten::function("layerComparison", &js_layer_comparison);
  emscripten::function("toySentence", &js_toy_sentence);
  emscripten::function("matmul", &js_matmul);
}
