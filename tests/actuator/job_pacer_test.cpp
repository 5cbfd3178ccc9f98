#include "actuator/job_pacer.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "tests/actuator/job_fixture.hpp"

// Pacing inside a job: the rate limit on the injected clock, cancel and the deadline.

namespace nb::actuator {
namespace {

using testing::kPage;

class JobPacing : public testing::JobFixture {};

TEST_F(JobPacing, RateLimitPacesMovesOnTheInjectedClock) {
  add_process(100, 1024);  // 4 MiB
  options.rate_limit_mib_per_s = 1;
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 4 * kMiB);
  // The first 100 ms of burst is free; the other 3.9 MiB take 3.9 s.
  EXPECT_GE(report.elapsed, std::chrono::milliseconds(3800));
  EXPECT_LE(report.rate_mib_per_s(), 1.06);
  EXPECT_GT(memory.slept.count(), 0);
}

TEST_F(JobPacing, UnlimitedRateNeverSleeps) {
  add_process(100, 1024);
  run({target(100)});
  EXPECT_EQ(memory.slept.count(), 0);
}

TEST_F(JobPacing, CancelIsHonouredBetweenBatchesAndReportsWhatMoved) {
  add_process(100, 1000);
  memory.cost_per_page = std::chrono::microseconds(100);  // 200-page batches
  memory.cancel_flag = &cancel;
  memory.cancel_after_moves = 2;
  auto report = run({target(100)});
  EXPECT_EQ(report.stop_reason, StopReason::cancelled);
  EXPECT_EQ(memory.move_calls, 2);
  EXPECT_GT(report.bytes_moved(), 0);
  EXPECT_LT(report.bytes_moved(), 1000 * kPage);
  EXPECT_EQ(report.bytes_moved(), memory.bytes_on(100, 1));
}

TEST_F(JobPacing, CancelBeforePlanningEndsTheJobWithoutReadingAnyProcess) {
  add_process(100, 1000);
  add_process(101, 1000);
  cancel = true;
  auto report = run({target(100), target(101)});
  EXPECT_EQ(report.stop_reason, StopReason::cancelled);
  EXPECT_EQ(memory.pidfd_opens, 0) << "planning read a process after the cancel";
  EXPECT_EQ(memory.move_calls, 0);
  EXPECT_EQ(report.bytes_moved(), 0);
}

TEST_F(JobPacing, DeadlineStopsTheJobBetweenBatches) {
  add_process(100, 10000);
  memory.cost_per_page = std::chrono::microseconds(100);
  options.deadline = std::chrono::milliseconds(100);
  auto report = run({target(100)});
  EXPECT_EQ(report.stop_reason, StopReason::deadline);
  EXPECT_GT(report.bytes_moved(), 0);
  EXPECT_LT(report.bytes_moved(), 10000 * kPage);
  EXPECT_LT(report.elapsed, std::chrono::milliseconds(130));
}

// The pacer on its own, over the fake kernel's clock.
class Pacer : public testing::JobFixture {
 protected:
  JobLedger ledger{10 * kMiB};
};

TEST_F(Pacer, CancelComesFirstAndTheFirstReasonStays) {
  options.deadline = std::chrono::milliseconds(0);
  cancel = true;
  JobPacer pacer(options, memory, cancel, ledger, memory.now());
  EXPECT_TRUE(pacer.should_stop());
  EXPECT_EQ(pacer.stop_reason(), StopReason::cancelled);
  cancel = false;
  EXPECT_TRUE(pacer.should_stop());
  EXPECT_EQ(pacer.stop_reason(), StopReason::cancelled);
}

TEST_F(Pacer, StopsAtTheDeadlineAndAtTheBudget) {
  options.deadline = std::chrono::milliseconds(100);
  JobPacer late(options, memory, cancel, ledger, memory.now());
  EXPECT_FALSE(late.should_stop());
  memory.sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(late.should_stop());
  EXPECT_EQ(late.stop_reason(), StopReason::deadline);

  JobPacer full(options, memory, cancel, ledger, memory.now());
  ProcessReport process;
  ledger.record_moved(1, 10 * kMiB, 2560, process);
  EXPECT_TRUE(full.should_stop());
  EXPECT_EQ(full.stop_reason(), StopReason::budget_met);
}

TEST_F(Pacer, DebtIsSleptOffInShortStepsAtTheRate) {
  options.rate_limit_mib_per_s = 1;  // a burst of 100 ms: 0.1 MiB
  JobPacer pacer(options, memory, cancel, ledger, memory.now());
  EXPECT_TRUE(pacer.wait_for_tokens(kMiB));
  EXPECT_GE(memory.slept, std::chrono::milliseconds(890));
  EXPECT_LE(memory.slept, std::chrono::milliseconds(910));
  EXPECT_FALSE(pacer.stop_reason().has_value());
}

TEST_F(Pacer, WaitingEndsAtTheDeadlineWithoutSleepingPastIt) {
  options.rate_limit_mib_per_s = 1;
  options.deadline = std::chrono::milliseconds(120);
  JobPacer pacer(options, memory, cancel, ledger, memory.now());
  EXPECT_FALSE(pacer.wait_for_tokens(kMiB));
  EXPECT_EQ(pacer.stop_reason(), StopReason::deadline);
  EXPECT_EQ(memory.slept, std::chrono::milliseconds(150));  // three steps of 50 ms
}

}  // namespace
}  // namespace nb::actuator
