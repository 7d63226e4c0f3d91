// The page's experiments and records: the width experiment (five rows), and the results that are
// records, not matrices (cost, the layer comparison, the toy sentence), as Embind value objects;
// and the embedding of any sentence.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "boundary.hpp"

using namespace attn;
using namespace attn::bindings;

namespace {
struct WidthExperimentCall {
  double keys, min_log2, max_log2, trials, seed;
};
static_assert(fits_call_record<WidthExperimentCall>(), "WidthExperimentCall must fit the call record JS writes");
}  // namespace

// Five 1×k rows, one entry per width: the widths, then the mean largest weight and the mean
// entropy unscaled, then the same two scaled.
extern "C" EMSCRIPTEN_KEEPALIVE int al_width_experiment(const WidthExperimentCall* c) {
  return guarded([&] {
    const auto points = width_experiment({static_cast<int>(c->keys), static_cast<int>(c->max_log2),
                                          static_cast<int>(c->trials), static_cast<std::uint64_t>(c->seed),
                                          static_cast<int>(c->min_log2)});
    const auto series = [&](auto field) {
      Matrix row(1, static_cast<Eigen::Index>(points.size()));
      for (std::size_t i = 0; i < points.size(); ++i) row(0, static_cast<Eigen::Index>(i)) = field(points[i]);
      keep(std::move(row), "the width experiment");
    };
    series([](const WidthPoint& p) { return static_cast<double>(p.width); });
    series([](const WidthPoint& p) { return p.mean_largest_unscaled; });
    series([](const WidthPoint& p) { return p.mean_entropy_unscaled; });
    series([](const WidthPoint& p) { return p.mean_largest_scaled; });
    series([](const WidthPoint& p) { return p.mean_entropy_scaled; });
  });
}

// X of any sentence of 1 to 16 tokens, from its table of word numbers and features (n×17).
AL_EXPORT_MATRIX_TO_MATRIX(al_sentence_embedding, sentence_embedding, "the sentence's embedding")

// ---- results that are records, not matrices: Embind value objects ------------------------
// A value object is copied into a plain JS object on return and leaves no handle behind. A
// failure returns an empty record with the message kept, exactly as the raw exports do; the
// JS layer checks al_error_length() after the call.
namespace {

using LayerTable = std::array<LayerComparisonRow, 3>;

template <typename Result, typename Body>
Result guarded_record(Body&& body) {
  Result result{};
  guarded([&] { result = body(); });
  return result;
}

Cost js_cost(double n, double m, double d_model, double heads, double bytes) {
  return guarded_record<Cost>([&] { return attention_cost({n, m, d_model, heads, bytes}); });
}

LayerTable js_layer_comparison(double n, double d, double k) {
  return guarded_record<LayerTable>([&] {
    const auto rows = layer_comparison(n, d, k);
    if (rows.size() != 3) throw std::logic_error("layer comparison must have three rows");
    return LayerTable{rows[0], rows[1], rows[2]};
  });
}

// The toy sentence: called once when the page loads (the JS layer keeps it and hands out
// copies), and it cannot fail, so it is built as one Embind value.
emscripten::val js_toy_sentence() {
  using emscripten::val;
  const auto strings = [](const std::vector<std::string>& list) {
    val js = val::array();
    for (const auto& s : list) js.call<void>("push", s);
    return js;
  };
  const auto matrix = [](const Matrix& m) {
    val js = val::object();
    js.set("rows", static_cast<double>(m.rows()));
    js.set("cols", static_cast<double>(m.cols()));
    js.set("data", val::global("Float64Array")
                       .new_(emscripten::typed_memory_view(static_cast<std::size_t>(m.size()), m.data())));
    return js;
  };
  const ToySentence& toy = toy_sentence();
  val js = val::object();
  js.set("tokens", strings(toy.tokens));
  js.set("features", strings(toy.features));
  js.set("tokenFeatures", strings(toy.token_features));
  js.set("tokenTable", matrix(toy.token_table));
  js.set("headJobs", strings(toy.head_jobs));
  js.set("X", matrix(toy.X));
  js.set("WQ", matrix(toy.WQ));
  js.set("WK", matrix(toy.WK));
  js.set("WV", matrix(toy.WV));
  js.set("WO", matrix(toy.WO));
  js.set("crossTokens", strings(toy.cross_tokens));
  js.set("crossX", matrix(toy.cross_X));
  return js;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab) {
  emscripten::value_object<Cost>("Cost")
      .field("qkMacs", &Cost::qk_macs)
      .field("avMacs", &Cost::av_macs)
      .field("projectionMacs", &Cost::projection_macs)
      .field("weightNumbersPerHead", &Cost::weight_numbers_per_head)
      .field("weightBytesPerHead", &Cost::weight_bytes_per_head)
      .field("weightBytesAllHeads", &Cost::weight_bytes_all_heads)
      .field("projectionParameters", &Cost::projection_parameters)
      .field("outputParameters", &Cost::output_parameters)
      .field("parameters", &Cost::parameters)
      .field("parameterBytes", &Cost::parameter_bytes);
  emscripten::value_object<LayerComparisonRow>("LayerComparisonRow")
      .field("layer", &LayerComparisonRow::layer)
      .field("complexityPerLayer", &LayerComparisonRow::complexity_per_layer)
      .field("sequentialOps", &LayerComparisonRow::sequential_operations)
      .field("maxPathLength", &LayerComparisonRow::maximum_path_length);
  emscripten::value_array<LayerTable>("LayerTable")
      .element(emscripten::index<0>())
      .element(emscripten::index<1>())
      .element(emscripten::index<2>());
  emscripten::function("_al_cost", &js_cost);
  emscripten::function("_al_layer_comparison", &js_layer_comparison);
  emscripten::function("_al_toy_sentence", &js_toy_sentence);
}
