#include "learn/training.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "check.hpp"
#include "learn/optimiser.hpp"
#include "limits.hpp"
#include "softmax.hpp"

namespace attn::learn {
namespace {

void check_range(const char* name, long long value, long long low, long long high) {
  if (value < low || value > high) {
    throw std::invalid_argument(std::string(name) + " must be between " + std::to_string(low) + " and " +
                                std::to_string(high) + ", got " + std::to_string(value));
  }
}

void check_settings(const LearnSettings& s) {
  check_range("key width dk", s.key_width, 1, kMaxKeyWidth);
  check_range("tokens", s.shape.tokens, 2, kMaxTokens);
  check_range("content width", s.shape.content_width, 1, kMaxContentWidth);
  check_range("sequences", s.shape.sequences, 1, kMaxSequences);
  check::positive_finite("learning rate", s.learning_rate);
  if (s.task != Task::PreviousToken && s.task != Task::MatchingType) {
    throw std::invalid_argument("task must be PreviousToken or MatchingType");
  }
  const std::int64_t work = work_per_step(s);
  if (work > limits::kMaxMultiplyAdds) {
    throw std::invalid_argument("one training step would take " + std::to_string(work) +
                                " multiply-adds, more than the limit " + std::to_string(limits::kMaxMultiplyAdds) +
                                " of one call");
  }
}

Matrix draw(Eigen::Index rows, Eigen::Index cols, double deviation, Random& random) {
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i) {
    for (Eigen::Index j = 0; j < cols; ++j) m(i, j) = deviation * random.normal();
  }
  return m;
}

bool usable(const Projections& w) {
  const auto fine = [](const Matrix& m) { return m.allFinite() && m.cwiseAbs().maxCoeff() <= kDivergedWeight; };
  return fine(w.W_Q) && fine(w.W_K) && fine(w.W_V);
}

}  // namespace

std::int64_t work_per_step(const LearnSettings& s) {
  return multiply_adds_per_step(s) + limits::kStepWorkPerSequence * s.shape.sequences;
}

std::int64_t multiply_adds_per_step(const LearnSettings& s) {
  const std::int64_t n = s.shape.tokens, m = s.shape.tokens, dv = s.shape.content_width;
  const std::int64_t d = n + dv, dk = s.key_width;
  // evaluate(): A = W_Q W_Kᵀ, then dW_Q = G W_K and dW_K = Gᵀ W_Q, each d×d×dk; per sequence
  // the scores X_q A X_mᵀ, the values, the output, and the backward products down to G and dW_V.
  const std::int64_t projections = 3 * d * d * dk;
  const std::int64_t per_sequence = n * d * d + n * d * m + m * d * dv + n * m * dv   // forward
                                    + 2 * n * m * dv + m * d * dv + n * m * d + d * n * d;  // backward
  const std::int64_t update = d * (2 * dk + dv);
  return 2 * (projections + s.shape.sequences * per_sequence + update);
}

LearnSession::LearnSession(const LearnSettings& settings) : settings_(settings) {
  check_settings(settings_);
  Random random(settings_.seed);
  data_ = make_task(settings_.task, settings_.shape, random);
  const int d = token_width(settings_.shape);
  // Var(q_k) = E|x|²·σ² = (1 + dc)·σ² = 1.
  const double deviation = 1.0 / std::sqrt(1.0 + settings_.shape.content_width);
  initial_.W_Q = draw(d, settings_.key_width, deviation, random);
  initial_.W_K = draw(d, settings_.key_width, deviation, random);
  initial_.W_V = draw(d, settings_.shape.content_width, deviation, random);
  scaled_.score_divisor = std::sqrt(static_cast<double>(settings_.key_width));
  unscaled_.score_divisor = 1.0;
  if (float32()) stacked_ = stack_task(data_);
  reset();
}

void LearnSession::reset() {
  for (Copy* c : {&scaled_, &unscaled_}) {
    c->weights = initial_;
    if (float32()) c->weights32 = {initial_.W_Q.cast<float>(), initial_.W_K.cast<float>(), initial_.W_V.cast<float>()};
    c->history.clear();
    c->diverged = false;
  }
}

void LearnSession::set_learning_rate(double learning_rate) {
  check::positive_finite("learning rate", learning_rate);
  settings_.learning_rate = learning_rate;
}

// One step's loss, statistics and gradients over every sequence at once.
//
// Written out per sequence b, the head is Q_b = X_qb W_Q, K_b = X_mb W_K, S_b = Q_b K_bᵀ / s, and
// the backward pass ends in dW_Q = Σ_b X_qbᵀ dS_b K_b / s and dW_K = Σ_b X_mbᵀ dS_bᵀ Q_b / s
// (attention_backward.hpp). Both projections only ever meet through the d×d matrix
// A = W_Q W_Kᵀ / s, so
//   S_b = X_qb A X_mbᵀ,      G = Σ_b X_qbᵀ dS_b X_mb   (d×d),
//   dW_Q = G W_K / s,        dW_K = Gᵀ W_Q / s.
// The token width d (n + dc = 12 in the figure) is far below dk (up to 4096), so a step costs three
// d×d×dk products instead of 4·B products of n×d×dk: 13 times less work at dk = 256 and the
// figure's 16 sequences, with the same gradients up to rounding (tests/cpp/learn_test.cpp checks
// them against head_forward and head_backward, sequence by sequence).
Evaluation evaluate(const TaskData& data, const Projections& weights, double score_divisor) {
  if (data.targets.empty() || data.queries.size() != data.targets.size() || data.memories.size() != data.targets.size()) {
    throw std::invalid_argument("task data needs the same, non-zero number of queries, memories and targets");
  }
  check::positive_finite("score divisor", score_divisor);
  const auto B = data.targets.size();
  const Eigen::Index total_entries = static_cast<Eigen::Index>(B) * data.targets[0].size();
  const Eigen::Index d = weights.W_Q.rows();
  const Matrix A = weights.W_Q * weights.W_K.transpose() / score_divisor;  // d×d
  Matrix G = Matrix::Zero(d, d);
  Evaluation e;
  e.gradients.W_V = Matrix::Zero(weights.W_V.rows(), weights.W_V.cols());
  double squared = 0, spread = 0, largest = 0;
  Eigen::Index weight_count = 0, row_count = 0;
  for (std::size_t b = 0; b < B; ++b) {
    const Matrix& X_q = data.queries[b];
    const Matrix& X_m = data.memories[b];
    if (X_q.cols() != d || X_m.cols() != d) {
      throw std::invalid_argument("sequence " + std::to_string(b) + "'s tokens (" + check::shape_of(X_q) + ", " +
                                  check::shape_of(X_m) + ") must have d = " + std::to_string(d) + " columns");
    }
    const Matrix P = softmax_rows((X_q * A) * X_m.transpose());  // n×m
    const Matrix V = X_m * weights.W_V;                           // m×dv
    const Matrix O = P * V;                                       // n×dv
    if (O.rows() != data.targets[b].rows() || O.cols() != data.targets[b].cols()) {
      throw std::invalid_argument("target " + std::to_string(b) + " (" + check::shape_of(data.targets[b]) +
                                  ") must have the output's shape " + check::shape_of(O));
    }
    squared += (O - data.targets[b]).squaredNorm();
    spread += (P.array() * (1.0 - P.array())).sum();
    largest += P.rowwise().maxCoeff().sum();
    weight_count += P.size();
    row_count += P.rows();
    const Matrix dO = squared_error_backward(O, data.targets[b], total_entries);  // n×dv
    e.gradients.W_V.noalias() += X_m.transpose() * (P.transpose() * dO);
    const Matrix dP = dO * V.transpose();                                      // n×m
    const Vector row_dot = (dP.array() * P.array()).rowwise().sum();           // Σ_j dP_ij P_ij
    const Matrix dS = (P.array() * (dP.array().colwise() - row_dot.array())).matrix();
    G.noalias() += X_q.transpose() * (dS * X_m);
  }
  e.gradients.W_Q = G * weights.W_K / score_divisor;
  e.gradients.W_K = G.transpose() * weights.W_Q / score_divisor;
  e.record.loss = squared / static_cast<double>(total_entries);
  e.record.mean_p_one_minus_p = spread / static_cast<double>(weight_count);
  e.record.mean_largest_weight = largest / static_cast<double>(row_count);
  e.record.gradient_norm_Q = e.gradients.W_Q.norm();
  e.record.gradient_norm_K = e.gradients.W_K.norm();
  e.record.gradient_norm_V = e.gradients.W_V.norm();
  return e;
}

void LearnSession::step(Copy& c) {
  if (c.diverged) return;
  Evaluation e = evaluate(data_, c.weights, c.score_divisor);
  e.record.step = static_cast<int>(c.history.size());
  const StepRecord& r = e.record;
  if (!(r.loss <= kDivergedLoss) || !std::isfinite(r.gradient_norm_Q) || !std::isfinite(r.gradient_norm_K) ||
      !std::isfinite(r.gradient_norm_V)) {
    c.diverged = true;
    return;
  }
  Projections next = c.weights;
  sgd_step(next, e.gradients, settings_.learning_rate);
  c.history.push_back(r);
  if (!usable(next)) {
    c.diverged = true;  // keep the last usable weights; the curve ends with the record above
    return;
  }
  c.weights = std::move(next);
}

// The float32 step: the same rule as step(), on the float32 weights.
void LearnSession::step_f32(Copy& c) {
  if (c.diverged) return;
  evaluate_f32(stacked_, c.weights32, static_cast<float>(c.score_divisor), buffers_, evaluation_);
  StepRecord r = evaluation_.record;
  r.step = static_cast<int>(c.history.size());
  if (!(r.loss <= kDivergedLoss) || !std::isfinite(r.gradient_norm_Q) || !std::isfinite(r.gradient_norm_K) ||
      !std::isfinite(r.gradient_norm_V)) {
    c.diverged = true;
    return;
  }
  const auto rate = static_cast<float>(settings_.learning_rate);
  const ProjectionsF& g = evaluation_.gradients;
  ProjectionsF& w = c.weights32;
  // The update and the check in one pass: a weight past kDivergedWeightF (or not finite) ends the
  // copy with its last usable weights.
  bool fine = true;
  const auto update = [&](const MatrixF& weights, const MatrixF& gradient, MatrixF& next) {
    if (next.rows() != weights.rows() || next.cols() != weights.cols()) next.resize(weights.rows(), weights.cols());
    const float* from = weights.data();
    const float* by = gradient.data();
    float* to = next.data();
    bool ok = true;
    for (Eigen::Index i = 0, size = weights.size(); i < size; ++i) {
      const float v = from[i] - rate * by[i];
      to[i] = v;
      ok &= std::fabs(v) <= kDivergedWeightF;  // false for NaN too
    }
    fine = fine && ok;
  };
  update(w.W_Q, g.W_Q, buffers_.next_Q);
  update(w.W_K, g.W_K, buffers_.next_K);
  update(w.W_V, g.W_V, buffers_.next_V);
  c.history.push_back(r);
  if (!fine) {
    c.diverged = true;
    return;
  }
  w.W_Q.swap(buffers_.next_Q);
  w.W_K.swap(buffers_.next_K);
  w.W_V.swap(buffers_.next_V);
}

LearnSession::Steps LearnSession::train(int steps) {
  check::positive_count("steps", steps);
  const std::int64_t taken = static_cast<std::int64_t>(std::max(scaled_.history.size(), unscaled_.history.size()));
  if (taken + steps > kMaxSteps) {
    throw std::invalid_argument("steps " + std::to_string(steps) + " would take the session past " +
                                std::to_string(kMaxSteps) + " steps (" + std::to_string(taken) +
                                " taken); reset it first");
  }
  const std::int64_t per_step = work_per_step(settings_);
  if (static_cast<std::int64_t>(steps) * per_step > limits::kMaxMultiplyAdds) {
    throw std::invalid_argument("steps " + std::to_string(steps) + " at dk = " + std::to_string(settings_.key_width) +
                                " would take more than the limit of " + std::to_string(limits::kMaxMultiplyAdds) +
                                " multiply-adds in one call; train in pieces of at most " +
                                std::to_string(limits::kMaxMultiplyAdds / per_step) + " steps");
  }
  Steps out;
  for (Copy* c : {&scaled_, &unscaled_}) {
    const std::size_t before = c->history.size();
    for (int s = 0; s < steps && !c->diverged; ++s) {
      if (float32()) step_f32(*c);
      else step(*c);
    }
    if (float32()) c->weights = {c->weights32.W_Q.cast<double>(), c->weights32.W_K.cast<double>(), c->weights32.W_V.cast<double>()};
    auto& into = c == &scaled_ ? out.scaled : out.unscaled;
    into.assign(c->history.begin() + static_cast<std::ptrdiff_t>(before), c->history.end());
  }
  return out;
}

int LearnSession::steps_taken(Scaling which) const { return static_cast<int>(copy(which).history.size()); }
bool LearnSession::diverged(Scaling which) const { return copy(which).diverged; }
const std::vector<StepRecord>& LearnSession::history(Scaling which) const { return copy(which).history; }
const Projections& LearnSession::projections(Scaling which) const { return copy(which).weights; }

StepRecord LearnSession::measure(Scaling which) const {
  const Copy& c = copy(which);
  // A diverged copy's numbers at its current weights may be far past any sane range (or
  // overflow): it reports the last step it took instead.
  if (c.diverged && !c.history.empty()) return c.history.back();
  StepRecord r;
  if (float32()) {
    evaluate_f32(stacked_, c.weights32, static_cast<float>(c.score_divisor), buffers_, evaluation_);
    r = evaluation_.record;
  } else {
    r = evaluate(data_, c.weights, c.score_divisor).record;
  }
  r.step = static_cast<int>(c.history.size());
  return r;
}

Matrix LearnSession::attention_weights(Scaling which, int sequence) const {
  check_range("sequence", sequence, 0, static_cast<long long>(data_.queries.size()) - 1);
  const Copy& c = copy(which);
  const auto b = static_cast<std::size_t>(sequence);
  return head_forward(data_.queries[b], data_.memories[b], c.weights, c.score_divisor).P;
}

}  // namespace attn::learn
