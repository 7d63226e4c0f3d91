// Prints how many SGD steps each copy of the learn figure's head needs to bring its loss below a
// threshold, at several key widths: the numbers behind the figure, measured rather than quoted.
// Usage: attention_lab_learn_table [task previous|match] [learning rate] [threshold] [max steps] [seed]
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "learn/training.hpp"

using namespace attn::learn;

namespace {

// The first step whose measured loss is below `threshold`, or -1.
int first_below(const std::vector<StepRecord>& history, double threshold) {
  for (const auto& r : history) {
    if (r.loss < threshold) return r.step;
  }
  return -1;
}

void print_steps(int steps, int max_steps, bool diverged) {
  if (steps >= 0) std::printf(" %9d |", steps);
  else if (diverged) std::printf(" %9s |", "diverged");
  else std::printf(" >%8d |", max_steps);
}

}  // namespace

int main(int argc, char** argv) {
  const Task task = argc > 1 && std::strcmp(argv[1], "match") == 0 ? Task::MatchingType : Task::PreviousToken;
  const double learning_rate = argc > 2 ? std::atof(argv[2]) : 1.0;
  const double threshold = argc > 3 ? std::atof(argv[3]) : 0.05;
  const int max_steps = argc > 4 ? std::atoi(argv[4]) : 3000;
  const unsigned long long seed = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 1;
  std::printf("task %s, SGD at learning rate %g, loss threshold %g, at most %d steps, seed %llu\n",
              task == Task::PreviousToken ? "previous" : "match", learning_rate, threshold, max_steps, seed);
  std::printf("| d_k | scaled: steps to loss < %g | unscaled | loss at step 0 (scaled, unscaled) | mean p(1-p) at step 0 | loss at the last step |\n", threshold);
  std::printf("| --- | --- | --- | --- | --- | --- |\n");
  for (int key_width : {4, 16, 64, 256, 512}) {
    LearnSettings settings;
    settings.task = task;
    settings.key_width = key_width;
    settings.learning_rate = learning_rate;
    settings.seed = seed;
    LearnSession session(settings);
    session.train(max_steps);
    const auto& scaled = session.history(Scaling::ByRootDk);
    const auto& unscaled = session.history(Scaling::Unscaled);
    std::printf("| %d |", key_width);
    print_steps(first_below(scaled, threshold), max_steps, session.diverged(Scaling::ByRootDk));
    print_steps(first_below(unscaled, threshold), max_steps, session.diverged(Scaling::Unscaled));
    std::printf(" %.3f, %.3f | %.4f, %.4f | %.4f, %.4f |\n", scaled.front().loss, unscaled.front().loss,
                scaled.front().mean_p_one_minus_p, unscaled.front().mean_p_one_minus_p, scaled.back().loss,
                unscaled.back().loss);
  }
  return 0;
}
