// One step's evaluation of a learn copy in float32: the same loss, statistics and gradients as
// evaluate() in training.hpp, over the same batched form (the projections meet only through the
// d×d matrix A = W_Q W_Kᵀ / s), with every sequence stacked into one matrix so that the products
// that do not mix sequences are one call each of the float32 kernels (kernels.hpp, hand-written
// WebAssembly SIMD in the wasm build). The statistics are summed in float64.
#pragma once

#include "learn/learn_task.hpp"
#include "types.hpp"

namespace attn::learn {

struct ProjectionsF {
  MatrixF W_Q;  // d×dk
  MatrixF W_K;  // d×dk
  MatrixF W_V;  // d×dv
};

// A task's sequences stacked once, in float32: rows b·n … b·n + n − 1 are sequence b.
struct StackedTask {
  int sequences = 0, n = 0, m = 0, d = 0, dv = 0;
  MatrixF queries;    // B·n × d
  MatrixF memories;   // B·m × d
  MatrixF queriesT;   // d × B·n
  MatrixF memoriesT;  // d × B·m
  MatrixF targets;    // B·n × dv
};
StackedTask stack_task(const TaskData& data);

// Buffers one evaluation reuses, so that a step allocates nothing once warm.
struct EvaluationBuffers {
  MatrixF A, W_Kt, XA, V, P, O, dO, dP, dS, T, U, G, Gt;
  MatrixF next_Q, next_K, next_V;  // the updated weights, swapped in when usable
};

struct EvaluationF;  // in training.hpp, beside the float64 Evaluation

// `gradients` (in `out`) are written in place; `buffers` are resized as needed.
void evaluate_f32(const StackedTask& task, const ProjectionsF& weights, float score_divisor,
                  EvaluationBuffers& buffers, EvaluationF& out);

}  // namespace attn::learn
