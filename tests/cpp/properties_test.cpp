// Properties that hold for every input, checked over many random shapes and values drawn with
// the project's own seeded generator (the same numbers natively and in WebAssembly).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "attention_lab.hpp"

namespace attn {
namespace {

constexpr int kRandomCases = 300;

// One random case: shapes from 1 to 12, entries N(0, σ²) with σ itself random (0.1 … 30), so
// that some rows are nearly uniform and others nearly one-hot.
class Cases {
 public:
  explicit Cases(std::uint64_t seed) : random_(seed) {}
  Eigen::Index size(Eigen::Index largest = 12) {
    return 1 + static_cast<Eigen::Index>(random_.uniform() * static_cast<double>(largest));
  }
  Matrix matrix(Eigen::Index rows, Eigen::Index cols) {
    const double spread = 0.1 * std::pow(300.0, random_.uniform());
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = spread * random_.normal();
    return m;
  }
  double uniform() { return random_.uniform(); }
  Mask mask(Eigen::Index rows, Eigen::Index cols) {
    Mask mask(rows, cols);
    for (Eigen::Index i = 0; i < rows; ++i) {
      for (Eigen::Index j = 0; j < cols; ++j) mask(i, j) = random_.uniform() < 0.6;
      mask(i, static_cast<Eigen::Index>(random_.uniform() * static_cast<double>(cols))) = true;  // one key at least
    }
    return mask;
  }

 private:
  Random random_;
};

TEST(Properties, RowsSumToOne) {
  Cases cases(101);
  for (int c = 0; c < kRandomCases; ++c) {
    const Eigen::Index n = cases.size(), m = cases.size(), dk = cases.size();
    AttentionOptions options;
    options.temperature = 0.05 + 5 * cases.uniform();
    if (c % 2 == 1) options.mask = cases.mask(n, m);
    const AttentionResult r = attention(cases.matrix(n, dk), cases.matrix(m, dk), cases.matrix(m, 3), options);
    for (Eigen::Index i = 0; i < n; ++i) {
      EXPECT_NEAR(r.weights.row(i).sum(), 1.0, 1e-14) << "case " << c << ", row " << i;
      for (Eigen::Index j = 0; j < m; ++j) {
        EXPECT_GE(r.weights(i, j), 0.0);
        if (options.mask && !(*options.mask)(i, j)) EXPECT_EQ(r.weights(i, j), 0.0) << "case " << c;
      }
    }
  }
}

TEST(Properties, ColumnSoftmaxColumnsSumToOne) {
  Cases cases(102);
  for (int c = 0; c < kRandomCases; ++c) {
    const Eigen::Index n = cases.size(), m = cases.size();
    const Matrix w = softmax_columns(cases.matrix(n, m), 0.05 + 5 * cases.uniform());
    for (Eigen::Index j = 0; j < m; ++j) EXPECT_NEAR(w.col(j).sum(), 1.0, 1e-14) << "case " << c << ", column " << j;
  }
}

TEST(Properties, InvariantToAConstantAddedToARow) {
  Cases cases(103);
  for (int c = 0; c < kRandomCases; ++c) {
    const Eigen::Index n = cases.size(), m = cases.size();
    const Matrix logits = cases.matrix(n, m);
    const double tau = 0.05 + 5 * cases.uniform();
    Matrix shifted = logits;
    for (Eigen::Index i = 0; i < n; ++i) shifted.row(i).array() += 100 * (cases.uniform() - 0.5);
    const Matrix a = softmax_rows(logits, tau), b = softmax_rows(shifted, tau);
    // The shift moves each logit by a rounding error of its new size, which τ then magnifies.
    const double tolerance = 1e-12 * (1 + 100 / tau);
    EXPECT_LE((a - b).cwiseAbs().maxCoeff(), tolerance) << "case " << c << ", tau " << tau;
  }
}

TEST(Properties, OutputsLieInsideTheValuesRange) {
  Cases cases(104);
  for (int c = 0; c < kRandomCases; ++c) {
    const Eigen::Index n = cases.size(), m = cases.size(), dk = cases.size(), dv = cases.size(6);
    const Matrix V = cases.matrix(m, dv);
    AttentionOptions options;
    options.temperature = 0.05 + 5 * cases.uniform();
    if (c % 3 == 0) options.mask = cases.mask(n, m);
    const AttentionResult r = attention(cases.matrix(n, dk), cases.matrix(m, dk), V, options);
    for (Eigen::Index col = 0; col < dv; ++col) {
      const double lo = V.col(col).minCoeff(), hi = V.col(col).maxCoeff();
      const double slack = 1e-12 * std::max(std::abs(lo), std::abs(hi));
      EXPECT_GE(r.output.col(col).minCoeff(), lo - slack) << "case " << c;
      EXPECT_LE(r.output.col(col).maxCoeff(), hi + slack) << "case " << c;
    }
  }
}

TEST(Properties, OneHeadIsSingleHeadAttention) {
  Cases cases(105);
  for (int c = 0; c < kRandomCases / 3; ++c) {
    const Eigen::Index n = cases.size(), d = cases.size(8);
    const Matrix X = cases.matrix(n, d), WQ = cases.matrix(d, d), WK = cases.matrix(d, d), WV = cases.matrix(d, d),
                 WO = cases.matrix(d, d);
    MultiHeadOptions options;
    options.temperature = 0.5 + cases.uniform();
    const MultiHeadResult multi = multi_head_attention(X, WQ, WK, WV, WO, 1, options);
    AttentionOptions single_options;
    single_options.temperature = options.temperature;
    const AttentionResult single = attention(X * WQ, X * WK, X * WV, single_options);
    ASSERT_EQ(multi.heads.size(), 1u);
    EXPECT_TRUE(multi.heads[0].weights.isApprox(single.weights, 1e-12)) << "case " << c;
    EXPECT_TRUE(multi.concat.isApprox(single.output, 1e-12)) << "case " << c;
    EXPECT_TRUE(multi.output.isApprox(single.output * WO, 1e-12)) << "case " << c;
  }
}

TEST(Properties, TemperatureToZeroIsOneHotWithTiesShared) {
  Cases cases(106);
  for (int c = 0; c < kRandomCases; ++c) {
    const Eigen::Index n = cases.size(), m = cases.size();
    Matrix logits = cases.matrix(n, m);
    // Give some rows a tie for the top: copy the row's largest logit onto another key.
    for (Eigen::Index i = 0; i < n; ++i) {
      if (m > 1 && cases.uniform() < 0.5) {
        Eigen::Index top = 0;
        const double best = logits.row(i).maxCoeff(&top);
        logits(i, (top + 1) % m) = best;
      }
    }
    const Matrix w = softmax_rows(logits, 1e-300);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double best = logits.row(i).maxCoeff();
      const double ties = static_cast<double>((logits.row(i).array() == best).count());
      for (Eigen::Index j = 0; j < m; ++j) {
        EXPECT_EQ(w(i, j), logits(i, j) == best ? 1.0 / ties : 0.0) << "case " << c << " (" << i << ", " << j << ")";
      }
    }
  }
}

TEST(Properties, TemperatureToInfinityIsUniform) {
  Cases cases(107);
  for (int c = 0; c < kRandomCases; ++c) {
    const Eigen::Index n = cases.size(), m = cases.size();
    const Matrix w = softmax_rows(cases.matrix(n, m), 1e300);
    EXPECT_LE((w.array() - 1.0 / static_cast<double>(m)).abs().maxCoeff(), 1e-15) << "case " << c;
  }
}

}  // namespace
}  // namespace attn
