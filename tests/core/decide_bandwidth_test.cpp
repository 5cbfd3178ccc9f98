#include <gtest/gtest.h>

#include "tests/core/snapshot_builder.hpp"

namespace nb::core::testing {
namespace {

// Node 0 has the highest latency; node 1 carries the most bandwidth (40 GB/s) unless node 0's
// exceeds it; node 2 is the quietest node. Every node holds memory of an eligible container.
struct BandwidthCase {
  const char* name;
  double hot_latency;
  double hot_bandwidth;
  std::optional<BandwidthLevel> level;
  DecisionStatus status;
  NodeId source;
  bool bandwidth_pressure;
  std::vector<NodeId> dest_nodes;
};

Snapshot three_node_host(double hot_latency, double hot_bandwidth) {
  return SnapshotBuilder()
      .node(0, hot_latency, hot_bandwidth)
      .node(1, 40, 40)
      .node(2, 40, 10)
      .distance(0, 1, 12)
      .distance(0, 2, 12)
      .distance(1, 2, 12)
      .pool("share", {0, 1, 2})
      .container("app", "share", {{0, kGiB}, {1, kGiB}, {2, kGiB}})
      .build();
}

class BandwidthRule : public ::testing::TestWithParam<BandwidthCase> {};

TEST_P(BandwidthRule, LevelDecidesSourceAndDestinations) {
  const BandwidthCase& c = GetParam();
  const Decision decision = decide_at_now(three_node_host(c.hot_latency, c.hot_bandwidth));
  EXPECT_EQ(decision.bandwidth_level, c.level);
  EXPECT_EQ(decision.status, c.status) << decision.reason;
  EXPECT_EQ(decision.bandwidth_pressure, c.bandwidth_pressure);
  if (c.status == DecisionStatus::ready) {
    EXPECT_EQ(decision.source_node, c.source);
    EXPECT_EQ(decision.dest_nodes, c.dest_nodes);
    ASSERT_EQ(decision.migrate.size(), 1u);
    EXPECT_EQ(decision.migrate[0].dest_nodes, c.dest_nodes);
  }
}

// Defaults: high above 0.8 of the busiest node's bandwidth, medium above 0.5.
INSTANTIATE_TEST_SUITE_P(
    Cases, BandwidthRule,
    ::testing::Values(
        BandwidthCase{"HotNodeIsBusiestIsHigh",
                      100,
                      50,
                      BandwidthLevel::high,
                      DecisionStatus::ready,
                      0,
                      false,
                      {1, 2}},
        BandwidthCase{"AboveHighRatioIsHigh",
                      100,
                      36,
                      BandwidthLevel::high,
                      DecisionStatus::ready,
                      0,
                      false,
                      {1, 2}},
        // Medium: memory leaves the busiest node for the node with the least bandwidth.
        BandwidthCase{"AtHighRatioIsMedium",
                      100,
                      32,
                      BandwidthLevel::medium,
                      DecisionStatus::ready,
                      1,
                      true,
                      {2}},
        BandwidthCase{"AboveMediumRatioIsMedium",
                      100,
                      24,
                      BandwidthLevel::medium,
                      DecisionStatus::ready,
                      1,
                      true,
                      {2}},
        // Low: the hot node's latency is not real; it receives memory from the busiest node.
        BandwidthCase{"AtMediumRatioIsLow",
                      100,
                      20,
                      BandwidthLevel::low,
                      DecisionStatus::ready,
                      1,
                      true,
                      {0}},
        BandwidthCase{
            "FarBelowIsLow", 100, 4, BandwidthLevel::low, DecisionStatus::ready, 1, true, {0}},
        // A grace round only runs when the hot node is high-bandwidth.
        BandwidthCase{"GraceOnMediumIsCancelled",
                      75,
                      24,
                      BandwidthLevel::medium,
                      DecisionStatus::idle,
                      0,
                      false,
                      {}},
        BandwidthCase{"GraceOnLowIsCancelled",
                      75,
                      4,
                      BandwidthLevel::low,
                      DecisionStatus::idle,
                      0,
                      false,
                      {}},
        BandwidthCase{"GraceOnHighRuns",
                      75,
                      36,
                      BandwidthLevel::high,
                      DecisionStatus::ready,
                      0,
                      false,
                      {1, 2}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(BandwidthRule, CancelledGraceRoundSaysWhy) {
  const Decision decision = decide_at_now(three_node_host(75, 24));
  EXPECT_EQ(decision.status, DecisionStatus::idle);
  EXPECT_EQ(decision.level, PressureLevel::grace);
  EXPECT_NE(decision.reason.find("grace round cancelled"), std::string::npos) << decision.reason;
  EXPECT_TRUE(decision.dest_nodes.empty());
}

TEST(BandwidthRule, MediumDestinationDroppedWhenNotQuietEnough) {
  // The quietest node seen from node 1 is node 0 at 24 GB/s: with a force_gap_ratio of 1,
  // 24 x 2 > 40, so it is no relief, and the medium rule offers only that one node.
  PolicyConfig config;
  config.force_gap_ratio = 1;
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 100, 24)
                                .node(1, 40, 40)
                                .node(2, 40, 38)
                                .pool("share", {0, 1, 2})
                                .container("app", "share", {{1, kGiB}})
                                .build();
  const Decision decision = decide_at_now(snapshot, config);
  EXPECT_EQ(decision.bandwidth_level, BandwidthLevel::medium);
  EXPECT_EQ(decision.source_node, 1);
  EXPECT_TRUE(decision.dest_nodes.empty());
  EXPECT_EQ(decision.status, DecisionStatus::failed);
  EXPECT_EQ(decision.reason, "pressure but no container can be migrated or evicted");
}

TEST(BandwidthRule, BandwidthPressureMovesMemoryOnTheBusiestNode) {
  const Decision decision = decide_at_now(SnapshotBuilder()
                                              .node(0, 100, 24)
                                              .node(1, 40, 40)
                                              .node(2, 40, 10)
                                              .pool("share", {0, 1, 2})
                                              .container("on-hot", "share", {{0, 2 * kGiB}})
                                              .container("on-busy", "share", {{1, kGiB}})
                                              .build());
  ASSERT_EQ(decision.migrate.size(), 1u);
  EXPECT_EQ(decision.migrate[0].id, "on-busy");
  EXPECT_EQ(decision.migrate[0].bytes_on_source, kGiB);
}

}  // namespace
}  // namespace nb::core::testing
