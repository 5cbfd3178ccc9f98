#pragma once
// Monotonic time and sleeping, so that windows and the probe's schedule run on a fake in tests.
// Snapshot time (TimePoint) still comes from the caller; this clock only measures spans.

#include <chrono>

namespace nb::metrics {

using SteadyTime = std::chrono::steady_clock::time_point;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual SteadyTime now() const = 0;
  virtual void sleep_for(std::chrono::nanoseconds span) = 0;
};

// The process's steady clock; shared, stateless.
Clock& steady_clock();

}  // namespace nb::metrics
