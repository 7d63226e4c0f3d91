// Times the attention kernels in this build (run natively, or as WebAssembly under node) and
// prints one JSON object: for every case, the median time of one call and its GFLOP/s
// (4·n·m·d: two products of 2·n·m·d each). The forms are interleaved, pass by pass, so that any
// drift of the machine hits them all alike. A benchmark, not a test: nothing here fails on a number.
// Times are CPU time of this process (the machine is shared: wall time would count the time other
// processes hold the core), read from clock_gettime natively and process.cpuUsage() under node.
// Usage: attention_kernels_timing [--large] [--only TEXT]
//   --large      adds one streaming call at n = 16,384
//   --only TEXT  times only the cases whose form contains TEXT
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attention.hpp"
#include "attention_f32.hpp"
#include "kernels.hpp"
#include "streaming.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
EM_JS(double, cpu_microseconds, (), {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
});
#endif

namespace {

using attn::Matrix;
using attn::MatrixF;
#ifdef __EMSCRIPTEN__
double cpu_seconds() { return cpu_microseconds() * 1e-6; }
#else
double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
#endif

Matrix random_rows(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  Matrix m(rows, cols);
  unsigned state = seed;
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    state = state * 1103515245u + 12345u;
    m.data()[i] = static_cast<float>((state >> 8) & 0xFFFF) / 65536.0f - 0.5f;
  }
  return m;
}

struct Case {
  std::string form;
  Eigen::Index n, d;
  double flops;
  std::function<void()> call;
  int inner = 1;
  std::vector<double> samples;  // seconds per call
};

double seconds_of(const std::function<void()>& call, int inner) {
  const double start = cpu_seconds();
  for (int i = 0; i < inner; ++i) call();
  return (cpu_seconds() - start) / inner;
}

// A sink the optimiser cannot see through, so that no call is dropped.
volatile float sink;

void add_attention_cases(std::vector<Case>& cases, Eigen::Index n, Eigen::Index d) {
  const Matrix Q = random_rows(n, d, 1), K = random_rows(n, d, 2), V = random_rows(n, d, 3);
  const MatrixF Qf = Q.cast<float>(), Kf = K.cast<float>(), Vf = V.cast<float>();
  const double flops = 4.0 * n * n * d;
  cases.push_back({"f64 direct (Eigen)", n, d, flops, [=] { sink = attn::attention(Q, K, V).output(0, 0); }});
  cases.push_back({"f32 direct (Eigen)", n, d, flops,
                   [=] { sink = attn::attention(Qf, Kf, Vf, {}, attn::kernels::portable_f32()).output(0, 0); }});
#ifdef __wasm_simd128__
  cases.push_back({"f32 direct (SIMD kernels)", n, d, flops,
                   [=] { sink = attn::attention(Qf, Kf, Vf, {}, attn::kernels::simd_f32()).output(0, 0); }});
#endif
  cases.push_back({"f32 streaming", n, d, flops, [=] { sink = attn::streaming_attention(Qf, Kf, Vf)(0, 0); }});
  cases.push_back({"f64 streaming", n, d, flops, [=] { sink = attn::streaming_attention(Q, K, V)(0, 0); }});
}

// The three kernels of the direct form, one by one, at n = m = 256, d = 64, per kernel set.
void add_kernel_cases(std::vector<Case>& cases, const attn::kernels::Kernels<float>& k) {
  const Eigen::Index n = 256, d = 64;
  const MatrixF Q = random_rows(n, d, 1).cast<float>(), Kt = random_rows(d, n, 2).cast<float>();
  const MatrixF V = random_rows(n, d, 3).cast<float>();
  auto scores = std::make_shared<MatrixF>(n, n);
  auto work = std::make_shared<MatrixF>(n, n);
  auto out = std::make_shared<MatrixF>(n, d);
  const std::string set = k.name;
  cases.push_back({"kernel Q·Kᵀ, " + set, n, d, 2.0 * n * n * d, [=, &k] {
                     k.matmul(n, n, d, Q.data(), d, Kt.data(), n, scores->data(), n, false);
                     sink = (*scores)(0, 0);
                   }});
  k.matmul(n, n, d, Q.data(), d, Kt.data(), n, scores->data(), n, false);
  cases.push_back({"kernel softmax rows, " + set, n, d, 0, [=, &k] {
                     *work = *scores;
                     for (Eigen::Index i = 0; i < n; ++i) {
                       float* row = work->row(i).data();
                       const float top = k.row_max(row, n);
                       k.scale(row, n, 1.0f / k.exp_sum(row, n, top, 0.125f));
                     }
                     sink = (*work)(0, 0);
                   }});
  cases.push_back({"kernel P·V, " + set, n, d, 2.0 * n * n * d, [=, &k] {
                     k.matmul(n, d, n, work->data(), n, V.data(), d, out->data(), d, false);
                     sink = (*out)(0, 0);
                   }});
}

}  // namespace

int main(int argc, char** argv) {
  bool large = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--large") == 0) large = true;
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
  }
  std::vector<Case> cases;
  add_attention_cases(cases, 8, 16);
  for (Eigen::Index n : {64, 256, 1024}) add_attention_cases(cases, n, 64);
  add_kernel_cases(cases, attn::kernels::portable_f32());
#ifdef __wasm_simd128__
  add_kernel_cases(cases, attn::kernels::simd_f32());
#endif
  cases.erase(std::remove_if(cases.begin(), cases.end(),
                             [&](const Case& c) { return c.form.find(only) == std::string::npos; }),
              cases.end());

  // warm up (V8 optimises a wasm function on a later call), and size each sample to ≥ 5 ms by
  // doubling the calls per sample (one short call is below the clock's resolution)
  for (Case& c : cases) {
    for (int i = 0; i < 3; ++i) c.call();
    while (c.inner < (1 << 20) && seconds_of(c.call, c.inner) * c.inner < 0.005) c.inner *= 2;
  }
  // interleaved passes: one sample of every case per pass
  const int passes = 15;
  for (int p = 0; p < passes; ++p) {
    for (Case& c : cases) c.samples.push_back(seconds_of(c.call, c.inner));
  }

  std::printf("{\"build\": \"%s\", \"cases\": [\n",
#ifdef __EMSCRIPTEN__
#ifdef __wasm_simd128__
              "wasm-simd128"
#else
              "wasm"
#endif
#else
              "native"
#endif
  );
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Case& c = cases[i];
    std::sort(c.samples.begin(), c.samples.end());
    const double median = c.samples[c.samples.size() / 2];
    std::printf("  {\"form\": \"%s\", \"n\": %lld, \"d\": %lld, \"median_ms\": %.6f, \"gflops\": %.3f}%s\n",
                c.form.c_str(), static_cast<long long>(c.n), static_cast<long long>(c.d), median * 1e3,
                c.flops > 0 ? c.flops / median / 1e9 : 0.0, i + 1 < cases.size() ? "," : "");
  }
  std::printf("]");
  if (large) {
    // one streaming call at n = m = 16,384, d = 64: the direct form would need 2^28 scores
    const Eigen::Index n = 16384, d = 64;
    const MatrixF Q = random_rows(n, d, 1).cast<float>(), K = random_rows(n, d, 2).cast<float>();
    const MatrixF V = random_rows(n, d, 3).cast<float>();
    const double seconds = seconds_of([&] { sink = attn::streaming_attention(Q, K, V)(0, 0); }, 1);
    std::printf(",\n \"large\": {\"form\": \"f32 streaming\", \"n\": %lld, \"d\": %lld, \"ms\": %.1f, \"gflops\": %.3f}",
                static_cast<long long>(n), static_cast<long long>(d), seconds * 1e3, 4.0 * n * n * d / seconds / 1e9);
  }
  std::printf("}\n");
  return 0;
}
