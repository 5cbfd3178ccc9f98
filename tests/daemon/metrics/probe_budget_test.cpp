#include "daemon/metrics/probe_budget.hpp"

#include <gtest/gtest.h>

#include "tests/daemon/metrics/fake_clock.hpp"

namespace nb::metrics {
namespace {

using namespace std::chrono_literals;
using testing::FakeClock;

TEST(ProbeBudget, CheapSamplesRunAtTheSampleInterval) {
  FakeClock clock;
  ProbeBudget budget(0.005, 1s);
  auto start = clock.now();
  // 100 us of CPU needs only 20 ms of pause at 0.5%: the interval decides.
  EXPECT_EQ(budget.charge(start, 100us), start + 1s);
}

TEST(ProbeBudget, CostlyWorkIsPaidBackByALongerPause) {
  FakeClock clock;
  ProbeBudget budget(0.005, 1s);
  auto start = clock.now();
  // Building the buffers took 50 ms of CPU: at 0.5% of a core that is 10 s of wall time.
  EXPECT_EQ(budget.charge(start, 50ms), start + 10s);
}

TEST(ProbeBudget, CpuUsedNeverExceedsTheBudgetAtTheStartOfWork) {
  // A schedule driven by the budget itself, with costs that vary from cheap to costly.
  FakeClock clock;
  const double fraction = 0.01;
  ProbeBudget budget(fraction, 100ms);
  const std::chrono::nanoseconds costs[] = {40ms, 200us, 3ms, 150us, 12ms, 1ms, 80us, 5ms};
  auto first = clock.now();
  std::chrono::nanoseconds spent{0};
  for (auto cost : costs) {
    std::chrono::duration<double> wall = clock.now() - first;
    EXPECT_LE(std::chrono::duration<double>(spent).count(), fraction * wall.count() + 1e-12);
    auto start = clock.now();
    clock.advance(cost);  // the work itself
    spent += cost;
    auto next = budget.charge(start, cost);
    EXPECT_GE(next, start + 100ms);
    clock.advance(next - clock.now());
  }
  EXPECT_EQ(budget.cpu_used(), spent);
  EXPECT_LE(budget.used_fraction(clock.now()), fraction);
}

TEST(ProbeBudget, UsedFractionIsCpuOverWallSinceTheFirstWork) {
  FakeClock clock;
  ProbeBudget budget(0.5, 1s);
  EXPECT_EQ(budget.used_fraction(clock.now()), 0);
  auto start = clock.now();
  budget.charge(start, 100ms);
  clock.advance(400ms);
  EXPECT_DOUBLE_EQ(budget.used_fraction(clock.now()), 0.25);
}

}  // namespace
}  // namespace nb::metrics
