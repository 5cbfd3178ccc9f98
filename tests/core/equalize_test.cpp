// The equalize strategy: sized, partial moves of batch memory that even out the nodes, and no
// move predicted to slow service memory.

#include "core/equalize.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/backoff.hpp"
#include "tests/core/snapshot_builder.hpp"

namespace nb::core::testing {
namespace {

using ::testing::HasSubstr;

PolicyConfig equalize_config() {
  PolicyConfig config;
  config.strategy = Strategy::equalize;
  return config;
}

// swap.toml's host ten minutes in: the stream on node 0 carries far more than node 0 can serve.
SnapshotBuilder swap_host() {
  SnapshotBuilder builder;
  builder.node(0, 400, 128).node(1, 92, 0.5).baseline(0, 90).baseline(1, 90);
  builder.pool("share", {0, 1}).pool("reclaim", {0, 1});
  builder.container("web.service", "share", {{0, 24 * kGiB}});
  builder.container("stream.scope", "reclaim", {{0, 12 * kGiB}});
  return builder;
}

const NodePrediction& predicted(const Decision& decision, NodeId node) {
  for (const NodePrediction& prediction : decision.prediction->nodes) {
    if (prediction.node == node) {
      return prediction;
    }
  }
  throw std::logic_error("no prediction for the node");
}

TEST(Equalize, MovesPartOfTheBatchContainerToEvenTheNodesOut) {
  const Decision decision = decide_at_now(swap_host().build(), equalize_config(), {}, true);
  ASSERT_EQ(decision.status, DecisionStatus::ready) << decision.reason;
  EXPECT_EQ(decision.strategy, Strategy::equalize);
  EXPECT_EQ(decision.source_node, 0);
  EXPECT_EQ(decision.dest_nodes, std::vector<NodeId>{1});
  ASSERT_EQ(decision.migrate.size(), 1U);
  EXPECT_EQ(decision.migrate[0].id, "stream.scope");
  EXPECT_GT(decision.migrate[0].bytes_on_source, kGiB);
  EXPECT_LT(decision.migrate[0].bytes_on_source, 12 * kGiB);  // a part, not the whole
  EXPECT_EQ(decision.total_bytes, decision.migrate[0].bytes_on_source);

  ASSERT_TRUE(decision.prediction.has_value());
  const NodePrediction& source = predicted(decision, 0);
  const NodePrediction& destination = predicted(decision, 1);
  EXPECT_LT(source.latency_after_ns, source.latency_before_ns);
  EXPECT_GT(destination.latency_after_ns, destination.latency_before_ns);
  EXPECT_NEAR(source.latency_after_ns, destination.latency_after_ns,
              0.05 * destination.latency_after_ns);
  ASSERT_TRUE(decision.prediction->service_latency_after_ns.has_value());
  EXPECT_LT(*decision.prediction->service_latency_after_ns,
            *decision.prediction->service_latency_before_ns);
  EXPECT_THAT(decision.explanation, ::testing::Contains(HasSubstr("of stream.scope off node 0: "
                                                                  "node 0 400 -> ")));
}

TEST(Equalize, MovesNothingOntoAServiceWhenTheHotNodeHoldsNone) {
  // Node 0 holds only batch memory; node 1 holds a service. Relieving node 0 would only slow it.
  SnapshotBuilder builder;
  builder.node(0, 300, 90).node(1, 110, 30).baseline(0, 90).baseline(1, 90);
  builder.pool("share", {0, 1}).pool("reclaim", {0, 1});
  builder.container("batch.scope", "reclaim", {{0, 20 * kGiB}});
  builder.container("web.service", "share", {{1, 24 * kGiB}});
  const Decision decision = decide_at_now(builder.build(), equalize_config());
  EXPECT_EQ(decision.status, DecisionStatus::idle);
  EXPECT_THAT(decision.reason, HasSubstr("predicted to slow service memory"));
  EXPECT_TRUE(decision.migrate.empty());
}

TEST(Equalize, NodesWithinTheDeadbandAreEven) {
  SnapshotBuilder builder = swap_host();
  Snapshot snapshot = builder.build();
  snapshot.nodes[0].read_latency_ns = 100;
  snapshot.nodes[1].read_latency_ns = 96;  // 4 % apart
  Decision decision = decide_at_now(snapshot, equalize_config());
  EXPECT_EQ(decision.status, DecisionStatus::idle);
  EXPECT_THAT(decision.reason, HasSubstr("the nodes are even"));

  PolicyConfig narrow = equalize_config();
  narrow.equalize_deadband = 0.02;
  narrow.min_improvement = 0.01;
  decision = decide_at_now(snapshot, narrow);
  EXPECT_EQ(decision.status, DecisionStatus::ready) << decision.reason;
}

TEST(Equalize, AMoveTheLoopWouldJudgeNotImprovedIsNotMade) {
  // 11 % apart: beyond the deadband, but evening them out lowers node 0 by about 5 %, less than
  // min_improvement (10 %), the drop by which a round's effect counts as improved.
  Snapshot snapshot = swap_host().build();
  snapshot.nodes[0].read_latency_ns = 100;
  snapshot.nodes[1].read_latency_ns = 90;
  const Decision decision = decide_at_now(snapshot, equalize_config());
  EXPECT_EQ(decision.status, DecisionStatus::idle);
  EXPECT_THAT(decision.reason, HasSubstr("less than min_improvement 0.1"));
  EXPECT_TRUE(decision.migrate.empty());
}

TEST(Equalize, AHotNodeWithNothingToMoveIsNamed) {
  SnapshotBuilder builder;
  builder.node(0, 300, 90).node(1, 100, 10).pool("share", {0, 1}).pool("reclaim", {0, 1});
  builder.container("other.scope", "elsewhere", {{0, 24 * kGiB}});  // in no pool the policy moves
  const Decision decision = decide_at_now(builder.build(), equalize_config());
  EXPECT_EQ(decision.status, DecisionStatus::idle);
  EXPECT_THAT(decision.reason, HasSubstr("node 0 is the hottest"));
  EXPECT_THAT(decision.reason, HasSubstr("holds no memory of the pools to move"));
}

TEST(Equalize, WithoutBatchMemoryServiceMemoryMovesOnlyWhereRemoteIsFaster) {
  // Node 0 holds services only. At 350 ns against node 1's 95 ns, a byte on node 1 is faster
  // even after the remote penalty (node 1's idle 90 ns x (21/10 - 1) = 99 ns): a part moves.
  SnapshotBuilder builder;
  builder.node(0, 350, 95).node(1, 95, 5).baseline(0, 90).baseline(1, 90);
  builder.pool("share", {0, 1}).pool("reclaim", {0, 1});
  builder.container("web.service", "share", {{0, 8 * kGiB}});
  builder.container("db.service", "share", {{0, 8 * kGiB}});
  Decision decision = decide_at_now(builder.build(), equalize_config(), {}, true);
  ASSERT_EQ(decision.status, DecisionStatus::ready) << decision.reason;
  EXPECT_GT(decision.total_bytes, 0);
  EXPECT_LT(decision.total_bytes, 16 * kGiB);
  EXPECT_LT(*decision.prediction->service_latency_after_ns,
            *decision.prediction->service_latency_before_ns);

  // At 150 ns the gap (55 ns) is less than the penalty: the services stay home.
  Snapshot milder = builder.build();
  milder.nodes[0].read_latency_ns = 150;
  decision = decide_at_now(milder, equalize_config(), {}, true);
  EXPECT_EQ(decision.status, DecisionStatus::idle);
  EXPECT_THAT(decision.reason, HasSubstr("remote penalty"));
  EXPECT_TRUE(decision.migrate.empty());
}

TEST(Equalize, TheRoundCapBoundsTheMove) {
  PolicyConfig config = equalize_config();
  config.reclaim_round_max_bytes = kGiB;
  const Decision decision = decide_at_now(swap_host().build(), config);
  ASSERT_EQ(decision.status, DecisionStatus::ready) << decision.reason;
  EXPECT_LE(decision.total_bytes, kGiB);
  EXPECT_GT(decision.total_bytes, kGiB / 2);
}

TEST(Equalize, SplitsTheMoveByEachDestinationsHeadroom) {
  SnapshotBuilder builder;
  builder.node(0, 400, 128).node(1, 92, 1).node(2, 110, 20);
  builder.baseline(0, 90).baseline(1, 90).baseline(2, 90);
  builder.pool("share", {0, 1, 2}).pool("reclaim", {0, 1, 2});
  builder.container("web.service", "share", {{0, 24 * kGiB}});
  builder.container("stream.scope", "reclaim", {{0, 12 * kGiB}});
  const Decision decision = decide_at_now(builder.build(), equalize_config());
  ASSERT_EQ(decision.status, DecisionStatus::ready) << decision.reason;
  Bytes to_1 = 0;
  Bytes to_2 = 0;
  for (const ContainerMove& move : decision.migrate) {
    ASSERT_EQ(move.dest_nodes.size(), 1U);
    (move.dest_nodes[0] == 1 ? to_1 : to_2) += move.bytes_on_source;
  }
  EXPECT_GT(to_1, to_2);
  EXPECT_GT(to_2, 0);
}

TEST(Equalize, ARecentMoveTheOtherWayBansTheDestination) {
  History history{Round{kNow - 5min, 1, {0}, true, false, {}}};
  PolicyConfig config = equalize_config();
  config.backoff_after = 0;
  const Decision decision = decide_at_now(swap_host().build(), config, history, true);
  EXPECT_EQ(decision.status, DecisionStatus::idle);
  EXPECT_THAT(decision.explanation, ::testing::Contains(HasSubstr("dropped (ping-pong)")));
}

TEST(Equalize, BytesARecentRoundBroughtHereDoNotGoBack) {
  // 20 minutes ago a round moved 10 GiB of stream.scope from node 1 to node 0: within the
  // 30 min window those bytes stay; the rest of stream.scope and another container may go.
  Round earlier{kNow - 20min, 1, {0}, true, false, RoundEffect{true, 150, 100, 50, 5}};
  earlier.moved = {{"stream.scope", 0, 10 * kGiB}};
  PolicyConfig config = equalize_config();
  config.ping_pong_window = 30min;
  Snapshot snapshot = swap_host().build();
  const Decision decision = decide_at_now(snapshot, config, {earlier}, true);
  ASSERT_EQ(decision.status, DecisionStatus::ready) << decision.reason;
  ASSERT_EQ(decision.migrate.size(), 1U);
  EXPECT_EQ(decision.migrate[0].id, "stream.scope");
  EXPECT_LE(decision.migrate[0].bytes_on_source, 2 * kGiB);  // 12 GiB on node 0, 10 of them banned
  EXPECT_THAT(decision.explanation,
              ::testing::Contains(HasSubstr("stream.scope: 10 GiB of it came from node 1")));

  // Outside the window the whole container may move again.
  config.ping_pong_window = 10min;
  const Decision later = decide_at_now(snapshot, config, {earlier});
  ASSERT_EQ(later.status, DecisionStatus::ready) << later.reason;
  EXPECT_GT(later.migrate[0].bytes_on_source, 2 * kGiB);
}

TEST(Equalize, TheNewestMeasuredEffectCorrectsTheTrafficPerGiB) {
  // Without history a GiB of node 0's batch memory is taken to carry 128 / 12 GB/s, the most it
  // can. A measured round off node 0 says its moved memory carried 5 GB/s per GiB: the next move
  // takes about twice the bytes for the same traffic.
  const Decision first = decide_at_now(swap_host().build(), equalize_config());
  ASSERT_EQ(first.status, DecisionStatus::ready) << first.reason;
  EXPECT_NEAR(first.prediction->traffic_per_gib, 128.0 / 12, 1e-9);

  Round measured{kNow - 20min, 0, {1}, true, false, RoundEffect{true, 300, 200, 200, 50, 5.0}};
  const Decision corrected =
      decide_at_now(swap_host().build(), equalize_config(), {measured}, true);
  ASSERT_EQ(corrected.status, DecisionStatus::ready) << corrected.reason;
  EXPECT_NEAR(corrected.prediction->traffic_per_gib, 5.0, 1e-9);
  EXPECT_GT(corrected.total_bytes, 3 * first.total_bytes / 2);
  EXPECT_THAT(corrected.explanation, ::testing::Contains(HasSubstr("lost 5 GB/s per GiB")));

  // Below what all of node 0's memory would carry (128 / 36), the measurement is clamped there.
  measured.effect->traffic_per_gib = 1.0;
  const Decision clamped = decide_at_now(swap_host().build(), equalize_config(), {measured});
  EXPECT_NEAR(clamped.prediction->traffic_per_gib, 128.0 / 36, 1e-9);
}

TEST(Equalize, ASourceWithoutABaselineIdlesAsFastAsTheFastestNode) {
  // No baselines and one reading each: node 0's own readings show no idle latency, so its curve
  // starts from node 1's 95 ns, and the move is sized from it.
  SnapshotBuilder builder;
  builder.node(0, 300, 90).node(1, 95, 5).pool("share", {0, 1}).pool("reclaim", {0, 1});
  builder.container("web.service", "share", {{0, 24 * kGiB}});
  builder.container("stream.scope", "reclaim", {{0, 12 * kGiB}});
  const Decision decision = decide_at_now(builder.build(), equalize_config());
  ASSERT_EQ(decision.status, DecisionStatus::ready) << decision.reason;
  EXPECT_GT(decision.total_bytes, kGiB);
  EXPECT_LT(predicted(decision, 0).latency_after_ns, 200);
}

// Readings no host gives, but a snapshot file or a broken provider may: every decision stays
// within the round's cap, with no move of a negative, infinite or NaN size.
TEST(Equalize, ExtremeReadingsGiveABoundedDecision) {
  struct Case {
    const char* name;
    double hot_latency, hot_bandwidth, cool_latency, cool_bandwidth;
    std::vector<LoadPoint> points;
  };
  const std::vector<Case> cases = {
      {"source serves nothing", 400, 0, 92, 10, {}},
      {"destination reads zero", 400, 128, 0, 10, {}},
      {"huge bandwidth", 400, 1e300, 92, 1e-300, {}},
      {"huge latency", 1e300, 128, 92, 1, {}},
      {"extreme points", 400, 128, 92, 1, {{1e300, 1e300}, {0, 0}, {1e-300, 400}}},
  };
  for (const Case& c : cases) {
    Snapshot snapshot = swap_host().build();
    snapshot.nodes[0].read_latency_ns = c.hot_latency;
    snapshot.nodes[0].bandwidth_gbps = c.hot_bandwidth;
    snapshot.nodes[0].load_points = c.points;
    snapshot.nodes[1].read_latency_ns = c.cool_latency;
    snapshot.nodes[1].bandwidth_gbps = c.cool_bandwidth;
    const Decision decision = decide_at_now(snapshot, equalize_config(), {}, true);
    EXPECT_NE(decision.status, DecisionStatus::failed) << c.name << ": " << decision.reason;
    EXPECT_GE(decision.total_bytes, 0) << c.name;
    EXPECT_LE(decision.total_bytes, PolicyConfig{}.round_max_bytes) << c.name;
    for (const ContainerMove& move : decision.migrate) {
      EXPECT_GT(move.bytes_on_source, 0) << c.name;
    }
  }
}

TEST(Equalize, WaitsOutTheCooldown) {
  History history{Round{kNow - 10s, 0, {1}, true, false, {}}};
  const Decision decision = decide_at_now(swap_host().build(), equalize_config(), history);
  EXPECT_EQ(decision.status, DecisionStatus::cooldown);
}

TEST(Equalize, KatalystStaysTheDefaultAndPredictsNothing) {
  const Decision decision = decide_at_now(swap_host().build());
  EXPECT_EQ(decision.strategy, Strategy::katalyst);
  EXPECT_FALSE(decision.prediction.has_value());
}

TEST(Equalize, LearnsTheSourceCurveFromItsReadings) {
  Snapshot snapshot = swap_host().build();
  snapshot.nodes[0].load_points = {{13, 92}, {60, 115}, {128, 400}};
  const Decision decision = decide_at_now(snapshot, equalize_config());
  ASSERT_EQ(decision.status, DecisionStatus::ready) << decision.reason;
  EXPECT_TRUE(predicted(decision, 0).learned_curve);
  EXPECT_FALSE(predicted(decision, 1).learned_curve);  // never loaded: borrows node 0's shape
}

TEST(BackoffInFlight, RoundsNotMeasuredYetCountTowardsBackoffAfter) {
  History history;
  for (int i = 0; i < 3; ++i) {
    Round round{kNow - std::chrono::minutes(5 + i), 0, {1}, true, false, {}};
    round.effect_pending = true;
    history.push_back(round);
  }
  std::vector<std::string> lines;
  Notes notes(lines, false);
  const auto reason = hold_back(history, 0, kNow, PolicyConfig{}, notes);
  ASSERT_TRUE(reason.has_value());
  EXPECT_THAT(*reason, HasSubstr("3 round(s) off node 0 not measured yet"));

  history.pop_back();  // two in flight, fewer than backoff_after
  EXPECT_FALSE(hold_back(history, 0, kNow, PolicyConfig{}, notes).has_value());
  history.push_back(Round{kNow - 20min, 0, {1}, true, false, RoundEffect{false, 150, 149, 50, 49}});
  EXPECT_TRUE(hold_back(history, 0, kNow, PolicyConfig{}, notes).has_value());  // 2 + 1 failure
}

}  // namespace
}  // namespace nb::core::testing
