// Functions of one or two matrices: row statistics, sums, differences, the gradient factor, the
// softmax Jacobian, the product. Most are one line: see AL_EXPORT_MATRIX_TO_MATRIX and
// AL_EXPORT_MATRIX_TO_ROWS in boundary.hpp.
#include <stdexcept>

#include "boundary.hpp"
#include "budget.hpp"
#include "check.hpp"

using namespace attn;
using namespace attn::bindings;

// Three 1×n rows: entropy, largest weight, its index.
AL_EXPORT_MATRIX_TO_ROWS(al_row_stats, row_stats, &RowStats::entropy, "the entropy", &RowStats::largest,
                         "the largest weight", &RowStats::argmax, "the index of the largest weight")
// Two rows: the row sums, the column sums.
AL_EXPORT_MATRIX_TO_ROWS(al_sums, sums, &Sums::rows, "the row sums", &Sums::cols, "the column sums")
AL_EXPORT_MATRIX_TO_MATRIX(al_gradient_factor, gradient_factor, "the gradient factor")
AL_EXPORT_MATRIX_TO_MATRIX(al_softmax_jacobian, softmax_jacobian, "the Jacobian")

namespace {
struct ScoresCall {
  MatrixArg scores;
  double tau;
};
static_assert(fits_call_record<ScoresCall>(), "ScoresCall must fit the call record JS writes");
}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int al_log_gradient_factor(const ScoresCall* c) {
  return guarded([&] { keep(log_gradient_factor(c->scores.map(), c->tau), "ln p(1 − p)"); });
}

// One 1×1 result.
EMSCRIPTEN_KEEPALIVE int al_max_abs_difference(const TwoMatricesCall* c) {
  return guarded([&] {
    Matrix difference(1, 1);
    difference(0, 0) = max_abs_difference(c->a.map(), c->b.map());
    keep(std::move(difference), "the largest difference");
  });
}

EMSCRIPTEN_KEEPALIVE int al_matmul(const TwoMatricesCall* c) {
  return guarded([&] {
    const ConstMap A = c->a.map(), B = c->b.map();
    if (A.cols() != B.rows()) {
      throw std::invalid_argument("A (" + check::shape_of(A) + ") and B (" + check::shape_of(B) +
                                  ") cannot be multiplied: A's columns must equal B's rows");
    }
    budget::matrix("the product A·B", A.rows(), B.cols());
    budget::multiply_adds("the product A·B", budget::product({A.rows(), A.cols(), B.cols()}));
    check::all_finite("A", A);
    check::all_finite("B", B);
    keep(A * B, "the product A·B");
  });
}

}  // extern "C"
