#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/core/snapshot_builder.hpp"

namespace nb::core::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

PolicyConfig relative_policy() {
  PolicyConfig config;
  config.threshold_mode = ThresholdMode::relative;
  return config;
}

// Node 0 (baseline 100 ns) is judged; node 1 sits at its own baseline, so node 0 is always the
// furthest above its baseline. Node 0 carries the most bandwidth, so the bandwidth rule agrees.
struct RelativeCase {
  const char* name;
  double latency;
  double neighbour_latency;
  int neighbour_distance;
  PressureLevel level;
};

// Without it gtest prints the struct's bytes, padding included.
void PrintTo(const RelativeCase& c, std::ostream* os) {
  *os << c.name;
}

class RelativePressure : public ::testing::TestWithParam<RelativeCase> {};

TEST_P(RelativePressure, RatiosOfTheSourcesBaselineReplaceTheNanoseconds) {
  const RelativeCase& c = GetParam();
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, c.latency, 30)
                                .node(1, c.neighbour_latency, 10)
                                .baseline(0, 100)
                                .baseline(1, c.neighbour_latency)
                                .distance(0, 1, c.neighbour_distance)
                                .pool("share", {0, 1})
                                .container("app", "share", {{0, kGiB}})
                                .build();
  const Decision decision = decide_at_now(snapshot, relative_policy(), {}, true);
  EXPECT_EQ(decision.level, c.level) << ::testing::PrintToString(decision.explanation);
  EXPECT_EQ(decision.thresholds, ThresholdMode::relative);
  if (c.level == PressureLevel::none) {
    EXPECT_EQ(decision.status, DecisionStatus::idle);
    EXPECT_EQ(decision.reason, "no latency pressure");
  } else {
    EXPECT_EQ(decision.status, DecisionStatus::ready) << decision.reason;
    EXPECT_EQ(decision.source_node, 0);
  }
}

// Defaults: force above 1.5 x baseline (150), grace above 1.3 x (130), a gap above 0.4 x (40) to
// a neighbour within distance 19. Each threshold is strict, as the absolute ones are. Grace rounds
// only move memory within grace_max_distance, so the grace cases have a near neighbour.
INSTANTIATE_TEST_SUITE_P(
    Cases, RelativePressure,
    ::testing::Values(
        RelativeCase{"AboveForceRatio", 150.5, 100, 21, PressureLevel::force},
        RelativeCase{"AtForceRatioIsGrace", 150, 100, 12, PressureLevel::grace},
        RelativeCase{"AboveGraceRatio", 130.5, 100, 12, PressureLevel::grace},
        RelativeCase{"AtGraceRatioWithSmallGapIsNone", 130, 100, 12, PressureLevel::none},
        RelativeCase{"GapAboveRatioToNearNeighbourIsGrace", 130, 89.5, 19, PressureLevel::grace},
        RelativeCase{"GapAtRatioIsNone", 130, 90, 19, PressureLevel::none},
        RelativeCase{"GapToFarNeighbourIsNone", 130, 20, 20, PressureLevel::none}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(RelativePressure, ConfiguredRatiosApply) {
  PolicyConfig config = relative_policy();
  config.grace_latency_ratio = 1.8;
  config.force_latency_ratio = 2;
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 190, 30)
                                .node(1, 100, 10)
                                .baseline(0, 100)
                                .baseline(1, 100)
                                .pool("share", {0, 1})
                                .container("app", "share", {{0, kGiB}})
                                .build();
  EXPECT_EQ(decide_at_now(snapshot, config).level, PressureLevel::grace);
  config.force_latency_ratio = 1.85;
  EXPECT_EQ(decide_at_now(snapshot, config).level, PressureLevel::force);
}

// A CXL node (memory only) idles at 200 ns; DRAM at 100 ns. DRAM node 0 at 140 ns is 1.4x its
// baseline, the CXL node at 230 ns only 1.15x: relative mode relieves node 0, where absolute mode
// would judge the CXL node for being slow by nature.
SnapshotBuilder dram_and_cxl() {
  SnapshotBuilder builder;
  builder.node(0, 140, 30)
      .node(1, 100, 10)
      .node(2, 230, 5, "")
      .baseline(0, 100)
      .baseline(1, 100)
      .baseline(2, 200)
      .distance(0, 1, 12)
      .distance(0, 2, 14)
      .distance(1, 2, 24)
      .kind(LatencyKind::load_to_use)
      .pool("share", {0, 1, 2})
      .container("app", "share", {{0, 2 * kGiB}});
  return builder;
}

TEST(RelativeSource, IsTheNodeFurthestAboveItsBaselineNotTheSlowest) {
  const Decision decision = decide_at_now(dram_and_cxl().build(), {}, {}, true);
  EXPECT_EQ(decision.thresholds, ThresholdMode::relative);
  EXPECT_EQ(decision.level, PressureLevel::grace);
  EXPECT_EQ(decision.status, DecisionStatus::ready) << decision.reason;
  EXPECT_EQ(decision.source_node, 0);
  EXPECT_THAT(decision.explanation,
              Contains("source of pressure: node 0 is furthest above its baseline "
                       "(140 ns / 100 ns = 1.4)"));
}

TEST(RelativeSource, AbsoluteModeOnTheSameHostJudgesTheSlowestNode) {
  PolicyConfig config;
  config.threshold_mode = ThresholdMode::absolute;
  const Decision decision = decide_at_now(dram_and_cxl().build(), config, {}, true);
  EXPECT_EQ(decision.thresholds, ThresholdMode::absolute);
  EXPECT_EQ(decision.level, PressureLevel::force);
  EXPECT_THAT(decision.explanation,
              Contains(HasSubstr("candidates from node 2: node 0 (distance 14, 140 ns")));
}

struct TieCase {
  const char* name;
  double latency0, baseline0, latency1, baseline1;
  NodeId source;
};

void PrintTo(const TieCase& c, std::ostream* os) {
  *os << c.name;
}

class RelativeSourceTie : public ::testing::TestWithParam<TieCase> {};

TEST_P(RelativeSourceTie, GoesToTheHigherLatencyThenTheLowerId) {
  const TieCase& c = GetParam();
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, c.latency0, 20)
                                .node(1, c.latency1, 20)
                                .baseline(0, c.baseline0)
                                .baseline(1, c.baseline1)
                                .pool("share", {0, 1})
                                .container("a", "share", {{0, kGiB}, {1, kGiB}})
                                .build();
  const Decision decision = decide_at_now(snapshot, relative_policy(), {}, true);
  EXPECT_EQ(decision.level, PressureLevel::force);
  EXPECT_EQ(decision.source_node, c.source) << ::testing::PrintToString(decision.explanation);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RelativeSourceTie,
    ::testing::Values(TieCase{"HigherRatioWins", 160, 100, 400, 300, 0},
                      TieCase{"EqualRatioHigherLatency", 160, 100, 320, 200, 1},
                      TieCase{"EqualRatioEqualLatencyLowerId", 160, 100, 160, 100, 0}),
    [](const auto& info) { return std::string(info.param.name); });

struct CalibratingCase {
  const char* name;
  std::optional<double> baseline0, baseline1;
  const char* reason;
};

void PrintTo(const CalibratingCase& c, std::ostream* os) {
  *os << c.name;
}

class Calibrating : public ::testing::TestWithParam<CalibratingCase> {};

TEST_P(Calibrating, WhileANodeHasNoBaselineNothingMoves) {
  const CalibratingCase& c = GetParam();
  const Snapshot snapshot = two_node_host(500)
                                .baseline(0, c.baseline0)
                                .baseline(1, c.baseline1)
                                .kind(LatencyKind::load_to_use)
                                .container("app", "share", {{0, 2 * kGiB}})
                                .build();
  const Decision decision = decide_at_now(snapshot);
  EXPECT_EQ(decision.status, DecisionStatus::calibrating);
  EXPECT_EQ(decision.reason, c.reason);
  EXPECT_EQ(decision.thresholds, std::nullopt);
  EXPECT_EQ(decision.level, PressureLevel::none);
  EXPECT_FALSE(decision.source_node.has_value());
  EXPECT_TRUE(decision.migrate.empty());
  EXPECT_TRUE(decision.evict.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Calibrating,
    ::testing::Values(
        CalibratingCase{"NoNodeHasOne", std::nullopt, std::nullopt,
                        "relative thresholds need a baseline read latency for every node; "
                        "nodes 0, 1 have none yet"},
        CalibratingCase{"OneNodeLacksIt", 100, std::nullopt,
                        "relative thresholds need a baseline read latency for every node; "
                        "node 1 has none yet"},
        CalibratingCase{"AZeroBaselineIsNone", 0, 100,
                        "relative thresholds need a baseline read latency for every node; "
                        "node 0 has none yet"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Calibrating, MissingMetricsAreReportedFirst) {
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, std::nullopt, 10)
                                .node(1, std::nullopt, 10)
                                .kind(LatencyKind::load_to_use)
                                .build();
  const Decision decision = decide_at_now(snapshot);
  EXPECT_EQ(decision.status, DecisionStatus::no_metrics);
  EXPECT_EQ(decision.thresholds, std::nullopt);
}

struct AutoCase {
  std::optional<LatencyKind> kind;
  ThresholdMode configured;
  ThresholdMode applied;
};

void PrintTo(const AutoCase& c, std::ostream* os) {
  *os << (c.kind ? to_string(*c.kind) : "no kind") << " with " << to_string(c.configured);
}

class AutoMode : public ::testing::TestWithParam<AutoCase> {};

// With baselines that make relative mode idle (1.2x) and a latency that makes absolute mode force
// (120 > 80), the level shows which mode applied as well as the field does.
TEST_P(AutoMode, FollowsTheKindUnlessAModeIsConfigured) {
  const AutoCase& c = GetParam();
  SnapshotBuilder builder = two_node_host(120).baseline(0, 100).baseline(1, 40);
  if (c.kind) {
    builder.kind(*c.kind);
  }
  builder.container("app", "share", {{0, 2 * kGiB}});
  PolicyConfig config;
  config.threshold_mode = c.configured;
  const Decision decision = decide_at_now(builder.build(), config, {}, true);
  EXPECT_EQ(decision.thresholds, c.applied);
  EXPECT_EQ(decision.level,
            c.applied == ThresholdMode::absolute ? PressureLevel::force : PressureLevel::none);
  EXPECT_THAT(decision.explanation,
              Contains(HasSubstr("thresholds: " + std::string(to_string(c.applied)))));
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, AutoMode,
    ::testing::Values(
        AutoCase{std::nullopt, ThresholdMode::automatic, ThresholdMode::absolute},
        AutoCase{LatencyKind::memory_controller_queue, ThresholdMode::automatic,
                 ThresholdMode::absolute},
        AutoCase{LatencyKind::cache_miss, ThresholdMode::automatic, ThresholdMode::relative},
        AutoCase{LatencyKind::load_to_use, ThresholdMode::automatic, ThresholdMode::relative},
        AutoCase{LatencyKind::external, ThresholdMode::automatic, ThresholdMode::relative},
        AutoCase{LatencyKind::load_to_use, ThresholdMode::absolute, ThresholdMode::absolute},
        AutoCase{LatencyKind::memory_controller_queue, ThresholdMode::relative,
                 ThresholdMode::relative}));

TEST(RelativeExplain, WritesTheComparisonWithItsNumbersKindAndMode) {
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 100, 10)
                                .node(1, 212, 30)
                                .baseline(0, 100)
                                .baseline(1, 131)
                                .kind(LatencyKind::load_to_use)
                                .pool("share", {0, 1})
                                .container("app", "share", {{1, 2 * kGiB}})
                                .build();
  const Decision decision = decide_at_now(snapshot, {}, {}, true);
  EXPECT_THAT(decision.explanation,
              Contains("thresholds: relative (auto: the *_read_latency_ns thresholds were tuned "
                       "for memory_controller_queue latency, not load_to_use latency)"));
  EXPECT_THAT(decision.explanation,
              Contains("pressure: force, node 1 read latency 212 ns > baseline 131 ns x "
                       "force_latency_ratio 1.5 = 196.5 ns (load_to_use, relative thresholds)"));
}

TEST(RelativeExplain, TheGapComparisonNamesItsRatio) {
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 125, 30)
                                .node(1, 60, 10)
                                .baseline(0, 100)
                                .baseline(1, 60)
                                .distance(0, 1, 12)
                                .kind(LatencyKind::external)
                                .pool("share", {0, 1})
                                .container("app", "share", {{0, 2 * kGiB}})
                                .build();
  const Decision decision = decide_at_now(snapshot, {}, {}, true);
  EXPECT_EQ(decision.level, PressureLevel::grace);
  EXPECT_THAT(decision.explanation,
              Contains("pressure: grace, node 0 read latency 125 ns <= baseline 100 ns x "
                       "grace_latency_ratio 1.3 = 130 ns; latency gap to nearest node 1 (60 ns) "
                       "is 65 ns > baseline 100 ns x grace_latency_gap_ratio 0.4 = 40 ns "
                       "(external, relative thresholds)"));
}

TEST(AbsoluteExplain, KeepsTheNanosecondComparisonAndNamesTheMode) {
  const Decision decision = decide_at_now(
      two_node_host(85).container("app", "share", {{0, 2 * kGiB}}).build(), {}, {}, true);
  EXPECT_EQ(decision.thresholds, ThresholdMode::absolute);
  EXPECT_THAT(decision.explanation,
              Contains("thresholds: absolute (auto: memory_controller_queue latency is the kind "
                       "the *_read_latency_ns thresholds were tuned for)"));
  EXPECT_THAT(decision.explanation,
              Contains("pressure: force, node 0 read latency 85 ns > force_read_latency_ns 80"));
}

}  // namespace
}  // namespace nb::core::testing
