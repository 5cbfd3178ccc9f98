// What a finished job leaves in its round's record: moved bytes, the outcome, and what moved of
// each container to each destination (the ping-pong ban's unit for partial moves).

#include "daemon/service/job_outcome.hpp"

#include <gtest/gtest.h>

namespace nb::service {
namespace {

actuator::ContainerReport container(std::string id, std::map<NodeId, Bytes> moved_to) {
  actuator::ContainerReport report;
  report.id = std::move(id);
  actuator::ProcessReport process;
  process.pid = 100;
  process.bytes_moved_to = std::move(moved_to);
  report.processes.push_back(process);
  return report;
}

TEST(JobOutcome, AFinishedJobRecordsWhatMovedOfEachContainerToEachNode) {
  actuator::MigrationReport report;
  report.source_node = 0;
  report.dest_nodes = {1, 2};
  report.threshold_met = true;
  report.containers = {container("stream.scope", {{1, 2 * kGiB}, {2, kGiB}}),
                       container("idle.scope", {{1, 0}})};
  JobResult result;
  result.report = report;
  rounds::RoundRecord record;
  record_job_result(result, false, record, 100);
  EXPECT_TRUE(record.migrated);
  EXPECT_EQ(record.moved_bytes, 3 * kGiB);
  EXPECT_EQ(record.outcome, rounds::RoundOutcome::done);
  const std::vector<core::MovedShare> expected{{"stream.scope", 1, 2 * kGiB},
                                               {"stream.scope", 2, kGiB}};
  EXPECT_EQ(record.moved_shares, expected);
}

TEST(JobOutcome, ADryRunRecordsNoShares) {
  actuator::MigrationReport report;
  report.dry_run = true;
  report.containers = {container("stream.scope", {{1, kGiB}})};
  JobResult result;
  result.report = report;
  rounds::RoundRecord record;
  record_job_result(result, false, record, 100);
  EXPECT_FALSE(record.migrated);
  EXPECT_TRUE(record.moved_shares.empty());
}

}  // namespace
}  // namespace nb::service
