// Multi-head attention, self and cross: one export over one call record (boundary.hpp).
#include "boundary.hpp"

using namespace attn;
using namespace attn::bindings;

namespace {

// Xq, Xkv (self-attention passes X twice: the core's self form is the cross form with Xkv = X),
// W_Q, W_K, W_V, W_O, the mask (0x0 unless mask_kind is 2), then: heads, temperature, mask kind,
// scale_by_model (1: divide by √d_model, the mistake).
struct MultiHeadCall {
  MatrixArg xq, xkv, wq, wk, wv, wo, mask;
  double heads, tau, mask_kind, scale_by_model;
};
static_assert(fits_call_record<MultiHeadCall>(), "MultiHeadCall must fit the call record JS writes");

// Lists multi_head_into's results, in the order of MultiHeadLayout.
void list_multi_head(const double* room, const MultiHeadLayout& layout) {
  const Eigen::Index n = layout.n, m = layout.m, w = layout.width();
  for (Eigen::Index s = 0; s < layout.heads; ++s) {
    list(room, n, m, kFloat64, "the raw scores Q Kᵀ", true);
    list(room + n * m, n, m, kFloat64, "the scaled scores", true);
    list(room + 2 * n * m, n, m, kFloat64, "the weights", true);
    list(room + 3 * n * m, n, w, kFloat64, "the output", true);
    room += layout.head_entries();
  }
  list(room, n, layout.d, kFloat64, "the heads' outputs side by side", true);
  list(room + n * layout.d, n, layout.d, kFloat64, "the output concat · W_O", true);
}

}  // namespace

extern "C" EMSCRIPTEN_KEEPALIVE int al_multi_head(const MultiHeadCall* c) {
  return guarded([&] {
    MultiHeadOptions options;
    options.temperature = c->tau;
    options.mask = to_mask(c->mask_kind, c->mask, c->xq.n_rows(), c->xkv.n_rows());
    options.scale = c->scale_by_model == 1 ? HeadScale::ModelWidth : HeadScale::HeadWidth;
    const ConstMap Xq = c->xq.map(), Xkv = c->xkv.map();
    const ConstMap WQ = c->wq.map(), WK = c->wk.map(), WV = c->wv.map(), WO = c->wo.map();
    const int heads = static_cast<int>(c->heads);
    // The layout is checked (shapes, work budget) before any room is taken for it.
    const MultiHeadLayout layout = multi_head_layout(Xq, Xkv, WQ, WK, WV, WO, heads, options);
    double* room = result_room(layout.entries());
    multi_head_into(Xq, Xkv, WQ, WK, WV, WO, heads, options, room);
    list_multi_head(room, layout);
  });
}
