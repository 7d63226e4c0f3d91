#include "learn/attention_backward.hpp"

#include <string>
#include <stdexcept>

#include "attention.hpp"
#include "check.hpp"

namespace attn::learn {
namespace {

void check_projections(MatrixIn X_query, MatrixIn X_memory, const Projections& w) {
  check::not_empty("X_query", X_query.rows(), X_query.cols());
  check::not_empty("X_memory", X_memory.rows(), X_memory.cols());
  check::same_cols("X_query", X_query, "X_memory", X_memory);
  const auto d = X_query.cols();
  if (w.W_Q.rows() != d || w.W_K.rows() != d || w.W_V.rows() != d) {
    throw std::invalid_argument("W_Q (" + check::shape_of(w.W_Q) + "), W_K (" + check::shape_of(w.W_K) +
                                ") and W_V (" + check::shape_of(w.W_V) + ") must each have d = " +
                                std::to_string(d) + " rows, the width of the tokens");
  }
  check::same_cols("W_Q", w.W_Q, "W_K", w.W_K);
}

}  // namespace

HeadForward head_forward(MatrixIn X_query, MatrixIn X_memory, const Projections& w, double score_divisor) {
  check_projections(X_query, X_memory, w);
  check::positive_finite("score divisor", score_divisor);
  HeadForward f;
  f.Q = X_query * w.W_Q;
  f.K = X_memory * w.W_K;
  f.V = X_memory * w.W_V;
  AttentionOptions options;
  options.scale = score_divisor;
  AttentionResult r = attention(f.Q, f.K, f.V, options);
  f.P = std::move(r.weights);
  f.O = std::move(r.output);
  return f;
}

AttentionGradients attention_backward(MatrixIn Q, MatrixIn K, MatrixIn V, MatrixIn P, MatrixIn dO,
                                      double score_divisor) {
  check::same_cols("Q", Q, "K", K);
  check::same_rows("K", K, "V", V);
  check::same_rows("P", P, "Q", Q);
  if (P.cols() != K.rows()) {
    throw std::invalid_argument("P (" + check::shape_of(P) + ") must have one column per key, K is " +
                                check::shape_of(K));
  }
  if (dO.rows() != P.rows() || dO.cols() != V.cols()) {
    throw std::invalid_argument("dO (" + check::shape_of(dO) + ") must have the output's shape " +
                                check::shape(P.rows(), V.cols()));
  }
  check::positive_finite("score divisor", score_divisor);

  AttentionGradients g;
  g.dV = P.transpose() * dO;                              // m×dv
  const Matrix dP = dO * V.transpose();                   // n×m
  const Vector row_dot = (dP.array() * P.array()).rowwise().sum();  // n: Σ_j dP_ij P_ij
  const Matrix dS = (P.array() * (dP.array().colwise() - row_dot.array())).matrix();  // n×m
  g.dQ = dS * K / score_divisor;                          // n×dk
  g.dK = dS.transpose() * Q / score_divisor;              // m×dk
  return g;
}

Projections projections_backward(MatrixIn X_query, MatrixIn X_memory, const AttentionGradients& g) {
  check::same_rows("X_query", X_query, "dQ", g.dQ);
  check::same_rows("X_memory", X_memory, "dK", g.dK);
  check::same_rows("X_memory", X_memory, "dV", g.dV);
  return {X_query.transpose() * g.dQ, X_memory.transpose() * g.dK, X_memory.transpose() * g.dV};
}

Projections head_backward(MatrixIn X_query, MatrixIn X_memory, const HeadForward& f, MatrixIn dO,
                          double score_divisor) {
  return projections_backward(X_query, X_memory, attention_backward(f.Q, f.K, f.V, f.P, dO, score_divisor));
}

}  // namespace attn::learn
