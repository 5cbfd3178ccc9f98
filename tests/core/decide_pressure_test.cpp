#include <gtest/gtest.h>

#include "tests/core/snapshot_builder.hpp"

namespace nb::core::testing {
namespace {

// Node 0 carries the most bandwidth throughout, so the bandwidth rule never interferes.
struct PressureCase {
  const char* name;
  double hot_latency;
  double neighbour_latency;
  int neighbour_distance;
  PressureLevel level;
  DecisionStatus status;
};

class PressureRule : public ::testing::TestWithParam<PressureCase> {};

TEST_P(PressureRule, LevelFollowsThresholdsAndLatencyGap) {
  const PressureCase& c = GetParam();
  SnapshotBuilder builder;
  builder.node(0, c.hot_latency, 30)
      .node(1, c.neighbour_latency, 10)
      .distance(0, 1, c.neighbour_distance);
  builder.pool("share", {0, 1}).container("app", "share", {{0, 1 * kGiB}});
  const Decision decision = decide_at_now(builder.build());
  EXPECT_EQ(decision.level, c.level);
  EXPECT_EQ(decision.status, c.status) << decision.reason;
  if (c.level == PressureLevel::none) {
    EXPECT_EQ(decision.reason, "no latency pressure");
    EXPECT_FALSE(decision.source_node.has_value());
  } else {
    EXPECT_EQ(decision.source_node, 0);
  }
}

// Defaults: force > 80, grace > 70, gap > 40 to a neighbour within distance 19.
INSTANTIATE_TEST_SUITE_P(
    Cases, PressureRule,
    ::testing::Values(PressureCase{"AboveForceThreshold", 80.5, 60, 21, PressureLevel::force,
                                   DecisionStatus::ready},
                      PressureCase{"AtForceThresholdIsGrace", 80, 60, 12, PressureLevel::grace,
                                   DecisionStatus::ready},
                      PressureCase{"AboveGraceThreshold", 70.5, 60, 12, PressureLevel::grace,
                                   DecisionStatus::ready},
                      PressureCase{"AtGraceThresholdWithSmallGapIsIdle", 70, 60, 12,
                                   PressureLevel::none, DecisionStatus::idle},
                      PressureCase{"LatencyGapToNearNeighbourIsGrace", 70, 29, 19,
                                   PressureLevel::grace, DecisionStatus::ready},
                      PressureCase{"LatencyGapAtThresholdIsIdle", 70, 30, 19, PressureLevel::none,
                                   DecisionStatus::idle},
                      PressureCase{"LatencyGapToFarNeighbourIsIdle", 70, 20, 20,
                                   PressureLevel::none, DecisionStatus::idle}),
    [](const auto& info) { return std::string(info.param.name); });

// The seed's candidate list held the source itself (distance 10, gap 0), so the gap trigger could
// never fire on a real host whose distance rows include the node itself.
TEST(PressureRule, GapTriggerFiresWithRealDistanceRowsThatIncludeTheSource) {
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 65, 30)
                                .node(1, 20, 10)
                                .distance(0, 1, 12)
                                .pool("share", {0, 1})
                                .container("app", "share", {{0, kGiB}})
                                .build();
  ASSERT_EQ(snapshot.nodes[0].distance.at(0), 10);
  const Decision decision = decide_at_now(snapshot);
  EXPECT_EQ(decision.level, PressureLevel::grace);
  EXPECT_EQ(decision.dest_nodes, std::vector<NodeId>{1});
}

TEST(PressureRule, GapIsMeasuredToTheNearestCandidateNotTheFastest) {
  // Node 1 is nearest but barely faster; node 2 is much faster but further away.
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 65, 30)
                                .node(1, 60, 10)
                                .node(2, 10, 10)
                                .distance(0, 1, 12)
                                .distance(0, 2, 15)
                                .pool("share", {0, 1, 2})
                                .build();
  EXPECT_EQ(decide_at_now(snapshot).level, PressureLevel::none);
}

TEST(PressureRule, ThresholdsComeFromTheConfig) {
  PolicyConfig config;
  config.force_read_latency_ns = 120;
  config.grace_read_latency_ns = 110;
  const Decision decision = decide_at_now(two_node_host(100).build(), config);
  EXPECT_EQ(decision.level, PressureLevel::none);
  EXPECT_EQ(decision.status, DecisionStatus::idle);
}

TEST(PressureRule, MaxLatencyTieGoesToTheLowestNodeId) {
  const Snapshot snapshot = SnapshotBuilder()
                                .node(3, 100, 30)
                                .node(1, 100, 30)
                                .node(2, 40, 10)
                                .pool("share", {1, 2, 3})
                                .container("app", "share", {{1, kGiB}, {3, kGiB}})
                                .build();
  EXPECT_EQ(decide_at_now(snapshot).source_node, 1);
}

}  // namespace
}  // namespace nb::core::testing
