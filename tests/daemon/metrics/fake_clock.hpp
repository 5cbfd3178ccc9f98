#pragma once
// A clock that only moves when slept on; a hook runs on each sleep so that a test can change
// the counters "during" the window.

#include <chrono>
#include <functional>
#include <vector>

#include "daemon/metrics/clock.hpp"

namespace nb::metrics::testing {

class FakeClock final : public Clock {
 public:
  SteadyTime now() const override { return now_; }
  void sleep_for(std::chrono::nanoseconds span) override {
    sleeps.push_back(span);
    now_ += span;
    if (on_sleep) {
      on_sleep();
    }
  }
  void advance(std::chrono::nanoseconds span) { now_ += span; }

  std::vector<std::chrono::nanoseconds> sleeps;
  std::function<void()> on_sleep;

 private:
  SteadyTime now_{std::chrono::hours(1)};
};

}  // namespace nb::metrics::testing
