#include "daemon/sim/noise.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace nb::sim {

double Noise::uniform() {
  // 53 random bits in (0, 1]: never 0, whose logarithm Box-Muller would take.
  return (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53;
}

double Noise::apply(double value) {
  if (relative_ <= 0) {
    return value;
  }
  const double normal =
      std::sqrt(-2.0 * std::log(uniform())) * std::cos(2.0 * std::numbers::pi * uniform());
  // A reading never turns negative, however wide the noise.
  return value * std::max(0.01, 1.0 + relative_ * normal);
}

}  // namespace nb::sim
