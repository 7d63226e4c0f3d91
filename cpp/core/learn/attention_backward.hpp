// One attention head with its three projections, as a forward/backward pair.
//
// Shapes, for one sequence:
//   X_q  n×d    the tokens that ask (queries)      X_m  m×d   the tokens asked (memory)
//   W_Q  d×dk   W_K  d×dk   W_V  d×dv
//   Q = X_q W_Q   n×dk        K = X_m W_K   m×dk        V = X_m W_V   m×dv
//   S = Q Kᵀ / s  n×m         P = softmax_rows(S)  n×m  O = P V       n×dv
// s is the score divisor: √dk for the scaled head, 1 for the unscaled one.
// Self-attention passes the same tokens as X_q and X_m.
#pragma once

#include "types.hpp"

namespace attn::learn {

struct Projections {
  Matrix W_Q;  // d×dk
  Matrix W_K;  // d×dk
  Matrix W_V;  // d×dv
};

// Everything the backward pass needs from the forward pass.
struct HeadForward {
  Matrix Q;  // n×dk
  Matrix K;  // m×dk
  Matrix V;  // m×dv
  Matrix P;  // n×m   the attention weights
  Matrix O;  // n×dv  the output
};

HeadForward head_forward(MatrixIn X_query, MatrixIn X_memory, const Projections& w, double score_divisor);

struct AttentionGradients {
  Matrix dQ;  // n×dk
  Matrix dK;  // m×dk
  Matrix dV;  // m×dv
};

// Given dO = dL/dO (n×dv), back through O = P V, the row-wise softmax and the divisor:
//   dV = Pᵀ dO                         dP = dO Vᵀ
//   dS = P ∘ (dP − rowsum(dP ∘ P))     (the softmax's Jacobian, one row at a time)
//   dQ = dS K / s                      dK = dSᵀ Q / s
AttentionGradients attention_backward(MatrixIn Q, MatrixIn K, MatrixIn V, MatrixIn P, MatrixIn dO,
                                      double score_divisor);

// And on to the projections: dW_Q = X_qᵀ dQ, dW_K = X_mᵀ dK, dW_V = X_mᵀ dV.
Projections projections_backward(MatrixIn X_query, MatrixIn X_memory, const AttentionGradients& g);

// Both steps for one sequence: the gradients of the three projections given dL/dO.
Projections head_backward(MatrixIn X_query, MatrixIn X_memory, const HeadForward& f, MatrixIn dO,
                          double score_divisor);

}  // namespace attn::learn
