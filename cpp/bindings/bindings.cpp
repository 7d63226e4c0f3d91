// The boundary between the core and JavaScript: raw exports over reused heap buffers.
//
// One protocol, with one caller (cpp/bindings/attention-lab.js, which validates every argument
// before it gets here):
//   1. JS asks al_input_area() for room for all of a call's inputs, writes each matrix into it
//      once, and calls one al_<function> with the matrices' addresses and shapes.
//   2. The function runs the core inside try/catch. Nothing is ever thrown across the boundary,
//      neither a C++ exception nor a JavaScript one: on failure it keeps the message and returns
//      kFailed; on success it keeps the result matrices and returns how many there are, listed
//      in the result table as (address, rows, cols, element type). The hot calls (attention,
//      multi-head attention) of page size write their results straight into one static block
//      reused by every call (the arena), so a good call allocates nothing; bigger calls and the
//      other functions keep matrices of their own.
//   3. JS copies each result out once into arrays it owns (or reads the message and throws an
//      Error), then calls al_release(), which frees the results and gives back a big input area.
// So no call leaves anything behind: no stack, no Embind handle, no heap.
//
// The names of everything here start with al_ (raw exports, seen from JS as core._al_*), so
// they are never confused with the JS API's own functions (lab.attention, lab.cost, …).
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "attention_f32.hpp"
#include "attention_lab.hpp"
#include "check.hpp"
#include "learn/training.hpp"
#include "limits.hpp"

namespace {

using namespace attn;
using ConstMap = Eigen::Map<const Matrix>;
using ConstMapF = Eigen::Map<const MatrixF>;

constexpr int kFailed = -1;

// Element types in the result table: float64 results are listed first, then float32 ones
// (the float32 and streaming forms).
enum ElementType : std::uint32_t { kFloat64 = 0, kFloat32 = 1 };

// An input area kept between calls up to this size; a bigger one is freed after its call.
constexpr std::size_t kKeptInputBytes = std::size_t{1} << 20;

// The boundary's own bookkeeping starts at these sizes, so that ordinary calls and messages
// never make it grow: the heap in use is the same after any number of them.
constexpr std::size_t kReservedMessage = 1024;
constexpr std::size_t kReservedResults = 256;

// One result of the last call, as the result table lists it. `checked`: the core guarantees
// every entry finite (it refuses the call otherwise), so the boundary need not look again.
struct Listed {
  const void* data;
  Eigen::Index rows, cols;
  ElementType type;
  const char* name;
  bool checked;
};

// Results of a page-sized call are written straight into this block, reused by every call: a good
// call then allocates nothing, and its results need no freeing. 64 KiB of float64 holds the toy
// sentence's multi-head results at h = 8 several times over.
constexpr Eigen::Index kArenaEntries = 8192;
alignas(16) double arena[kArenaEntries];

struct Boundary {
  Boundary() { reserve(); }
  void reserve() {
    error.reserve(kReservedMessage);
    table.reserve(4 * kReservedResults);
    listed.reserve(kReservedResults);
    results.reserve(kReservedResults);
    results_f32.reserve(kReservedResults);
    reserved_message = error.capacity();
    reserved_results = std::min({listed.capacity(), results.capacity(), results_f32.capacity(), table.capacity() / 4});
  }

  std::string error;                  // message of the last failed call
  std::vector<Listed> listed;         // the results of the last call, in the order JS reads them
  Eigen::Index arena_used = 0;        // entries of `arena` the last call's results hold
  std::vector<Matrix> results;        // results that did not fit the arena, until JS has copied them
  std::vector<MatrixF> results_f32;   // the float32 results
  std::vector<std::uint32_t> table;   // (address, rows, cols, type) per result
  void* input = nullptr;              // the input area, reused across calls
  std::size_t input_bytes = 0;
  std::size_t kept_input_bytes = 0;   // its size before a big call, to return to after it
  std::size_t reserved_message = 0;   // the capacities reserve() left, to come back to after a big call
  std::size_t reserved_results = 0;
};
Boundary boundary;

void list(const void* data, Eigen::Index rows, Eigen::Index cols, ElementType type, const char* name, bool checked) {
  boundary.listed.push_back({data, rows, cols, type, name, checked});
}

// Moving a Matrix into the vector keeps its entries where they are, so the address stays good.
void keep(Matrix&& m, const char* name) {
  boundary.results.push_back(std::move(m));
  const Matrix& kept = boundary.results.back();
  list(kept.data(), kept.rows(), kept.cols(), kFloat64, name, false);
}

// `checked`: the core guarantees the entries finite, so the boundary need not look again.
void keep_f32(MatrixF&& m, const char* name, bool checked = false) {
  boundary.results_f32.push_back(std::move(m));
  const MatrixF& kept = boundary.results_f32.back();
  list(kept.data(), kept.rows(), kept.cols(), kFloat32, name, checked);
}

// Room for `entries` float64 results in the arena, or nullptr when they do not fit.
double* arena_room(std::int64_t entries) {
  if (entries < 0 || entries > kArenaEntries - boundary.arena_used) return nullptr;
  double* room = arena + boundary.arena_used;
  boundary.arena_used += static_cast<Eigen::Index>(entries);
  return room;
}

// Room for `entries` float64 results: the arena, or one heap block (shapes already checked).
double* result_room(std::int64_t entries) {
  if (double* room = arena_room(entries)) return room;
  boundary.results.emplace_back(static_cast<Eigen::Index>(entries), 1);
  return boundary.results.back().data();
}

void clear_results() {
  boundary.listed.clear();
  boundary.arena_used = 0;
  boundary.results.clear();  // frees every heap result's entries
  boundary.results_f32.clear();
}

// The first non-finite entry of a result, as an error naming it.
template <typename M>
void refuse_non_finite(const M& m, const char* name, const char* precision) {
  if (m.allFinite()) return;
  Eigen::Index i = 0, j = 0;
  (!m.array().isFinite()).template cast<int>().maxCoeff(&i, &j);
  throw std::invalid_argument(std::string(name) + " overflows " + precision + ": entry (" + std::to_string(i) + ", " +
                              std::to_string(j) + ") is " + check::number(m(i, j)) + "; the inputs are too large");
}

void refuse_non_finite(const Listed& r) {
  if (r.type == kFloat64) {
    refuse_non_finite(Eigen::Map<const Matrix>(static_cast<const double*>(r.data), r.rows, r.cols), r.name, "float64");
  } else {
    refuse_non_finite(Eigen::Map<const MatrixF>(static_cast<const float*>(r.data), r.rows, r.cols), r.name, "float32");
  }
}

// A row of values (a Vector, or any expression) kept as a 1×k result.
template <typename Values>
void keep_row(const Values& values, const char* name) {
  Matrix row(1, values.size());
  for (Eigen::Index i = 0; i < values.size(); ++i) row(0, i) = static_cast<double>(values(i));
  keep(std::move(row), name);
}

void keep_attention(AttentionResult&& r) {
  keep(std::move(r.raw_scores), "the raw scores Q Kᵀ");
  keep(std::move(r.scaled_scores), "the scaled scores");
  keep(std::move(r.weights), "the weights");
  keep(std::move(r.output), "the output");
}

// Float32 attention refuses inputs whose arithmetic could leave float32's range: its results are
// finite by construction, so they are listed as checked.
void keep_attention(AttentionResultF&& r) {
  keep_f32(std::move(r.raw_scores), "the raw scores Q Kᵀ", true);
  keep_f32(std::move(r.scaled_scores), "the scaled scores", true);
  keep_f32(std::move(r.weights), "the weights", true);
  keep_f32(std::move(r.output), "the output", true);
}

// Page-sized float32 results are copied into the arena side by side, so that JS copies them out
// in one piece (one buffer per call rather than one per matrix).
void keep_attention_f32(AttentionResultF&& r) {
  const MatrixF* parts[] = {&r.raw_scores, &r.scaled_scores, &r.weights, &r.output};
  const char* names[] = {"the raw scores Q Kᵀ", "the scaled scores", "the weights", "the output"};
  Eigen::Index floats = 0;
  for (const MatrixF* part : parts) floats += part->size();
  if (auto* room = reinterpret_cast<float*>(arena_room((floats + 1) / 2))) {
    for (int i = 0; i < 4; ++i) {
      std::copy_n(parts[i]->data(), parts[i]->size(), room);
      list(room, parts[i]->rows(), parts[i]->cols(), kFloat32, names[i], true);
      room += parts[i]->size();
    }
    return;
  }
  keep_attention(std::move(r));
}

// Lists the four results attention_into wrote from `room` on (n×m three times, then n×dv).
AttentionOut list_attention(double* room, Eigen::Index n, Eigen::Index m, Eigen::Index dv) {
  const Eigen::Index scores = n * m;
  list(room, n, m, kFloat64, "the raw scores Q Kᵀ", true);
  list(room + scores, n, m, kFloat64, "the scaled scores", true);
  list(room + 2 * scores, n, m, kFloat64, "the weights", true);
  list(room + 3 * scores, n, dv, kFloat64, "the output", true);
  return {Eigen::Map<Matrix>(room, n, m), Eigen::Map<Matrix>(room + scores, n, m),
          Eigen::Map<Matrix>(room + 2 * scores, n, m), Eigen::Map<Matrix>(room + 3 * scores, n, dv)};
}

// Lists multi_head_into's results, in the order of MultiHeadLayout.
void list_multi_head(const double* room, const MultiHeadLayout& layout) {
  const Eigen::Index n = layout.n, m = layout.m, w = layout.width();
  for (Eigen::Index s = 0; s < layout.heads; ++s) {
    list(room, n, m, kFloat64, "the raw scores Q Kᵀ", true);
    list(room + n * m, n, m, kFloat64, "the scaled scores", true);
    list(room + 2 * n * m, n, m, kFloat64, "the weights", true);
    list(room + 3 * n * m, n, w, kFloat64, "the output", true);
    room += layout.head_entries();
  }
  list(room, n, layout.d, kFloat64, "the heads' outputs side by side", true);
  list(room + n * layout.d, n, layout.d, kFloat64, "the output concat · W_O", true);
}

// Runs `body`, which keeps its results; returns their number, or kFailed with the message kept.
template <typename Body>
int guarded(Body&& body) {
  boundary.error.clear();
  clear_results();
  try {
    body();
    // No result shows Infinity or NaN: inputs whose arithmetic passes the float64 range
    // (entries near ±1e308) are refused here, whatever the core let through.
    for (const Listed& r : boundary.listed) {
      if (!r.checked) refuse_non_finite(r);
    }
  } catch (const std::bad_alloc&) {
    // The JS edge refuses any call over the work budget, so this is a last resort only.
    clear_results();
    boundary.error = "out of memory: the WebAssembly heap could not grow for this call";
    return kFailed;
  } catch (const std::exception& e) {
    clear_results();
    boundary.error = e.what();
    if (boundary.error.empty()) boundary.error = "the core failed without a message";
    return kFailed;
  } catch (...) {
    clear_results();
    boundary.error = "the core failed with an unknown exception";
    return kFailed;
  }
  boundary.table.clear();
  for (const Listed& r : boundary.listed) {
    boundary.table.push_back(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(r.data)));
    boundary.table.push_back(static_cast<std::uint32_t>(r.rows));
    boundary.table.push_back(static_cast<std::uint32_t>(r.cols));
    boundary.table.push_back(r.type);
  }
  return static_cast<int>(boundary.listed.size());
}

// Mask kinds, as the JS layer sends them: 0 none, 1 causal, 2 the given 0/1 matrix.
std::optional<Mask> to_mask(int kind, const double* mask, int rows, int cols, Eigen::Index n, Eigen::Index m) {
  switch (kind) {
    case 0:
      return std::nullopt;
    case 1:
      return causal_mask(n, m);
    case 2:
      return Mask(ConstMap(mask, rows, cols).array() != 0.0);
    default:
      throw std::invalid_argument("mask kind must be 0, 1 or 2, got " + std::to_string(kind));
  }
}

// ---- training sessions (the learn figure) -----------------------------------------------
// A session lives in the core between calls: it holds the task's data, both copies of the
// head and their histories. JS holds only its number, and must dispose of it; at most
// kMaxSessions live at once, so a page that forgets cannot grow the heap without bound.
constexpr std::size_t kMaxSessions = 16;
std::vector<std::unique_ptr<learn::LearnSession>> sessions(kMaxSessions);

learn::LearnSession& session_of(int id) {
  if (id < 0 || static_cast<std::size_t>(id) >= kMaxSessions || !sessions[static_cast<std::size_t>(id)]) {
    throw std::invalid_argument("training session " + std::to_string(id) + " does not exist (disposed, or never created)");
  }
  return *sessions[static_cast<std::size_t>(id)];
}

// One record per row: step, loss, mean p(1 − p), mean largest weight, ‖dW_Q‖, ‖dW_K‖, ‖dW_V‖.
constexpr Eigen::Index kRecordColumns = 7;
Matrix records(const std::vector<learn::StepRecord>& list) {
  Matrix m(static_cast<Eigen::Index>(list.size()), kRecordColumns);
  for (std::size_t k = 0; k < list.size(); ++k) {
    const learn::StepRecord& r = list[k];
    m.row(static_cast<Eigen::Index>(k)) << r.step, r.loss, r.mean_p_one_minus_p, r.mean_largest_weight,
        r.gradient_norm_Q, r.gradient_norm_K, r.gradient_norm_V;
  }
  return m;
}

// Attention options from the raw arguments (axis 1: the softmax over queries, the mistake).
AttentionOptions attention_options(double tau, double scale, int mask_kind, const double* mask, int mask_rows,
                                   int mask_cols, int n, int m, int axis) {
  AttentionOptions options;
  options.temperature = tau;
  options.scale = scale;
  options.mask = to_mask(mask_kind, mask, mask_rows, mask_cols, n, m);
  options.axis = axis == 1 ? SoftmaxAxis::Queries : SoftmaxAxis::Keys;
  return options;
}

// Streaming options from the raw arguments: mask kind 1 (causal) forms no mask at all.
StreamingOptions streaming_options(double tau, double scale, int mask_kind, const double* mask, int mask_rows,
                                   int mask_cols, int n, int m, int key_tile) {
  StreamingOptions options;
  options.temperature = tau;
  options.scale = scale;
  options.causal = mask_kind == 1;
  if (mask_kind != 1) options.mask = to_mask(mask_kind, mask, mask_rows, mask_cols, n, m);
  options.key_tile = key_tile;
  return options;
}

}  // namespace

extern "C" {

// ---- the protocol ------------------------------------------------------------------------

// Room for `bytes` bytes of inputs, 8-byte aligned, reused across calls; 0 if memory is out.
EMSCRIPTEN_KEEPALIVE void* al_input_area(double bytes) {
  if (!(bytes >= 0) || bytes > 2147483647.0) return nullptr;
  const auto wanted = static_cast<std::size_t>(bytes);
  if (boundary.input == nullptr || wanted > boundary.input_bytes) {
    std::free(boundary.input);
    boundary.input_bytes = 0;
    boundary.input = std::malloc(wanted > 0 ? wanted : 8);
    if (boundary.input == nullptr) return nullptr;
    boundary.input_bytes = wanted;
    if (wanted <= kKeptInputBytes) boundary.kept_input_bytes = wanted;
  }
  return boundary.input;
}

// Frees the last call's results and, after a big call, puts the input area back to the size
// it had before: the heap in use returns exactly to what it was before the call.
EMSCRIPTEN_KEEPALIVE void al_release() {
  clear_results();
  // Compared with the capacities reserve() gave, not with the sizes asked for: a string rounds its
  // capacity up, and comparing with 1024 made every call free and remake all of them.
  if (boundary.listed.capacity() > boundary.reserved_results || boundary.results.capacity() > boundary.reserved_results ||
      boundary.results_f32.capacity() > boundary.reserved_results ||
      boundary.table.capacity() > 4 * boundary.reserved_results || boundary.error.capacity() > boundary.reserved_message) {
    std::vector<Listed>().swap(boundary.listed);
    std::vector<Matrix>().swap(boundary.results);
    std::vector<std::uint32_t>().swap(boundary.table);
    std::vector<MatrixF>().swap(boundary.results_f32);
    std::string().swap(boundary.error);
    boundary.reserve();
  }
  if (boundary.input_bytes > kKeptInputBytes) {
    std::free(boundary.input);
    boundary.input = boundary.kept_input_bytes > 0 ? std::malloc(boundary.kept_input_bytes) : nullptr;
    boundary.input_bytes = boundary.input != nullptr ? boundary.kept_input_bytes : 0;
  }
}

EMSCRIPTEN_KEEPALIVE const std::uint32_t* al_result_table() { return boundary.table.data(); }
EMSCRIPTEN_KEEPALIVE const char* al_error_message() { return boundary.error.data(); }
EMSCRIPTEN_KEEPALIVE int al_error_length() { return static_cast<int>(boundary.error.size()); }

// Bytes malloc has handed out and not had back: flat across any number of calls.
EMSCRIPTEN_KEEPALIVE double al_malloc_in_use() { return static_cast<double>(mallinfo().uordblks); }

// The work budget of cpp/core/limits.hpp, so the JS edge can check that it uses the same numbers.
EMSCRIPTEN_KEEPALIVE double al_limit(int which) {
  switch (which) {
    case 0: return static_cast<double>(limits::kMaxDimension);
    case 1: return static_cast<double>(limits::kMaxEntries);
    case 2: return static_cast<double>(limits::kMaxMultiplyAdds);
    case 3: return static_cast<double>(limits::kMaxExperimentWork);
    case 4: return static_cast<double>(limits::kMaxExactCount);
    default: return -1;
  }
}

// ---- the core's functions, one raw export each -------------------------------------------
// Matrices arrive as (address, rows, cols) in row-major float64; results are listed in the
// result table in the order the JS layer reads them.

// `output_only`: list the output alone (options.results = 'output' in JS), so that a caller who
// wants attention as a layer does copies out n×dv entries, not three n×m matrices besides.
EMSCRIPTEN_KEEPALIVE int al_attention(const double* q, int q_rows, int q_cols, const double* k, int k_rows, int k_cols,
                                      const double* v, int v_rows, int v_cols, double tau, double scale, int mask_kind,
                                      const double* mask, int mask_rows, int mask_cols, int axis, int output_only) {
  return guarded([&] {
    const AttentionOptions options =
        attention_options(tau, scale, mask_kind, mask, mask_rows, mask_cols, q_rows, k_rows, axis);
    const ConstMap Q(q, q_rows, q_cols), K(k, k_rows, k_cols), V(v, v_rows, v_cols);
    // A page-sized call is written straight into the arena; a bigger one (whose shapes the core
    // checks before it allocates anything) into matrices of its own.
    const std::int64_t n = q_rows, m = k_rows, dv = v_cols;
    if (double* room = arena_room(3 * n * m + n * dv)) {
      attention_into(Q, K, V, options, list_attention(room, q_rows, k_rows, v_cols));
    } else {
      keep_attention(attention(Q, K, V, options));
    }
    if (output_only != 0) boundary.listed.erase(boundary.listed.begin(), boundary.listed.end() - 1);
  });
}

// The same in float32: Q, K, V as float32 (the mask stays float64 0/1); four float32 results, or
// the output alone. The core refuses inputs whose arithmetic could leave float32's range, so the
// results are finite by construction and need no second look.
EMSCRIPTEN_KEEPALIVE int al_attention_f32(const float* q, int q_rows, int q_cols, const float* k, int k_rows,
                                          int k_cols, const float* v, int v_rows, int v_cols, double tau, double scale,
                                          int mask_kind, const double* mask, int mask_rows, int mask_cols, int axis,
                                          int output_only) {
  return guarded([&] {
    const AttentionOptions options =
        attention_options(tau, scale, mask_kind, mask, mask_rows, mask_cols, q_rows, k_rows, axis);
    const ConstMapF Q(q, q_rows, q_cols), K(k, k_rows, k_cols), V(v, v_rows, v_cols);
    if (output_only != 0) {
      keep_f32(attention_output(Q, K, V, options), "the output", /*checked=*/true);
    } else {
      keep_attention_f32(attention(Q, K, V, options));
    }
  });
}

// Streaming attention: one result, the output.
EMSCRIPTEN_KEEPALIVE int al_streaming_attention(const double* q, int q_rows, int q_cols, const double* k, int k_rows,
                                                int k_cols, const double* v, int v_rows, int v_cols, double tau,
                                                double scale, int mask_kind, const double* mask, int mask_rows,
                                                int mask_cols, int key_tile) {
  return guarded([&] {
    keep(streaming_attention(ConstMap(q, q_rows, q_cols), ConstMap(k, k_rows, k_cols), ConstMap(v, v_rows, v_cols),
                             streaming_options(tau, scale, mask_kind, mask, mask_rows, mask_cols, q_rows, k_rows,
                                               key_tile)),
         "the output");
  });
}

EMSCRIPTEN_KEEPALIVE int al_streaming_attention_f32(const float* q, int q_rows, int q_cols, const float* k,
                                                    int k_rows, int k_cols, const float* v, int v_rows, int v_cols,
                                                    double tau, double scale, int mask_kind, const double* mask,
                                                    int mask_rows, int mask_cols, int key_tile) {
  return guarded([&] {
    keep_f32(streaming_attention(ConstMapF(q, q_rows, q_cols), ConstMapF(k, k_rows, k_cols),
                                 ConstMapF(v, v_rows, v_cols),
                                 streaming_options(tau, scale, mask_kind, mask, mask_rows, mask_cols, q_rows, k_rows,
                                                   key_tile)),
             "the output");
  });
}

EMSCRIPTEN_KEEPALIVE int al_softmax(const double* logits, int rows, int cols, double tau, int mask_kind,
                                    const double* mask, int mask_rows, int mask_cols) {
  return guarded([&] {
    keep(softmax_rows(ConstMap(logits, rows, cols), tau, to_mask(mask_kind, mask, mask_rows, mask_cols, rows, cols)),
         "the weights");
  });
}

EMSCRIPTEN_KEEPALIVE int al_causal_mask(int n, int m) {
  return guarded([&] { keep(causal_mask(n, m).cast<double>(), "the mask"); });
}

EMSCRIPTEN_KEEPALIVE int al_multi_head(const double* xq, int xq_rows, int xq_cols, const double* xkv, int xkv_rows,
                                       int xkv_cols, const double* wq, int wq_rows, int wq_cols, const double* wk,
                                       int wk_rows, int wk_cols, const double* wv, int wv_rows, int wv_cols,
                                       const double* wo, int wo_rows, int wo_cols, int heads, double tau,
                                       int mask_kind, const double* mask, int mask_rows, int mask_cols,
                                       int scale_by_model) {
  return guarded([&] {
    MultiHeadOptions options;
    options.temperature = tau;
    options.mask = to_mask(mask_kind, mask, mask_rows, mask_cols, xq_rows, xkv_rows);
    options.scale = scale_by_model == 1 ? HeadScale::ModelWidth : HeadScale::HeadWidth;
    const ConstMap Xq(xq, xq_rows, xq_cols);
    const ConstMap WQ(wq, wq_rows, wq_cols), WK(wk, wk_rows, wk_cols), WV(wv, wv_rows, wv_cols),
        WO(wo, wo_rows, wo_cols);
    const ConstMap Xkv(xkv, xkv_rows, xkv_cols);
    // Self-attention passes X twice: the core's self form is the cross form with Xkv = X. The
    // layout is checked (shapes, work budget) before any room is taken for it.
    const MultiHeadLayout layout = multi_head_layout(Xq, Xkv, WQ, WK, WV, WO, heads, options);
    double* room = result_room(layout.entries());
    multi_head_into(Xq, Xkv, WQ, WK, WV, WO, heads, options, room);
    list_multi_head(room, layout);
  });
}

EMSCRIPTEN_KEEPALIVE int al_additive_scores(const double* q, int q_rows, int q_cols, const double* k, int k_rows,
                                            int k_cols, const double* w, int w_rows, int w_cols, const double* u,
                                            int u_rows, int u_cols, const double* v, int v_rows, int v_cols) {
  return guarded([&] {
    if (v_rows != 1) throw std::invalid_argument("v must be 1xd_a, got " + check::shape(v_rows, v_cols));
    const Vector v_col = ConstMap(v, v_rows, v_cols).row(0).transpose();
    keep(additive_scores(ConstMap(q, q_rows, q_cols), ConstMap(k, k_rows, k_cols), ConstMap(w, w_rows, w_cols),
                         ConstMap(u, u_rows, u_cols), v_col),
         "the scores");
  });
}

// Three 1×n rows: entropy, largest weight, its index.
EMSCRIPTEN_KEEPALIVE int al_row_stats(const double* weights, int rows, int cols) {
  return guarded([&] {
    const RowStats s = row_stats(ConstMap(weights, rows, cols));
    keep_row(s.entropy, "the entropy");
    keep_row(s.largest, "the largest weight");
    keep_row(s.argmax, "the index of the largest weight");
  });
}

// Two rows: the row sums, the column sums.
EMSCRIPTEN_KEEPALIVE int al_sums(const double* m, int rows, int cols) {
  return guarded([&] {
    const Sums s = sums(ConstMap(m, rows, cols));
    keep_row(s.rows, "the row sums");
    keep_row(s.cols, "the column sums");
  });
}

// One 1×1 result.
EMSCRIPTEN_KEEPALIVE int al_max_abs_difference(const double* a, int a_rows, int a_cols, const double* b, int b_rows,
                                               int b_cols) {
  return guarded([&] {
    Matrix difference(1, 1);
    difference(0, 0) = max_abs_difference(ConstMap(a, a_rows, a_cols), ConstMap(b, b_rows, b_cols));
    keep(std::move(difference), "the largest difference");
  });
}

EMSCRIPTEN_KEEPALIVE int al_gradient_factor(const double* p, int rows, int cols) {
  return guarded([&] { keep(gradient_factor(ConstMap(p, rows, cols)), "the gradient factor"); });
}

EMSCRIPTEN_KEEPALIVE int al_log_gradient_factor(const double* scores, int rows, int cols, double tau) {
  return guarded([&] { keep(log_gradient_factor(ConstMap(scores, rows, cols), tau), "ln p(1 − p)"); });
}

EMSCRIPTEN_KEEPALIVE int al_softmax_jacobian(const double* p, int rows, int cols) {
  return guarded([&] { keep(softmax_jacobian(ConstMap(p, rows, cols)), "the Jacobian"); });
}

EMSCRIPTEN_KEEPALIVE int al_matmul(const double* a, int a_rows, int a_cols, const double* b, int b_rows, int b_cols) {
  return guarded([&] {
    const ConstMap A(a, a_rows, a_cols), B(b, b_rows, b_cols);
    if (A.cols() != B.rows()) {
      throw std::invalid_argument("A (" + check::shape_of(A) + ") and B (" + check::shape_of(B) +
                                  ") cannot be multiplied: A's columns must equal B's rows");
    }
    check::all_finite("A", A);
    check::all_finite("B", B);
    keep(A * B, "the product A·B");
  });
}

// Five 1×k rows, one entry per width: the widths, then the mean largest weight and the mean
// entropy unscaled, then the same two scaled.
EMSCRIPTEN_KEEPALIVE int al_width_experiment(int keys, int min_log2, int max_log2, int trials, double seed) {
  return guarded([&] {
    const auto points = width_experiment({keys, max_log2, trials, static_cast<std::uint64_t>(seed), min_log2});
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

// ---- the learn figure's training sessions ------------------------------------------------

// One 1×1 result: the new session's number. task 0 = previous token, 1 = matching type.
EMSCRIPTEN_KEEPALIVE int al_learn_create(int task, int key_width, int tokens, int content_width, int sequences,
                                         double learning_rate, double seed) {
  return guarded([&] {
    if (task != 0 && task != 1) throw std::invalid_argument("task must be 0 (previous token) or 1 (matching type), got " + std::to_string(task));
    if (!(seed >= 0 && seed <= 9007199254740991.0) || seed != static_cast<double>(static_cast<std::uint64_t>(seed))) {
      throw std::invalid_argument("seed must be a whole number from 0 to 2^53 - 1, got " + check::number(seed));
    }
    std::size_t slot = 0;
    while (slot < kMaxSessions && sessions[slot]) ++slot;
    if (slot == kMaxSessions) {
      throw std::invalid_argument("too many training sessions: " + std::to_string(kMaxSessions) +
                                  " are alive; dispose of one before creating another");
    }
    learn::LearnSettings settings;
    settings.task = task == 0 ? learn::Task::PreviousToken : learn::Task::MatchingType;
    settings.key_width = key_width;
    settings.shape = {tokens, content_width, sequences};
    settings.learning_rate = learning_rate;
    settings.seed = static_cast<std::uint64_t>(seed);
    sessions[slot] = std::make_unique<learn::LearnSession>(settings);
    Matrix id(1, 1);
    id(0, 0) = static_cast<double>(slot);
    keep(std::move(id), "the session number");
  });
}

EMSCRIPTEN_KEEPALIVE int al_learn_dispose(int id) {
  return guarded([&] {
    session_of(id);
    sessions[static_cast<std::size_t>(id)].reset();
  });
}

// Two results, the records of this call's steps: the scaled copy's, the unscaled copy's.
EMSCRIPTEN_KEEPALIVE int al_learn_train(int id, int steps) {
  return guarded([&] {
    const learn::LearnSession::Steps taken = session_of(id).train(steps);
    keep(records(taken.scaled), "the scaled copy's records");
    keep(records(taken.unscaled), "the unscaled copy's records");
  });
}

// Two results: every record so far of the scaled copy, of the unscaled copy.
EMSCRIPTEN_KEEPALIVE int al_learn_history(int id) {
  return guarded([&] {
    const learn::LearnSession& s = session_of(id);
    keep(records(s.history(learn::Scaling::ByRootDk)), "the scaled copy's records");
    keep(records(s.history(learn::Scaling::Unscaled)), "the unscaled copy's records");
  });
}

EMSCRIPTEN_KEEPALIVE int al_learn_set_learning_rate(int id, double learning_rate) {
  return guarded([&] { session_of(id).set_learning_rate(learning_rate); });
}

EMSCRIPTEN_KEEPALIVE int al_learn_reset(int id) {
  return guarded([&] { session_of(id).reset(); });
}

// Five results for one training sequence: the weights P of the scaled copy and of the unscaled
// copy (n×m each), the right key of every query (1×n), a status row (steps taken and diverged,
// 0/1, of each copy, then the learning rate), and, when `measure` is 1, a 2×7 block of records
// measured at the current weights (scaled, unscaled) without taking a step (0 rows otherwise).
EMSCRIPTEN_KEEPALIVE int al_learn_state(int id, int sequence, int measure) {
  return guarded([&] {
    const learn::LearnSession& s = session_of(id);
    keep(s.attention_weights(learn::Scaling::ByRootDk, sequence), "the scaled copy's weights");
    keep(s.attention_weights(learn::Scaling::Unscaled, sequence), "the unscaled copy's weights");
    const std::vector<int>& answers = s.data().answers[static_cast<std::size_t>(sequence)];
    keep_row(Eigen::Map<const Eigen::VectorXi>(answers.data(), static_cast<Eigen::Index>(answers.size())),
             "the right keys");
    Matrix status(1, 5);
    status << s.steps_taken(learn::Scaling::ByRootDk), s.steps_taken(learn::Scaling::Unscaled),
        s.diverged(learn::Scaling::ByRootDk) ? 1 : 0, s.diverged(learn::Scaling::Unscaled) ? 1 : 0,
        s.settings().learning_rate;
    keep(std::move(status), "the session's status");
    keep(measure == 1 ? records({s.measure(learn::Scaling::ByRootDk), s.measure(learn::Scaling::Unscaled)})
                      : Matrix(0, kRecordColumns),
         "the records at the current weights");
  });
}

// The multiply-adds of one step of both copies, for the JS edge's budget check.
EMSCRIPTEN_KEEPALIVE double al_learn_step_work(int key_width, int tokens, int content_width, int sequences) {
  learn::LearnSettings settings;
  settings.key_width = key_width;
  settings.shape = {tokens, content_width, sequences};
  return static_cast<double>(learn::multiply_adds_per_step(settings));
}

}  // extern "C"

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
