#include "budget.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include "limits.hpp"

namespace attn::budget {
namespace {

constexpr std::int64_t kSaturated = std::numeric_limits<std::int64_t>::max();

std::string count(std::int64_t value) {
  return value == kSaturated ? "more than 9.2e18" : std::to_string(value);
}

}  // namespace

std::int64_t product(std::initializer_list<std::int64_t> factors) {
  std::int64_t result = 1;
  for (std::int64_t f : factors) {
    if (f < 0) return kSaturated;  // a negative size is never within a limit
    if (__builtin_mul_overflow(result, f, &result)) return kSaturated;
  }
  return result;
}

std::int64_t sum(std::initializer_list<std::int64_t> terms) {
  std::int64_t result = 0;
  for (std::int64_t t : terms) {
    if (t < 0 || __builtin_add_overflow(result, t, &result)) return kSaturated;
  }
  return result;
}

void matrix(const char* name, std::int64_t rows, std::int64_t cols) {
  // The message's text is built only for a refusal: this check runs on every call.
  const auto shape = [&] { return std::to_string(rows) + "x" + std::to_string(cols); };
  if (rows > limits::kMaxDimension || cols > limits::kMaxDimension) {
    throw std::invalid_argument(std::string(name) + " is " + shape() + "; a side may be at most " +
                                std::to_string(limits::kMaxDimension) + " (the work budget)");
  }
  const std::int64_t n = product({rows, cols});
  if (n > limits::kMaxEntries) {
    throw std::invalid_argument(std::string(name) + " would be " + shape() + " = " + count(n) +
                                " entries, past the limit of " + std::to_string(limits::kMaxEntries) +
                                " (2^24) entries per matrix");
  }
}

void entries(const char* what, std::int64_t n) {
  if (n > limits::kMaxEntries) {
    throw std::invalid_argument(std::string(what) + " would be " + count(n) + " entries, past the limit of " +
                                std::to_string(limits::kMaxEntries) + " (2^24) entries");
  }
}

namespace {
void multiply_adds_within(const char* what, std::int64_t n, std::int64_t limit, const char* precision) {
  if (n > limit) {
    throw std::invalid_argument(std::string(what) + " needs " + count(n) + " multiply-adds, past the limit of " +
                                std::to_string(limit) + " per call in " + precision +
                                " (about a second of work); split it into smaller calls");
  }
}
}  // namespace

void multiply_adds(const char* what, std::int64_t n) {
  multiply_adds_within(what, n, limits::kMaxMultiplyAdds, "float64");
}

void multiply_adds_f32(const char* what, std::int64_t n) {
  multiply_adds_within(what, n, limits::kMaxMultiplyAddsF32, "float32");
}

void experiment_work(const char* what, std::int64_t n) {
  if (n > limits::kMaxExperimentWork) {
    throw std::invalid_argument(std::string(what) + " needs " + count(n) +
                                " random draws and softmax entries, past the limit of " +
                                std::to_string(limits::kMaxExperimentWork) + " per experiment");
  }
}

}  // namespace attn::budget
