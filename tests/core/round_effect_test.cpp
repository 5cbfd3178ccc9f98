// The effect of a round that migrated: the hot latency (source and destinations) and the gap,
// before and after, and whether the hot latency fell by min_improvement.

#include "core/round_effect.hpp"

#include <gtest/gtest.h>

#include "tests/core/snapshot_builder.hpp"

namespace nb::core::testing {
namespace {

Snapshot latencies(std::optional<double> node0, std::optional<double> node1,
                   std::optional<double> node2 = 90) {
  return SnapshotBuilder().node(0, node0, 10).node(1, node1, 10).node(2, node2, 10).build();
}

RoundMoves moves(std::vector<NodeId> dests = {1}, Bytes planned = kGiB, Bytes moved = kGiB) {
  return RoundMoves{0, std::move(dests), planned, moved};
}

struct EffectCase {
  const char* name;
  Snapshot after;
  bool improved;
  double hot_after;
  double gap_after;
};

class Effect : public ::testing::TestWithParam<EffectCase> {};

// Before: node 0 at 150 ns, node 1 at 100 ns: hot 150, gap 50.
TEST_P(Effect, ComparesTheHotLatencyAndTheGap) {
  const EffectCase& c = GetParam();
  const auto result = measure_effect(moves(), latencies(150, 100), c.after, PolicyConfig{});
  const auto* measured = std::get_if<MeasuredEffect>(&result);
  ASSERT_NE(measured, nullptr) << std::get<std::string>(result);
  EXPECT_EQ(measured->effect.improved, c.improved);
  EXPECT_DOUBLE_EQ(measured->effect.hot_before, 150);
  EXPECT_DOUBLE_EQ(measured->effect.hot_after, c.hot_after);
  EXPECT_DOUBLE_EQ(measured->effect.gap_before, 50);
  EXPECT_DOUBLE_EQ(measured->effect.gap_after, c.gap_after);
  EXPECT_DOUBLE_EQ(measured->source_latency_before, 150);
  EXPECT_EQ(measured->bytes_moved, kGiB);
}

// Default min_improvement 0.1: improved when the hot latency is at most 135 ns after.
INSTANTIATE_TEST_SUITE_P(
    Cases, Effect,
    ::testing::Values(
        EffectCase{"BothNodesEvenedOut", latencies(120, 110), true, 120, 10},
        EffectCase{"ExactlyTheBarIsAnImprovement", latencies(135, 120), true, 135, 15},
        EffectCase{"JustShortOfTheBarIsNot", latencies(135.5, 120), false, 135.5, 15.5},
        EffectCase{"TheHotSpotMovedToTheDestination", latencies(100, 160), false, 160, -60},
        EffectCase{"NothingChanged", latencies(150, 100), false, 150, 50}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Effect, TheGapIsToTheFastestDestinationAndHotCoversThemAll) {
  const auto result = measure_effect(moves({1, 2}), latencies(150, 100, 90),
                                     latencies(110, 130, 95), PolicyConfig{});
  const auto& effect = std::get<MeasuredEffect>(result).effect;
  EXPECT_DOUBLE_EQ(effect.gap_before, 60);
  EXPECT_DOUBLE_EQ(effect.hot_after, 130);
  EXPECT_DOUBLE_EQ(effect.gap_after, 15);
  EXPECT_TRUE(effect.improved);
}

// Relative thresholds can pick a source that reads lower than a destination (it is further above
// its own baseline): the hot latency before is still the source's, the one the round set out to
// lower.
TEST(Effect, HotBeforeIsTheSourcesLatencyEvenWhenADestinationReadsHigher) {
  const auto result =
      measure_effect(moves({1}), latencies(150, 200), latencies(120, 190), PolicyConfig{});
  const auto& effect = std::get<MeasuredEffect>(result).effect;
  EXPECT_DOUBLE_EQ(effect.hot_before, 150);
  EXPECT_DOUBLE_EQ(effect.hot_after, 190);
  EXPECT_FALSE(effect.improved) << "node 1 reads higher than node 0 did";
}

TEST(Effect, AJobWithoutAPlanIsMeasuredOnWhatItMoved) {
  const auto result =
      measure_effect(moves({1}, 0, kGiB / 8), latencies(150, 100), latencies(120, 110), {});
  EXPECT_TRUE(std::get<MeasuredEffect>(result).effect.improved);
}

TEST(Effect, TheSourcesLostBandwidthPerGiBMovedIsMeasured) {
  const Snapshot before = SnapshotBuilder().node(0, 200, 100).node(1, 90, 10).build();
  const Snapshot after = SnapshotBuilder().node(0, 120, 60).node(1, 110, 50).build();
  auto effect = measure_effect(moves({1}, 4 * kGiB, 4 * kGiB), before, after, PolicyConfig{});
  ASSERT_TRUE(std::holds_alternative<MeasuredEffect>(effect));
  ASSERT_TRUE(std::get<MeasuredEffect>(effect).effect.traffic_per_gib.has_value());
  EXPECT_DOUBLE_EQ(*std::get<MeasuredEffect>(effect).effect.traffic_per_gib, 10.0);  // 40 / 4

  // The source's bandwidth rose (the workload grew): the move says nothing about its bytes.
  const Snapshot busier = SnapshotBuilder().node(0, 120, 110).node(1, 110, 50).build();
  effect = measure_effect(moves({1}, 4 * kGiB, 4 * kGiB), before, busier, PolicyConfig{});
  ASSERT_TRUE(std::holds_alternative<MeasuredEffect>(effect));
  EXPECT_FALSE(std::get<MeasuredEffect>(effect).effect.traffic_per_gib.has_value());
}

TEST(Effect, MinImprovementComesFromTheConfig) {
  PolicyConfig config;
  config.min_improvement = 0.3;
  const auto result = measure_effect(moves(), latencies(150, 100), latencies(120, 110), config);
  EXPECT_FALSE(std::get<MeasuredEffect>(result).effect.improved);
}

struct NoEffectCase {
  const char* name;
  RoundMoves moves;
  Snapshot before;
  Snapshot after;
  const char* reason;
};

class NoEffect : public ::testing::TestWithParam<NoEffectCase> {};

TEST_P(NoEffect, SaysWhy) {
  const NoEffectCase& c = GetParam();
  const auto result = measure_effect(c.moves, c.before, c.after, PolicyConfig{});
  ASSERT_TRUE(std::holds_alternative<std::string>(result));
  EXPECT_EQ(std::get<std::string>(result), c.reason);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, NoEffect,
    ::testing::Values(
        NoEffectCase{"LessThanMigrateThresholdMoved", moves({1}, kGiB, kGiB / 2),
                     latencies(150, 100), latencies(120, 110),
                     "the job moved 512 MiB of 1 GiB, less than migrate_threshold 0.7 of its plan"},
        NoEffectCase{"NothingMoved", moves({1}, kGiB, 0), latencies(150, 100), latencies(120, 110),
                     "the job moved nothing"},
        NoEffectCase{"NoDestination", moves({}), latencies(150, 100), latencies(120, 110),
                     "the round planned no migration"},
        NoEffectCase{"AfterLacksTheSource", moves(), latencies(150, 100),
                     latencies(std::nullopt, 110),
                     "the snapshot after the round has no read latency for node 0"},
        NoEffectCase{"BeforeLacksADestination", moves({1, 2}), latencies(150, 100, std::nullopt),
                     latencies(120, 110),
                     "the snapshot of the round has no read latency for node 2"},
        NoEffectCase{"AZeroIsNoReading", moves(), latencies(150, 100), latencies(120, 0),
                     "the snapshot after the round has no read latency for node 1"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace nb::core::testing
