#include "learn/training_f32.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kernels.hpp"
#include "learn/training.hpp"

namespace attn::learn {
namespace {

using kernels::Index;

// C (M×N) = A (M×K) · B (K×N), row-major, through the fastest float32 kernel.
void product(Index M, Index N, Index K, const float* A, Index lda, const float* B, Index ldb, float* C, Index ldc,
             bool accumulate = false) {
  kernels::best_f32().matmul(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}

void fit(MatrixF& m, Index rows, Index cols) {
  if (m.rows() != rows || m.cols() != cols) m.resize(rows, cols);
}

MatrixF stacked(const std::vector<Matrix>& list) {
  const Index rows = list.empty() ? 0 : list[0].rows();
  const Index cols = list.empty() ? 0 : list[0].cols();
  MatrixF out(static_cast<Index>(list.size()) * rows, cols);
  for (std::size_t b = 0; b < list.size(); ++b) {
    if (list[b].rows() != rows || list[b].cols() != cols) {
      throw std::invalid_argument("every sequence of a task must have the same shape");
    }
    out.middleRows(static_cast<Index>(b) * rows, rows) = list[b].cast<float>();
  }
  return out;
}

// The Frobenius norm, summed in float64 over four interleaved sums (one pass, and vectorisable).
double norm(const MatrixF& m) {
  const float* x = m.data();
  const Index size = m.size();
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  Index i = 0;
  for (; i + 4 <= size; i += 4) {
    s0 += static_cast<double>(x[i]) * x[i];
    s1 += static_cast<double>(x[i + 1]) * x[i + 1];
    s2 += static_cast<double>(x[i + 2]) * x[i + 2];
    s3 += static_cast<double>(x[i + 3]) * x[i + 3];
  }
  for (; i < size; ++i) s0 += static_cast<double>(x[i]) * x[i];
  return std::sqrt((s0 + s1) + (s2 + s3));
}

}  // namespace

StackedTask stack_task(const TaskData& data) {
  if (data.targets.empty() || data.queries.size() != data.targets.size() || data.memories.size() != data.targets.size()) {
    throw std::invalid_argument("task data needs the same, non-zero number of queries, memories and targets");
  }
  StackedTask t;
  t.sequences = static_cast<int>(data.targets.size());
  t.n = static_cast<int>(data.queries[0].rows());
  t.m = static_cast<int>(data.memories[0].rows());
  t.d = static_cast<int>(data.queries[0].cols());
  t.dv = static_cast<int>(data.targets[0].cols());
  t.queries = stacked(data.queries);
  t.memories = stacked(data.memories);
  t.targets = stacked(data.targets);
  if (t.memories.cols() != t.d || t.targets.rows() != t.queries.rows()) {
    throw std::invalid_argument("the task's queries, memories and targets do not fit together");
  }
  t.queriesT = t.queries.transpose();
  t.memoriesT = t.memories.transpose();
  return t;
}

// The same arithmetic as evaluate() (training.cpp), sequence blocks stacked:
//   A = W_Q W_Kᵀ / s;  XA = X_q A (all sequences);  per sequence S_b = XA_b X_mbᵀ, P_b = softmax(S_b);
//   V = X_m W_V;  O_b = P_b V_b;  dO = 2(O − T)/N;  U_b = P_bᵀ dO_b, dW_V = X_mᵀ U;
//   dP_b = dO_b V_bᵀ;  dS_b = P_b ∘ (dP_b − rowsum(dP_b ∘ P_b));  T_b = dS_b X_mb,  G = X_qᵀ T;
//   dW_Q = G W_K / s,  dW_K = Gᵀ W_Q / s.
void evaluate_f32(const StackedTask& task, const ProjectionsF& w, float score_divisor, EvaluationBuffers& buf,
                  EvaluationF& out) {
  const Index B = task.sequences, n = task.n, m = task.m, d = task.d, dv = task.dv;
  const Index dk = w.W_Q.cols();
  if (w.W_Q.rows() != d || w.W_K.rows() != d || w.W_K.cols() != dk || w.W_V.rows() != d || w.W_V.cols() != dv) {
    throw std::invalid_argument("the projections do not fit the task's token width");
  }
  if (!(score_divisor > 0)) throw std::invalid_argument("score divisor must be positive");
  const float inverse = 1.0f / score_divisor;
  const Index total_entries = B * n * dv;
  const float loss_scale = 2.0f / static_cast<float>(total_entries);

  fit(buf.W_Kt, dk, d);
  for (Index i = 0; i < d; ++i) {
    const float* from = w.W_K.data() + i * dk;
    float* to = buf.W_Kt.data() + i;
    for (Index j = 0; j < dk; ++j) to[j * d] = from[j];
  }
  fit(buf.A, d, d);
  product(d, d, dk, w.W_Q.data(), dk, buf.W_Kt.data(), d, buf.A.data(), d);
  buf.A *= inverse;
  fit(buf.XA, B * n, d);
  product(B * n, d, d, task.queries.data(), d, buf.A.data(), d, buf.XA.data(), d);
  fit(buf.V, B * m, dv);
  product(B * m, dv, d, task.memories.data(), d, w.W_V.data(), dv, buf.V.data(), dv);

  fit(buf.P, B * n, m);
  fit(buf.O, B * n, dv);
  fit(buf.dO, B * n, dv);
  fit(buf.dP, B * n, m);
  fit(buf.dS, B * n, m);
  fit(buf.T, B * n, d);
  fit(buf.U, B * m, dv);
  const kernels::Kernels<float>& k = kernels::best_f32();
  double squared = 0, spread = 0, largest = 0;
  for (Index b = 0; b < B; ++b) {
    const Index q0 = b * n, k0 = b * m;
    float* P = buf.P.data() + q0 * m;
    // S_b = XA_b X_mbᵀ: X_mbᵀ is columns k0 … k0 + m − 1 of X_mᵀ (row stride B·m).
    product(n, m, d, buf.XA.data() + q0 * d, d, task.memoriesT.data() + k0, B * m, P, m);
    for (Index i = 0; i < n; ++i) {
      float* row = P + i * m;
      const float top = k.row_max(row, m);
      const float sum = k.exp_sum(row, m, top, 1.0f);
      k.scale(row, m, 1.0f / sum);
    }
    float* O = buf.O.data() + q0 * dv;
    product(n, dv, m, P, m, buf.V.data() + k0 * dv, dv, O, dv);
    float* dO = buf.dO.data() + q0 * dv;
    const float* target = task.targets.data() + q0 * dv;
    for (Index e = 0; e < n * dv; ++e) {
      const float diff = O[e] - target[e];
      squared += static_cast<double>(diff) * diff;
      dO[e] = loss_scale * diff;
    }
    // U_b = P_bᵀ dO_b (m×dv), dP_b = dO_b V_bᵀ (n×m): small, written out.
    float* U = buf.U.data() + k0 * dv;
    std::fill(U, U + m * dv, 0.0f);
    float* dP = buf.dP.data() + q0 * m;
    const float* V = buf.V.data() + k0 * dv;
    for (Index i = 0; i < n; ++i) {
      const float* p = P + i * m;
      const float* g = dO + i * dv;
      float row_largest = 0;
      for (Index j = 0; j < m; ++j) {
        spread += static_cast<double>(p[j]) * (1.0 - static_cast<double>(p[j]));
        row_largest = std::max(row_largest, p[j]);
        float dot = 0;
        for (Index c = 0; c < dv; ++c) {
          U[j * dv + c] += p[j] * g[c];
          dot += g[c] * V[j * dv + c];
        }
        dP[i * m + j] = dot;
      }
      largest += row_largest;
      float row_dot = 0;
      for (Index j = 0; j < m; ++j) row_dot += dP[i * m + j] * p[j];
      float* dS = buf.dS.data() + (q0 + i) * m;
      for (Index j = 0; j < m; ++j) dS[j] = p[j] * (dP[i * m + j] - row_dot);
    }
    // T_b = dS_b X_mb (n×d)
    product(n, d, m, buf.dS.data() + q0 * m, m, task.memories.data() + k0 * d, d, buf.T.data() + q0 * d, d);
  }
  fit(out.gradients.W_V, d, dv);
  product(d, dv, B * m, task.memoriesT.data(), B * m, buf.U.data(), dv, out.gradients.W_V.data(), dv);
  fit(buf.G, d, d);
  product(d, d, B * n, task.queriesT.data(), B * n, buf.T.data(), d, buf.G.data(), d);
  buf.G *= inverse;
  fit(buf.Gt, d, d);
  buf.Gt = buf.G.transpose();
  fit(out.gradients.W_Q, d, dk);
  product(d, dk, d, buf.G.data(), d, w.W_K.data(), dk, out.gradients.W_Q.data(), dk);
  fit(out.gradients.W_K, d, dk);
  product(d, dk, d, buf.Gt.data(), d, w.W_Q.data(), dk, out.gradients.W_K.data(), dk);

  StepRecord& r = out.record;
  r = StepRecord{};
  r.loss = squared / static_cast<double>(total_entries);
  r.mean_p_one_minus_p = spread / static_cast<double>(B * n * m);
  r.mean_largest_weight = largest / static_cast<double>(B * n);
  r.gradient_norm_Q = norm(out.gradients.W_Q);
  r.gradient_norm_K = norm(out.gradients.W_K);
  r.gradient_norm_V = norm(out.gradients.W_V);
}

}  // namespace attn::learn
