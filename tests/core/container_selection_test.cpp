#include <gtest/gtest.h>

#include "tests/core/snapshot_builder.hpp"

namespace nb::core::testing {
namespace {

// Small, distinct numbers per kind and cap, so each bound is visible in the tables below.
PolicyConfig small_caps() {
  PolicyConfig config;
  config.container_min_bytes = 100;
  config.container_max_bytes = 1000;
  config.reclaim_container_min_bytes = 200;
  config.reclaim_container_max_bytes = 2000;
  config.round_max_bytes = 5000;
  config.reclaim_round_max_bytes = 6000;
  config.reclaim_round_enough_bytes = 6000;
  return config;
}

struct BoundCase {
  const char* name;
  const char* pool;
  Bytes bytes;
  bool taken;
};

// Without it gtest prints the struct's bytes, padding included (valgrind: uninitialised).
void PrintTo(const BoundCase& c, std::ostream* os) {
  *os << c.name;
}

class ContainerBounds : public ::testing::TestWithParam<BoundCase> {};

TEST_P(ContainerBounds, AnonOnSourceStrictlyBetweenTheKindsMinAndMax) {
  const BoundCase& c = GetParam();
  const Decision decision = decide_at_now(
      two_node_host().container("c", c.pool, {{0, c.bytes}, {1, 99999}}).build(), small_caps());
  EXPECT_EQ(decision.migrate.size(), c.taken ? 1u : 0u);
  if (c.taken) {
    EXPECT_EQ(decision.migrate[0].bytes_on_source, c.bytes);
    EXPECT_EQ(decision.total_bytes, c.bytes);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ContainerBounds,
    ::testing::Values(BoundCase{"AtMinIsSkipped", "share", 100, false},
                      BoundCase{"AboveMinIsTaken", "share", 101, true},
                      BoundCase{"BelowMaxIsTaken", "share", 999, true},
                      BoundCase{"AtMaxIsSkipped", "share", 1000, false},
                      BoundCase{"ReclaimAtMinIsSkipped", "reclaim", 200, false},
                      BoundCase{"ReclaimAboveMinIsTaken", "reclaim", 201, true},
                      BoundCase{"ReclaimBelowMaxIsTaken", "reclaim", 1999, true},
                      BoundCase{"ReclaimAtMaxIsSkipped", "reclaim", 2000, false},
                      BoundCase{"ReclaimUsesItsOwnMax", "reclaim", 1500, true},
                      BoundCase{"OthersUseTheirOwnMax", "share", 1500, false},
                      BoundCase{"NothingOnSource", "share", 0, false}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ContainerSelection, ReclaimFirstThenOthersEachAscending) {
  const Decision decision = decide_at_now(two_node_host()
                                              .container("share-big", "share", {{0, 900}})
                                              .container("reclaim-big", "reclaim", {{0, 800}})
                                              .container("share-small", "share", {{0, 300}})
                                              .container("reclaim-small", "reclaim", {{0, 400}})
                                              .container("share-tie-b", "share", {{0, 500}})
                                              .container("share-tie-a", "share", {{0, 500}})
                                              .build(),
                                          small_caps());
  EXPECT_EQ(ids_of(decision.migrate),
            (std::vector<std::string>{"reclaim-small", "reclaim-big", "share-small", "share-tie-a",
                                      "share-tie-b", "share-big"}));
  EXPECT_EQ(decision.total_bytes, 400 + 800 + 300 + 500 + 500 + 900);
}

struct CapCase {
  const char* name;
  Bytes reclaim_round_max;
  Bytes reclaim_round_enough;
  Bytes round_max;
  std::vector<std::string> taken;
};

class RoundCaps : public ::testing::TestWithParam<CapCase> {};

// Reclaim containers of 300, 500 and 700 bytes; share containers of 150 and 250.
TEST_P(RoundCaps, RunningTotalStaysWithinEachCap) {
  const CapCase& c = GetParam();
  PolicyConfig config = small_caps();
  config.reclaim_round_max_bytes = c.reclaim_round_max;
  config.reclaim_round_enough_bytes = c.reclaim_round_enough;
  config.round_max_bytes = c.round_max;
  const Decision decision = decide_at_now(two_node_host()
                                              .container("r300", "reclaim", {{0, 300}})
                                              .container("r500", "reclaim", {{0, 500}})
                                              .container("r700", "reclaim", {{0, 700}})
                                              .container("s150", "share", {{0, 150}})
                                              .container("s250", "share", {{0, 250}})
                                              .build(),
                                          config);
  EXPECT_EQ(ids_of(decision.migrate), c.taken);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RoundCaps,
    ::testing::Values(
        CapCase{"EverythingFits", 6000, 6000, 6000, {"r300", "r500", "r700", "s150", "s250"}},
        CapCase{"ReclaimCapReachedExactly", 800, 6000, 6000, {"r300", "r500", "s150", "s250"}},
        CapCase{"ReclaimCapOneShort", 799, 6000, 6000, {"r300", "s150", "s250"}},
        CapCase{"EnoughReclaimEndsTheRound", 800, 800, 6000, {"r300", "r500"}},
        CapCase{"JustShortOfEnoughTakesOthers", 800, 801, 6000, {"r300", "r500", "s150", "s250"}},
        CapCase{"RoundCapCountsReclaimBytes", 800, 6000, 950, {"r300", "r500", "s150"}},
        CapCase{"RoundCapReachedExactly", 800, 6000, 1200, {"r300", "r500", "s150", "s250"}},
        CapCase{"RoundCapOneShort", 800, 6000, 1199, {"r300", "r500", "s150"}},
        CapCase{
            "RoundCapBelowReclaimTotalTakesNoOthers", 6000, 6000, 1000, {"r300", "r500", "r700"}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ContainerSelection, PoolsThatMissTheDestinationsAreSkipped) {
  // Destinations are nodes 1 and 2; "pinned" lives on nodes 0 and 3 only.
  const Snapshot snapshot = SnapshotBuilder()
                                .node(0, 100, 30)
                                .node(1, 40, 10)
                                .node(2, 45, 10)
                                .node(3, 100, 10)
                                .pool("share", {0, 2})
                                .pool("pinned", {0, 3})
                                .pool("reclaim", {0, 1, 2, 3})
                                .container("web", "share", {{0, kGiB}})
                                .container("db", "pinned", {{0, kGiB}})
                                .container("batch", "reclaim", {{0, kGiB}})
                                .build();
  PolicyConfig config;
  config.supported_pools = {"share", "pinned"};
  const Decision decision = decide_at_now(snapshot, config);
  EXPECT_EQ(decision.dest_nodes, (std::vector<NodeId>{1, 2}));
  ASSERT_EQ(ids_of(decision.migrate), (std::vector<std::string>{"batch", "web"}));
  EXPECT_EQ(decision.migrate[0].dest_nodes, (std::vector<NodeId>{1, 2}));
  EXPECT_EQ(decision.migrate[1].dest_nodes, std::vector<NodeId>{2});
}

TEST(ContainerSelection, OnlyReclaimAndSupportedPoolsMove) {
  const Decision decision =
      decide_at_now(two_node_host()
                        .pool("dedicated", {0, 1})
                        .container("web", "share", {{0, kGiB}})
                        .container("latency-critical", "dedicated", {{0, kGiB}})
                        .build());
  EXPECT_EQ(ids_of(decision.migrate), std::vector<std::string>{"web"});
}

TEST(ContainerSelection, ContainerOfAnUndeclaredPoolIsIgnoredAndExplained) {
  const Decision decision = decide_at_now(two_node_host()
                                              .container("web", "share", {{0, kGiB}})
                                              .container("stray", "mystery", {{0, kGiB}})
                                              .build(),
                                          PolicyConfig{}, History{}, true);
  EXPECT_EQ(ids_of(decision.migrate), std::vector<std::string>{"web"});
  EXPECT_NE(std::find(decision.explanation.begin(), decision.explanation.end(),
                      "container stray: ignored, its pool mystery is not declared"),
            decision.explanation.end());
}

TEST(ContainerSelection, UndeclaredSupportedPoolMovesNothing) {
  PolicyConfig config;
  config.supported_pools = {"share", "batch"};
  const Decision decision =
      decide_at_now(two_node_host().container("job", "batch", {{0, kGiB}}).build(), config);
  EXPECT_TRUE(decision.migrate.empty());
  EXPECT_EQ(decision.status, DecisionStatus::failed);
}

TEST(ContainerSelection, PerContainerLinesOnlyWhenAsked) {
  const Snapshot snapshot = two_node_host().container("web", "share", {{0, kGiB}}).build();
  auto container_lines = [](const Decision& decision) {
    return std::count_if(decision.explanation.begin(), decision.explanation.end(),
                         [](const std::string& line) { return line.starts_with("container web"); });
  };
  EXPECT_EQ(container_lines(decide_at_now(snapshot)), 0);
  EXPECT_EQ(container_lines(decide_at_now(snapshot, PolicyConfig{}, History{}, true)), 1);
}

struct EvictionCase {
  const char* name;
  std::vector<Container> containers;
  std::optional<std::string> evicted;
};

class Eviction : public ::testing::TestWithParam<EvictionCase> {};

TEST_P(Eviction, ReclaimContainerWithMostAnonOnSource) {
  const EvictionCase& c = GetParam();
  SnapshotBuilder builder = two_node_host();
  for (const Container& container : c.containers) {
    builder.container(container.id, container.pool, container.anon_bytes);
  }
  const Decision decision = decide_at_now(builder.build());
  if (c.evicted) {
    ASSERT_EQ(decision.evict.size(), 1u);
    EXPECT_EQ(decision.evict[0].id, *c.evicted);
  } else {
    EXPECT_TRUE(decision.evict.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Eviction,
    ::testing::Values(
        EvictionCase{"MostOnSourceWins",
                     {{"small", "reclaim", {{0, kGiB}}},
                      {"big", "reclaim", {{0, 3 * kGiB}}},
                      {"elsewhere", "reclaim", {{1, 9 * kGiB}}}},
                     "big"},
        EvictionCase{"OnlyTheReclaimPool", {{"web", "share", {{0, 5 * kGiB}}}}, std::nullopt},
        EvictionCase{"TieGoesToLowestId",
                     {{"b", "reclaim", {{0, kGiB}}}, {"a", "reclaim", {{0, kGiB}}}},
                     "a"},
        // The seed evicted a container even when it had nothing on the hot node.
        EvictionCase{"NothingOnSourceMeansNoEviction",
                     {{"elsewhere", "reclaim", {{1, kGiB}}}},
                     std::nullopt},
        // Eviction has no size bounds: a container too big to migrate can still be evicted.
        EvictionCase{
            "TooBigToMigrateStillEvicted", {{"huge", "reclaim", {{0, 20 * kGiB}}}}, "huge"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Eviction, PressureWithNothingToMoveOrEvictFails) {
  const Decision decision =
      decide_at_now(two_node_host().container("tiny", "share", {{0, kMiB}}).build());
  EXPECT_EQ(decision.status, DecisionStatus::failed);
  EXPECT_EQ(decision.reason,
            "pressure but no container can be migrated or evicted: tiny (1 MiB on node 0) is not "
            "above container_min_bytes 128 MiB");
  EXPECT_EQ(decision.source_node, 0);
  EXPECT_EQ(decision.dest_nodes, std::vector<NodeId>{1});
}

// The host: the only batch container is larger than reclaim_container_max_bytes, so the
// round is ready for its eviction alone, and its reason says why nothing migrates.
TEST(Eviction, ReadyForEvictionAloneSaysWhichContainersCouldNotMigrateAndWhy) {
  const Decision decision =
      decide_at_now(two_node_host().container("batch/job1", "reclaim", {{0, 24 * kGiB}}).build());
  EXPECT_EQ(decision.status, DecisionStatus::ready);
  EXPECT_TRUE(decision.migrate.empty());
  ASSERT_EQ(decision.evict.size(), 1u);
  EXPECT_EQ(decision.reason,
            "no container migrates: batch/job1 (24 GiB on node 0) is not below "
            "reclaim_container_max_bytes 15 GiB; eviction only");
}

TEST(Eviction, AContainerOverTheRoundCapIsNamedWithTheCap) {
  PolicyConfig config;
  config.round_max_bytes = 2 * kGiB;
  const Decision decision =
      decide_at_now(two_node_host().container("web", "share", {{0, 3 * kGiB}}).build(), config);
  EXPECT_EQ(decision.status, DecisionStatus::failed);
  EXPECT_EQ(decision.reason,
            "pressure but no container can be migrated or evicted: web (3 GiB) is over "
            "round_max_bytes 2 GiB");
}

TEST(Eviction, ManyRefusedContainersAreCountedNotAllNamed) {
  SnapshotBuilder host = two_node_host();
  for (int i = 0; i < 5; ++i) {
    host.container("tiny" + std::to_string(i), "share", {{0, kMiB}});
  }
  const Decision decision = decide_at_now(host.build());
  EXPECT_EQ(decision.reason,
            "pressure but no container can be migrated or evicted: tiny0 (1 MiB on node 0) is not "
            "above container_min_bytes 128 MiB; tiny1 (1 MiB on node 0) is not above "
            "container_min_bytes 128 MiB; tiny2 (1 MiB on node 0) is not above "
            "container_min_bytes 128 MiB, and 2 more");
}

}  // namespace
}  // namespace nb::core::testing
