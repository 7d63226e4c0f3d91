// The boundary's state (input area, arena, result table, error message) and its protocol
// exports: al_input_area, al_release, al_result_table, al_error_message, al_error_length,
// al_malloc_in_use, al_limit. See boundary.hpp for the protocol.
#include "boundary.hpp"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

#include "check.hpp"
#include "limits.hpp"

namespace attn::bindings {
namespace {

// An input area kept between calls up to this size; a bigger one is freed after its call.
constexpr std::size_t kKeptInputBytes = std::size_t{1} << 20;

// The boundary's own bookkeeping starts at these sizes, so that ordinary calls and messages
// never make it grow: the heap in use is the same after any number of them.
constexpr std::size_t kReservedMessage = 1024;
constexpr std::size_t kReservedResults = 256;

// One result of the last call, as the result table lists it.
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

}  // namespace

void list(const void* data, Eigen::Index rows, Eigen::Index cols, ElementType type, const char* name, bool checked) {
  boundary.listed.push_back({data, rows, cols, type, name, checked});
}

// Moving a Matrix into the vector keeps its entries where they are, so the address stays good.
void keep(Matrix&& m, const char* name) {
  boundary.results.push_back(std::move(m));
  const Matrix& kept = boundary.results.back();
  list(kept.data(), kept.rows(), kept.cols(), kFloat64, name, false);
}

void keep_f32(MatrixF&& m, const char* name, bool checked) {
  boundary.results_f32.push_back(std::move(m));
  const MatrixF& kept = boundary.results_f32.back();
  list(kept.data(), kept.rows(), kept.cols(), kFloat32, name, checked);
}

void keep_only_last() {
  if (!boundary.listed.empty()) boundary.listed.erase(boundary.listed.begin(), boundary.listed.end() - 1);
}

double* arena_room(std::int64_t entries) {
  if (entries < 0 || entries > kArenaEntries - boundary.arena_used) return nullptr;
  double* room = arena + boundary.arena_used;
  boundary.arena_used += static_cast<Eigen::Index>(entries);
  return room;
}

double* result_room(std::int64_t entries) {
  if (double* room = arena_room(entries)) return room;
  boundary.results.emplace_back(static_cast<Eigen::Index>(entries), 1);
  return boundary.results.back().data();
}

float* result_room_f32(std::int64_t entries) {
  if (double* room = arena_room((entries + 1) / 2)) return reinterpret_cast<float*>(room);
  boundary.results_f32.emplace_back(static_cast<Eigen::Index>(entries), 1);
  return boundary.results_f32.back().data();
}

void begin_call() {
  boundary.error.clear();
  clear_results();
}

int end_call() {
  // No result shows Infinity or NaN: inputs whose arithmetic passes the float64 range
  // (entries near ±1e308) are refused here, whatever the core let through.
  for (const Listed& r : boundary.listed) {
    if (!r.checked) refuse_non_finite(r);
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

int fail_call(const char* message) {
  clear_results();
  boundary.error = message;
  if (boundary.error.empty()) boundary.error = "the core failed without a message";
  return kFailed;
}

std::optional<Mask> to_mask(double kind, const MatrixArg& mask, Eigen::Index n, Eigen::Index m) {
  if (kind == 0) return std::nullopt;
  if (kind == 1) return causal_mask(n, m);
  if (kind == 2) return Mask(mask.map().array() != 0.0);
  throw std::invalid_argument("mask kind must be 0, 1 or 2, got " + check::number(kind));
}

}  // namespace attn::bindings

using namespace attn;
using namespace attn::bindings;

extern "C" {

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

// The size of the call record at the start of the input area, so that JS can check it reserves the same.
EMSCRIPTEN_KEEPALIVE int al_record_bytes() { return static_cast<int>(kRecordBytes); }

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
    case 5: return static_cast<double>(limits::kMaxMultiplyAddsF32);
    case 6: return static_cast<double>(limits::kPairWork);
    default: return -1;
  }
}

}  // extern "C"
