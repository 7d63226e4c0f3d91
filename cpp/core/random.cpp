#include "random.hpp"

#include "check.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attn {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

constexpr double kTwoPi = 6.283185307179586476925286766559;

// The ziggurat's 128 layers of equal area V under exp(−x²/2), the base layer (the tail beyond
// R included) first. edge[i] is the right edge of layer i (edge[0] = V / f(R), wider than R,
// so that the base rectangle plus the tail has area V); inside[i] = edge[i + 1] / edge[i] is the
// share of layer i lying wholly under the curve.
constexpr int kLayers = 128;
constexpr double kTailStart = 3.442619855899;       // R
constexpr double kLayerArea = 9.91256303526217e-3;  // V

struct ZigguratTables {
  double edge[kLayers + 1];
  double inside[kLayers];
  ZigguratTables() {
    double density = std::exp(-0.5 * kTailStart * kTailStart);
    edge[0] = kLayerArea / density;
    edge[1] = kTailStart;
    edge[kLayers] = 0;
    for (int i = 2; i < kLayers; ++i) {
      edge[i] = std::sqrt(-2.0 * std::log(kLayerArea / edge[i - 1] + density));
      density = std::exp(-0.5 * edge[i] * edge[i]);
    }
    for (int i = 0; i < kLayers; ++i) inside[i] = edge[i + 1] / edge[i];
  }
};

const ZigguratTables& ziggurat() {
  static const ZigguratTables tables;
  return tables;
}

}  // namespace

Random::Random(std::uint64_t seed) {
  for (auto& word : state_) word = splitmix64(seed);
}

std::uint64_t Random::next_u64() {
  const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

double Random::uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double Random::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_normal_;
  }
  // 1 − u lies in (0, 1], so the logarithm is finite.
  const double radius = std::sqrt(-2.0 * std::log(1.0 - uniform()));
  const double angle = kTwoPi * uniform();
  spare_normal_ = radius * std::sin(angle);
  has_spare_ = true;
  return radius * std::cos(angle);
}

double Random::normal_ziggurat() {
  const ZigguratTables& z = ziggurat();
  for (;;) {
    // One 64-bit draw: its top 53 bits for u in [−1, 1), its low 7 bits for the layer.
    const std::uint64_t bits = next_u64();
    const double u = 2.0 * (static_cast<double>(bits >> 11) * 0x1.0p-53) - 1.0;
    const int layer = static_cast<int>(bits & (kLayers - 1));
    if (std::fabs(u) < z.inside[layer]) return u * z.edge[layer];  // wholly under the curve
    if (layer == 0) {
      // The tail beyond R (Marsaglia 1964); 1 − uniform() lies in (0, 1], so logs are finite.
      double x = 0;
      double y = 0;
      do {
        x = std::log(1.0 - uniform()) / kTailStart;
        y = std::log(1.0 - uniform());
      } while (-2.0 * y < x * x);
      return u < 0 ? x - kTailStart : kTailStart - x;
    }
    // The wedge between the layer's inner and outer edge: accept under the curve.
    const double x = u * z.edge[layer];
    const double outer = std::exp(-0.5 * (z.edge[layer] * z.edge[layer] - x * x));
    const double inner = std::exp(-0.5 * (z.edge[layer + 1] * z.edge[layer + 1] - x * x));
    if (inner + uniform() * (outer - inner) < 1.0) return x;
  }
}

double Random::gamma(double shape) {
  if (!(shape >= 1.0) || !std::isfinite(shape)) {
    throw std::invalid_argument("gamma shape must be a finite number >= 1, got " + check::number(shape));
  }
  // Marsaglia & Tsang (2000): accept d·v for v = (1 + c·x)³ with x normal.
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0;
    double v = 0;
    do {
      x = normal();
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = 1.0 - uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

double Random::chi_square(double degrees_of_freedom) { return 2.0 * gamma(0.5 * degrees_of_freedom); }

}  // namespace attn
