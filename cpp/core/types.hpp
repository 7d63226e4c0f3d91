// Shared shapes of the attention core.
//
// Shape letters, used throughout:
//   n  queries (rows of Q)          m  keys and values (rows of K and V)
//   dk key/query width              dv value width
//   d  model width d_model          h  number of heads
#pragma once

#include <Eigen/Dense>

namespace attn {

// Row-major so that one row is one token, matching how the page and JS lay data out.
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXd;
using RowVector = Eigen::RowVectorXd;
// A mask marks which (query, key) pairs may attend: true = allowed.
using Mask = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using IndexVector = Eigen::Matrix<Eigen::Index, Eigen::Dynamic, 1>;

using MatrixIn = const Eigen::Ref<const Matrix>&;
using VectorIn = const Eigen::Ref<const Vector>&;
using MaskIn = const Eigen::Ref<const Mask>&;

// The float32 twins, for the fast path (WebAssembly SIMD has 4 float32 lanes, 2 float64 ones).
// The float64 types above stay the reference: the lesson's exact numbers are computed in them.
using MatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatrixFIn = const Eigen::Ref<const MatrixF>&;

}  // namespace attn
