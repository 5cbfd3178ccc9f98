#include "daemon/metrics/clock.hpp"

#include <thread>

namespace nb::metrics {
namespace {

class SteadyClock final : public Clock {
 public:
  SteadyTime now() const override { return std::chrono::steady_clock::now(); }
  void sleep_for(std::chrono::nanoseconds span) override { std::this_thread::sleep_for(span); }
};

}  // namespace

Clock& steady_clock() {
  static SteadyClock clock;
  return clock;
}

}  // namespace nb::metrics
