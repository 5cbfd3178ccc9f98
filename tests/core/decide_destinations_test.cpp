#include <gtest/gtest.h>

#include "tests/core/snapshot_builder.hpp"

namespace nb::core::testing {
namespace {

// Binary-exact ratios so that the equality edges are exact.
PolicyConfig exact_ratios() {
  PolicyConfig config;
  config.grace_gap_ratio = 0.25;
  config.force_gap_ratio = 0.5;
  return config;
}

struct GapCase {
  const char* name;
  double candidate_latency;
  int candidate_distance;
  bool kept;
};

class GapFilter : public ::testing::TestWithParam<GapCase> {};

TEST_P(GapFilter, KeepsCandidateOnlyWhenEnoughFaster) {
  const GapCase& c = GetParam();
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 120, 30)
                                .node(1, c.candidate_latency, 10)
                                .distance(0, 1, c.candidate_distance)
                                .pool("share", {0, 1})
                                .container("app", "share", {{0, kGiB}})
                                .build();
  const Decision decision = decide_at_now(snapshot, exact_ratios());
  EXPECT_EQ(decision.level, PressureLevel::force);
  EXPECT_EQ(decision.dest_nodes, c.kept ? std::vector<NodeId>{1} : std::vector<NodeId>{});
}

// Source latency 120: near candidates (distance <= 19) need latency x 1.25 <= 120, far ones
// latency x 1.5 <= 120.
INSTANTIATE_TEST_SUITE_P(Cases, GapFilter,
                         ::testing::Values(GapCase{"NearAtRatioIsKept", 96, 19, true},
                                           GapCase{"NearAboveRatioIsDropped", 96.5, 19, false},
                                           GapCase{"FarAtRatioIsKept", 80, 20, true},
                                           GapCase{"FarAboveRatioIsDropped", 80.5, 20, false},
                                           GapCase{"FarUsesForceRatio", 96, 20, false}),
                         [](const auto& info) { return std::string(info.param.name); });

Snapshot mixed_distances(double hot_latency) {
  // From node 0: node 1 near (12), node 2 far (21) and faster, node 3 near (12) and faster.
  return SnapshotBuilder()
      .node(0, hot_latency, 30)
      .node(1, 40, 10)
      .node(2, 20, 10)
      .node(3, 30, 10)
      .distance(0, 1, 12)
      .distance(0, 3, 12)
      .pool("share", {0, 1, 2, 3})
      .container("app", "share", {{0, kGiB}})
      .build();
}

TEST(GapFilter, CandidatesOrderedByDistanceThenLatencyThenId) {
  const Decision decision = decide_at_now(mixed_distances(100));
  EXPECT_EQ(decision.dest_nodes, (std::vector<NodeId>{3, 1, 2}));
  ASSERT_EQ(decision.migrate.size(), 1u);
  EXPECT_EQ(decision.migrate[0].dest_nodes, (std::vector<NodeId>{3, 1, 2}));
}

TEST(GapFilter, EqualCandidatesOrderById) {
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 100, 30)
                                .node(7, 40, 10)
                                .node(2, 40, 10)
                                .node(5, 40, 10)
                                .pool("share", {0, 2, 5, 7})
                                .container("app", "share", {{0, kGiB}})
                                .build();
  EXPECT_EQ(decide_at_now(snapshot).dest_nodes, (std::vector<NodeId>{2, 5, 7}));
}

TEST(GapFilter, GraceRoundStopsAtFirstCandidateBeyondGraceDistance) {
  const Decision decision = decide_at_now(mixed_distances(75));
  EXPECT_EQ(decision.level, PressureLevel::grace);
  EXPECT_EQ(decision.dest_nodes, (std::vector<NodeId>{3, 1}));
}

TEST(GapFilter, GraceRoundWithOnlyFarCandidatesHasNoDestination) {
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 75, 30)
                                .node(1, 10, 10)
                                .pool("share", {0, 1})
                                .container("app", "share", {{0, kGiB}})
                                .build();
  const Decision decision = decide_at_now(snapshot);
  EXPECT_EQ(decision.level, PressureLevel::grace);
  EXPECT_TRUE(decision.dest_nodes.empty());
  EXPECT_TRUE(decision.migrate.empty());
  EXPECT_EQ(decision.status, DecisionStatus::failed);
}

TEST(GapFilter, ExplanationSaysWhyEachCandidateWasKeptOrDropped) {
  const Decision decision = decide_at_now(mixed_distances(75));
  auto has_line = [&](std::string_view start) {
    for (const std::string& line : decision.explanation) {
      if (line.starts_with(start)) {
        return true;
      }
    }
    return false;
  };
  EXPECT_TRUE(has_line("candidate node 3: kept, latency 30 ns x (1 + grace_gap_ratio 0.15)"));
  EXPECT_TRUE(has_line("candidate node 2: not considered, a grace round stops at distance 21"));
}

}  // namespace
}  // namespace nb::core::testing
