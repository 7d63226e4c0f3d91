// Scaled dot-product attention in float32: softmax(Q Kᵀ / (τ·scale)) V, the fast twin of
// attention.hpp's float64 form (same options, same errors, results within 1e-5 of it relative to
// each matrix's largest entry). The page's exact numbers stay in float64; float32 is for speed,
// where WebAssembly SIMD computes 4 lanes at once.
#pragma once

#include "attention.hpp"
#include "kernels.hpp"
#include "types.hpp"

namespace attn {

struct AttentionResultF {
  MatrixF raw_scores;     // n×m  Q Kᵀ
  MatrixF scaled_scores;  // n×m  Q Kᵀ / scale
  MatrixF weights;        // n×m  softmax of scaled_scores / τ
  MatrixF output;         // n×dv weights · V
};

// Q (n×dk), K (m×dk), V (m×dv). Refuses what the float64 form refuses, plus inputs whose scores
// could leave float32's range, and n·m over limits::kMaxEntries.
AttentionResultF attention(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options = {});

// The same with a chosen kernel set: tests and benchmarks compare the implementations with it.
AttentionResultF attention(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options,
                           const kernels::Kernels<float>& kernels);

// Where attention_into writes its four results: any row-major storage of the right shapes (the
// matrices of an AttentionResultF, or one buffer mapped as four matrices at the boundary).
using MatrixFOut = Eigen::Ref<MatrixF>;
struct AttentionOutF {
  MatrixFOut raw_scores;     // n×m
  MatrixFOut scaled_scores;  // n×m
  MatrixFOut weights;        // n×m
  MatrixFOut output;         // n×dv
};

// The same as attention(…), written into `out` instead of new matrices: the same numbers, bit for
// bit. The work runs over blocks of query rows (scores, scaling, softmax and output of a block
// while its rows are still in cache), so no n×m matrix is swept more than once after it is formed.
void attention_into(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options, AttentionOutF out,
                    const kernels::Kernels<float>& kernels = kernels::best_f32());

// The output alone, weights · V (n×dv): the same numbers as attention(…).output within 1e-5, for
// callers that want attention as a layer does, not as the page shows it. It keeps one block of
// query rows' scores (overwritten in place by their weights) instead of three n×m matrices, and
// hands back only the n×dv output.
MatrixF attention_output(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options = {});
MatrixF attention_output(MatrixFIn Q, MatrixFIn K, MatrixFIn V, const AttentionOptions& options,
                         const kernels::Kernels<float>& kernels);

}  // namespace attn
