#include "actuator/job_ledger.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>

namespace nb::actuator {
namespace {

constexpr Bytes kPage = 4 * kKiB;

TEST(JobLedger, MovedBytesArePlacedAndCountAgainstBudgetAndTarget) {
  JobLedger ledger(100 * kPage);
  ledger.start_target("pod");
  ProcessReport process;
  ledger.record_moved(1, 10 * kPage, 10, process);
  ledger.record_moved(2, 5 * kPage, 5, process);
  EXPECT_EQ(process.bytes_moved_to.at(1), 10 * kPage);
  EXPECT_EQ(process.bytes_moved_to.at(2), 5 * kPage);
  EXPECT_EQ(process.outcomes.moved, 15);
  EXPECT_EQ(ledger.moved(), 15 * kPage);
  EXPECT_EQ(ledger.placed(), 15 * kPage);
  EXPECT_EQ(ledger.remaining(kUnlimitedBudget), 85 * kPage);
  EXPECT_EQ(ledger.remaining(20 * kPage), 5 * kPage);
  EXPECT_FALSE(ledger.budget_met());
}

TEST(JobLedger, NothingMovedIsNotRecorded) {
  JobLedger ledger(kUnlimitedBudget);
  ProcessReport process;
  ledger.record_moved(1, 0, 0, process);
  EXPECT_TRUE(process.bytes_moved_to.empty());
  EXPECT_EQ(ledger.moved(), 0);
}

TEST(JobLedger, PagesAlreadyInPlaceArePlacedNotMoved) {
  JobLedger ledger(10 * kPage);
  ProcessReport process;
  ledger.record_already(10 * kPage, 10, process);
  EXPECT_EQ(process.bytes_already_on_destination, 10 * kPage);
  EXPECT_EQ(process.outcomes.already_on_destination, 10);
  EXPECT_EQ(ledger.moved(), 0);
  EXPECT_EQ(ledger.placed(), 10 * kPage);
  EXPECT_TRUE(ledger.budget_met());
}

TEST(JobLedger, ADryRunsFindingsCountAgainstTheBudget) {
  JobLedger ledger(10 * kPage);
  ledger.record_found(4 * kPage);
  EXPECT_EQ(ledger.moved(), 0);
  EXPECT_EQ(ledger.placed(), 4 * kPage);
  EXPECT_EQ(ledger.remaining(kUnlimitedBudget), 6 * kPage);
}

TEST(JobLedger, EachTargetStartsItsCapAfresh) {
  JobLedger ledger(kUnlimitedBudget);
  ProcessReport process;
  ledger.start_target("a");
  ledger.record_moved(1, 8 * kPage, 8, process);
  EXPECT_EQ(ledger.remaining(10 * kPage), 2 * kPage);
  ledger.start_target("b");
  EXPECT_EQ(ledger.remaining(10 * kPage), 10 * kPage);
  EXPECT_EQ(ledger.placed(), 8 * kPage);
}

TEST(JobLedger, CallsCountAndKeepTheLongest) {
  JobLedger ledger(kUnlimitedBudget);
  ProcessReport process;
  ledger.record_call(std::chrono::milliseconds(3), process);
  ledger.record_call(std::chrono::milliseconds(7), process);
  ledger.record_call(std::chrono::milliseconds(1), process);
  EXPECT_EQ(process.syscalls, 3);
  EXPECT_EQ(process.longest_call, std::chrono::milliseconds(7));
}

TEST(JobLedger, ErrorsNameTheCurrentContainerAndCarryAHint) {
  JobLedger ledger(kUnlimitedBudget);
  ledger.start_target("pod");
  ledger.add_error(EPERM, "migrate_pages 42", 42);
  ASSERT_EQ(ledger.report().errors.size(), 1u);
  const auto& error = ledger.report().errors[0];
  EXPECT_EQ(error.container_id, "pod");
  EXPECT_EQ(error.pid, 42);
  EXPECT_EQ(error.code, EPERM);
  EXPECT_EQ(error.message, "migrate_pages 42");
  EXPECT_NE(error.hint.find("CAP_SYS_NICE"), std::string::npos);
}

TEST(JobLedger, ProgressSaysWhoIsMovingAndAtWhatRate) {
  JobLedger ledger(kUnlimitedBudget);
  ledger.report().goal = 4 * kMiB;
  ledger.start_target("pod");
  ledger.start_process(42);
  ProcessReport process;
  ledger.record_moved(1, 2 * kMiB, 512, process);
  ledger.record_already(kMiB, 256, process);
  auto progress = ledger.progress(std::chrono::milliseconds(500));
  EXPECT_EQ(progress.moved, 2 * kMiB);
  EXPECT_EQ(progress.placed, 3 * kMiB);
  EXPECT_EQ(progress.goal, 4 * kMiB);
  EXPECT_DOUBLE_EQ(progress.rate_mib_per_s, 4.0);
  EXPECT_EQ(progress.container_id, "pod");
  EXPECT_EQ(progress.pid, 42);
  EXPECT_EQ(ledger.progress(Nanoseconds{0}).rate_mib_per_s, 0);
}

}  // namespace
}  // namespace nb::actuator
