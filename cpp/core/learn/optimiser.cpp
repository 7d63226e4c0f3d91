#include "learn/optimiser.hpp"

#include <stdexcept>
#include <string>

#include "check.hpp"

namespace attn::learn {
namespace {

void check_shape(const char* name, const Matrix& w, const Matrix& dw) {
  if (w.rows() != dw.rows() || w.cols() != dw.cols()) {
    throw std::invalid_argument(std::string("gradient of ") + name + " (" + check::shape_of(dw) +
                                ") must have the weight's shape " + check::shape_of(w));
  }
}

}  // namespace

void sgd_step(Projections& weights, const Projections& gradients, double learning_rate) {
  check::positive_finite("learning rate", learning_rate);
  // Every check before any change, so a refused step leaves the weights as they were.
  check_shape("W_Q", weights.W_Q, gradients.W_Q);
  check_shape("W_K", weights.W_K, gradients.W_K);
  check_shape("W_V", weights.W_V, gradients.W_V);
  weights.W_Q -= learning_rate * gradients.W_Q;
  weights.W_K -= learning_rate * gradients.W_K;
  weights.W_V -= learning_rate * gradients.W_V;
}

}  // namespace attn::learn
