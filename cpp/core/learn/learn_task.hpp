// Small tasks on which one attention head can be watched learning. The loss reaches the
// projections only through the head's output, as in a transformer: a squared error between each
// output row and the value vector it should have fetched. Nothing supervises the weights directly.
// (A cross-entropy on the weights would have gradient P − Y with respect to the scores, which
// cancels the softmax's saturation and hides what the √d_k scale is for.)
//
// Every token is a one-hot "address" followed by a random content vector:
//   x = [ e_address (n entries) | c (dc entries, each N(0, 1)) ]   so d = n + dc and E|x|² = 1 + dc.
// The target of query row i is the content c of the one token it should attend to, so dv = dc.
#pragma once

#include <cstdint>
#include <vector>

#include "random.hpp"
#include "types.hpp"

namespace attn::learn {

enum class Task {
  // Self-attention over n tokens whose address is their position: token i must fetch the content
  // of token i − 1 (token 0 fetches the last one, so every row has exactly one right answer).
  PreviousToken,
  // Cross-attention: n keys carry their "type" (a shuffled one-hot) and content; n queries carry a
  // type and noise. Each query must fetch the content of the one key of its type, wherever it sits.
  MatchingType,
};

struct TaskShape {
  int tokens = 8;         // n queries and m = n keys per sequence
  int content_width = 4;  // dc = dv
  int sequences = 16;     // B sequences, the whole training set, one gradient step over all of them
};

struct TaskData {
  std::vector<Matrix> queries;   // B of n×d
  std::vector<Matrix> memories;  // B of m×d  (the same matrices as queries for self-attention)
  std::vector<Matrix> targets;   // B of n×dv
  std::vector<std::vector<int>> answers;  // B of n: the key each query should attend to
};

// The width d of every token.
int token_width(const TaskShape& shape);

// Draws B sequences from `random`.
TaskData make_task(Task task, const TaskShape& shape, Random& random);

// The loss over the whole set is L = Σ_b Σ_i Σ_k (O_b − T_b)²_ik / (B·n·dv), the mean squared error
// (summed as the forward passes go, in evaluate(), training.hpp). Its gradient with respect to one
// sequence's output: dL/dO_b = 2 (O_b − T_b) / (B·n·dv).
Matrix squared_error_backward(MatrixIn output, MatrixIn target, Eigen::Index total_entries);

}  // namespace attn::learn
