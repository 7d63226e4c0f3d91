// Attention in its forms: direct (float64 and float32), streaming, softmax, the causal mask and
// additive scores. Each export takes one call record (boundary.hpp); its struct below lists the
// fields in the order cpp/bindings/attention-lab.js stages and writes them.
#include <stdexcept>
#include <string>

#include "attention_f32.hpp"
#include "boundary.hpp"
#include "check.hpp"
#include "check_float.hpp"

using namespace attn;
using namespace attn::bindings;

namespace {

// Q, K, V, the mask (0x0 unless mask_kind is 2), then: temperature, scale (0 = √d_k), mask kind,
// axis (1: the softmax over queries, the mistake), output_only (1: list the output alone).
struct AttentionCall {
  MatrixArg q, k, v, mask;
  double tau, scale, mask_kind, axis, output_only;
};
static_assert(fits_call_record<AttentionCall>(), "AttentionCall must fit the call record JS writes");
// The same with key_tile (keys per tile, 0 = the core's default) in place of axis and output_only.
struct StreamingCall {
  MatrixArg q, k, v, mask;
  double tau, scale, mask_kind, key_tile;
};
static_assert(fits_call_record<StreamingCall>(), "StreamingCall must fit the call record JS writes");
struct SoftmaxCall {
  MatrixArg logits, mask;
  double tau, mask_kind;
};
static_assert(fits_call_record<SoftmaxCall>(), "SoftmaxCall must fit the call record JS writes");
struct AdditiveCall {
  MatrixArg q, k, w, u, v;
};
static_assert(fits_call_record<AdditiveCall>(), "AdditiveCall must fit the call record JS writes");

AttentionOptions attention_options(const AttentionCall& c) {
  AttentionOptions options;
  options.temperature = c.tau;
  options.scale = c.scale;
  options.mask = to_mask(c.mask_kind, c.mask, c.q.n_rows(), c.k.n_rows());
  options.axis = c.axis == 1 ? SoftmaxAxis::Queries : SoftmaxAxis::Keys;
  return options;
}

// Mask kind 1 (causal) forms no mask at all.
StreamingOptions streaming_options(const StreamingCall& c) {
  StreamingOptions options;
  options.temperature = c.tau;
  options.scale = c.scale;
  options.causal = c.mask_kind == 1;
  if (c.mask_kind != 1) options.mask = to_mask(c.mask_kind, c.mask, c.q.n_rows(), c.k.n_rows());
  options.key_tile = static_cast<int>(c.key_tile);
  return options;
}

// The four float32 results written side by side into one block (the arena for a page-sized
// call, else one heap block), so that JS copies them out in one piece: one buffer per call, the
// four matrices views of it. The shapes are checked (and the block's size within the work
// budget) before the block is made.
void attention_f32_into_one_block(ConstMapF Q, ConstMapF K, ConstMapF V, const AttentionOptions& options) {
  check::attention_shapes("attention (Q·Kᵀ and weights·V)", Q.rows(), Q.cols(), K.rows(), K.cols(), V.rows(),
                          V.cols(), /*forms_scores=*/true, /*single=*/true);
  const Eigen::Index n = Q.rows(), m = K.rows(), dv = V.cols(), scores = n * m;
  float* room = result_room_f32(3 * static_cast<std::int64_t>(scores) + static_cast<std::int64_t>(n) * dv);
  using MapF = Eigen::Map<MatrixF>;
  attention_into(Q, K, V, options,
                 {MapF(room, n, m), MapF(room + scores, n, m), MapF(room + 2 * scores, n, m), MapF(room + 3 * scores, n, dv)});
  const char* names[] = {"the raw scores Q Kᵀ", "the scaled scores", "the weights"};
  for (int i = 0; i < 3; ++i) list(room + i * scores, n, m, kFloat32, names[i], true);
  list(room + 3 * scores, n, dv, kFloat32, "the output", true);
}

// Lists the four results attention_into wrote from `room` on (n×m three times, then n×dv).
AttentionOut list_attention(double* room, Eigen::Index n, Eigen::Index m, Eigen::Index dv) {
  const Eigen::Index scores = n * m;
  list(room, n, m, kFloat64, "the raw scores Q Kᵀ", true);
  list(room + scores, n, m, kFloat64, "the scaled scores", true);
  list(room + 2 * scores, n, m, kFloat64, "the weights", true);
  list(room + 3 * scores, n, dv, kFloat64, "the output", true);
  return {Eigen::Map<Matrix>(room, n, m), Eigen::Map<Matrix>(room + scores, n, m),
          Eigen::Map<Matrix>(room + 2 * scores, n, m), Eigen::Map<Matrix>(room + 3 * scores, n, dv)};
}

}  // namespace

extern "C" {

// `output_only`: list the output alone (options.results = 'output' in JS), so that a caller who
// wants attention as a layer does copies out n×dv entries, not three n×m matrices besides.
EMSCRIPTEN_KEEPALIVE int al_attention(const AttentionCall* c) {
  return guarded([&] {
    const AttentionOptions options = attention_options(*c);
    const ConstMap Q = c->q.map(), K = c->k.map(), V = c->v.map();
    // The four results side by side in one block, so that JS copies them out in one piece: the
    // arena for a page-sized call, else one heap block, made once the shapes (and the block's
    // size within the work budget) are checked.
    check::attention_shapes("attention (Q·Kᵀ and weights·V)", Q.rows(), Q.cols(), K.rows(), K.cols(), V.rows(),
                            V.cols(), /*forms_scores=*/true, /*single=*/true);
    const std::int64_t n = Q.rows(), m = K.rows(), dv = V.cols();
    attention_into(Q, K, V, options, list_attention(result_room(3 * n * m + n * dv), Q.rows(), K.rows(), V.cols()));
    if (c->output_only != 0) keep_only_last();
  });
}

// The same in float32: Q, K, V as float32 (the mask stays float64 0/1); four float32 results, or
// the output alone. The core refuses inputs whose arithmetic could leave float32's range, so the
// results are finite by construction and need no second look.
EMSCRIPTEN_KEEPALIVE int al_attention_f32(const AttentionCall* c) {
  return guarded([&] {
    const AttentionOptions options = attention_options(*c);
    const ConstMapF Q = c->q.map_f32(), K = c->k.map_f32(), V = c->v.map_f32();
    if (c->output_only != 0) {
      keep_f32(attention_output(Q, K, V, options), "the output", /*checked=*/true);
    } else {
      attention_f32_into_one_block(Q, K, V, options);
    }
  });
}

// Streaming attention: one result, the output.
EMSCRIPTEN_KEEPALIVE int al_streaming_attention(const StreamingCall* c) {
  return guarded([&] {
    keep(streaming_attention(c->q.map(), c->k.map(), c->v.map(), streaming_options(*c)), "the output");
  });
}

EMSCRIPTEN_KEEPALIVE int al_streaming_attention_f32(const StreamingCall* c) {
  return guarded([&] {
    keep_f32(streaming_attention(c->q.map_f32(), c->k.map_f32(), c->v.map_f32(), streaming_options(*c)), "the output");
  });
}

EMSCRIPTEN_KEEPALIVE int al_softmax(const SoftmaxCall* c) {
  return guarded([&] {
    const ConstMap logits = c->logits.map();
    keep(softmax_rows(logits, c->tau, to_mask(c->mask_kind, c->mask, logits.rows(), logits.cols())), "the weights");
  });
}

EMSCRIPTEN_KEEPALIVE int al_causal_mask(int n, int m) {
  return guarded([&] { keep(causal_mask(n, m).cast<double>(), "the mask"); });
}

EMSCRIPTEN_KEEPALIVE int al_additive_scores(const AdditiveCall* c) {
  return guarded([&] {
    if (c->v.rows != 1) throw std::invalid_argument("v must be 1xd_a, got " + check::shape(c->v.n_rows(), c->v.n_cols()));
    const Vector v_col = c->v.map().row(0).transpose();
    keep(additive_scores(c->q.map(), c->k.map(), c->w.map(), c->u.map(), v_col), "the scores");
  });
}

}  // extern "C"
