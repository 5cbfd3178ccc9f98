#pragma once
// Deterministic relative noise on reported metrics: the same seed gives the same numbers on
// every machine. mt19937_64 is fully specified by the standard; the Gaussian is drawn here
// (Box-Muller) rather than by std::normal_distribution, whose algorithm the library chooses.

#include <cstdint>
#include <random>

namespace nb::sim {

class Noise {
 public:
  Noise(std::uint64_t seed, double relative) : engine_(seed), relative_(relative) {}

  // `value` x (1 + relative x a standard normal draw), at least 1 % of `value`; `value` itself
  // when the noise is 0.
  double apply(double value);

 private:
  double uniform();

  std::mt19937_64 engine_;
  double relative_ = 0;
};

}  // namespace nb::sim
