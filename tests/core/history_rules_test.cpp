#include <gtest/gtest.h>

#include "tests/core/snapshot_builder.hpp"

namespace nb::core::testing {
namespace {

Round round_at(Duration age, std::optional<NodeId> source, std::vector<NodeId> dests,
               bool migrated = true, bool evicted = false) {
  return Round{kNow - age, source, std::move(dests), migrated, evicted, {}};
}

// Node 0 is hot; nodes 1 and 2 are both good destinations.
Snapshot three_nodes() {
  return SnapshotBuilder()
      .node(0, 100, 30)
      .node(1, 40, 10)
      .node(2, 45, 10)
      .pool("share", {0, 1, 2})
      .container("app", "share", {{0, kGiB}})
      .build();
}

struct PingPongCase {
  const char* name;
  Round round;
  std::vector<NodeId> dest_nodes;
};

class PingPong : public ::testing::TestWithParam<PingPongCase> {};

TEST_P(PingPong, BansNodesThatRecentlySentMemoryHere) {
  const PingPongCase& c = GetParam();
  const Decision decision = decide_at_now(three_nodes(), PolicyConfig{}, History{c.round});
  EXPECT_EQ(decision.dest_nodes, c.dest_nodes);
}

// Default ping_pong_window: 15 min, inclusive.
INSTANTIATE_TEST_SUITE_P(
    Cases, PingPong,
    ::testing::Values(
        PingPongCase{"RecentMoveFromCandidateToSourceBansIt", round_at(10min, 1, {0}), {2}},
        PingPongCase{"BanHoldsAtWindowEdge", round_at(15min, 1, {0}), {2}},
        PingPongCase{"BanExpiresAfterWindow", round_at(15min + 1s, 1, {0}), {1, 2}},
        PingPongCase{"DestSetOnlyNeedsToIncludeSource", round_at(1min, 2, {1, 0}), {1}},
        PingPongCase{"MoveToOtherNodesIsNoBan", round_at(1min, 1, {2}), {1, 2}},
        PingPongCase{"MoveFromSourceIsNoBan", round_at(1min, 0, {1}), {1, 2}},
        PingPongCase{"EvictOnlyRoundMovedNothing", round_at(1min, 1, {0}, false, true), {1, 2}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(PingPong, BanningEveryDestinationLeavesOnlyEviction) {
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 100, 30)
                                .node(1, 40, 10)
                                .pool("share", {0, 1})
                                .pool("reclaim", {0, 1})
                                .container("app", "share", {{0, kGiB}})
                                .container("batch", "reclaim", {{0, 2 * kGiB}})
                                .build();
  const Decision decision = decide_at_now(snapshot, PolicyConfig{}, {round_at(5min, 1, {0})});
  EXPECT_TRUE(decision.dest_nodes.empty());
  EXPECT_TRUE(decision.migrate.empty());
  ASSERT_EQ(decision.evict.size(), 1u);
  EXPECT_EQ(decision.evict[0].id, "batch");
  EXPECT_EQ(decision.status, DecisionStatus::ready);
}

TEST(PingPong, WindowComesFromTheConfig) {
  PolicyConfig config;
  config.ping_pong_window = 2min;
  EXPECT_EQ(decide_at_now(three_nodes(), config, {round_at(3min, 1, {0})}).dest_nodes,
            (std::vector<NodeId>{1, 2}));
}

struct CooldownCase {
  const char* name;
  History history;
  DecisionStatus status;
};

class Cooldown : public ::testing::TestWithParam<CooldownCase> {};

TEST_P(Cooldown, NoRoundWithinMinIntervalOfTheLastActedRound) {
  const CooldownCase& c = GetParam();
  const Decision decision = decide_at_now(three_nodes(), PolicyConfig{}, c.history);
  EXPECT_EQ(decision.status, c.status) << decision.reason;
  if (c.status == DecisionStatus::cooldown) {
    EXPECT_TRUE(decision.migrate.empty());
    EXPECT_EQ(decision.level, PressureLevel::force);
  }
}

// Default min_interval: 30 s, exclusive.
INSTANTIATE_TEST_SUITE_P(
    Cases, Cooldown,
    ::testing::Values(
        CooldownCase{"NoHistory", {}, DecisionStatus::ready},
        CooldownCase{
            "MigratedRoundInsideInterval", {round_at(10s, 2, {1})}, DecisionStatus::cooldown},
        CooldownCase{"IntervalElapsedExactly", {round_at(30s, 2, {1})}, DecisionStatus::ready},
        // The seed recorded only rounds with migration advice: evict-only rounds ran back to back.
        CooldownCase{
            "EvictOnlyRoundCounts", {round_at(10s, 0, {}, false, true)}, DecisionStatus::cooldown},
        CooldownCase{"RoundThatDidNothingDoesNotCount",
                     {round_at(10s, 0, {1}, false, false)},
                     DecisionStatus::ready},
        CooldownCase{"MostRecentRoundCountsWhateverTheOrder",
                     {round_at(10s, 2, {1}), round_at(1h, 2, {1})},
                     DecisionStatus::cooldown}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Cooldown, ReasonSaysWhenTheLastRoundActed) {
  const Decision decision = decide_at_now(three_nodes(), PolicyConfig{}, {round_at(12s, 2, {1})});
  EXPECT_EQ(decision.reason, "the last round acted 12 s ago, within min_interval 30 s");
}

TEST(Cooldown, IdleHostIsIdleNotCoolingDown) {
  const Decision decision =
      decide_at_now(two_node_host(50).build(), PolicyConfig{}, {round_at(1s, 0, {1})});
  EXPECT_EQ(decision.status, DecisionStatus::idle);
}

}  // namespace
}  // namespace nb::core::testing
