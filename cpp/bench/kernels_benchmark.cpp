// Native Google Benchmark of the attention forms (Debian's libbenchmark-dev), at the sizes of
// kernels_timing.cpp: n = m = 8 (d = 16), 64, 256, 1024 (d = 64). Counters give GFLOP/s for
// 4·n·m·d. Run: build/native/attention_kernels_benchmark --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include "attention.hpp"
#include "attention_f32.hpp"
#include "kernels.hpp"
#include "streaming.hpp"

namespace {

attn::Matrix random_rows(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  attn::Matrix m(rows, cols);
  unsigned state = seed;
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    state = state * 1103515245u + 12345u;
    m.data()[i] = static_cast<float>((state >> 8) & 0xFFFF) / 65536.0f - 0.5f;
  }
  return m;
}

// The inputs of one size, with the GFLOP/s counter set for it.
struct Inputs {
  attn::Matrix Q, K, V;
  attn::MatrixF Qf, Kf, Vf;
  explicit Inputs(benchmark::State& state) {
    const Eigen::Index n = state.range(0), d = state.range(1);
    Q = random_rows(n, d, 1);
    K = random_rows(n, d, 2);
    V = random_rows(n, d, 3);
    Qf = Q.cast<float>();
    Kf = K.cast<float>();
    Vf = V.cast<float>();
    state.counters["GFLOP/s"] =
        benchmark::Counter(4.0 * static_cast<double>(n * n * d), benchmark::Counter::kIsIterationInvariantRate);
  }
};

void f64_direct(benchmark::State& state) {
  const Inputs in(state);
  for (auto _ : state) benchmark::DoNotOptimize(attn::attention(in.Q, in.K, in.V).output.data());
}

void f32_direct(benchmark::State& state) {
  const Inputs in(state);
  for (auto _ : state) benchmark::DoNotOptimize(attn::attention(in.Qf, in.Kf, in.Vf).output.data());
}

void f32_streaming(benchmark::State& state) {
  const Inputs in(state);
  for (auto _ : state) benchmark::DoNotOptimize(attn::streaming_attention(in.Qf, in.Kf, in.Vf).data());
}

void f64_streaming(benchmark::State& state) {
  const Inputs in(state);
  for (auto _ : state) benchmark::DoNotOptimize(attn::streaming_attention(in.Q, in.K, in.V).data());
}

void sizes(benchmark::internal::Benchmark* b) {
  b->Args({8, 16})->Args({64, 64})->Args({256, 64})->Args({1024, 64})->Unit(benchmark::kMicrosecond);
}

BENCHMARK(f64_direct)->Apply(sizes);
BENCHMARK(f32_direct)->Apply(sizes);
BENCHMARK(f32_streaming)->Apply(sizes);
BENCHMARK(f64_streaming)->Apply(sizes);

}  // namespace

BENCHMARK_MAIN();
