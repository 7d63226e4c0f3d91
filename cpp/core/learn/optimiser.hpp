// Plain stochastic gradient descent: W ← W − η·dW for each projection. No momentum and no
// Adam on purpose: Adam divides each gradient by its running size, which would rescale the
// unscaled head's tiny gradients back up and hide the very effect the figure shows.
#pragma once

#include "learn/attention_backward.hpp"

namespace attn::learn {

// η must be positive and finite; the gradients must have the weights' shapes.
void sgd_step(Projections& weights, const Projections& gradients, double learning_rate);

}  // namespace attn::learn
