#include "learn/learn_task.hpp"

#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "check.hpp"

namespace attn::learn {
namespace {

// A uniformly random permutation of 0 … n−1 (Fisher–Yates over the project's generator, so that
// both builds shuffle alike).
std::vector<int> shuffled(int n, Random& random) {
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  for (int i = n - 1; i > 0; --i) {
    const int j = static_cast<int>(random.uniform() * (i + 1));
    std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
  }
  return order;
}

// Row r of `tokens` becomes [e_address | N(0, 1) draws].
void fill_token(Matrix& tokens, Eigen::Index r, int address, int n, Random& random) {
  tokens.row(r).head(n).setZero();
  tokens(r, address) = 1.0;
  for (Eigen::Index k = n; k < tokens.cols(); ++k) tokens(r, k) = random.normal();
}

}  // namespace

int token_width(const TaskShape& shape) { return shape.tokens + shape.content_width; }

TaskData make_task(Task task, const TaskShape& shape, Random& random) {
  check::positive_count("tokens", shape.tokens);
  check::positive_count("content width", shape.content_width);
  check::positive_count("sequences", shape.sequences);
  const int n = shape.tokens;
  const int d = token_width(shape);
  TaskData data;
  for (int b = 0; b < shape.sequences; ++b) {
    Matrix memory(n, d);
    Matrix target(n, shape.content_width);
    std::vector<int> answer(static_cast<std::size_t>(n));
    if (task == Task::PreviousToken) {
      for (int j = 0; j < n; ++j) fill_token(memory, j, j, n, random);
      for (int i = 0; i < n; ++i) answer[static_cast<std::size_t>(i)] = (i + n - 1) % n;
      data.queries.push_back(memory);
    } else {
      const std::vector<int> key_type = shuffled(n, random);
      const std::vector<int> query_type = shuffled(n, random);
      std::vector<int> key_of_type(static_cast<std::size_t>(n));
      for (int j = 0; j < n; ++j) {
        fill_token(memory, j, key_type[static_cast<std::size_t>(j)], n, random);
        key_of_type[static_cast<std::size_t>(key_type[static_cast<std::size_t>(j)])] = j;
      }
      Matrix query(n, d);
      for (int i = 0; i < n; ++i) {
        const int type = query_type[static_cast<std::size_t>(i)];
        fill_token(query, i, type, n, random);
        answer[static_cast<std::size_t>(i)] = key_of_type[static_cast<std::size_t>(type)];
      }
      data.queries.push_back(std::move(query));
    }
    for (int i = 0; i < n; ++i) target.row(i) = memory.row(answer[static_cast<std::size_t>(i)]).tail(shape.content_width);
    data.memories.push_back(std::move(memory));
    data.targets.push_back(std::move(target));
    data.answers.push_back(std::move(answer));
  }
  return data;
}

Matrix squared_error_backward(MatrixIn output, MatrixIn target, Eigen::Index total_entries) {
  if (output.rows() != target.rows() || output.cols() != target.cols()) {
    throw std::invalid_argument("output (" + check::shape_of(output) + ") and target (" + check::shape_of(target) +
                                ") differ in shape");
  }
  check::positive_count("total entries", total_entries);
  return 2.0 * (output - target) / static_cast<double>(total_entries);
}

}  // namespace attn::learn
