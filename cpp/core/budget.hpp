// The work budget of limits.hpp, checked before a call allocates anything. Each check throws
// std::invalid_argument with the size asked for and the limit, so a huge request is refused
// with a message instead of reaching std::bad_alloc or blocking the thread for an hour.
#pragma once

#include <cstdint>
#include <initializer_list>

namespace attn::budget {

// a·b·… and a + b + …, saturating at INT64_MAX: sizes compared against a limit, never wrapped.
std::int64_t product(std::initializer_list<std::int64_t> factors);
std::int64_t sum(std::initializer_list<std::int64_t> terms);

// A matrix the call reads or makes: each side within kMaxDimension, its entries within kMaxEntries.
void matrix(const char* name, std::int64_t rows, std::int64_t cols);
// Entries of several matrices that count as one (the heads' score matrices, say).
void entries(const char* what, std::int64_t count);
// Multiply-adds of one call in float64, and in float32 (faster: WebAssembly SIMD, its own limit).
void multiply_adds(const char* what, std::int64_t count);
void multiply_adds_f32(const char* what, std::int64_t count);
// Random draws plus softmax entries of one width experiment.
void experiment_work(const char* what, std::int64_t count);

}  // namespace attn::budget
