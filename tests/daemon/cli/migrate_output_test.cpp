// What `numabalancerd migrate` prints at the end: a real run says where its bytes went and
// whether the threshold was met; a dry run says what it would move and claims no threshold.

#include "daemon/cli/migrate_output.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace nb::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

actuator::MigrationReport report_of(bool dry_run, std::map<NodeId, Bytes> moved_to) {
  actuator::ProcessReport process;
  process.pid = 42;
  process.bytes_on_source = 48 * kMiB;
  process.bytes_moved_to = std::move(moved_to);
  actuator::ContainerReport container;
  container.id = "pid 42";
  container.processes = {process};
  actuator::MigrationReport report;
  report.source_node = 1;
  report.dest_nodes = {0, 2};
  report.dry_run = dry_run;
  report.goal = 32 * kMiB;
  report.threshold = 0.7;
  report.threshold_met = true;  // the engine's verdict, also for a dry run
  report.stop_reason = actuator::StopReason::budget_met;
  report.containers = {container};
  return report;
}

std::string printed(const actuator::MigrationReport& report) {
  ::testing::internal::CaptureStdout();
  print_table(report);
  return ::testing::internal::GetCapturedStdout();
}

TEST(MigrateOutput, ADryRunSaysWhatItWouldMoveAndClaimsNoThreshold) {
  auto out = printed(report_of(true, {}));
  EXPECT_THAT(out, HasSubstr("dry run, node 1 -> 0,2: budget_met\n"));
  EXPECT_THAT(out, HasSubstr("would move 32.0 MiB of the goal 32.0 MiB (found on the source: "
                             "48.0 MiB); nothing moved\n"));
  EXPECT_THAT(out, Not(HasSubstr("threshold")));
  EXPECT_THAT(out, Not(HasSubstr("(-)")));
}

TEST(MigrateOutput, ARealRunSaysWhereItsBytesWent) {
  auto out = printed(report_of(false, {{0, 16 * kMiB}, {2, 8 * kMiB}}));
  EXPECT_THAT(out, HasSubstr("moved 24.0 MiB (to node 0: 16.0 MiB, node 2: 8.0 MiB), already on "
                             "a destination 0 B, goal 32.0 MiB\n"));
  EXPECT_THAT(out, HasSubstr("threshold 70% of the goal: met\n"));
}

TEST(MigrateOutput, NothingMovedShowsNoEmptyDestinations) {
  auto out = printed(report_of(false, {}));
  EXPECT_THAT(out, HasSubstr("moved 0 B, already on a destination 0 B"));
  EXPECT_THAT(out, Not(HasSubstr("(-)")));
}

}  // namespace
}  // namespace nb::cli
