#include "actuator/destination_picker.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/actuator/job_fixture.hpp"

// Destinations inside a job: how they share the work, when free memory is read, when one is
// dropped.

namespace nb::actuator {
namespace {

using testing::InjectedFailure;
using testing::kPage;

class JobDestinations : public testing::JobFixture {};

TEST_F(JobDestinations, DestinationsShareTheWorkByFreeMemoryAboveTheFloor) {
  memory.add_node(1, 16 * kGiB, kGiB + 3 * 256 * kMiB);  // 768 MiB of headroom
  memory.add_node(2, 16 * kGiB, kGiB + 256 * kMiB);      // 256 MiB
  add_process(100, 64 * 1024);                           // 256 MiB
  memory.cost_per_page = std::chrono::microseconds(20);  // 1000-page batches
  auto report = run({target(100, {1, 2})});
  auto to = report.bytes_moved_to();
  EXPECT_EQ(to[1] + to[2], 256 * kMiB);
  double ratio = static_cast<double>(to[1]) / static_cast<double>(to[2]);
  EXPECT_NEAR(ratio, 3.0, 0.2);
}

TEST_F(JobDestinations, EqualHeadroomFollowsDecisionOrderFirst) {
  add_process(100, 64);
  auto report = run({target(100, {2, 1})});
  EXPECT_EQ(report.bytes_moved_to().at(2), 64 * kPage);
}

TEST_F(JobDestinations, DestinationAnsweringEnomemIsDroppedAndOthersCarryOn) {
  memory.enomem_nodes.insert(1);
  add_process(100, 1000);
  auto report = run({target(100, {1, 2})});
  EXPECT_EQ(report.bytes_moved(), 1000 * kPage);
  EXPECT_EQ(report.bytes_moved_to().count(1), 0u);
  EXPECT_EQ(report.bytes_moved_to().at(2), 1000 * kPage);
  EXPECT_GT(report.outcomes().no_memory, 0);
  ASSERT_EQ(report.dropped_destinations.size(), 1u);
  EXPECT_EQ(report.dropped_destinations[0].node, 1);
  EXPECT_TRUE(report.threshold_met);
}

TEST_F(JobDestinations, CallLevelEnomemDropsTheDestinationAndRetriesElsewhere) {
  memory.move_failures.push_back(InjectedFailure{ENOMEM, 0});
  add_process(100, 100);
  auto report = run({target(100, {1, 2})});
  EXPECT_EQ(report.bytes_moved_to().at(2), 100 * kPage);
  EXPECT_EQ(report.dropped_destinations.at(0).node, 1);
}

TEST_F(JobDestinations, DestinationFallingToItsFloorMidJobIsDroppedAtTheNextRead) {
  add_process(100, 5000);
  memory.cost_per_page = std::chrono::microseconds(100);  // 200-page batches of 20 ms
  bool filled = false;
  auto report = run_migration({target(100, {1, 2})}, options, memory, tree.path("proc"), cancel,
                              [this, &filled](const JobProgress&) {
                                // Something else fills node 1 after the first batch.
                                if (!filled) {
                                  memory.add_node(1, 16 * kGiB, kGiB - kMiB);
                                  filled = true;
                                }
                              });
  EXPECT_EQ(report.bytes_moved(), 5000 * kPage);
  // Free memory is read again within 100 ms: node 1 takes at most that long's share.
  EXPECT_GE(report.bytes_moved_to().at(1), 64 * kPage);
  EXPECT_LE(report.bytes_moved_to().at(1), 1000 * kPage);
  EXPECT_GE(report.bytes_moved_to().at(2), 4000 * kPage);
  ASSERT_EQ(report.dropped_destinations.size(), 1u);
  EXPECT_EQ(report.dropped_destinations[0].node, 1);
  EXPECT_NE(report.dropped_destinations[0].reason.find("floor"), std::string::npos);
}

TEST_F(JobDestinations, FreeMemoryIsReadEveryHundredMillisecondsNotEveryBatch) {
  add_process(100, 5000);
  memory.cost_per_page = std::chrono::microseconds(100);  // 25 batches over 500 ms
  auto report = run({target(100, {1, 2})});
  EXPECT_EQ(report.bytes_moved(), 5000 * kPage);
  EXPECT_GE(move_call_sizes().size(), 25u);
  // Two destinations: the read at the start, then one every 100 ms of the 500.
  EXPECT_LE(memory.node_memory_calls, 2 * (1 + 6));
  EXPECT_GE(memory.node_memory_calls, 2 * 4);
}

TEST_F(JobDestinations, DestinationNearItsFloorIsReadBeforeEveryBatch) {
  // Node 1 starts 600 pages above its floor, well within four batches of it.
  memory.add_node(1, 16 * kGiB, kGiB + 600 * kPage);
  add_process(100, 5000);
  memory.cost_per_page = std::chrono::microseconds(100);
  auto report = run({target(100, {1})});
  EXPECT_EQ(report.bytes_moved(), 600 * kPage);
  EXPECT_GE(memory.node_memory_calls, static_cast<int>(move_call_sizes().size()));
}

TEST_F(JobDestinations, UnknownDestinationIsDroppedAsNoDestination) {
  add_process(100, 10);
  auto report = run({target(100, {7})});
  EXPECT_EQ(report.bytes_moved(), 0);
  EXPECT_EQ(report.stop_reason, StopReason::no_destination);
  EXPECT_NE(report.dropped_destinations.at(0).reason.find("node 7"), std::string::npos);
}

}  // namespace
}  // namespace nb::actuator
