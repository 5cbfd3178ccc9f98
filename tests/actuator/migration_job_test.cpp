#include "actuator/migration_job.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "tests/actuator/job_fixture.hpp"

// End to end: a whole job over the fake kernel, from its targets to its report.

namespace nb::actuator {
namespace {

using testing::kPage;

class MigrationJob : public testing::JobFixture {};

TEST_F(MigrationJob, MovesEveryPageOnTheSourceToTheDestination) {
  add_process(100, 1000);
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 1000 * kPage);
  EXPECT_EQ(report.bytes_moved_to().at(1), 1000 * kPage);
  EXPECT_EQ(memory.bytes_on(100, 0), 0);
  EXPECT_EQ(memory.bytes_on(100, 1), 1000 * kPage);
  ASSERT_EQ(report.containers.size(), 1u);
  const auto& process = report.containers[0].processes.at(0);
  EXPECT_EQ(process.outcomes.moved, 1000);
  EXPECT_EQ(process.pages_scanned, 1000);
  EXPECT_EQ(process.bytes_on_source, 1000 * kPage);
  EXPECT_GT(process.syscalls, 1);
  EXPECT_GT(process.longest_call.count(), 0);
  EXPECT_TRUE(report.threshold_met);
  EXPECT_EQ(report.stop_reason, StopReason::completed);
  EXPECT_EQ(report.goal, 1000 * kPage);
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back().moved, 1000 * kPage);
}

TEST_F(MigrationJob, StopsExactlyAtTheBudget) {
  add_process(100, 1000);
  options.budget = kMiB;
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), kMiB);
  EXPECT_EQ(memory.bytes_on(100, 1), kMiB);
  EXPECT_EQ(report.stop_reason, StopReason::budget_met);
  EXPECT_EQ(report.goal, kMiB);
  EXPECT_TRUE(report.threshold_met);
}

TEST_F(MigrationJob, ThresholdIsMissedWhenTooLittleCouldMove) {
  memory.add_node(1, 16 * kGiB, kGiB + 400 * kPage);  // 400 pages above the floor
  add_process(100, 1000);
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 400 * kPage);
  EXPECT_FALSE(report.threshold_met);
  EXPECT_EQ(report.stop_reason, StopReason::no_destination);
  ASSERT_EQ(report.dropped_destinations.size(), 1u);
  EXPECT_EQ(report.dropped_destinations[0].node, 1);
}

TEST_F(MigrationJob, CgroupProcessesIncludeChildCgroupsAndVanishedPidsAreCounted) {
  add_process(100, 100);
  add_process(200, 50);
  tree.make_file("cg/pod/cgroup.procs", "100\n");
  tree.make_file("cg/pod/sidecar/cgroup.procs", "200\n300\n");  // 300 has no /proc entry
  MigrationTarget pod;
  pod.container_id = "pod";
  pod.cgroup_dir = tree.path("cg/pod");
  pod.dest_nodes = {1};
  auto report = run({pod});
  EXPECT_EQ(report.bytes_moved(), 150 * kPage);
  EXPECT_EQ(report.vanished_pids, std::vector<int>{300});
  EXPECT_TRUE(report.errors.empty());
  EXPECT_EQ(report.containers[0].processes.size(), 2u);
}

TEST_F(MigrationJob, ProcessExitingMidJobIsCountedAsVanishedNotAsAnError) {
  add_process(100, 1000);
  add_process(200, 100, 0, 0x40000000);
  memory.exit_after_moves = 1;
  auto report = run({target(100), target(200)});
  EXPECT_EQ(report.vanished_pids, std::vector<int>{100});
  EXPECT_TRUE(report.containers[0].processes[0].vanished);
  EXPECT_TRUE(report.errors.empty());
  EXPECT_EQ(report.containers[1].bytes_moved(), 100 * kPage);
}

// The batch after which it became a zombie does not count: its pidfd polls exited, and nothing
// then proves that call moved this process's pages.
TEST_F(MigrationJob, ZombieIsCountedAsVanished) {
  add_process(100, 1000);
  memory.zombie_after_moves = 2;
  auto report = run({target(100)});
  EXPECT_EQ(report.vanished_pids, std::vector<int>{100});
  EXPECT_TRUE(report.errors.empty());
  EXPECT_EQ(report.bytes_moved(), static_cast<Bytes>(move_call_sizes().front()) * kPage);
}

TEST_F(MigrationJob, MissingCgroupIsAnErrorAndNothingToMove) {
  MigrationTarget gone;
  gone.container_id = "gone";
  gone.cgroup_dir = tree.path("cg/gone");
  gone.dest_nodes = {1};
  auto report = run({gone});
  EXPECT_EQ(report.stop_reason, StopReason::nothing_to_move);
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].container_id, "gone");
  EXPECT_FALSE(report.threshold_met);
}

TEST_F(MigrationJob, NothingOnTheSourceIsNothingToMove) {
  add_process(100, 100, 1);
  auto report = run({target(100, {2})});
  EXPECT_EQ(report.stop_reason, StopReason::nothing_to_move);
  EXPECT_EQ(memory.move_calls, 0);
  EXPECT_FALSE(report.threshold_met);
}

TEST_F(MigrationJob, DryRunMovesNothingAndSaysWhatWouldMove) {
  add_process(100, 1000);
  options.dry_run = true;
  options.budget = 2 * kMiB;
  auto report = run({target(100)});
  EXPECT_EQ(memory.move_calls, 0);
  EXPECT_EQ(memory.migrate_calls, 0);
  EXPECT_EQ(report.bytes_moved(), 0);
  EXPECT_TRUE(report.dry_run);
  EXPECT_GE(report.bytes_on_source(), 2 * kMiB);
  EXPECT_TRUE(report.threshold_met);
  EXPECT_EQ(memory.bytes_on(100, 0), 1000 * kPage);
}

TEST_F(MigrationJob, TargetCapsLimitEachContainerAndTheGoal) {
  add_process(100, 1000);
  add_process(200, 1000, 0, 0x40000000);
  auto first = target(100);
  first.max_bytes = kMiB;
  auto second = target(200);
  second.max_bytes = 2 * kMiB;
  auto report = run({first, second});
  EXPECT_EQ(report.containers[0].bytes_moved(), kMiB);
  EXPECT_EQ(report.containers[1].bytes_moved(), 2 * kMiB);
  EXPECT_EQ(report.goal, 3 * kMiB);
  EXPECT_TRUE(report.threshold_met);
}

}  // namespace
}  // namespace nb::actuator
