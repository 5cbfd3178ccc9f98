#include <gtest/gtest.h>

#include "tests/core/snapshot_builder.hpp"

namespace nb::core::testing {
namespace {

struct MetricsCase {
  const char* name;
  std::optional<double> latency0, bandwidth0, latency1, bandwidth1;
  DecisionStatus status;
  const char* reason;
};

class MetricsRule : public ::testing::TestWithParam<MetricsCase> {};

TEST_P(MetricsRule, EndsTheRoundBeforeAnyRuleRuns) {
  const MetricsCase& c = GetParam();
  SnapshotBuilder builder;
  builder.node(0, c.latency0, c.bandwidth0).node(1, c.latency1, c.bandwidth1).pool("share", {0, 1});
  builder.container("a", "share", {{0, 1 * kGiB}});
  const Decision decision = decide_at_now(builder.build());
  EXPECT_EQ(decision.status, c.status);
  EXPECT_EQ(decision.reason, c.reason);
  EXPECT_EQ(decision.level, PressureLevel::none);
  EXPECT_FALSE(decision.source_node.has_value());
  EXPECT_FALSE(decision.bandwidth_level.has_value());
  EXPECT_TRUE(decision.migrate.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MetricsRule,
    ::testing::Values(MetricsCase{"NoLatencyAnywhere", std::nullopt, 30, std::nullopt, 20,
                                  DecisionStatus::no_metrics, "no node has a read latency"},
                      MetricsCase{"NoBandwidthAnywhere", 100, std::nullopt, 40, std::nullopt,
                                  DecisionStatus::no_metrics, "no node has a bandwidth"},
                      MetricsCase{"OneNodeLacksLatency", 100, 30, std::nullopt, 20,
                                  DecisionStatus::failed, "node 1 has no read latency"},
                      MetricsCase{"OneNodeLacksBandwidth", 100, std::nullopt, 40, 20,
                                  DecisionStatus::failed, "node 0 has no bandwidth"},
                      MetricsCase{"AllLatenciesZero", 0.0, 30, 0.0, 20, DecisionStatus::no_metrics,
                                  "no node reports a read latency above 0"},
                      MetricsCase{"AllBandwidthsZero", 100, 0.0, 40, 0.0,
                                  DecisionStatus::no_metrics,
                                  "no node reports a bandwidth above 0"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(MetricsRule, EmptySnapshotFails) {
  const Decision decision = decide_at_now(Snapshot{});
  EXPECT_EQ(decision.status, DecisionStatus::failed);
  EXPECT_EQ(decision.reason, "the snapshot has no nodes");
}

TEST(MetricsRule, ThresholdTravelsWithEveryDecision) {
  PolicyConfig config;
  config.migrate_threshold = 0.55;
  EXPECT_EQ(decide_at_now(Snapshot{}, config).threshold, 0.55);
  EXPECT_EQ(
      decide_at_now(two_node_host().container("a", "share", {{0, kGiB}}).build(), config).threshold,
      0.55);
}

TEST(MetricsRule, MissingDistanceFailsNamingBothNodes) {
  Snapshot snapshot = two_node_host().build();
  snapshot.nodes[0].distance.erase(1);
  const Decision decision = decide_at_now(snapshot);
  EXPECT_EQ(decision.status, DecisionStatus::failed);
  EXPECT_EQ(decision.reason, "node 0 has no distance to node 1");
}

}  // namespace
}  // namespace nb::core::testing
