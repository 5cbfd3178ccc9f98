#include "daemon/host/topology.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <numa.h>

#include "tests/daemon/host/host_fixture.hpp"

namespace nb::host {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

constexpr std::string_view kNodeDir = "sys/devices/system/node";

std::string node_file(int node, std::string_view file) {
  return std::string(kNodeDir) + "/node" + std::to_string(node) + "/" + std::string(file);
}

TEST(Topology, ReadsNodesWithAGapInTheIdsAndAMemoryOnlyNode) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);

  auto nodes = read_topology(tree.root());

  ASSERT_TRUE(nodes.ok()) << nodes.error().message();
  ASSERT_EQ(nodes->size(), 4u);
  EXPECT_EQ((*nodes)[0].id, 0);
  EXPECT_EQ((*nodes)[3].id, 4);
  EXPECT_THAT((*nodes)[3].distance,
              ElementsAre(Pair(0, 17), Pair(1, 28), Pair(2, 28), Pair(4, 10)));
  EXPECT_THAT((*nodes)[1].distance,
              ElementsAre(Pair(0, 21), Pair(1, 10), Pair(2, 21), Pair(4, 28)));
  EXPECT_EQ((*nodes)[2].cpus, "8-11");
  EXPECT_FALSE((*nodes)[2].memory_only());
  EXPECT_TRUE((*nodes)[3].memory_only());
  EXPECT_EQ((*nodes)[3].total_bytes, 4 * kGiB);
  EXPECT_EQ((*nodes)[3].free_bytes, 4 * 256 * kMiB);
  EXPECT_EQ((*nodes)[0].total_bytes, 1 * kGiB);
  EXPECT_FALSE((*nodes)[0].read_latency_ns.has_value());
  EXPECT_FALSE((*nodes)[0].bandwidth_gbps.has_value());
}

// Each per-node file, removed or corrupted, fails the read and names the file.
struct BrokenFileCase {
  std::string name;
  std::string file;
  std::string content;  // empty: the file is removed
  int code;
};

class TopologyBrokenFile : public ::testing::TestWithParam<BrokenFileCase> {};

TEST_P(TopologyBrokenFile, FailsNamingTheFile) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  const BrokenFileCase& broken = GetParam();
  if (broken.content.empty()) {
    tree.remove(broken.file);
  } else {
    tree.make_file(broken.file, broken.content);
  }

  auto nodes = read_topology(tree.root());

  ASSERT_FALSE(nodes.ok());
  EXPECT_EQ(nodes.error().code, broken.code);
  EXPECT_THAT(nodes.error().message(), HasSubstr(tree.path(broken.file).string()));
}

INSTANTIATE_TEST_SUITE_P(
    EveryFile, TopologyBrokenFile,
    ::testing::Values(
        BrokenFileCase{"OnlineMissing", std::string(kNodeDir) + "/online", "", ENOENT},
        BrokenFileCase{"OnlineGarbage", std::string(kNodeDir) + "/online", "zero-two\n", 0},
        BrokenFileCase{"OnlineEmpty", std::string(kNodeDir) + "/online", "\n", 0},
        BrokenFileCase{"DistanceMissing", node_file(4, "distance"), "", ENOENT},
        BrokenFileCase{"DistanceGarbage", node_file(4, "distance"), "17 x 28 10\n", 0},
        BrokenFileCase{"DistanceTooShort", node_file(1, "distance"), "21 10 21\n", 0},
        BrokenFileCase{"DistanceTooLong", node_file(1, "distance"), "21 10 21 28 30\n", 0},
        BrokenFileCase{"CpulistMissing", node_file(2, "cpulist"), "", ENOENT},
        BrokenFileCase{"CpulistGarbage", node_file(2, "cpulist"), "8-x\n", 0},
        BrokenFileCase{"MeminfoMissing", node_file(0, "meminfo"), "", ENOENT},
        BrokenFileCase{"MeminfoGarbage", node_file(0, "meminfo"), "Node 0 MemTotal: lots\n", 0},
        BrokenFileCase{"MeminfoWithoutMemFree", node_file(0, "meminfo"),
                       "Node 0 MemTotal:       1024 kB\n", 0}),
    [](const auto& info) { return info.param.name; });

TEST(DistanceRow, MapsEachValueToTheOnlineNodeInOrder) {
  auto row = parse_distance_row("10 20\n", {0, 5}, "distance");
  ASSERT_TRUE(row.ok()) << row.error().message();
  EXPECT_THAT(*row, ElementsAre(Pair(0, 10), Pair(5, 20)));
}

TEST(OneNodeNote, SaysOnlyOfAHostWithOneNodeThatNothingWillMove) {
  EXPECT_EQ(one_node_note({3}),
            "this host has one NUMA node (node 3): there is nowhere to move memory, so "
            "numabalancerd watches and reports but never migrates");
  EXPECT_EQ(one_node_note({0, 1}), std::nullopt);
  EXPECT_EQ(one_node_note({}), std::nullopt) << "an unreadable topology is said elsewhere";
}

TEST(NodeMeminfo, ConvertsKibibytesToBytes) {
  auto memory = parse_node_meminfo(
      "Node 3 MemTotal:       2048 kB\nNode 3 MemFree:         512 kB\nNode 3 MemUsed: 1536 kB\n",
      "meminfo");
  ASSERT_TRUE(memory.ok()) << memory.error().message();
  EXPECT_EQ(memory->total_bytes, 2 * kMiB);
  EXPECT_EQ(memory->free_bytes, 512 * kKiB);
}

// libnuma reads only the live host, so it checks the sysfs reader here.
TEST(TopologyOnThisHost, AgreesWithLibnuma) {
  if (numa_available() < 0) {
    GTEST_SKIP() << "libnuma reports NUMA unavailable on this host";
  }
  auto nodes = read_topology("/");
  ASSERT_TRUE(nodes.ok()) << nodes.error().message();
  ASSERT_FALSE(nodes->empty());
  EXPECT_EQ(nodes->back().id, numa_max_node());
  for (const core::Node& node : *nodes) {
    EXPECT_EQ(node.total_bytes.value_or(-1), numa_node_size64(node.id, nullptr));
    for (const auto& [other, distance] : node.distance) {
      EXPECT_EQ(distance, numa_distance(node.id, other)) << node.id << "→" << other;
    }
  }
}

}  // namespace
}  // namespace nb::host
