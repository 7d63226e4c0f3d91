// The boundary between the core and JavaScript: reused heap buffers, the result table, the kept
// error message, and guarded(), which runs one call of the core so that nothing is ever thrown
// across. The raw exports themselves are in cpp/bindings/exports/, one file per family.
//
// One protocol, with one caller (cpp/bindings/js/heap-calls.js, under the checks of
// cpp/bindings/js/read-arguments.js):
//   1. JS asks al_input_area() for room for the call record and all of a call's inputs. It writes
//      each matrix into the area once, and the call record at its start: one (address, rows,
//      cols) triple per matrix, in the order the export's record struct lists them, then the
//      export's numbers (all float64). It calls one al_<function> with the record's address.
//   2. The function runs the core inside guarded(). Nothing is ever thrown across the boundary,
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
// The names of the exports start with al_ (seen from JS as core._al_*), so they are never
// confused with the JS API's own functions (lab.attention, lab.cost, …).
#pragma once

#include <emscripten/emscripten.h>

#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>

#include "attention_lab.hpp"

namespace attn::bindings {

using ConstMap = Eigen::Map<const Matrix>;
using ConstMapF = Eigen::Map<const MatrixF>;

constexpr int kFailed = -1;

// Element types in the result table.
enum ElementType : std::uint32_t { kFloat64 = 0, kFloat32 = 1 };

// Room kept at the start of the input area for the call record: 32 float64 numbers, more than the
// largest record (multi-head attention: 7 matrices and 4 numbers). JS reserves the same.
constexpr std::size_t kRecordBytes = 256;

// One matrix of a call record, as JS writes it: its address in the input area, its rows and
// columns, each a float64 (exact for every address and shape a 32-bit heap can hold). The shapes
// were checked in JS; the core checks that they fit together.
struct MatrixArg {
  double address, rows, cols;

  template <typename Scalar = double>
  Eigen::Map<const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> map() const {
    return {reinterpret_cast<const Scalar*>(static_cast<std::uintptr_t>(address)), static_cast<Eigen::Index>(rows),
            static_cast<Eigen::Index>(cols)};
  }
  ConstMapF map_f32() const { return map<float>(); }
  Eigen::Index n_rows() const { return static_cast<Eigen::Index>(rows); }
  Eigen::Index n_cols() const { return static_cast<Eigen::Index>(cols); }
};
static_assert(sizeof(MatrixArg) == 3 * sizeof(double), "a matrix takes three float64 slots of a call record");

// A call record struct holds float64 fields only (MatrixArg triples, then numbers), with no
// padding, and fits the room JS keeps for it.
template <typename Record>
constexpr bool fits_call_record() {
  return sizeof(Record) % sizeof(double) == 0 && sizeof(Record) <= kRecordBytes && alignof(Record) == alignof(double);
}

// The record of the functions of one matrix: "one matrix in, one out" and "one matrix in, k rows out".
struct OneMatrixCall {
  MatrixArg a;
};
struct TwoMatricesCall {
  MatrixArg a, b;
};
static_assert(fits_call_record<OneMatrixCall>() && fits_call_record<TwoMatricesCall>(), "the records fit");

// ---- keeping results ---------------------------------------------------------------------------
// Each of these lists a result in the result table of the call that is running. `checked`: the
// core guarantees every entry finite (it refuses the call otherwise), so the boundary need not
// look again.
void list(const void* data, Eigen::Index rows, Eigen::Index cols, ElementType type, const char* name, bool checked);
void keep(Matrix&& m, const char* name);
void keep_f32(MatrixF&& m, const char* name, bool checked = false);
// Drops every result but the last (attention's output alone).
void keep_only_last();

// A row of values (a Vector, or any expression) kept as a 1×k result.
template <typename Values>
void keep_row(const Values& values, const char* name) {
  Matrix row(1, values.size());
  for (Eigen::Index i = 0; i < values.size(); ++i) row(0, i) = static_cast<double>(values(i));
  keep(std::move(row), name);
}

// Fields of one record of the core, each kept as a 1×k row: keep_rows(r, &R::a, "the a", &R::b, "the b").
template <typename Record, typename Field, typename... Rest>
void keep_rows(const Record& record, Field Record::*field, const char* name, Rest... rest) {
  keep_row(record.*field, name);
  if constexpr (sizeof...(Rest) > 0) keep_rows(record, rest...);
}

// Room for `entries` float64 results in the arena, or nullptr when they do not fit.
double* arena_room(std::int64_t entries);
// Room for `entries` float64 results: the arena, or one heap block (shapes already checked).
double* result_room(std::int64_t entries);
// The same for float32 results.
float* result_room_f32(std::int64_t entries);

// ---- running one call --------------------------------------------------------------------------
void begin_call();
// Refuses any result that holds Infinity or NaN, then fills the result table; returns the count.
int end_call();
// Drops the results and keeps the message; returns kFailed.
int fail_call(const char* message);

// Runs `body`, which keeps its results; returns their number, or kFailed with the message kept.
template <typename Body>
int guarded(Body&& body) {
  begin_call();
  try {
    body();
    return end_call();
  } catch (const std::bad_alloc&) {
    // The JS edge refuses any call over the work budget, so this is a last resort only.
    return fail_call("out of memory: the WebAssembly heap could not grow for this call");
  } catch (const std::exception& e) {
    return fail_call(e.what());
  } catch (...) {
    return fail_call("the core failed with an unknown exception");
  }
}

// Mask kinds, as the JS layer sends them: 0 none, 1 causal, 2 the given 0/1 matrix.
std::optional<Mask> to_mask(double kind, const MatrixArg& mask, Eigen::Index n, Eigen::Index m);

}  // namespace attn::bindings

// One line per export of the common shapes:
//   AL_EXPORT_MATRIX_TO_MATRIX(al_gradient_factor, gradient_factor, "the gradient factor")
//     al_gradient_factor(record of one matrix) keeps gradient_factor(p) as one result;
//   AL_EXPORT_MATRIX_TO_ROWS(al_sums, sums, &Sums::rows, "the row sums", &Sums::cols, "the column sums")
//     al_sums(record of one matrix) keeps each named field of sums(m) as a 1×k row.
#define AL_EXPORT_MATRIX_TO_MATRIX(export_name, core_function, result_name)                         \
  extern "C" EMSCRIPTEN_KEEPALIVE int export_name(const ::attn::bindings::OneMatrixCall* call) {   \
    return ::attn::bindings::guarded([&] { ::attn::bindings::keep(core_function(call->a.map()), result_name); }); \
  }
#define AL_EXPORT_MATRIX_TO_ROWS(export_name, core_function, ...)                                  \
  extern "C" EMSCRIPTEN_KEEPALIVE int export_name(const ::attn::bindings::OneMatrixCall* call) {   \
    return ::attn::bindings::guarded([&] { ::attn::bindings::keep_rows(core_function(call->a.map()), __VA_ARGS__); }); \
  }
