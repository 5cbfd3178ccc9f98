#include "daemon/metrics/probe_budget.hpp"

#include <algorithm>

namespace nb::metrics {

ProbeBudget::ProbeBudget(double fraction, std::chrono::nanoseconds interval)
    : fraction_(fraction), interval_(interval) {}

SteadyTime ProbeBudget::charge(SteadyTime start, std::chrono::nanoseconds cpu) {
  if (!first_start_) {
    first_start_ = start;
  }
  cpu_used_ += cpu;
  if (fraction_ <= 0) {
    return start + interval_;  // validation forbids it; never divide by it
  }
  auto payback = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double, std::nano>(static_cast<double>(cpu.count()) / fraction_));
  return start + std::max(interval_, payback);
}

double ProbeBudget::used_fraction(SteadyTime now) const {
  if (!first_start_ || now <= *first_start_) {
    return 0;
  }
  std::chrono::duration<double> wall = now - *first_start_;
  std::chrono::duration<double> cpu = cpu_used_;
  return cpu.count() / wall.count();
}

}  // namespace nb::metrics
