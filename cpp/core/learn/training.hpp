// Two copies of one attention head trained side by side from one start, the √d_k claim shown
// happening: the same seed, task, data and initial projections, one copy dividing its scores by
// √dk and one not, both trained by plain SGD on the squared error of their outputs.
//
// Initialisation follows footnote 4's assumption: with E|x|² = 1 + dc (see learn_task.hpp) and
// projection entries drawn from N(0, 1/(1 + dc)), every query and key entry starts with mean 0
// and variance 1, so raw scores have variance dk.
#pragma once

#include <cstdint>
#include <vector>

#include "learn/attention_backward.hpp"
#include "learn/learn_task.hpp"
#include "learn/training_f32.hpp"

namespace attn::learn {

enum class Scaling {
  ByRootDk,  // S = Q Kᵀ / √dk
  Unscaled,  // S = Q Kᵀ
};

// The arithmetic of the training steps. Float32 runs the kernels of kernels.hpp (SIMD in the
// wasm build) on stacked sequences; its gradients agree with float64's to about 1e-5 relative and
// its runs reach a target loss at nearly the same step (tests/cpp/learn_f32_test.cpp).
enum class Precision {
  Float64,
  Float32,
};

struct LearnSettings {
  Task task = Task::PreviousToken;
  int key_width = 64;  // dk
  TaskShape shape;
  double learning_rate = 0.5;  // η of plain SGD; may change between steps
  std::uint64_t seed = 1;
  Precision precision = Precision::Float64;
};

// What one step measured, at the weights before its update.
struct StepRecord {
  int step = 0;                   // updates taken before this measurement
  double loss = 0;                // mean squared error of the outputs
  double mean_p_one_minus_p = 0;  // mean of P∘(1 − P) over every weight of every sequence
  double mean_largest_weight = 0; // mean over every query row of its largest weight
  double gradient_norm_Q = 0;     // ‖dL/dW_Q‖ (Frobenius)
  double gradient_norm_K = 0;     // ‖dL/dW_K‖
  double gradient_norm_V = 0;     // ‖dL/dW_V‖
};

// The largest settings and runs accepted (the rest of the budget is in limits.hpp).
inline constexpr int kMaxTokens = 64;
inline constexpr int kMaxContentWidth = 64;
inline constexpr int kMaxSequences = 64;
inline constexpr int kMaxKeyWidth = 4096;
inline constexpr int kMaxSteps = 100'000;  // per session, so the history stays a few MB
// A copy has diverged when its loss passes kDivergedLoss (targets are N(0, 1), so a sane loss is
// about 1), its gradient is not finite, or a weight's magnitude passes kDivergedWeight (before any
// product could overflow). It stops there and its curve ends; the other copy goes on.
inline constexpr double kDivergedLoss = 1e6;
inline constexpr double kDivergedWeight = 1e100;
inline constexpr float kDivergedWeightF = 1e30f;  // the same rule in float32, whose range ends near 3e38

// The loss over the whole training set, its statistics and the gradients of the three projections
// (summed over the sequences), for one copy's weights and score divisor. What a step measures.
struct Evaluation {
  StepRecord record;  // record.step is left 0
  Projections gradients;
};
Evaluation evaluate(const TaskData& data, const Projections& weights, double score_divisor);
// The same in float32 (training_f32.hpp's evaluate_f32 fills it).
struct EvaluationF {
  StepRecord record;  // record.step is left 0
  ProjectionsF gradients;
};

// Multiply-adds of one step of both copies (forward and backward); checked against the budget.
std::int64_t multiply_adds_per_step(const LearnSettings& settings);
// What one step counts against the limit of one call (limits.hpp): its multiply-adds, and
// kStepWorkPerSequence for each sequence's small matrices.
std::int64_t work_per_step(const LearnSettings& settings);

class LearnSession {
 public:
  // Checks the settings, draws the data and one set of initial projections for both copies.
  explicit LearnSession(const LearnSettings& settings);

  struct Steps {
    std::vector<StepRecord> scaled;
    std::vector<StepRecord> unscaled;  // shorter than `scaled` only if this copy diverged
  };
  // `steps` SGD steps of both copies at the current learning rate; returns what each step measured.
  Steps train(int steps);
  // Takes effect from the next step; the weights and history are kept.
  void set_learning_rate(double learning_rate);
  // Back to the initial projections (the same ones: no new draw) and step 0; keeps the learning rate.
  void reset();

  const LearnSettings& settings() const { return settings_; }
  int steps_taken(Scaling which) const;
  bool diverged(Scaling which) const;
  const std::vector<StepRecord>& history(Scaling which) const;
  // The current weights' loss, p(1 − p), largest weight and gradients, without taking a step
  // (equal to the next step's record). A diverged copy gives its last record.
  StepRecord measure(Scaling which) const;
  // The current attention weights P (n×m) of one training sequence.
  Matrix attention_weights(Scaling which, int sequence = 0) const;
  const Projections& projections(Scaling which) const;
  const TaskData& data() const { return data_; }

 private:
  struct Copy {
    double score_divisor = 1;
    Projections weights;   // float32: the float32 weights widened, after each train() call
    ProjectionsF weights32;  // float32 only
    std::vector<StepRecord> history;
    bool diverged = false;
  };
  void step(Copy& copy);
  void step_f32(Copy& copy);
  bool float32() const { return settings_.precision == Precision::Float32; }
  const Copy& copy(Scaling which) const { return which == Scaling::ByRootDk ? scaled_ : unscaled_; }

  LearnSettings settings_;
  TaskData data_;
  Projections initial_;
  Copy scaled_;
  Copy unscaled_;
  StackedTask stacked_;  // float32 only
  mutable EvaluationBuffers buffers_;
  mutable EvaluationF evaluation_;
};

}  // namespace attn::learn
