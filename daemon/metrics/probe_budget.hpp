#pragma once
// The probe's CPU budget. After work that started at `start` and cost `cpu` of CPU time, the next
// work may start no sooner than start + cpu / fraction, and no sooner than start + interval.
// So at the start of any work the CPU time spent so far is at most fraction x the wall time since
// the first work began: the buffers' one-off set-up is paid back by a longer first pause instead
// of being ignored.

#include <chrono>
#include <optional>

#include "daemon/metrics/clock.hpp"

namespace nb::metrics {

class ProbeBudget {
 public:
  ProbeBudget(double fraction, std::chrono::nanoseconds interval);

  // Records one piece of work; returns when the next may start.
  SteadyTime charge(SteadyTime start, std::chrono::nanoseconds cpu);

  std::chrono::nanoseconds cpu_used() const { return cpu_used_; }
  // CPU time over wall time since the first charge's start; 0 before any.
  double used_fraction(SteadyTime now) const;

 private:
  double fraction_;
  std::chrono::nanoseconds interval_;
  std::chrono::nanoseconds cpu_used_{0};
  std::optional<SteadyTime> first_start_;
};

}  // namespace nb::metrics
