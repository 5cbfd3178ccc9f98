#include "daemon/metrics/probe_provider.hpp"

#include <gtest/gtest.h>
#include <numa.h>

#include <thread>

#include "daemon/metrics/chase_buffer.hpp"
#include "tests/daemon/metrics/topology.hpp"

namespace nb::metrics {
namespace {

using namespace std::chrono_literals;

TEST(ProbingNode, ANodeWithCpusProbesItself) {
  std::vector<core::Node> topology = {testing::node(0, "0-3", {{0, 10}, {1, 21}}),
                                      testing::node(1, "4-7", {{0, 21}, {1, 10}})};
  EXPECT_EQ(probing_node(0, topology), 0);
  EXPECT_EQ(probing_node(1, topology), 1);
}

TEST(ProbingNode, AMemoryOnlyNodeIsProbedFromTheNearestNodeWithCpus) {
  // Nodes 0, 1, 2, 4 (a gap); 4 is CPU-less memory nearer to node 2 than to node 0 or 1.
  std::vector<core::Node> topology = {testing::node(0, "0-1", {{0, 10}, {1, 20}, {2, 20}, {4, 30}}),
                                      testing::node(1, "2-3", {{0, 20}, {1, 10}, {2, 20}, {4, 30}}),
                                      testing::node(2, "4-5", {{0, 20}, {1, 20}, {2, 10}, {4, 14}}),
                                      testing::node(4, "", {{0, 30}, {1, 30}, {2, 14}, {4, 10}})};
  EXPECT_EQ(probing_node(4, topology), 2);
}

TEST(ProbingNode, TiesGoToTheLowestIdAndUnknownNodesToNone) {
  std::vector<core::Node> topology = {testing::node(1, "0", {{1, 10}, {3, 20}}),
                                      testing::node(0, "1", {{0, 10}, {3, 20}}),
                                      testing::node(3, "", {{0, 20}, {1, 20}, {3, 10}})};
  EXPECT_EQ(probing_node(3, topology), 0);
  EXPECT_EQ(probing_node(9, topology), std::nullopt);
  std::vector<core::Node> memory_only = {testing::node(0, "", {{0, 10}})};
  EXPECT_EQ(probing_node(0, memory_only), std::nullopt);
}

TEST(ChaseBuffer, ChasesOnThisHostsFirstNodeAtAPlausibleLatency) {
  if (numa_available() < 0) {
    GTEST_SKIP() << "no NUMA support in this kernel";
  }
  auto buffer = ChaseBuffer::create(0, 8 * kMiB, 42);
  ASSERT_TRUE(buffer.ok()) << buffer.error().message();
  EXPECT_EQ(buffer->lines(), 8 * kMiB / 64);
  double ns = buffer->chase(512);
  EXPECT_GT(ns, 0.2);  // not an optimised-away loop
  EXPECT_LT(ns, 10'000.0);
}

TEST(ChaseBuffer, RefusesANodeThatDoesNotExist) {
  if (numa_available() < 0) {
    GTEST_SKIP() << "no NUMA support in this kernel";
  }
  auto buffer = ChaseBuffer::create(numa_max_node() + 1, 4 * kMiB, 1);
  ASSERT_FALSE(buffer.ok());
  EXPECT_NE(buffer.error().message().find("node"), std::string::npos);
}

TEST(ChaseBuffer, RefusesABufferSmallerThanAHugePage) {
  auto buffer = ChaseBuffer::create(0, 64 * kKiB, 1);
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.error().code, EINVAL);
}

config::ProbeProviderConfig small_probe() {
  config::ProbeProviderConfig config;
  config.buffer_bytes = 16 * kMiB;
  config.loads_per_sample = 512;
  config.sample_interval = 10ms;
  config.cpu_budget = 0.005;
  return config;
}

TEST(ProbeProvider, MeasuresEveryNodeOfThisHost) {
  auto topology = testing::host_topology();
  if (topology.empty() || numa_available() < 0) {
    GTEST_SKIP() << "no NUMA topology in sysfs";
  }
  ProbeProvider probe(topology, small_probe());

  auto values = probe.read(TimePoint{});

  ASSERT_TRUE(values.ok()) << values.error().message();
  for (const auto& node : topology) {
    if (node.memory_only() && probing_node(node.id, topology) == std::nullopt) {
      continue;
    }
    ASSERT_TRUE(values->contains(node.id)) << "node " << node.id;
    EXPECT_GT(values->at(node.id), 0.2);
    EXPECT_LT(values->at(node.id), 10'000.0);
  }
  EXPECT_EQ(probe.latency_kind(), LatencyKind::load_to_use);
  auto stats = probe.stats();
  EXPECT_GE(stats.rounds, 1);
  EXPECT_GT(stats.setup_cpu.count(), 0);
  EXPECT_GE(stats.cpu_used, stats.setup_cpu);
}

TEST(ProbeProvider, SetUpCostIsPaidBackBeforeTheNextRound) {
  auto topology = testing::host_topology();
  if (topology.empty() || numa_available() < 0) {
    GTEST_SKIP() << "no NUMA topology in sysfs";
  }
  ProbeProvider probe(topology, small_probe());
  ASSERT_TRUE(probe.read(TimePoint{}).ok());
  auto after_first = probe.stats();
  // Building a 16 MiB buffer costs milliseconds of CPU; at 0.5% of a core per node that buys
  // seconds of pause, far beyond the 10 ms sample interval.
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(probe.stats().rounds, after_first.rounds);
  EXPECT_GT(after_first.setup_cpu, 1ms);
}

TEST(ProbeProvider, NodeThatCannotBeBoundIsUnavailableWithTheReason) {
  if (numa_available() < 0) {
    GTEST_SKIP() << "no NUMA support in this kernel";
  }
  auto topology = testing::host_topology();
  NodeId missing = numa_max_possible_node();
  if (numa_bitmask_isbitset(numa_all_nodes_ptr, static_cast<unsigned>(missing))) {
    GTEST_SKIP() << "every possible node exists here";
  }
  ProbeProvider probe({testing::node(missing, topology.empty() ? "0" : topology.front().cpus)},
                      small_probe());
  auto values = probe.read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().message().find("node " + std::to_string(missing)), std::string::npos)
      << values.error().message();
}

}  // namespace
}  // namespace nb::metrics
