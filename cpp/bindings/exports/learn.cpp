// The learn figure's training sessions. A session lives in the core between calls: it holds the
// task's data, both copies of the head and their histories. JS holds only its number, and must
// dispose of it; at most kMaxSessions live at once, so a page that forgets cannot grow the heap
// without bound.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "boundary.hpp"
#include "check.hpp"
#include "learn/training.hpp"

using namespace attn;
using namespace attn::bindings;

namespace {

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

// task 0 = previous token, 1 = matching type; precision 0 = float64, 1 = float32.
struct LearnCreateCall {
  double task, key_width, tokens, content_width, sequences, learning_rate, seed, precision;
};
static_assert(fits_call_record<LearnCreateCall>(), "LearnCreateCall must fit the call record JS writes");

}  // namespace

extern "C" {

// One 1×1 result: the new session's number.
EMSCRIPTEN_KEEPALIVE int al_learn_create(const LearnCreateCall* c) {
  return guarded([&] {
    if (c->task != 0 && c->task != 1) {
      throw std::invalid_argument("task must be 0 (previous token) or 1 (matching type), got " + check::number(c->task));
    }
    const double seed = c->seed;
    if (!(seed >= 0 && seed <= 9007199254740991.0) || seed != static_cast<double>(static_cast<std::uint64_t>(seed))) {
      throw std::invalid_argument("seed must be a whole number from 0 to 2^53 - 1, got " + check::number(seed));
    }
    if (c->precision != 0 && c->precision != 1) {
      throw std::invalid_argument("precision must be 0 (float64) or 1 (float32), got " + check::number(c->precision));
    }
    std::size_t slot = 0;
    while (slot < kMaxSessions && sessions[slot]) ++slot;
    if (slot == kMaxSessions) {
      throw std::invalid_argument("too many training sessions: " + std::to_string(kMaxSessions) +
                                  " are alive; dispose of one before creating another");
    }
    learn::LearnSettings settings;
    settings.task = c->task == 0 ? learn::Task::PreviousToken : learn::Task::MatchingType;
    settings.key_width = static_cast<int>(c->key_width);
    settings.shape = {static_cast<int>(c->tokens), static_cast<int>(c->content_width), static_cast<int>(c->sequences)};
    settings.learning_rate = c->learning_rate;
    settings.seed = static_cast<std::uint64_t>(seed);
    settings.precision = c->precision == 1 ? learn::Precision::Float32 : learn::Precision::Float64;
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

// The work of one step of both copies (learn::work_per_step), for the JS edge's budget check.
EMSCRIPTEN_KEEPALIVE double al_learn_step_work(int key_width, int tokens, int content_width, int sequences) {
  learn::LearnSettings settings;
  settings.key_width = key_width;
  settings.shape = {tokens, content_width, sequences};
  return static_cast<double>(learn::work_per_step(settings));
}

}  // extern "C"
