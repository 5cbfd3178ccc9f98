#include <gtest/gtest.h>

#include "tests/core/snapshot_builder.hpp"

namespace nb::core::testing {
namespace {

// A one-node host is idle under pressure: nowhere to move memory is its state, not a failure of
// every round (which the daemon would keep, one per interval).
TEST(Topology, SingleNodeHostUnderPressureIsIdleWithNowhereToMove) {
  const Decision decision = decide_at_now(SnapshotBuilder()
                                              .node(0, 100, 30)
                                              .pool("share", {0})
                                              .container("app", "share", {{0, kGiB}})
                                              .build());
  EXPECT_EQ(decision.status, DecisionStatus::idle);
  EXPECT_EQ(decision.reason, "one node: there is nowhere to move memory");
  EXPECT_EQ(decision.level, PressureLevel::force);
  EXPECT_EQ(decision.source_node, std::nullopt);
}

TEST(Topology, SingleNodeHostWithoutPressureIsIdle) {
  const Decision decision = decide_at_now(SnapshotBuilder().node(0, 50, 30).build());
  EXPECT_EQ(decision.status, DecisionStatus::idle);
}

TEST(Topology, NodeIdsWithGaps) {
  const Decision decision = decide_at_now(SnapshotBuilder()
                                              .node(4, 40, 10)
                                              .node(0, 45, 10)
                                              .node(9, 100, 30)
                                              .pool("share", {0, 4, 9})
                                              .container("app", "share", {{9, kGiB}, {4, kGiB}})
                                              .build());
  EXPECT_EQ(decision.status, DecisionStatus::ready);
  EXPECT_EQ(decision.source_node, 9);
  EXPECT_EQ(decision.dest_nodes, (std::vector<NodeId>{4, 0}));
  ASSERT_EQ(decision.migrate.size(), 1u);
  EXPECT_EQ(decision.migrate[0].bytes_on_source, kGiB);
}

// A CPU-less (CXL or HBM-style) node: a destination for the decision, but no pool runs there,
// so no container's memory is sent to it.
TEST(Topology, MemoryOnlyNodeThatNoPoolContains) {
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 100, 30)
                                .node(1, 40, 10)
                                .node(2, 30, 5, "")
                                .pool("share", {0, 1})
                                .container("app", "share", {{0, kGiB}})
                                .build();
  ASSERT_TRUE(snapshot.nodes[2].memory_only());
  const Decision decision = decide_at_now(snapshot);
  EXPECT_EQ(decision.dest_nodes, (std::vector<NodeId>{2, 1}));
  ASSERT_EQ(decision.migrate.size(), 1u);
  EXPECT_EQ(decision.migrate[0].dest_nodes, std::vector<NodeId>{1});
}

TEST(Topology, MemoryOnlyNodeAsOnlyDestinationMovesNothing) {
  const Decision decision = decide_at_now(SnapshotBuilder()
                                              .node(0, 100, 30)
                                              .node(1, 95, 10)
                                              .node(2, 30, 5, "")
                                              .pool("share", {0, 1})
                                              .container("app", "share", {{0, kGiB}})
                                              .build());
  EXPECT_EQ(decision.dest_nodes, std::vector<NodeId>{2});
  EXPECT_TRUE(decision.migrate.empty());
  EXPECT_EQ(decision.status, DecisionStatus::failed);
}

TEST(Topology, SameSnapshotSameDecision) {
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 100, 30)
                                .node(1, 40, 10)
                                .node(2, 40, 10)
                                .pool("share", {0, 1, 2})
                                .pool("reclaim", {0, 1, 2})
                                .container("a", "share", {{0, kGiB}})
                                .container("b", "reclaim", {{0, kGiB}})
                                .container("c", "reclaim", {{0, kGiB}})
                                .build();
  const Decision first = decide_at_now(snapshot, PolicyConfig{}, History{}, true);
  const Decision second = decide_at_now(snapshot, PolicyConfig{}, History{}, true);
  EXPECT_EQ(ids_of(first.migrate), ids_of(second.migrate));
  EXPECT_EQ(first.explanation, second.explanation);
  EXPECT_EQ(ids_of(first.migrate), (std::vector<std::string>{"b", "c", "a"}));
}

}  // namespace
}  // namespace nb::core::testing
